// The explorer webview in real Chromium, fed through the shared protocol exactly as the extension host feeds it:
// every diagram draws the expected nodes, selection works both ways, live deltas, theme switches, replay, saved
// state, and a 1,000-thought session never gives a blank view. Screenshots go to test-results/webview/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { stageGraphState, stageNodeId } from '../../src/diagrams/stageGraph';
import type { SessionSnapshot } from '../../src/engine/model';
import { findStrategy } from '../../src/engine/strategies/catalog';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, cardCount, drawnNodeIds, launchChromium } from './support/explorerPage';
import { reactSession, switchingSession } from './support/sessions';
import { waitFor } from '../support/waitFor';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** The computed fill of a node's shape in a drawn diagram. */
async function nodeFill(explorer: ExplorerPage, kind: string, nodeId: string): Promise<string> {
  return explorer.page.evaluate(
    ([diagram, id]) => {
      for (const node of document.querySelectorAll(`section.diagram-${diagram} svg g.node`)) {
        const nodeIdOf = node.getAttribute('data-id') ?? /-flowchart-(.+)-\d+$/.exec(node.id)?.[1];
        if (nodeIdOf !== id) continue;
        const shape = node.querySelector('rect, polygon, path');
        return shape ? getComputedStyle(shape).fill : 'no shape';
      }
      return 'no node';
    },
    [kind, nodeId] as const,
  );
}

