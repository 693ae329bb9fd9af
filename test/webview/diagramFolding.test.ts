// Folded thought diagrams in the explorer (real Chromium, the built bundle): a session over the node budget is drawn
// folded, a click opens a folded node in place within the budget, "Fold" folds it back, "Expand all" opens as much as
// stays drawable, what was opened survives hide/show (the saved state), and a selected thought inside a folded node
// marks that node. A small session is drawn whole.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, drawnNodeIds, launchChromium, type ExplorerPageOptions } from './support/explorerPage';
import { reactSession } from './support/sessions';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const BUDGET = 30;
const FOLDED = /^(run|branch|roots)_\d+(_\d+)?$/;

/** The explorer with a small node budget, so a test session folds. */
function openFolded(snapshot: SessionSnapshot, options: ExplorerPageOptions = {}): Promise<ExplorerPage> {
  return ExplorerPage.openWith(browser, snapshot, { nodeBudget: BUDGET, ...options });
}

/** Waits until the diagram has been drawn `count` times or more (data-renders), then returns its node ids. */
async function nodesAfterRender(explorer: ExplorerPage, kind: 'branchTree' | 'revisionChain', count: number): Promise<string[]> {
  await explorer.page.waitForFunction(
    ([diagram, renders]) => Number(document.querySelector(`section.diagram-${diagram}`)?.getAttribute('data-renders') ?? 0) >= renders,
    [kind, count] as const,
    { timeout: 60_000 },
  );
  return drawnNodeIds(explorer, kind);
}

async function renders(explorer: ExplorerPage, kind: string): Promise<number> {
  return Number((await explorer.page.getAttribute(`section.diagram-${kind}`, 'data-renders')) ?? 0);
}

