// The thought drawing's overview strip and branch collapsing (webview/diagrams/thoughtGraphOverview.ts,
// src/diagrams/thoughtGraphCollapse.ts) in real Chromium, used as a person would: a click and a drag on the strip move
// the view of a 10,000-thought session there, its keys reach the end; a branch collapses only when the person asks
// (its chip's toggle or the - key on one of its rows), the rows after it move up and come back when it is expanded, a
// thought arriving on a collapsed branch leaves it collapsed, and a collapsed branch is kept when its session's snapshot
// comes again and across a reload. Screenshots (panel, 300-px sidebar; dark and light) go to
// test-results/webview/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { reactSession } from './support/sessions';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const STAGES = ['action_planning', 'action_execution', 'observation_reception', 'reasoning_update', 'evaluation_checkpoint'];
const TREE = 'section.diagram-branchTree';

/** The page's window with the state the explorer last saved (ExplorerPage keeps it there, as VS Code keeps it). */
interface SavedWindow {
  __explorerState?: { navigation?: { collapsed?: unknown } };
}

/**
 * `count` thoughts recorded by the real engine: thoughts 8–13 and 31 on branch "alt" (from #4), 20–23 on branch
 * "deep" (from #15), the rest on the main line.
 */
function branchySession(count: number, sessionId: string): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  for (let n = 1; n <= count; n++) {
    const branch =
      (n >= 8 && n <= 13) || n === 31
        ? { branchId: 'alt', branchFromThought: 4 }
        : n >= 20 && n <= 23
          ? { branchId: 'deep', branchFromThought: 15 }
          : {};
    const outcome = engine.process('fixture', {
      sessionId,
      strategy: 'react',
      thought: `Thought ${n}: ${n >= 8 && n <= 13 ? 'trying the other approach' : 'following the main plan'}.`,
      thoughtNumber: n,
      totalThoughts: 40,
      nextThoughtNeeded: true,
      stage: n === 1 ? 'problem_reception' : n === 2 ? 'initial_reasoning' : STAGES[(n - 3) % STAGES.length],
      ...branch,
    });
    if (!outcome.ok) throw new Error(`fixture thought ${n} refused: ${outcome.error}`);
  }
  const snapshot = engine.getSession(sessionId);
  if (!snapshot) throw new Error('fixture session missing');
  return structuredClone(snapshot);
}

/** Seq and top (in the drawing) of every row in the DOM. */
async function rowTops(explorer: ExplorerPage): Promise<Map<number, number>> {
  const rows = await explorer.page.$eval(`${TREE} .graph-canvas`, (canvas) => {
    const view = canvas.getBoundingClientRect();
    return [...canvas.querySelectorAll<HTMLElement>('.graph-row')].map(
      (row) => [Number(row.dataset.seq), row.getBoundingClientRect().top - view.top + canvas.scrollTop] as const,
    );
  });
  return new Map(rows);
}

/** The first thought (seq) whose row is in the canvas's visible part. */
async function firstInView(explorer: ExplorerPage): Promise<number> {
  return explorer.page.$eval(`${TREE} .graph-canvas`, (canvas) => {
    // Where each row is drawn on screen, as a person sees it.
    const view = canvas.getBoundingClientRect();
    const rows = [...canvas.querySelectorAll<HTMLElement>('.graph-row')]
      .map((row) => ({ seq: Number(row.dataset.seq), top: row.getBoundingClientRect().top - view.top }))
      .filter((row) => row.top >= -0.5);
    rows.sort((a, b) => a.top - b.top);
    return rows[0]?.seq ?? -1;
  });
}