describe('explorer webview in Chromium', () => {
  it('draws the stage graph once, with visits, the current stage and transition counts', async () => {
    const snapshot = reactSession({ thoughts: 30 });
    const explorer = await ExplorerPage.openWith(browser, snapshot);
    try {
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      const strategy = findStrategy('react');
      assert.ok(strategy);
      const ids = await drawnNodeIds(explorer, 'stageGraph');
      assert.deepEqual(new Set(ids), new Set(strategy.stages.map((stage) => stageNodeId(stage.name))));

      const state = stageGraphState(snapshot);
      const classes = await explorer.page.evaluate(() =>
        [...document.querySelectorAll('section.diagram-stageGraph svg g.node')].map((node) => [node.id, node.getAttribute('class') ?? '']),
      );
      const current = classes.filter(([, list]) => list.split(' ').includes('current'));
      assert.equal(current.length, 1, 'exactly one current stage');
      assert.match(current[0][0], new RegExp(`-flowchart-${stageNodeId(state.current ?? '')}-`));
      const unvisited = classes.filter(([, list]) => list.split(' ').includes('unvisited')).map(([id]) => id);
      assert.ok(
        unvisited.some((id) => id.includes(stageNodeId('final_response'))),
        'final_response not visited yet',
      );

      const badges = await explorer.page.locator('section.diagram-stageGraph g.edge-count text').allTextContents();
      const expected = Object.values(state.edgeCounts)
        .map((count) => `×${count}`)
        .sort();
      assert.deepEqual(badges.sort(), expected);
      await explorer.screenshot('stage-graph-dark');
    } finally {
      await explorer.close();
    }
  });

  it('moves the stage graph with each live thought without re-rendering it, and shows the card first', async () => {
    const full = reactSession({ thoughts: 12 });
    const start: SessionSnapshot = { ...full, thoughts: full.thoughts.slice(0, 8) };
    const explorer = await ExplorerPage.openWith(browser, start);
    try {
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      const rendersBefore = await explorer.page.getAttribute('section.diagram-stageGraph', 'data-renders');
      for (const thought of full.thoughts.slice(8)) {
        await explorer.send({
          type: 'thoughtAdded',
          sessionId: full.meta.id,
          meta: { ...full.meta, stage: thought.stage, thoughtCount: thought.seq + 1 },
          thought,
        });
      }
      await explorer.page.waitForSelector(`.thought-card[data-seq="11"]`);
      assert.equal(await cardCount(explorer), 12);
      const last = full.thoughts[11].stage ?? '';
      await explorer.page.waitForFunction(
        (id) =>
          [...document.querySelectorAll('section.diagram-stageGraph g.node.current')].some((node) => node.id.includes(`-flowchart-${id}-`)),
        stageNodeId(last),
      );
      assert.equal(await explorer.page.getAttribute('section.diagram-stageGraph', 'data-renders'), rendersBefore, 'no new Mermaid render');
    } finally {
      await explorer.close();
    }
  });

  it('coalesces a burst of thoughts into a few renders that end on the latest thought', async () => {
    const full = reactSession({ thoughts: 60 });
    const explorer = await ExplorerPage.openWith(browser, { ...full, thoughts: full.thoughts.slice(0, 30) });
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="29"]');
      const before = Number(await explorer.page.getAttribute('section.diagram-branchTree', 'data-renders'));
      // Thirty thoughts posted at once, as a fast agent (or a reconnect) would deliver them.
      await explorer.page.evaluate(
        (thoughts) => {
          for (const entry of thoughts) window.postMessage(entry, '*');
        },
        full.thoughts.slice(30).map((thought) => ({ type: 'thoughtAdded', sessionId: full.meta.id, meta: full.meta, thought })),
      );
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="59"]');
      assert.equal(await cardCount(explorer), 60);
      // At most one drawing per animation frame while they streamed in (the 30 messages are handled over a few
      // frames), plus the scrolls that follow the newest row. Without coalescing it would be 30 or more.
      const renders = Number(await explorer.page.getAttribute('section.diagram-branchTree', 'data-renders')) - before;
      assert.ok(renders >= 1 && renders <= 8, `30 thoughts drawn in ${renders} render(s)`);
    } finally {
      await explorer.close();
    }
  });

  it('asks for the full session when a delta does not follow what it holds', async () => {
    const full = reactSession({ thoughts: 10 });
    const explorer = await ExplorerPage.openWith(browser, { ...full, thoughts: full.thoughts.slice(0, 5) });
    try {
      await explorer.send({ type: 'thoughtAdded', sessionId: full.meta.id, meta: full.meta, thought: full.thoughts[7] });
      const request = await explorer.waitForPosted('requestFullSession', 5_000);
      assert.equal(request.sessionId, full.meta.id);
      assert.equal(await cardCount(explorer), 5, 'the out-of-order thought is not shown');
    } finally {
      await explorer.close();
    }
  });

  it('draws every thought of a live session as a row, nothing folded: scrolling reaches each one', async () => {
    const snapshot = reactSession({ thoughts: 60 });
    const explorer = await ExplorerPage.openWith(browser, snapshot);
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="59"]');
      assert.equal(await explorer.page.getAttribute('section.diagram-branchTree', 'data-rows'), '60');
      const seen = new Set<string>();
      for (let top = 0; seen.size < 60 && top < 60 * 26; top += 200) {
        await explorer.page.evaluate((at) => {
          const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .graph-canvas');
          if (canvas) canvas.scrollTop = at;
        }, top);
        await explorer.page.waitForFunction((at) => {
          const row = Math.min(59, Math.floor(at / 26));
          return document.querySelector(`section.diagram-branchTree .graph-row[data-seq="${row}"]`) !== null;
        }, top);
        for (const id of await drawnNodeIds(explorer, 'branchTree')) seen.add(id);
      }
      for (const thought of snapshot.thoughts) assert.ok(seen.has(`t${thought.seq}`), `t${thought.seq} drawn`);
      // The branches of the fixture (every 25th thought) name their fork on their first row: scrolled to that row (only
      // the rows in view are drawn), its tag says so.
      const branchStart = snapshot.thoughts.find((thought) => thought.branchFromThought !== undefined);
      assert.ok(branchStart, 'the fixture branches');
      await explorer.page.evaluate((at) => {
        const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .graph-canvas');
        if (canvas) canvas.scrollTop = at;
      }, branchStart.seq * 26);
      const firstRow = `section.diagram-branchTree .graph-row[data-seq="${branchStart.seq}"]`;
      await explorer.page.waitForSelector(firstRow, { state: 'attached' });
      assert.match(
        (await explorer.page.locator(`${firstRow} .row-tag`, { hasText: /^branch / }).textContent()) ?? '',
        new RegExp(`^branch .* from #${branchStart.branchFromThought}$`),
        'a branch names its fork',
      );
      // Nothing folded, nothing to expand.
      assert.equal(await explorer.page.locator('section.diagram-branchTree .show-all').count(), 0);
      await explorer.screenshot('branch-tree-all');
    } finally {
      await explorer.close();
    }
  });

  it('draws revision chains and a word diff between a thought and its revision', async () => {
    const snapshot = reactSession({
      thoughts: 24,
      text: (n) =>
        n === 7
          ? 'The cache is probably cold, so latency comes from disk reads.'
          : n === 10
            ? 'The cache is warm, so latency comes from lock contention instead.'
            : `Thought ${n}.`,
    });
    const revision = snapshot.thoughts.find((thought) => thought.revisesThought === 7);
    assert.ok(revision, 'fixture has a revision of #7');
    const explorer = await ExplorerPage.openWith(browser, snapshot, { surface: 'panel', width: 1200, height: 800 });
    try {
      await explorer.showTab('revisionChain');
      await explorer.waitForDiagram('revisionChain', '.graph-row');
      const ids = await drawnNodeIds(explorer, 'revisionChain');
      assert.ok(ids.includes('t6') && ids.includes(`t${revision.seq}`), `revised thought and its revision drawn: ${ids.join(',')}`);

      await explorer.page.click(`.thought-card[data-seq="${revision.seq}"]`);
      const added = await explorer.page.locator('.revision-diff ins.diff-added').allTextContents();
      const removed = await explorer.page.locator('.revision-diff del.diff-removed').allTextContents();
      assert.ok(added.join('').includes('warm'), `added words: ${added.join('|')}`);
      assert.ok(removed.join('').includes('cold'), `removed words: ${removed.join('|')}`);
      assert.ok(added.join('').includes('lock contention'));
      await explorer.page.evaluate(() => window.scrollTo(0, 0));
      await explorer.screenshot('revision-chain-diff');
    } finally {
      await explorer.close();
    }
  });

  it('selects the card when a diagram node is clicked, and marks the node when a card is clicked', async () => {
    const snapshot = reactSession({ thoughts: 20 });
    const explorer = await ExplorerPage.openWith(browser, snapshot);
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="17"]');
      await explorer.page.click('section.diagram-branchTree .graph-row[data-seq="17"]');
      await explorer.page.waitForSelector('.thought-card.selected[data-seq="17"]');
      const posted = explorer.record.posted.filter((message) => message.type === 'selectThought');
      assert.deepEqual(posted.at(-1), { type: 'selectThought', sessionId: snapshot.meta.id, seq: 17 });

      await explorer.page.click('.thought-card[data-seq="18"]');
      await explorer.page.waitForSelector('section.diagram-branchTree .graph-row.selected-node[data-seq="18"]');
      assert.equal(await explorer.page.locator('section.diagram-branchTree .graph-row.selected-node').count(), 1);

      // A stage node selects the latest thought written in that stage.
      await explorer.showTab('stageGraph');
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      await explorer.page.click(`section.diagram-stageGraph g.node[id*="-flowchart-${stageNodeId('problem_reception')}-"]`);
      await explorer.page.waitForSelector('.thought-card.selected[data-seq="0"]');
    } finally {
      await explorer.close();
    }
  });

  it('follows the VS Code theme: the stage graph re-renders, the thought drawing takes the new colours', async () => {
    const snapshot = reactSession({ thoughts: 16 });
    const explorer = await ExplorerPage.openWith(browser, snapshot, { theme: 'dark' });
    const rowColour = (): Promise<string> =>
      explorer.page.evaluate(() => {
        const row = document.querySelector('section.diagram-branchTree .graph-row[data-seq="15"] .row-text');
        return row ? getComputedStyle(row).color : 'no row';
      });
    try {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="15"]');
      const darkText = await rowColour();
      const darkCurrent = await nodeFill(explorer, 'stageGraph', stageNodeId(snapshot.meta.stage ?? ''));
      const renders = Number(await explorer.page.getAttribute('section.diagram-stageGraph', 'data-renders'));

      await explorer.setTheme('light');
      await waitFor(async () => (await rowColour()) !== darkText, 'row text to follow the theme');
      await explorer.screenshot('branch-tree-light');
      // The stage graph is drawn again when its tab is shown.
      await explorer.showTab('stageGraph');
      await explorer.page.waitForFunction(
        (count) => Number(document.querySelector('section.diagram-stageGraph')?.getAttribute('data-renders')) > count,
        renders,
      );
      assert.notEqual(await nodeFill(explorer, 'stageGraph', stageNodeId(snapshot.meta.stage ?? '')), darkCurrent);
      await explorer.showTab('branchTree');

      for (const kind of ['highContrast', 'highContrastLight'] as const) {
        await explorer.showTab('stageGraph');
        const before = Number(await explorer.page.getAttribute('section.diagram-stageGraph', 'data-renders'));
        await explorer.setTheme(kind);
        await explorer.page.waitForFunction(
          (count) => Number(document.querySelector('section.diagram-stageGraph')?.getAttribute('data-renders')) > count,
          before,
        );
        await explorer.waitForDiagram('stageGraph', 'g.node.current');
        await explorer.screenshot(`stage-graph-${kind}`);
      }
    } finally {
      await explorer.close();
    }
  });

  it('replays a session thought by thought: step, scrub, Home/End and play', async () => {
    const snapshot = reactSession({ thoughts: 14, complete: true });
    const explorer = await ExplorerPage.open(browser, { surface: 'replay', width: 1100, height: 800 });
    try {
      await explorer.send({ type: 'snapshot', mode: 'replay', session: toSessionView(snapshot) });
      await explorer.page.waitForSelector('.replay-bar:not([hidden])');
      assert.equal(await cardCount(explorer), 0, 'a replay starts before the first thought');
      await explorer.page.keyboard.press('ArrowRight');
      await explorer.page.keyboard.press('ArrowRight');
      assert.equal(await cardCount(explorer), 2);
      await explorer.page.keyboard.press('ArrowLeft');
      assert.equal(await cardCount(explorer), 1);
      await explorer.page.keyboard.press('End');
      assert.equal(await cardCount(explorer), snapshot.thoughts.length);
      await explorer.waitForDiagram('stageGraph', `g.node.current[id*="-flowchart-${stageNodeId('final_response')}-"]`);
      await explorer.page.keyboard.press('Home');
      assert.equal(await cardCount(explorer), 0);

      // The stage graph grows with the replay: after three steps the current stage is the third thought's.
      for (let step = 0; step < 3; step++) await explorer.page.keyboard.press('ArrowRight');
      await explorer.waitForDiagram('stageGraph', `g.node.current[id*="-flowchart-${stageNodeId(snapshot.thoughts[2].stage ?? '')}-"]`);
      assert.match((await explorer.page.textContent('.replay-position')) ?? '', new RegExp(`^3 / ${snapshot.thoughts.length}$`));

      // The replay's timers run on Playwright's clock, so "paused" is checked over time the test moves on, not slept.
      await explorer.page.clock.install();
      await explorer.send({ type: 'replayState', speed: 8, playing: true });
      await explorer.page.waitForFunction(() => document.querySelectorAll('.thought-card').length >= 5, undefined, { timeout: 10_000 });
      await explorer.page.keyboard.press(' ');
      await explorer.page.waitForSelector('.replay-bar[data-playing="false"]');
      const paused = await cardCount(explorer);
      await explorer.page.clock.runFor(10_000);
      assert.equal(await cardCount(explorer), paused, 'space pauses');
      assert.equal(await explorer.page.inputValue('.replay-speed'), '8');
      await explorer.screenshot('replay-panel');
    } finally {
      await explorer.close();
    }
  });

  it("draws each strategy's stage graph from the host's StrategyView: before a switch the earlier one", async () => {
    const snapshot = switchingSession();
    const view = toSessionView(snapshot);
    assert.deepEqual(
      view.earlierStrategies?.map((strategy) => strategy.name),
      ['linear'],
      'the host sends the strategy switched away from',
    );
    const stageIds = (name: string): Set<string> => new Set(findStrategy(name)?.stages.map((stage) => stageNodeId(stage.name)));
    const explorer = await ExplorerPage.open(browser, { surface: 'replay', width: 1100, height: 800 });
    try {
      await explorer.send({ type: 'snapshot', mode: 'replay', session: view });
      await explorer.page.waitForSelector('.replay-bar:not([hidden])');
      for (let step = 0; step < 2; step++) await explorer.page.keyboard.press('ArrowRight');
      await explorer.waitForDiagram('stageGraph', `g.node.current[id*="-flowchart-${stageNodeId('initial_thought_planning')}-"]`);
      assert.deepEqual(new Set(await drawnNodeIds(explorer, 'stageGraph')), stageIds('linear'));
      assert.equal((await explorer.page.textContent('.fact-strategy .fact-text'))?.trim(), findStrategy('linear')?.title);

      await explorer.page.keyboard.press('End');
      await explorer.waitForDiagram('stageGraph', `g.node.current[id*="-flowchart-${stageNodeId('principle_identification')}-"]`);
      assert.deepEqual(new Set(await drawnNodeIds(explorer, 'stageGraph')), stageIds('step_back'));
      assert.equal((await explorer.page.textContent('.fact-strategy .fact-text'))?.trim(), findStrategy('step_back')?.title);
    } finally {
      await explorer.close();
    }
  });

  it('looks up no strategy of its own: without a StrategyView from the host it says the strategy is unknown', async () => {
    const { strategy: _omitted, ...withoutStrategy } = toSessionView(reactSession({ thoughts: 6 }));
    const explorer = await ExplorerPage.open(browser);
    try {
      await explorer.send({ type: 'snapshot', mode: 'live', session: withoutStrategy });
      await explorer.waitForDiagram('stageGraph', 'g.node');
      assert.match((await explorer.page.textContent('section.diagram-stageGraph .diagram-canvas svg')) ?? '', /Unknown strategy: react/);
      assert.equal((await explorer.page.textContent('.fact-strategy .fact-text'))?.trim(), 'react', 'the header falls back to the name');
    } finally {
      await explorer.close();
    }
  });

  it('keeps the selected thought and tab across hide/show through getState/setState', async () => {
    const snapshot = reactSession({ thoughts: 12 });
    const first = await ExplorerPage.openWith(browser, snapshot);
    let saved: unknown;
    try {
      await first.showTab('revisionChain');
      await first.page.click('.thought-card[data-seq="9"]');
      saved = await first.savedState();
    } finally {
      await first.close();
    }
    const second = await ExplorerPage.openWith(browser, snapshot, { savedState: saved });
    try {
      await second.page.waitForSelector('.thought-card.selected[data-seq="9"]');
      assert.equal(await second.page.getAttribute('vscode-tabs', 'selected-index'), '2');
    } finally {
      await second.close();
    }
  });

  it('keeps the last good stage graph and says what failed when Mermaid cannot draw it; the thoughts still draw', async () => {
    const full = reactSession({ thoughts: 14 });
    const explorer = await ExplorerPage.openWith(browser, { ...full, thoughts: full.thoughts.slice(0, 12) });
    const failures = (): Extract<(typeof explorer.record.posted)[number], { type: 'renderFailed' }>[] =>
      explorer.record.posted.filter((message) => message.type === 'renderFailed');
    const statusText = async (): Promise<string> => (await explorer.page.textContent('section.diagram-stageGraph .diagram-status')) ?? '';
    try {
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      // Fault injection: Mermaid measures every label with getBBox; a theme change draws the stage graph again.
      await explorer.page.evaluate(() => {
        SVGGraphicsElement.prototype.getBBox = () => {
          throw new Error('measuring failed (injected, getBBox)');
        };
      });
      await explorer.setTheme('light');
      await waitFor(() => failures().length >= 1, 'renderFailed from Mermaid', 10_000);
      assert.equal(failures()[0].diagram, 'stageGraph');
      assert.match(failures()[0].message, /measuring failed \(injected, getBBox\)/);
      await explorer.page.waitForSelector('section.diagram-stageGraph .diagram-status:not([hidden])');
      assert.match(await statusText(), /could not be drawn \(showing the last good drawing\)/);
      assert.ok((await drawnNodeIds(explorer, 'stageGraph')).length > 0, 'the last good SVG is still on screen');
      // The thoughts' own drawing needs no measuring: a new thought is a new row.
      await explorer.send({ type: 'thoughtAdded', sessionId: full.meta.id, meta: full.meta, thought: full.thoughts[12] });
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="12"]');
      assert.equal(await cardCount(explorer), 13, 'the card is shown');
      await explorer.screenshot('render-error-kept');
    } finally {
      await explorer.close();
    }
  });

  it(
    'stays usable at 1,000 thoughts: rows drawn only near the view, the newest followed, every one reachable',
    { timeout: 240_000 },
    async () => {
      const snapshot = reactSession({ thoughts: 1_000 });
      const explorer = await ExplorerPage.openWith(browser, snapshot, { width: 1280, height: 900, surface: 'panel' });
      try {
        await explorer.page.waitForSelector('.thought-card[data-seq="999"]', { state: 'attached' });
        await explorer.waitForDiagram('stageGraph', 'g.node.current');
        for (const kind of ['branchTree', 'revisionChain'] as const) {
          await explorer.showTab(kind);
          await explorer.waitForDiagram(kind, '.graph-row[data-seq="999"]');
          const ids = await drawnNodeIds(explorer, kind);
          assert.ok(ids.length > 1 && ids.length <= 100, `${kind}: ${ids.length} rows in the DOM`);
          assert.equal(await explorer.page.getAttribute(`section.diagram-${kind}`, 'data-rows'), '1000');
        }
        await explorer.showTab('branchTree');
        // Not a blank corner: the latest thought is inside the visible part of the drawing.
        const visible = await explorer.page.evaluate(() => {
          const canvas = document.querySelector('section.diagram-branchTree .diagram-canvas')?.getBoundingClientRect();
          const row = document.querySelector('section.diagram-branchTree .graph-row[data-seq="999"]')?.getBoundingClientRect();
          if (!canvas || !row) return false;
          return (
            row.left >= canvas.left && row.right <= canvas.right + 0.5 && row.top >= canvas.top - 0.5 && row.bottom <= canvas.bottom + 0.5
          );
        });
        assert.ok(visible, 'the latest thought is in view');
        // Search reaches a thought far from the view: it is scrolled to and marked.
        await explorer.page.fill('.session-search input', '#3');
        await explorer.page.keyboard.press('Enter');
        await explorer.waitForDiagram('branchTree', '.graph-row.search-current');
        await explorer.screenshot('branch-tree-1000');
      } finally {
        await explorer.close();
      }
    },
  );
});