describe('folded diagrams in the explorer', () => {
  it('draws the demo-sized session whole: 12 thoughts, both branches, nothing folded', async () => {
    const snapshot = reactSession({ thoughts: 12, branchEvery: 4 });
    assert.equal(new Set(snapshot.thoughts.map((thought) => thought.branchId).filter(Boolean)).size, 2, 'two branches in the fixture');
    const explorer = await openFolded(snapshot, { nodeBudget: undefined });
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', 'g.node[id*="-flowchart-t0-"]');
      const ids = await drawnNodeIds(explorer, 'branchTree');
      assert.deepEqual(ids.sort(), snapshot.thoughts.map((thought) => `t${thought.seq}`).sort());
    } finally {
      await explorer.close();
    }
  });

  it('opens a folded node in place on click, folds back on "Fold", opens everything on "Expand all"', async () => {
    const snapshot = reactSession({ thoughts: 300 });
    const explorer = await openFolded(snapshot, { surface: 'panel', width: 1280, height: 900 });
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', 'g.node.folded');
      const folded = await drawnNodeIds(explorer, 'branchTree');
      assert.ok(folded.length <= BUDGET, `${folded.length} nodes`);
      assert.ok(folded.includes('t299'), 'the current thought is its own node');
      const note = (await explorer.page.textContent('section.diagram-branchTree .diagram-note')) ?? '';
      assert.match(note, new RegExp(`300 thoughts in ${folded.length} nodes`));
      assert.match((await explorer.page.textContent('section.diagram-branchTree .show-all')) ?? '', /Expand all/);
      await explorer.screenshot('branch-tree-folded');

      // The most recent folded run: small enough to open whole within the budget.
      const runs = folded.filter((id) => FOLDED.test(id));
      assert.ok(runs.length > 0, folded.join(','));
      const target = runs[runs.length - 1];
      const [, first, last] = /^run_(\d+)_(\d+)$/.exec(target) ?? [];
      assert.ok(first !== undefined, `a run: ${target}`);
      const before = await renders(explorer, 'branchTree');
      await explorer.page.click(`section.diagram-branchTree g.node[id*="-flowchart-${target}-"]`);
      const opened = await nodesAfterRender(explorer, 'branchTree', before + 1);
      assert.ok(opened.length <= BUDGET, `${opened.length} nodes after opening`);
      assert.ok(!opened.includes(target), `${target} opened`);
      for (let seq = Number(first); seq <= Number(last); seq++) {
        const thought = snapshot.thoughts[seq];
        if (thought.branchId === snapshot.thoughts[Number(first)].branchId) assert.ok(opened.includes(`t${seq}`), `t${seq} drawn`);
      }
      const state = await explorer.page.evaluate(
        () => (window as unknown as { __explorerState: { expanded?: Record<string, string[]> } }).__explorerState,
      );
      assert.deepEqual(state.expanded?.branchTree, [target], 'the opened node is in the saved state');
      assert.match((await explorer.page.textContent('section.diagram-branchTree .show-all')) ?? '', /Fold/);

      // "Fold" brings the first drawing back.
      const beforeFold = await renders(explorer, 'branchTree');
      await explorer.page.click('section.diagram-branchTree .show-all');
      assert.deepEqual((await nodesAfterRender(explorer, 'branchTree', beforeFold + 1)).sort(), [...folded].sort());

      // "Expand all": 300 thoughts fit the "expand all" budget, so every thought is its own node.
      await explorer.page.click('section.diagram-branchTree .show-all');
      await explorer.waitForDiagram('branchTree', 'g.node[id*="-flowchart-t0-"]', 120_000);
      const all = await drawnNodeIds(explorer, 'branchTree');
      assert.equal(all.filter((id) => /^t\d+$/.test(id)).length, 300);
      assert.equal(all.filter((id) => FOLDED.test(id)).length, 0);
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });

  it('keeps what was opened across hide/show, and marks a selected thought that sits inside a folded node', async () => {
    const snapshot = reactSession({ thoughts: 200 });
    const first = await openFolded(snapshot, { surface: 'panel', width: 1280, height: 900 });
    let target: string;
    let saved: unknown;
    try {
      await first.showTab('branchTree');
      await first.waitForDiagram('branchTree', 'g.node.folded');
      const runs = (await drawnNodeIds(first, 'branchTree')).filter((id) => FOLDED.test(id));
      target = runs[runs.length - 1];
      const before = await renders(first, 'branchTree');
      await first.page.click(`section.diagram-branchTree g.node[id*="-flowchart-${target}-"]`);
      await nodesAfterRender(first, 'branchTree', before + 1);
      saved = await first.page.evaluate(() => (window as unknown as { __explorerState: unknown }).__explorerState);
    } finally {
      await first.close();
    }
    // The webview is recreated with the saved state (VS Code destroys hidden webviews).
    const second = await openFolded(snapshot, { surface: 'panel', width: 1280, height: 900, savedState: saved });
    try {
      await second.waitForDiagram('branchTree', 'g.node');
      const ids = await drawnNodeIds(second, 'branchTree');
      assert.ok(!ids.includes(target), `${target} still open after restore`);
      // Select the oldest thought, which sits in a folded node: that node is marked.
      const holder = ids.find((id) => /^run_0_\d+$/.test(id));
      assert.ok(holder, ids.join(','));
      await second.page.evaluate(() => document.querySelector<HTMLElement>('.thought-card[data-seq="0"]')?.click());
      await second.page.waitForSelector(`section.diagram-branchTree g.node.selected-node[id*="-flowchart-${holder}-"]`);
    } finally {
      await second.close();
    }
  });

  it('folds the revision chains of a long session and opens them on click', async () => {
    const snapshot = reactSession({ thoughts: 600 });
    const explorer = await openFolded(snapshot, { surface: 'panel', width: 1280, height: 900 });
    try {
      await explorer.showTab('revisionChain');
      await explorer.waitForDiagram('revisionChain', 'g.node.folded');
      const folded = await drawnNodeIds(explorer, 'revisionChain');
      assert.ok(folded.length <= BUDGET, `${folded.length} nodes`);
      const group = folded.find((id) => FOLDED.test(id)) as string;
      const before = await renders(explorer, 'revisionChain');
      // The live session is followed: its newest node is kept in view, so this older group may be panned out of the
      // viewport, where a pointer cannot reach it. The click goes to the node itself.
      await explorer.page.$eval(`section.diagram-revisionChain g.node[id*="-flowchart-${group}-"]`, (node) =>
        node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })),
      );
      const opened = await nodesAfterRender(explorer, 'revisionChain', before + 1);
      assert.ok(!opened.includes(group) && opened.length <= BUDGET, opened.join(','));
    } finally {
      await explorer.close();
    }
  });

  it('a replay draws each thought diagram once and reveals it step by step: no render per step', async () => {
    const snapshot = reactSession({ thoughts: 20, branchEvery: 6, complete: true });
    const explorer = await ExplorerPage.open(browser, { surface: 'replay', nodeBudget: BUDGET });
    try {
      await explorer.send({ type: 'snapshot', mode: 'replay', session: toSessionView(snapshot) });
      await explorer.page.waitForSelector('.replay-bar:not([hidden])');
      await explorer.showTab('branchTree');
      /** The nodes shown, the current one, and whether every edge shown joins two shown nodes. */
      const shownAt = async (position: number): Promise<{ shown: string[]; current: string[]; edgesJoinShown: boolean; edges: number }> => {
        await explorer.send({ type: 'replayState', playing: false, position });
        await explorer.page.waitForFunction(
          (text) => document.querySelector('.replay-position')?.textContent?.startsWith(text),
          `${position} /`,
        );
        await explorer.waitForDiagram('branchTree', 'g.node');
        return explorer.page.evaluate(() => {
          const svg = document.querySelector('section.diagram-branchTree .diagram-canvas svg');
          const idOf = (node: Element): string => /-flowchart-(.+)-\d+$/.exec(node.id)?.[1] ?? '';
          const shown = [...(svg?.querySelectorAll('g.node:not(.replay-ahead)') ?? [])].map(idOf);
          const current = [...(svg?.querySelectorAll('g.node.replay-current') ?? [])].map(idOf);
          const paths = [...(svg?.querySelectorAll('path.flowchart-link:not(.replay-ahead)') ?? [])];
          const edgesJoinShown = paths.every((path) => {
            const id = path.getAttribute('data-id') ?? '';
            return shown.some((from) => shown.some((to) => id === `L_${from}_${to}_0`));
          });
          return { shown, current, edgesJoinShown, edges: paths.length };
        });
      };
      const ids = (count: number): string[] => snapshot.thoughts.slice(0, count).map((thought) => `t${thought.seq}`);

      const atThree = await shownAt(3);
      assert.deepEqual(atThree.shown.sort(), ids(3).sort());
      assert.deepEqual(atThree.current, ['t2']);
      assert.ok(atThree.edgesJoinShown && atThree.edges === 2, JSON.stringify(atThree));
      const drawn = await renders(explorer, 'branchTree');

      const atTwelve = await shownAt(12);
      assert.deepEqual(atTwelve.shown.sort(), ids(12).sort(), 'the branches taken so far are shown');
      assert.deepEqual(atTwelve.current, ['t11']);
      assert.ok(atTwelve.edgesJoinShown, JSON.stringify(atTwelve));
      const atEnd = await shownAt(snapshot.thoughts.length);
      assert.deepEqual(atEnd.shown.sort(), ids(snapshot.thoughts.length).sort());
      assert.equal(await renders(explorer, 'branchTree'), drawn, 'the steps only revealed the drawing');

      // Back to the start: nothing is shown until the first thought.
      assert.deepEqual((await shownAt(0)).shown, []);
    } finally {
      await explorer.close();
    }
  });
});
