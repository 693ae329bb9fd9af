// Navigating diagrams in real Chromium: the stage graph's zoom (buttons, ctrl+wheel about the pointer), pan (drag,
// arrows on the canvas), fit and 1:1, kept per tab; the thought drawing's keyboard navigation (rows in a roving tab
// order, arrows along lines, Home/End, Enter/Escape), the focus kept as the session grows, aria labels carrying the
// text, search with stepping, and the throttled live announcements.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { stageEdgeId, stageNodeId } from '../../src/diagrams/stageGraph';
import { resolveLinks } from '../../src/diagrams/thoughtLinks';
import type { SessionSnapshot } from '../../src/engine/model';
import { findStrategy } from '../../src/engine/strategies/catalog';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { reactSession } from './support/sessions';

type Kind = 'stageGraph' | 'branchTree' | 'revisionChain';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** The branch tree of `snapshot` in the panel, every row drawn (30 rows fit the view and its margin). */
async function openWholeTree(snapshot: SessionSnapshot, options: Parameters<typeof ExplorerPage.open>[1] = {}): Promise<ExplorerPage> {
  const explorer = await ExplorerPage.openWith(browser, snapshot, { width: 1280, height: 900, surface: 'panel', ...options });
  await explorer.showTab('branchTree');
  await explorer.waitForDiagram('branchTree', `.graph-row[data-seq="${snapshot.thoughts.length - 1}"]`);
  await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="0"]');
  return explorer;
}

/** The stage graph of `snapshot` in a panel small enough for it to overflow when zoomed in. */
async function openStages(snapshot: SessionSnapshot): Promise<ExplorerPage> {
  const explorer = await ExplorerPage.openWith(browser, snapshot, { width: 900, height: 700, surface: 'panel' });
  await explorer.waitForDiagram('stageGraph', 'g.node.current');
  await explorer.page.waitForFunction(
    () => document.querySelector<HTMLElement>('section.diagram-stageGraph .diagram-canvas')?.dataset.zoom,
  );
  return explorer;
}

interface ViewFacts {
  scale: number;
  x: number;
  y: number;
  mode: string;
  renders: number;
  canvas: { left: number; top: number; right: number; bottom: number };
  drawing: { left: number; top: number; right: number; bottom: number };
}

