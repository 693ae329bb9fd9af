// The inline thought graph in a minimal MCP Apps host in Chromium (ext-apps' AppBridge over PostMessageTransport, a
// real SDK Client over Streamable HTTP to our real server): the host reads the ui:// resource, delivers each tool call's
// input and result as a chat host does, and the test reads what the iframe draws after every thought; the host's theme
// change restyles it; the injection corpus in thoughts runs no script; the button reaches the open-explorer tool.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ModelGateway } from '../../src/engine/modelGateway';
import { NO_EDITOR_HINT } from '../../src/mcp/app/openExplorerTool';
import { MCP_APP_MIME_TYPE, THOUGHT_GRAPH_URI } from '../../src/mcp/app/thoughtGraphUri';
import { launchChromium } from './support/explorerPage';
import { DARK_CONTEXT, LIGHT_CONTEXT, McpAppHost } from './support/mcpAppHost';
import { INJECTION_CORPUS } from './support/sessions';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const quiet = () => {};

interface Drawn {
  nodes: number;
  latestHead: string;
  latestText: string;
  counts: string;
  stage: string;
  note: string;
}

async function readView(frame: Frame): Promise<Drawn> {
  // No named helpers inside evaluate: tsx would wrap them in a __name() the page does not have.
  const selectors = ['.latest-head', '.latest-text', '[data-testid="counts"]', '[data-testid="stage"]', '.note'];
  const [texts, nodes, dots] = await frame.evaluate(
    (list) =>
      [
        list.map((selector) => document.querySelector(selector)?.textContent ?? ''),
        document.querySelectorAll('[data-testid="diagram"] .graph-row').length,
        document.querySelectorAll('[data-testid="diagram"] svg .graph-dot').length,
      ] as const,
    selectors,
  );
  const [latestHead, latestText, counts, stage, note] = texts;
  assert.equal(dots, nodes, 'a dot on the lanes for every row of text');
  return { nodes, latestHead, latestText, counts, stage, note };
}

/** A session with a branch and a revision: each step's arguments and what the view must then show. */
const STEPS: { args: Record<string, unknown>; counts: string; head: string }[] = [
  {
    args: { thought: 'Frame the problem: why is the cache slow?', thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true },
    counts: '1 thought · 0 branches · 0 revisions · of ~4 planned',
    head: '#1',
  },
  {
    args: { thought: 'Measure: misses dominate after deploys.', thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true },
    counts: '2 thoughts · 0 branches · 0 revisions · of ~4 planned',
    head: '#2',
  },
  {
    args: {
      thought: 'Alternative: warm the cache before switching traffic.',
      thoughtNumber: 3,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      branchFromThought: 2,
      branchId: 'warmup',
    },
    counts: '3 thoughts · 1 branch · 0 revisions · of ~4 planned',
    head: 'branch warmup',
  },
  {
    args: {
      thought: 'Correction: misses dominate only for cold keys.',
      thoughtNumber: 4,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 2,
    },
    counts: '4 thoughts · 1 branch · 1 revision · of ~5 planned',
    head: '#4',
  },
  {
    args: { thought: 'Answer: pre-warm cold keys on deploy.', thoughtNumber: 5, totalThoughts: 5, nextThoughtNeeded: false },
    counts: '5 thoughts · 1 branch · 1 revision · of ~5 planned · complete',
    head: '#5',
  },
];

