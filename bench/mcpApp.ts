// Benchmark section: the inline thought graph (MCP App). Its size (the one self-contained HTML document embedded in
// the server bundles) and, in the minimal Chromium host of the tests (ext-apps' AppBridge, a real Client over HTTP),
// its first paint: from reading the ui:// resource to the view's initialized handshake (document parsed, bundle run,
// first frame drawn), then from a thought's call to its branch tree on screen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ThinkingEngine } from '../src/engine/engine';
import { launchChromium } from '../test/webview/support/explorerPage';
import { DARK_CONTEXT, McpAppHost } from '../test/webview/support/mcpAppHost';
import { formatMs, percentile, type BenchSection } from './section';

const RUNS = 8;
const SIZE_TARGET_BYTES = 2 * 1024 * 1024;
const FIRST_PAINT_TARGET_MS = 1_000;

export const mcpAppSection: BenchSection = {
  title: 'MCP App (inline thought graph)',
  async run({ root, progress }) {
    const html = readFileSync(join(root, 'dist', 'mcp-app', 'thought-graph.html'));
    const gzipped = gzipSync(html).length;
    const browser = await launchChromium();
    const firstPaint: number[] = [];
    const firstTree: number[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        progress(`load ${run + 1}/${RUNS}`);
        const host = await McpAppHost.open(browser, { engine: new ThinkingEngine({ log: () => {} }) });
        try {
          const loaded = await host.load('sequentialthinking', DARK_CONTEXT);
          firstPaint.push(loaded.initializedMs);
          const started = performance.now();
          await host.call('sequentialthinking', { thought: 'First thought', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true });
          await host.drawn(1);
          firstTree.push(performance.now() - started);
        } finally {
          await host.close();
        }
      }
    } finally {
      await browser.close();
    }
    firstPaint.sort((a, b) => a - b);
    firstTree.sort((a, b) => a - b);
    const p50Paint = percentile(firstPaint, 0.5);
    return {
      lines: [
        `| measure | value |`,
        `|---|---|`,
        `| thought-graph.html | ${(html.length / 1024).toFixed(0)} KiB (${(gzipped / 1024).toFixed(0)} KiB gzipped) |`,
        `| first paint (resource read → view initialized), p50 / max of ${RUNS} | ${formatMs(p50Paint)} / ${formatMs(firstPaint[firstPaint.length - 1])} |`,
        `| first thought: call → branch tree drawn, p50 / max | ${formatMs(percentile(firstTree, 0.5))} / ${formatMs(firstTree[firstTree.length - 1])} |`,
      ],
      checks: [
        {
          name: 'MCP App size',
          pass: html.length <= SIZE_TARGET_BYTES,
          detail: `${html.length} bytes (target <= ${SIZE_TARGET_BYTES})`,
        },
        {
          name: 'MCP App first paint',
          pass: p50Paint <= FIRST_PAINT_TARGET_MS,
          detail: `p50 ${formatMs(p50Paint)} (target <= ${FIRST_PAINT_TARGET_MS} ms)`,
        },
      ],
    };
  },
};