async function viewFacts(explorer: ExplorerPage, kind: Kind = 'stageGraph'): Promise<ViewFacts> {
  return explorer.page.evaluate((diagram) => {
    const section = document.querySelector<HTMLElement>(`section.diagram-${diagram}`);
    const canvas = section?.querySelector<HTMLElement>('.diagram-canvas');
    const stage = section?.querySelector<HTMLElement>('.diagram-stage');
    const svg = stage?.querySelector('svg');
    if (!section || !canvas || !stage || !svg) throw new Error('no drawing');
    const matrix = new DOMMatrixReadOnly(getComputedStyle(stage).transform);
    const box = (element: Element): { left: number; top: number; right: number; bottom: number } => {
      const rect = element.getBoundingClientRect();
      return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    };
    return {
      scale: matrix.a,
      x: matrix.e,
      y: matrix.f,
      mode: canvas.dataset.viewMode ?? '',
      renders: Number(section.dataset.renders ?? 0),
      canvas: box(canvas),
      drawing: box(svg),
    };
  }, kind);
}

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} not within ${tolerance} of ${expected}`);
}

function inside(inner: ViewFacts['drawing'], outer: ViewFacts['canvas']): boolean {
  return (
    inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5
  );
}

async function sendThought(explorer: ExplorerPage, full: SessionSnapshot, seq: number): Promise<void> {
  const thought = full.thoughts[seq];
  await explorer.sendHandled({
    type: 'thoughtAdded',
    sessionId: full.meta.id,
    meta: { ...full.meta, stage: thought.stage, thoughtCount: seq + 1 },
    thought,
  });
}

async function focusedNodeId(explorer: ExplorerPage): Promise<string | undefined> {
  return explorer.page.evaluate(() => (document.activeElement as HTMLElement | SVGElement | null)?.dataset?.nodeId);
}

describe('diagram navigation in Chromium', () => {
  it('zooms the stage graph with the buttons and ctrl+wheel about the pointer, pans by drag, fits and goes back to 1:1', async () => {
    const full = reactSession({ thoughts: 32 });
    const explorer = await openStages({ ...full, thoughts: full.thoughts.slice(0, 30) });
    try {
      const page = explorer.page;
      const start = await viewFacts(explorer);
      assert.equal(start.mode, 'auto');

      await page.click('section.diagram-stageGraph [data-action="actual-size"]');
      await page.click('section.diagram-stageGraph [data-action="zoom-in"]');
      let view = await viewFacts(explorer);
      near(view.scale, 1.25, 0.001, 'zoom in');
      assert.equal(view.mode, 'free');
      await page.click('section.diagram-stageGraph [data-action="zoom-out"]');
      await page.click('section.diagram-stageGraph [data-action="zoom-out"]');
      view = await viewFacts(explorer);
      near(view.scale, 0.8, 0.001, 'zoom out twice');
      assert.equal(await page.textContent('section.diagram-stageGraph .zoom-readout'), '80%');

      // ctrl+wheel (a pinch arrives the same way) zooms in and keeps the drawing point under the pointer in place.
      const pointer = { x: (view.drawing.left + view.drawing.right) / 2, y: (view.drawing.top + view.drawing.bottom) / 2 };
      const before = await viewFacts(explorer);
      const underPointer = { x: (pointer.x - before.drawing.left) / before.scale, y: (pointer.y - before.drawing.top) / before.scale };
      await page.mouse.move(pointer.x, pointer.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -100);
      await page.keyboard.up('Control');
      await page.waitForFunction((scale) => {
        const stage = document.querySelector('section.diagram-stageGraph .diagram-stage');
        return stage !== null && new DOMMatrixReadOnly(getComputedStyle(stage).transform).a > scale + 0.01;
      }, before.scale);
      const zoomed = await viewFacts(explorer);
      assert.ok(zoomed.scale > before.scale, `ctrl+wheel zoomed in (${before.scale} → ${zoomed.scale})`);
      near(zoomed.drawing.left + underPointer.x * zoomed.scale, pointer.x, 1, 'x under the pointer');
      near(zoomed.drawing.top + underPointer.y * zoomed.scale, pointer.y, 1, 'y under the pointer');

      // A drag moves the drawing by the drag.
      await page.mouse.move(pointer.x, pointer.y);
      await page.mouse.down();
      await page.mouse.move(pointer.x - 20, pointer.y - 30, { steps: 4 });
      await page.mouse.move(pointer.x - 40, pointer.y - 60, { steps: 4 });
      await page.mouse.up();
      const dragged = await viewFacts(explorer);
      near(dragged.x - zoomed.x, -40, 1, 'dragged x');
      near(dragged.y - zoomed.y, -60, 1, 'dragged y');

      await page.click('section.diagram-stageGraph [data-action="fit"]');
      const fitted = await viewFacts(explorer);
      assert.equal(fitted.mode, 'fit');
      assert.ok(inside(fitted.drawing, fitted.canvas), 'the whole drawing is in view');

      await page.click('section.diagram-stageGraph [data-action="actual-size"]');
      await page.click('section.diagram-stageGraph [data-action="zoom-in"]');
      const chosen = await viewFacts(explorer);
      near(chosen.scale, 1.25, 0.001, '1:1 then zoom in');
      // A new thought moves the stage graph's classes and keeps exactly the zoom and pan the person chose.
      await sendThought(explorer, full, 30);
      await page.waitForSelector('.thought-card[data-seq="30"]', { state: 'attached' });
      const kept = await viewFacts(explorer);
      near(kept.scale, chosen.scale, 1e-6, 'zoom kept');
      near(kept.x, chosen.x, 0.5, 'pan x kept');
      near(kept.y, chosen.y, 0.5, 'pan y kept');
      await explorer.screenshot('navigation-zoomed');
    } finally {
      await explorer.close();
    }
  });

  it('keeps the stage graph its own view across tabs, and its canvas pans with the arrow keys when it has focus', async () => {
    const explorer = await openStages(reactSession({ thoughts: 30 }));
    try {
      const page = explorer.page;
      // Zoomed in far enough for the drawing to overflow the canvas, so there is room to pan.
      for (let step = 0; step < 4; step++) await page.click('section.diagram-stageGraph [data-action="zoom-in"]');
      const zoomed = await viewFacts(explorer);
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row');
      await explorer.showTab('stageGraph');
      const back = await viewFacts(explorer);
      near(back.scale, zoomed.scale, 1e-6, 'stage graph zoom kept across tabs');

      await page.focus('section.diagram-stageGraph .diagram-canvas');
      const scrolled = await page.evaluate(() => window.scrollY);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const panned = await viewFacts(explorer);
      near(panned.y - back.y, -80, 0.5, 'two ArrowDown pan 80 px');
      await page.keyboard.press('Minus');
      const smaller = await viewFacts(explorer);
      assert.ok(smaller.scale < panned.scale, '− zooms out');
      await page.keyboard.press('Digit0');
      assert.equal((await viewFacts(explorer)).mode, 'fit', '0 fits');
      assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'the arrows did not scroll the page');
    } finally {
      await explorer.close();
    }
  });

  it('goes through the thoughts by keyboard: rows in order, back along a line, Home/End, Enter selects, Escape leaves', async () => {
    const snapshot = reactSession({ thoughts: 30 });
    const links = resolveLinks(snapshot.thoughts);
    assert.ok(links.startsBranch.some(Boolean), 'the session has a branch');
    const last = `t${snapshot.thoughts.length - 1}`;
    const explorer = await openWholeTree(snapshot);
    try {
      const page = explorer.page;
      // Tab into the diagram: the canvas, then its row in the tab order (the first one).
      await page.focus('section.diagram-branchTree .diagram-canvas');
      await page.keyboard.press('Tab');
      assert.equal(await focusedNodeId(explorer), 't0', 'Tab lands on the first row');
      for (let seq = 1; seq < 5; seq++) {
        await page.keyboard.press('ArrowDown');
        assert.equal(await focusedNodeId(explorer), `t${seq}`, 'ArrowDown goes to the next thought');
      }
      await page.keyboard.press('ArrowUp');
      assert.equal(await focusedNodeId(explorer), 't3');
      // A branch's first thought: ArrowLeft goes back to its fork, ArrowRight along its line.
      const branchStart = links.startsBranch.findIndex(Boolean);
      await page.keyboard.press('End');
      assert.equal(await focusedNodeId(explorer), last, 'End goes to the newest thought');
      for (let seq = snapshot.thoughts.length - 1; seq > branchStart; seq--) await page.keyboard.press('ArrowUp');
      assert.equal(await focusedNodeId(explorer), `t${branchStart}`);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await focusedNodeId(explorer), `t${links.parent[branchStart]}`, 'ArrowLeft goes to the fork');
      await page.keyboard.press('Home');
      assert.equal(await focusedNodeId(explorer), 't0');
      await page.keyboard.press('End');
      // The focused row is in view (the drawing scrolls with the keyboard).
      const inView = await page.evaluate((id) => {
        const canvas = document.querySelector('section.diagram-branchTree .diagram-canvas')?.getBoundingClientRect();
        const row = document.querySelector(`section.diagram-branchTree .graph-row[data-node-id="${id}"]`)?.getBoundingClientRect();
        return canvas !== undefined && row !== undefined && row.top >= canvas.top - 1 && row.bottom <= canvas.bottom + 1;
      }, last);
      assert.ok(inView, 'the focused row is in view');
      const ring = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active) return '';
        const style = getComputedStyle(active);
        return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
      });
      assert.equal(ring, 'solid 2px rgb(0, 120, 212)', 'a focus ring in the focus colour of the theme');

      await page.keyboard.press('Enter');
      const select = await explorer.waitForPosted('selectThought', 5_000);
      assert.equal(select.seq, snapshot.thoughts.length - 1);
      assert.equal(await page.getAttribute('.thought-card.selected', 'data-seq'), String(snapshot.thoughts.length - 1));

      await page.keyboard.press('Escape');
      assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('diagram-canvas')), 'Escape leaves to the canvas');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focusedNodeId(explorer), undefined);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await focusedNodeId(explorer), last, 'Tab comes back to the row last visited');
    } finally {
      await explorer.close();
    }
  });

  it('keeps keyboard focus on the same row when a live thought is appended', async () => {
    const full = reactSession({ thoughts: 12 });
    const explorer = await openWholeTree({ ...full, thoughts: full.thoughts.slice(0, 10) });
    try {
      const page = explorer.page;
      await page.focus('section.diagram-branchTree .diagram-canvas');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const focused = await focusedNodeId(explorer);
      assert.equal(focused, 't2');
      await sendThought(explorer, full, 10);
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="10"]');
      assert.equal(await focusedNodeId(explorer), 't2', 'focus stayed on its row');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focusedNodeId(explorer), 't3', 'and the keys still work');
    } finally {
      await explorer.close();
    }
  });

  it('labels every row and node for screen readers, with its text, and one of them in the tab order per diagram', async () => {
    const snapshot = reactSession({ thoughts: 30 });
    const explorer = await openWholeTree(snapshot);
    try {
      const nodes = await explorer.page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('section.diagram-branchTree .graph-row')].map((node) => ({
          id: node.dataset.nodeId,
          role: node.getAttribute('role'),
          label: node.getAttribute('aria-label'),
          tabindex: node.getAttribute('tabindex'),
        })),
      );
      assert.equal(nodes.length, 30);
      for (const node of nodes) {
        assert.equal(node.role, 'button', `${node.id} is a button`);
        assert.ok(node.label && node.label.length > 0, `${node.id} has a label`);
      }
      assert.equal(nodes.filter((node) => node.tabindex === '0').length, 1, 'roving tabindex: one tab stop');
      const label = (seq: number): string | null | undefined => nodes.find((node) => node.id === `t${seq}`)?.label;
      // #10 revises #7; #25 starts branch alt-25 from #21 (the fixture's rhythm); #1 is plain.
      const revision = snapshot.thoughts[9];
      assert.equal(revision.revisesThought, 7);
      const text = (seq: number): string => snapshot.thoughts[seq].thought.replace(/\s+/g, ' ').trim();
      assert.equal(label(9), `thought 10, ${revision.stage?.replace(/_/g, ' ')}, revises #7: ${text(9)}`);
      assert.equal(label(24), `thought 25, ${snapshot.thoughts[24].stage?.replace(/_/g, ' ')}, branch alt-25 from #21: ${text(24)}`);
      assert.equal(label(0), `thought 1, problem reception: ${text(0)}`);
      const canvasLabel = await explorer.page.getAttribute('section.diagram-branchTree .diagram-canvas', 'aria-label');
      assert.match(canvasLabel ?? '', /Branch tree.*up and down/);

      await explorer.showTab('stageGraph');
      await explorer.waitForDiagram('stageGraph', 'g.node[role="button"]');
      const stageLabels = await explorer.page.evaluate(() =>
        [...document.querySelectorAll('section.diagram-stageGraph g.node')].map((node) => node.getAttribute('aria-label') ?? ''),
      );
      assert.ok(stageLabels.length > 3 && stageLabels.every((text) => text.trim().length > 0), 'stage nodes read their names');
      // Stage node ids hold underscores (`s_problem_reception`): the keys still follow the drawn edges.
      await explorer.page.focus('section.diagram-stageGraph .diagram-canvas');
      await explorer.page.keyboard.press('Tab');
      const firstStage = await focusedNodeId(explorer);
      assert.ok(firstStage?.startsWith('s_'), `Tab lands on a stage node (${firstStage})`);
      let nextStage = firstStage;
      for (const key of ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft']) {
        await explorer.page.keyboard.press(key);
        nextStage = await focusedNodeId(explorer);
        if (nextStage !== firstStage) break;
      }
      assert.ok(nextStage !== undefined && nextStage !== firstStage, 'an arrow key moved to another stage');
      const stageOf = new Map((findStrategy('react')?.stages ?? []).map((stage) => [stageNodeId(stage.name), stage.name]));
      const [a, b] = [stageOf.get(firstStage ?? ''), stageOf.get(nextStage)];
      assert.ok(a !== undefined && b !== undefined, 'both are stages of the strategy');
      const edgeIds = await explorer.page.evaluate(() =>
        [...document.querySelectorAll('section.diagram-stageGraph path[data-id]')].map((edge) => edge.getAttribute('data-id')),
      );
      const joined = edgeIds.includes(stageEdgeId(a, b)) || edgeIds.includes(stageEdgeId(b, a));
      assert.ok(joined, `${firstStage} and ${nextStage} are joined by a drawn edge`);
      const toolbar = await explorer.page.evaluate(() =>
        [...document.querySelectorAll('section.diagram-stageGraph .diagram-toolbar [aria-label]')].map((button) =>
          button.getAttribute('aria-label'),
        ),
      );
      assert.deepEqual(toolbar, [
        'Zoom out (Stage graph)',
        'Zoom in (Stage graph)',
        'Fit to view (Stage graph)',
        'Actual size 1:1 (Stage graph)',
      ]);
    } finally {
      await explorer.close();
    }
  });

  it('searches text, stage and branch, highlights cards and nodes, and steps with Enter and Shift+Enter', async () => {
    const full = reactSession({ thoughts: 32 });
    const snapshot = { ...full, thoughts: full.thoughts.slice(0, 30) };
    const explorer = await openWholeTree(snapshot);
    try {
      const page = explorer.page;
      const input = page.locator('.session-search input');
      const count = page.locator('.session-search .search-count');
      const cardHits = async (query: string, seqs: number[]): Promise<void> => {
        await input.fill(query);
        await page.waitForFunction(
          (wanted) =>
            [...document.querySelectorAll<HTMLElement>('.thought-card.search-hit')].map((card) => card.dataset.seq).join(',') === wanted,
          seqs.join(','),
        );
      };
      const hitsOf = async (selector: string): Promise<string[]> =>
        page.evaluate(
          (css) => [...document.querySelectorAll<HTMLElement>(css)].map((element) => element.dataset.seq ?? element.dataset.nodeId ?? ''),
          selector,
        );

      const expected = snapshot.thoughts.filter((thought) => thought.stage === 'reasoning_update').map((thought) => thought.seq);
      assert.ok(expected.length >= 4);
      await input.fill('stage:reasoning_update');
      await page.waitForFunction((n) => document.querySelector('.search-count')?.textContent === `– of ${n}`, expected.length);
      assert.deepEqual(await hitsOf('.thought-card.search-hit'), expected.map(String));
      assert.deepEqual(await hitsOf('section.diagram-branchTree .graph-row.search-hit'), expected.map(String));

      await input.press('Enter');
      assert.equal(await count.textContent(), `1 of ${expected.length}`);
      assert.deepEqual(await hitsOf('.thought-card.search-current'), [String(expected[0])]);
      await page.waitForSelector(`section.diagram-branchTree .graph-row.search-current[data-seq="${expected[0]}"]`);
      assert.deepEqual(await hitsOf('section.diagram-branchTree .graph-row.search-current'), [String(expected[0])]);
      assert.equal(await page.getAttribute('.thought-card.selected', 'data-seq'), String(expected[0]), 'stepping selects the thought');
      await input.press('Enter');
      assert.equal(await count.textContent(), `2 of ${expected.length}`);
      await input.press('Shift+Enter');
      await input.press('Shift+Enter');
      assert.equal(await count.textContent(), `${expected.length} of ${expected.length}`, 'Shift+Enter wraps to the last');
      assert.deepEqual(await hitsOf('.thought-card.search-current'), [String(expected[expected.length - 1])]);

      // Live: a new matching thought joins the hits, the current one stays current.
      const next = full.thoughts[30].stage === 'reasoning_update' ? 30 : 31;
      const joins = full.thoughts.slice(30, next + 1).filter((thought) => thought.stage === 'reasoning_update').length;
      for (let seq = 30; seq <= next; seq++) await sendThought(explorer, full, seq);
      await page.waitForSelector(`.thought-card[data-seq="${next}"]`);
      assert.equal(await count.textContent(), `${expected.length} of ${expected.length + joins}`);

      await cardHits('branch:alt-25', [24]);
      assert.equal(await count.textContent(), '– of 1');
      await page.waitForSelector('section.diagram-branchTree .graph-row.search-hit[data-seq="24"]');
      assert.deepEqual(await hitsOf('section.diagram-branchTree .graph-row.search-hit'), ['24']);
      await cardHits('"Thought 7:"', [6]);
      await cardHits('branch:main #26', [25]);

      await input.fill('#12 stage:nothing-like-this');
      await page.waitForFunction(() => document.querySelector('.search-count')?.textContent === 'No results');
      assert.deepEqual(await hitsOf('.thought-card.search-hit'), []);
      await page.waitForFunction(() => document.querySelector('section.diagram-branchTree .graph-row.search-hit') === null);

      await input.fill('evidence');
      await page.waitForFunction((total) => document.querySelector('.search-count')?.textContent === `– of ${total}`, next + 1);
      await input.press('Escape');
      assert.equal(await input.inputValue(), '');
      assert.equal(await count.textContent(), '');
      assert.deepEqual(await hitsOf('.thought-card.search-hit'), []);
    } finally {
      await explorer.close();
    }
  });

  it('announces new live thoughts politely, at most once per two seconds, summarising a burst', async () => {
    const full = reactSession({ thoughts: 12 });
    const explorer = await ExplorerPage.openWith(browser, { ...full, thoughts: full.thoughts.slice(0, 5) });
    try {
      const page = explorer.page;
      await page.waitForSelector('.thought-card[data-seq="4"]');
      assert.equal(await page.getAttribute('.live-announcer', 'aria-live'), 'polite');
      await page.evaluate(() => {
        const log: { at: number; text: string }[] = [];
        (window as unknown as { __announced: typeof log }).__announced = log;
        const region = document.querySelector('.live-announcer');
        if (!region) throw new Error('no live region');
        new MutationObserver(() => log.push({ at: performance.now(), text: region.textContent ?? '' })).observe(region, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      const announced = (): Promise<{ at: number; text: string }[]> =>
        page.evaluate(() => (window as unknown as { __announced: { at: number; text: string }[] }).__announced);

      // The page's clock stands still from here and moves only when the test moves it: "not within two seconds" is
      // checked over two seconds of the page's own time, whatever the load on the machine.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      await sendThought(explorer, full, 5);
      await page.clock.runFor(10);
      const first = await announced();
      assert.equal(first.length, 1);
      assert.equal(first[0].text, `New thought 6, ${full.thoughts[5].stage?.replace(/_/g, ' ')}`);

      // A burst of four right after: nothing more until two seconds have passed, then one summary.
      for (let seq = 6; seq <= 9; seq++) await sendThought(explorer, full, seq);
      await page.clock.runFor(1_500);
      assert.equal((await announced()).length, 1, 'nothing within the two seconds');
      await page.clock.runFor(600);
      assert.equal((await announced()).length, 2, 'the summary once two seconds have passed');
      await page.clock.runFor(5_000);
      const all = await announced();
      assert.equal(all.length, 2, `one summary for the burst: ${all.map((entry) => entry.text).join(' | ')}`);
      assert.equal(all[1].text, `4 new thoughts, latest thought 10, ${full.thoughts[9].stage?.replace(/_/g, ' ')}, revises 7`);
      const apart = all[1].at - all[0].at;
      assert.ok(apart >= 2_000 && apart <= 2_010, `${Math.round(apart)} ms apart`);
    } finally {
      await explorer.close();
    }
  });
});

/** A contrast the page must meet: `what`, its ratio and the minimum. */
interface ContrastCheck {
  what: string;
  ratio: number;
  minimum: number;
}

/**
 * WCAG contrast ratios of the explorer's text and navigation marks against what is behind them, computed from the
 * computed styles (translucent colours composited over the backgrounds under them).
 */
async function contrastChecks(explorer: ExplorerPage): Promise<ContrastCheck[]> {
  return explorer.page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (colour: string): Rgba => {
      const match = /rgba?\(([^)]+)\)/.exec(colour);
      if (!match) return [0, 0, 0, 0];
      const parts = match[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0], parts[1], parts[2], parts[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const alpha = top[3];
      return [0, 1, 2].map((index) => top[index] * alpha + bottom[index] * (1 - alpha)).concat(1) as Rgba;
    };
    const backgroundOf = (element: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let node = element; node; node = node.parentElement) {
        const colour = parse(getComputedStyle(node).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      let result: Rgba = parse(getComputedStyle(document.body).backgroundColor);
      if (result[3] < 1) result = [0, 0, 0, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const luminance = ([r, g, b]: Rgba): number => {
      const channel = (value: number): number => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: Rgba, b: Rgba): number => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light + 0.05) / (dark + 0.05);
    };
    const checks: { what: string; ratio: number; minimum: number }[] = [];
    const text = (what: string, selector: string, minimum = 4.5): void => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`${selector} not found for ${what}`);
      const background = backgroundOf(element);
      checks.push({ what, ratio: ratio(over(parse(getComputedStyle(element).color), background), background), minimum });
    };
    const mark = (
      what: string,
      selector: string,
      property: 'outlineColor' | 'stroke' | 'borderTopColor',
      against: string,
      minimum = 3,
    ): void => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`${selector} not found for ${what}`);
      const background = backgroundOf(document.querySelector(against));
      const colour = getComputedStyle(element)[property] as string;
      checks.push({ what, ratio: ratio(over(parse(colour), background), background), minimum });
    };
    text('card text', '.thought-card .thought-text');
    text('card stage', '.thought-card .thought-stage');
    text('card badge', '.thought-card .badge');
    text('search hit card text', '.thought-card.search-hit .thought-text');
    text('search count', '.session-search .search-count');
    text('search input', '.session-search input');
    text('zoom readout', 'section.diagram-stageGraph .zoom-readout');
    text('row text', 'section.diagram-branchTree .graph-row:not(.search-hit) .row-text');
    text('row stage', 'section.diagram-branchTree .graph-row:not(.search-hit) .row-tag');
    text('search hit row text', 'section.diagram-branchTree .graph-row.search-hit:not(.search-current) .row-text');
    text('current search hit row text', 'section.diagram-branchTree .graph-row.search-current .row-text');
    mark('card border', '.thought-card', 'borderTopColor', '.cards-column');
    mark(
      'row focus ring',
      'section.diagram-branchTree .graph-row:focus-visible',
      'outlineColor',
      'section.diagram-branchTree .diagram-canvas',
    );
    mark(
      'current search hit',
      'section.diagram-branchTree .graph-row.search-current',
      'outlineColor',
      'section.diagram-branchTree .diagram-canvas',
    );
    mark(
      'other search hits',
      'section.diagram-branchTree .graph-row.search-hit:not(.search-current)',
      'outlineColor',
      'section.diagram-branchTree .diagram-canvas',
    );
    mark('search hit card outline', '.thought-card.search-hit:not(.search-current)', 'outlineColor', '.cards-column');
    mark('canvas border', 'section.diagram-branchTree .diagram-canvas', 'borderTopColor', '.diagrams-column');
    return checks;
  });
}