describe('thought drawing: the overview strip', () => {
  it('a click, a drag and its keys move the view of 10,000 thoughts; it says where the view is', async () => {
    const full = reactSession({ sessionId: 'overview-10k', thoughts: 10_000 });
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 800 });
    await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(full) });
    await explorer.showTab('branchTree');
    const strip = explorer.page.locator(`${TREE} .graph-overview`);
    await strip.waitFor();
    assert.equal(await strip.getAttribute('role'), 'slider');
    assert.equal(await strip.getAttribute('aria-valuemax'), '10000');
    const box = await strip.boundingBox();
    assert.ok(box && box.width >= 10 && box.height > 200, `the strip is beside the rows, as tall as they are (${JSON.stringify(box)})`);

    // A click three quarters down brings the thoughts three quarters in to the middle of the view.
    await explorer.page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.75);
    await explorer.page.waitForFunction(
      (tree) => Number(document.querySelector(`${tree} .graph-overview`)?.getAttribute('aria-valuenow')) > 7000,
      TREE,
    );
    const afterClick = await firstInView(explorer);
    assert.ok(afterClick > 7300 && afterClick < 7500, `the view moved to about thought 7,500 (first in view: ${afterClick})`);
    const text = (await strip.getAttribute('aria-valuetext')) ?? '';
    // Its spoken value names the thoughts in view (the first may be the one partly above the top edge).
    const spoken = /^thought (\d+) to thought (\d+), of 10000 rows$/.exec(text);
    assert.ok(spoken && Math.abs(Number(spoken[1]) - (afterClick + 1)) <= 1 && Number(spoken[2]) > Number(spoken[1]), text);

    // A drag from a quarter down to above the strip follows the pointer (the strip keeps it while the button is down).
    await explorer.page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.25);
    await explorer.page.mouse.down();
    await explorer.page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.1, { steps: 5 });
    await explorer.page.mouse.move(box.x + box.width / 2, box.y - 40, { steps: 5 });
    await explorer.page.mouse.up();
    await explorer.page.waitForFunction(
      (tree) => document.querySelector(`${tree} .graph-overview`)?.getAttribute('aria-valuenow') === '1',
      TREE,
    );
    assert.equal(await firstInView(explorer), 0, 'dragged to the top');

    // The keyboard: End reaches the last thought, an arrow a screen back.
    await strip.focus();
    await explorer.page.keyboard.press('End');
    await explorer.page.waitForSelector(`${TREE} .graph-row[data-seq="9999"]`);
    const atEnd = Number(await strip.getAttribute('aria-valuenow'));
    await explorer.page.keyboard.press('ArrowUp');
    await explorer.page.waitForFunction(
      ([tree, before]) =>
        Number(document.querySelector(`${tree as string} .graph-overview`)?.getAttribute('aria-valuenow')) < Number(before),
      [TREE, atEnd] as const,
    );
    const frame = await explorer.page.locator(`${TREE} .graph-overview-frame`).boundingBox();
    assert.ok(
      frame && frame.height >= 4 && frame.y >= box.y && frame.y + frame.height <= box.y + box.height + 1,
      'the frame marks the view',
    );
    await explorer.screenshot('thought-graph-overview-10k-dark');
    await explorer.close();
  });
});