describe('MCP App in a Chromium host (AppBridge)', () => {
  let host: McpAppHost;
  before(async () => {
    host = await McpAppHost.open(browser, { engine: new ThinkingEngine({ log: quiet }) });
  });
  after(() => host?.close());

  it('loads the ui:// resource named by sequentialthinking through the MCP Client', async () => {
    const loaded = await host.load('sequentialthinking', DARK_CONTEXT);
    assert.equal(loaded.uri, THOUGHT_GRAPH_URI);
    assert.equal(loaded.mimeType, MCP_APP_MIME_TYPE);
    assert.ok(loaded.bytes > 100_000, `a self-contained document (${loaded.bytes} bytes)`);
    const probe = await host.frameProbe();
    assert.equal(probe.probe, true, 'the dialog/CSP probe runs inside the view');
    const view = await readView(host.app());
    assert.equal(view.counts, 'Waiting for the first thought…');
  });

  it('draws every thought of a real session as its call happens: tree nodes, latest thought, counts, stage', async () => {
    for (const [index, step] of STEPS.entries()) {
      // The tool input arrives first (the call is running): the view shows the thought being sent.
      await host.input(step.args);
      await host.app().waitForFunction((text) => document.querySelector('.latest-text')?.textContent === text, step.args.thought);
      assert.equal((await readView(host.app())).latestHead, 'Thinking…');
      // Then the result: odd steps as VS Code delivers it (text content only), even ones with structuredContent.
      await host.call('sequentialthinking', step.args, { textOnly: index % 2 === 0 });
      await host.drawn(index + 1);
      const view = await readView(host.app());
      assert.equal(view.nodes, index + 1, `tree nodes after thought ${index + 1}`);
      assert.equal(view.latestText, step.args.thought);
      assert.ok(view.latestHead.includes(step.head), `${view.latestHead} names ${step.head}`);
      assert.equal(view.counts, step.counts);
      assert.match(view.stage, /^linear · \S+/);
    }
    // The explorer's drawing: a row per thought with its text, the branch on its own lane, the revision linked.
    const drawing = await host.app().evaluate(() => ({
      texts: Array.from(document.querySelectorAll('[data-testid="diagram"] .graph-text'), (node) => node.textContent),
      tags: Array.from(
        document.querySelectorAll('[data-testid="diagram"] .graph-row'),
        (row) => row.querySelector('.graph-tags')?.textContent ?? '',
      ),
      lanes: Array.from(
        document.querySelectorAll('[data-testid="diagram"] .graph-dot'),
        (dot) => /lane-(\d)/.exec(dot.getAttribute('class') ?? '')?.[1],
      ),
      revisionLinks: document.querySelectorAll('[data-testid="diagram"] .revision-link').length,
      labelPx: getComputedStyle(document.querySelector('[data-testid="diagram"] .graph-row') as Element).fontSize,
    }));
    assert.deepEqual(
      drawing.texts,
      STEPS.map((step) => step.args.thought),
    );
    assert.deepEqual(drawing.lanes, ['0', '0', '1', '0', '0']);
    assert.match(drawing.tags[2], /branch warmup from #2/);
    assert.match(drawing.tags[3], /revises #2/);
    assert.match(drawing.tags[4], /final/);
    assert.equal(drawing.revisionLinks, 1);
    assert.equal(drawing.labelPx, '13px');
    assert.ok(host.record.frameRequests.length === 0, `no requests from the view: ${host.record.frameRequests.join(', ')}`);
    assert.deepEqual(host.record.pageErrors, []);
    assert.deepEqual((await host.frameProbe()).cspViolations, []);
  });

  it("restyles when the host's theme changes", async () => {
    const colours = () =>
      host.app().evaluate(() => ({
        theme: document.body.dataset.theme,
        background: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        node: getComputedStyle(document.querySelector('[data-testid="diagram"] .graph-row') as Element).backgroundColor,
      }));
    const dark = await colours();
    assert.equal(dark.theme, 'dark');
    assert.equal(dark.background, 'rgb(30, 30, 30)');
    assert.equal(dark.text, 'rgb(204, 204, 204)');
    await host.setContext(LIGHT_CONTEXT);
    await host.app().waitForFunction(() => document.body.dataset.theme === 'light');
    await host.app().waitForFunction((before) => {
      const node = document.querySelector('[data-testid="diagram"] .graph-row');
      return node !== null && getComputedStyle(node).backgroundColor !== before;
    }, dark.node);
    const light = await colours();
    assert.equal(light.background, 'rgb(255, 255, 255)');
    assert.equal(light.text, 'rgb(31, 31, 31)');
    assert.notEqual(light.node, dark.node, 'the diagram is redrawn in the new colours');
  });

  it('fits a chat column: reports its height to the host and never overflows the width', async () => {
    const sizes = await host.page.evaluate(() => (window as unknown as { mcpHost: { record: { sizes: number[] } } }).mcpHost.record.sizes);
    assert.ok(sizes.length > 0, 'ui/notifications/size-changed sent');
    assert.ok(sizes[sizes.length - 1] < 900, `height ${sizes[sizes.length - 1]} fits a chat turn`);
    const overflow = await host.app().evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal overflow (${overflow}px)`);
  });

  it("the button asks the server to open the explorer; outside VS Code it shows the server's hint", async () => {
    await host.app().click('button.open');
    await host.app().waitForFunction((hint) => document.querySelector('.note')?.textContent === hint, NO_EDITOR_HINT);
  });
});

describe('MCP App: untrusted thought text', () => {
  it('the injection corpus in thoughts stays text and runs no script', async () => {
    const host = await McpAppHost.open(browser, { engine: new ThinkingEngine({ log: quiet }) });
    try {
      await host.load('sequentialthinking', DARK_CONTEXT);
      const total = INJECTION_CORPUS.length;
      for (const [index, text] of INJECTION_CORPUS.entries()) {
        const args: Record<string, unknown> = {
          thought: text,
          thoughtNumber: index + 1,
          totalThoughts: total,
          nextThoughtNeeded: index + 1 < total,
        };
        if (index === 3) Object.assign(args, { branchFromThought: 2, branchId: 'alt-1' });
        const result = await host.call('sequentialthinking', args, { textOnly: index % 2 === 0 });
        assert.notEqual(result.isError, true, `thought ${index + 1} recorded`);
        await host.drawn(index + 1);
        const view = await readView(host.app());
        assert.equal(view.latestText, text, 'shown as text, unchanged');
      }
      const probe = await host.frameProbe();
      assert.equal(probe.dialogs, 0, 'no alert/confirm/prompt ran');
      assert.deepEqual(probe.cspViolations, [], 'nothing even tried to run against the CSP');
      assert.deepEqual(host.record.dialogs, []);
      assert.deepEqual(host.record.pageErrors, []);
      assert.deepEqual(host.record.frameRequests, []);
      const dom = await host.app().evaluate(() => ({
        scripts: document.querySelectorAll('script').length,
        handlers: Array.from(document.querySelectorAll('*')).filter((node) =>
          Array.from(node.attributes).some((attribute) => /^on/i.test(attribute.name)),
        ).length,
        images: document.querySelectorAll('img').length,
        links: document.querySelectorAll('a[href^="javascript"], [href^="javascript"]').length,
      }));
      assert.deepEqual(dom, { scripts: 1, handlers: 0, images: 0, links: 0 });
    } finally {
      await host.close();
    }
  });
});

describe('MCP App: deliberate results', () => {
  it('draws the thoughts a deliberation recorded, from its result', async () => {
    const gateway: ModelGateway = {
      description: 'scripted test model',
      complete: async (messages) => ({
        text: `Scripted answer to: ${messages[messages.length - 1]?.text.slice(0, 40) ?? ''}`,
        usage: { inputTokens: 10, outputTokens: 5, estimated: false },
        model: 'scripted',
      }),
    };
    const engine = new ThinkingEngine({ log: quiet });
    const host = await McpAppHost.open(browser, { engine, modelGateway: gateway });
    try {
      await host.load('deliberate', DARK_CONTEXT);
      const result = await host.call(
        'deliberate',
        { problem: 'Should we cache at the edge?', plan: 'sequential', roles: ['factual', 'critical'] },
        {
          textOnly: true,
        },
      );
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const sessionId = (result.structuredContent as { sessionId: string }).sessionId;
      const recorded = engine.getSession(sessionId)?.thoughts.length ?? 0;
      assert.ok(recorded >= 2, `deliberation recorded ${recorded} thoughts`);
      await host.drawn(recorded);
      const view = await readView(host.app());
      assert.equal(view.nodes, recorded);
      assert.match(view.counts, new RegExp(`^${recorded} thoughts`));
    } finally {
      await host.close();
    }
  });
});