describe('high contrast themes', () => {
  for (const [theme, file] of [
    ['highContrast', 'explorer-hc-dark'],
    ['highContrastLight', 'explorer-hc-light'],
  ] as const) {
    it(`keeps text, focus and search marks readable in ${theme} (screenshot ${file}.png)`, async () => {
      const snapshot = reactSession({ thoughts: 30 });
      const explorer = await openWholeTree(snapshot, { theme, width: 1280, height: 860 });
      try {
        const page = explorer.page;
        const input = page.locator('.session-search input');
        await input.fill('stage:reasoning_update');
        await page.waitForSelector('section.diagram-branchTree .graph-row.search-hit');
        await input.press('Enter');
        await input.press('Enter');
        // Tab lands on the selected thought (the current hit); one step down shows the ring beside the search marks.
        await page.focus('section.diagram-branchTree .diagram-canvas');
        await page.keyboard.press('Tab');
        assert.equal(
          await focusedNodeId(explorer),
          await page.getAttribute('section.diagram-branchTree .graph-row.search-current', 'data-node-id'),
        );
        await page.keyboard.press('ArrowDown');
        await page.waitForSelector('section.diagram-branchTree .graph-row:focus-visible');
        const checks = await contrastChecks(explorer);
        const failing = checks.filter((check) => check.ratio < check.minimum);
        assert.deepEqual(
          failing.map((check) => `${check.what} ${check.ratio.toFixed(2)}:1 < ${check.minimum}:1`),
          [],
          `all contrasts met: ${checks.map((check) => `${check.what} ${check.ratio.toFixed(1)}`).join(', ')}`,
        );
        await explorer.screenshot(file);
      } finally {
        await explorer.close();
      }
    });
  }
});