describe('thought drawing: collapsing a branch is the person’s choice', () => {
  it('the chip toggle folds a branch to its first row, the rows after move up, expanding puts them back', async () => {
    const all = branchySession(31, 'collapse-chip');
    const full: SessionSnapshot = {
      ...all,
      meta: { ...all.meta, thoughtCount: 30, lastThoughtNumber: 30 },
      thoughts: all.thoughts.slice(0, 30),
    };
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
    await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(full) });
    await explorer.showTab('branchTree');
    await explorer.page.waitForSelector(`${TREE} .graph-row[data-seq="29"]`);
    const before = await rowTops(explorer);
    assert.equal(before.size, 30, 'all 30 rows drawn');

    const toggle = explorer.page.getByRole('button', { name: 'Collapse branch alt' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    await explorer.page.waitForFunction((tree) => !document.querySelector(`${tree} .graph-row[data-seq="8"]`), TREE);
    const folded = await rowTops(explorer);
    // alt is thoughts 8–13 (seq 7–12): seq 7 stays and stands for it, seq 8–12 are gone, everything after moves up 5 rows.
    for (let seq = 8; seq <= 12; seq++) assert.ok(!folded.has(seq), `seq ${seq} is folded away`);
    assert.equal(folded.get(7), before.get(7), 'the branch’s first row stays where it was');
    assert.equal(folded.get(13), before.get(8), 'the next row moves up into the space');
    assert.equal(folded.get(29), before.get(24));
    const first = explorer.page.locator(`${TREE} .graph-row[data-seq="7"]`);
    assert.match((await first.getAttribute('aria-label')) ?? '', /branch collapsed, 5 more thoughts hidden$/);
    assert.equal(await first.locator('.row-folded').textContent(), '+5 more thoughts hidden');
    const expand = explorer.page.getByRole('button', { name: 'Expand branch alt' });
    assert.equal(await expand.getAttribute('aria-expanded'), 'false');
    const strip = explorer.page.locator(`${TREE} .graph-overview`);
    assert.equal(await strip.getAttribute('aria-valuemax'), '25', 'the overview shows the rows as they are now');

    // A thought arriving on the collapsed branch leaves it collapsed (nothing folds or unfolds by itself).
    await explorer.send({ type: 'thoughtAdded', sessionId: all.meta.id, meta: all.meta, thought: all.thoughts[30] });
    await explorer.page.waitForFunction(
      (tree) => document.querySelector(`${tree} .graph-row[data-seq="7"] .row-folded`)?.textContent === '+6 more thoughts hidden',
      TREE,
    );
    assert.equal(await expand.getAttribute('aria-expanded'), 'false', 'still collapsed');
    await explorer.screenshot('thought-graph-collapsed-panel-dark');

    await expand.click();
    await explorer.page.waitForSelector(`${TREE} .graph-row[data-seq="8"]`);
    const back = await rowTops(explorer);
    for (let seq = 0; seq < 30; seq++) assert.equal(back.get(seq), before.get(seq), `row ${seq} is back in its place`);
    await explorer.close();
  });

  it('the keyboard: - on a branch row collapses it, + expands it, focus stays on the branch', async () => {
    const full = branchySession(30, 'collapse-keys');
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
    await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(full) });
    await explorer.showTab('branchTree');
    await explorer.page.waitForSelector(`${TREE} .graph-row[data-seq="21"]`);
    // Focus thought 22 (seq 21, on "deep") by the keyboard: Enter on the drawing, then down.
    await explorer.page.focus(`${TREE} .graph-canvas`);
    await explorer.page.keyboard.press('Enter');
    await explorer.page.keyboard.press('Home');
    await explorer.page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.seq === '0');
    for (let step = 0; step < 21; step++) await explorer.page.keyboard.press('ArrowDown');
    await explorer.page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.seq === '21');
    assert.equal(
      await explorer.page.evaluate(() => document.activeElement?.getAttribute('tabindex')),
      '0',
      'the focused row is the tab stop',
    );
    await explorer.page.keyboard.press('-');
    // deep is thoughts 20–23 (seq 19–22): focus moves to its first row, which says what it hides.
    await explorer.page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.seq === '19');
    assert.match((await explorer.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /3 more thoughts hidden$/);
    assert.equal(await explorer.page.locator(`${TREE} .graph-row[data-seq="20"]`).count(), 0);
    // Down from the folded branch goes to the thought after it.
    await explorer.page.keyboard.press('ArrowDown');
    await explorer.page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.seq === '23');
    await explorer.page.keyboard.press('ArrowUp');
    await explorer.page.keyboard.press('+');
    await explorer.page.waitForSelector(`${TREE} .graph-row[data-seq="20"]`);
    assert.equal(await explorer.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.seq), '19');
    // The main line has nothing to collapse.
    await explorer.page.keyboard.press('Home');
    await explorer.page.keyboard.press('-');
    assert.equal(await explorer.page.locator(`${TREE} .row-folded`).count(), 0);
    await explorer.close();
  });

  it('a collapsed branch stays collapsed when its session comes again and after a reload, and not in another session', async () => {
    const full = branchySession(30, 'collapse-kept');
    const collapsed = (explorer: ExplorerPage) => explorer.page.getByRole('button', { name: 'Expand branch alt' });
    const first = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
    let saved: unknown;
    try {
      await first.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(full) });
      await first.showTab('branchTree');
      await first.page.getByRole('button', { name: 'Collapse branch alt' }).click();
      await first.page.waitForFunction((tree) => !document.querySelector(`${tree} .graph-row[data-seq="8"]`), TREE);
      // The same session's snapshot again (as the host re-sends one the page did not confirm): still collapsed.
      await first.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(structuredClone(full)) });
      await first.page.waitForSelector(`${TREE} .graph-row[data-seq="29"]`);
      assert.equal(await collapsed(first).getAttribute('aria-expanded'), 'false');
      assert.equal(await first.page.locator(`${TREE} .graph-row[data-seq="8"]`).count(), 0);
      // Saved with the view state once it settles.
      await first.page.waitForFunction(() => (window as unknown as SavedWindow).__explorerState?.navigation?.collapsed !== undefined);
      saved = await first.savedState();
    } finally {
      await first.close();
    }
    assert.deepEqual((saved as { navigation: { collapsed: unknown } }).navigation.collapsed, {
      branchTree: { sessionId: full.meta.id, lanes: [1] },
    });

    // The view reopened with its saved state (VS Code restoring the panel): the branch is still collapsed.
    const second = await ExplorerPage.openWith(browser, full, { savedState: saved });
    try {
      await second.showTab('branchTree');
      await second.page.waitForSelector(`${TREE} .graph-row[data-seq="29"]`);
      assert.equal(await collapsed(second).getAttribute('aria-expanded'), 'false');
      assert.equal(await second.page.locator(`${TREE} .graph-row[data-seq="8"]`).count(), 0);
      // Another session starts with every branch expanded.
      const other = branchySession(30, 'collapse-other');
      await second.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(other) });
      await second.page.waitForSelector(`${TREE} .graph-row[data-seq="8"]`);
      assert.equal(await second.page.getByRole('button', { name: 'Collapse branch alt' }).getAttribute('aria-expanded'), 'true');
    } finally {
      await second.close();
    }
  });

  it('readable in a 300-px sidebar, dark and light: chips, toggles and the strip fit without a sideways scrollbar', async () => {
    const full = branchySession(30, 'collapse-sidebar');
    for (const theme of ['dark', 'light'] as const) {
      const explorer = await ExplorerPage.open(browser, { surface: 'view', width: 300, height: 800, theme });
      await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(full) });
      await explorer.showTab('branchTree');
      await explorer.page.waitForSelector(`${TREE} .graph-row`);
      await explorer.page.getByRole('button', { name: 'Collapse branch alt' }).click();
      await explorer.page.waitForSelector(`${TREE} .graph-row .row-folded`);
      const overflow = await explorer.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
      const strip = await explorer.page.locator(`${TREE} .graph-overview`).boundingBox();
      assert.ok(strip && strip.width >= 10 && strip.x + strip.width <= 300, `the strip is inside the sidebar (${JSON.stringify(strip)})`);
      const text = await explorer.page.locator(`${TREE} .graph-row[data-seq="13"] .row-text`).boundingBox();
      assert.ok(text && text.width >= 60, `the thought text keeps room to be read (${text?.width} px)`);
      await explorer.screenshot(`thought-graph-collapsed-sidebar-${theme}`);
      await explorer.close();
    }
  });
});
