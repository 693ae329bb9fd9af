// Benchmark figures of the folded diagrams (part of the webview rendering section): the whole branch tree of a 1,000-
// and a 10,000-thought session drawn in the explorer (Chromium) folded to the node budget, beside the same tree drawn
// one node per thought as before folding; and the HTML export of each opened in Chromium with all three diagrams
// drawn. The workload is the benchmark's (every 10th thought a revision, every 25th a branch).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { DEFAULT_NODE_BUDGET } from '../src/diagrams/compression';
import type { SessionSnapshot } from '../src/engine/model';
import { toSessionView } from '../src/extension/explorer/sessionView';
import { exportSession } from '../src/export/index';
import { ExplorerPage } from '../test/webview/support/explorerPage';
import { reactSession } from '../test/webview/support/sessions';
import { formatMs, type BenchCheck } from './section';

const SIZES = [1_000, 10_000] as const;
const TARGET_MS: Record<number, number> = { 1_000: 1_000, 10_000: 2_000 };
/** How long the unfolded drawing may take before the bench gives up on it (it is the "before" figure only). */
const UNFOLDED_TIMEOUT_MS = 150_000;

interface TreeTiming {
  ms: number;
  nodes: number;
}

/**
 * Opens a panel explorer with `nodeBudget`, gives it the session on the stage graph tab, then times the click on the
 * branch tree tab until the latest thought's node is drawn (and the next frame produced); counts the nodes drawn.
 */
export async function timeBranchTree(
  browser: Browser,
  snapshot: SessionSnapshot,
  nodeBudget: number,
  timeoutMs: number,
): Promise<TreeTiming> {
  const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1280, height: 900, nodeBudget });
  try {
    // Warm Mermaid up on a small session so its one-time setup is not counted.
    const small = reactSession({ thoughts: 6, sessionId: 'warm-up' });
    await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(small) });
    await explorer.showTab('branchTree');
    await explorer.waitForDiagram('branchTree', 'g.node');
    await explorer.showTab('stageGraph');
    await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(snapshot) });
    await explorer.page.waitForSelector(`.thought-card[data-seq="${snapshot.thoughts.length - 1}"]`, {
      state: 'attached',
      timeout: 120_000,
    });
    const last = `t${snapshot.thoughts.length - 1}`;
    const ms = await explorer.page.evaluate(
      ([wanted, timeout]) =>
        new Promise<number>((resolve, reject) => {
          const tab = document.querySelector<HTMLElement>('vscode-tab-header[data-diagram="branchTree"]');
          if (!tab) return reject(new Error('no branch tree tab'));
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (!document.querySelector(wanted)) return;
            observer.disconnect();
            clearTimeout(timer);
            requestAnimationFrame(() => resolve(performance.now() - start));
          });
          observer.observe(document.getElementById('app') ?? document.body, { subtree: true, childList: true, attributes: true });
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`not drawn within ${timeout} ms`));
          }, timeout);
          tab.click();
        }),
      [`section.diagram-branchTree .diagram-canvas g.node[id*="-flowchart-${last}-"]`, timeoutMs] as const,
    );
    const nodes = await explorer.page.locator('section.diagram-branchTree .diagram-canvas g.node').count();
    return { ms, nodes };
  } finally {
    await explorer.close();
  }
}

interface ExportTiming {
  totalMs: number;
  perDiagram: Record<string, number>;
  drawn: string[];
}

/** Writes the session's HTML export, opens it in Chromium and reads how long its renderer took per diagram. */
export async function timeHtmlExport(browser: Browser, snapshot: SessionSnapshot, root: string, directory: string): Promise<ExportTiming> {
  const html = await exportSession(snapshot, 'html', { rendererPath: join(root, 'dist', 'webview', 'export-render.js') });
  const file = join(directory, `${snapshot.meta.id}.html`);
  writeFileSync(file, html);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 300_000 });
    const totalMs = Number(await page.locator('html').getAttribute('data-render-ms'));
    const figures = await page
      .locator('figure')
      .evaluateAll((nodes) =>
        nodes.map(
          (figure) =>
            [
              figure.getAttribute('data-diagram') ?? '',
              figure.getAttribute('data-rendered') ?? '',
              figure.getAttribute('data-render-ms') ?? '',
            ] as const,
        ),
      );
    const perDiagram: Record<string, number> = {};
    for (const [key, , ms] of figures) perDiagram[key] = Number(ms);
    return { totalMs, perDiagram, drawn: figures.map(([key, rendered]) => `${key}:${rendered}`) };
  } finally {
    await context.close();
  }
}

/** The folded-diagram figures: table lines and the checks against the targets. */
export async function foldedRenderFigures(
  browser: Browser,
  root: string,
  progress: (message: string) => void,
): Promise<{ lines: string[]; checks: BenchCheck[] }> {
  const lines: string[] = [];
  const checks: BenchCheck[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'folded-export-'));
  try {
    lines.push(
      '',
      `Whole branch tree, folded to the node budget (${DEFAULT_NODE_BUDGET}) vs one node per thought (before folding); workload: every 10th thought a revision, every 25th a branch:`,
      '',
      '| thoughts | folded: time | folded: nodes | unfolded: time | unfolded: nodes | ratio | HTML export (3 diagrams): total | branch tree | revision chain | stage graph |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const size of SIZES) {
      const snapshot = reactSession({ thoughts: size, sessionId: `folded-${size}` });
      progress(`folded branch tree, ${size} thoughts`);
      const folded = await timeBranchTree(browser, snapshot, DEFAULT_NODE_BUDGET, 60_000);
      progress(`unfolded branch tree, ${size} thoughts (the before figure; may take minutes)`);
      let unfolded: TreeTiming | undefined;
      try {
        unfolded = await timeBranchTree(browser, snapshot, size + 1_000, UNFOLDED_TIMEOUT_MS);
      } catch {
        unfolded = undefined;
      }
      progress(`HTML export, ${size} thoughts`);
      const exported = await timeHtmlExport(browser, snapshot, root, directory);
      const unfoldedTime = unfolded ? formatMs(unfolded.ms) : `> ${formatMs(UNFOLDED_TIMEOUT_MS)} (gave up)`;
      const ratio = unfolded ? `${(folded.ms / unfolded.ms).toFixed(2)}` : `< ${(folded.ms / UNFOLDED_TIMEOUT_MS).toFixed(3)}`;
      lines.push(
        `| ${size} | ${formatMs(folded.ms)} | ${folded.nodes} | ${unfoldedTime} | ${unfolded?.nodes ?? '—'} | ${ratio} | ${formatMs(exported.totalMs)} | ${formatMs(exported.perDiagram.branchTree)} | ${formatMs(exported.perDiagram.revisionChain)} | ${formatMs(exported.perDiagram.stageGraph)} |`,
      );
      const target = TARGET_MS[size];
      checks.push({
        name: `whole branch tree of ${size} thoughts drawn (folded) in ≤ ${formatMs(target)}`,
        pass: folded.ms <= target && folded.nodes <= DEFAULT_NODE_BUDGET,
        detail: `${formatMs(folded.ms)}, ${folded.nodes} nodes`,
      });
      checks.push({
        name: `HTML export of ${size} thoughts: all three diagrams drawn in ≤ ${formatMs(target)}`,
        pass: exported.totalMs <= target && exported.drawn.every((entry) => entry.endsWith(':true')),
        detail: `${formatMs(exported.totalMs)} (${exported.drawn.join(', ')})`,
      });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return { lines, checks };
}
