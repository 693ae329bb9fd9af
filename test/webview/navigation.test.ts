// Navigating diagrams in real Chromium: zoom (buttons, ctrl+wheel about the pointer), pan (drag, wheel, arrows on the
// canvas), fit and 1:1, the view kept while the session grows, keyboard navigation from the first node to the last by
// arrow keys only, Enter/Escape, aria labels, search with stepping, and the throttled live announcements.
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

/** The whole branch tree of `snapshot` drawn at natural size ("Show all"). */
async function openWholeTree(snapshot: SessionSnapshot, options: Parameters<typeof ExplorerPage.open>[1] = {}): Promise<ExplorerPage> {
  const explorer = await ExplorerPage.openWith(browser, snapshot, { width: 1280, height: 900, surface: 'panel', ...options });
  await explorer.showTab('branchTree');
  await explorer.waitForDiagram('branchTree', 'g.node');
  // A session within the node budget is drawn whole, folded nothing, so the "Expand all" row is hidden; its button
  // still puts the diagram at natural size, the view these tests measure.
  await explorer.page.evaluate(() => document.querySelector<HTMLElement>('section.diagram-branchTree .show-all')?.click());
  await explorer.page.waitForFunction(() => document.querySelector('section.diagram-branchTree')?.classList.contains('natural-size'));
  await explorer.waitForDiagram('branchTree', 'g.node[id*="-flowchart-t0-"]');
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

async function viewFacts(explorer: ExplorerPage, kind: Kind = 'branchTree'): Promise<ViewFacts> {
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

async function waitForRenders(explorer: ExplorerPage, atLeast: number, kind: Kind = 'branchTree'): Promise<void> {
  await explorer.page.waitForFunction(
    ([diagram, count]) => Number(document.querySelector<HTMLElement>(`section.diagram-${diagram}`)?.dataset.renders ?? 0) >= count,
    [kind, atLeast] as const,
    { timeout: 60_000 },
  );
}

async function focusedNodeId(explorer: ExplorerPage): Promise<string | undefined> {
  return explorer.page.evaluate(() => (document.activeElement as HTMLElement | SVGElement | null)?.dataset?.nodeId);
}

describe('diagram navigation in Chromium', () => {
  it('zooms with the buttons and ctrl+wheel about the pointer, pans by drag and wheel, fits and goes back to 1:1', async () => {
    const full = reactSession({ thoughts: 32 });
    const explorer = await openWholeTree({ ...full, thoughts: full.thoughts.slice(0, 30) });
    try {
      const page = explorer.page;
      const start = await viewFacts(explorer);
      assert.equal(start.mode, 'auto');
      assert.equal(start.scale, 1, 'a tree shown whole starts at natural size');
      assert.ok(
        start.drawing.bottom - start.drawing.top > start.canvas.bottom - start.canvas.top,
        'the whole tree is taller than the canvas',
      );
      assert.ok(start.drawing.left >= start.canvas.left && start.drawing.right <= start.canvas.right, 'and fits its width');

      await page.click('section.diagram-branchTree [data-action="zoom-in"]');
      let view = await viewFacts(explorer);
      near(view.scale, 1.25, 0.001, 'zoom in');
      assert.equal(view.mode, 'free');
      await page.click('section.diagram-branchTree [data-action="zoom-out"]');
      await page.click('section.diagram-branchTree [data-action="zoom-out"]');
      view = await viewFacts(explorer);
      near(view.scale, 0.8, 0.001, 'zoom out twice');
      assert.equal(await page.textContent('section.diagram-branchTree .zoom-readout'), '80%');

      // ctrl+wheel (a pinch arrives the same way) zooms in and keeps the drawing point under the pointer in place.
      const pointer = { x: (view.canvas.left + view.canvas.right) / 2 + 30, y: view.canvas.top + 120 };
      const before = await viewFacts(explorer);
      const underPointer = { x: (pointer.x - before.drawing.left) / before.scale, y: (pointer.y - before.drawing.top) / before.scale };
      await page.mouse.move(pointer.x, pointer.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -100);
      await page.keyboard.up('Control');
      await page.waitForFunction((scale) => {
        const stage = document.querySelector('section.diagram-branchTree .diagram-stage');
        return stage !== null && new DOMMatrixReadOnly(getComputedStyle(stage).transform).a > scale + 0.01;
      }, before.scale);
      const zoomed = await viewFacts(explorer);
      assert.ok(zoomed.scale > before.scale, `ctrl+wheel zoomed in (${before.scale} → ${zoomed.scale})`);
      near(zoomed.drawing.left + underPointer.x * zoomed.scale, pointer.x, 1, 'x under the pointer');
      near(zoomed.drawing.top + underPointer.y * zoomed.scale, pointer.y, 1, 'y under the pointer');

      // A drag moves the drawing by the drag and does not select the node it started on.
      const selectsBefore = explorer.record.posted.filter((message) => message.type === 'selectThought').length;
      await page.mouse.move(pointer.x, pointer.y);
      await page.mouse.down();
      await page.mouse.move(pointer.x - 20, pointer.y - 30, { steps: 4 });
      await page.mouse.move(pointer.x - 40, pointer.y - 60, { steps: 4 });
      await page.mouse.up();
      const dragged = await viewFacts(explorer);
      near(dragged.x - zoomed.x, -40, 1, 'dragged x');
      near(dragged.y - zoomed.y, -60, 1, 'dragged y');
      assert.equal(
        (await explorer.postedSoFar()).filter((message) => message.type === 'selectThought').length,
        selectsBefore,
        'a drag is not a click',
      );

      // The wheel alone pans where the drawing overflows.
      await page.mouse.wheel(0, -100);
      await page.waitForFunction((y) => {
        const stage = document.querySelector('section.diagram-branchTree .diagram-stage');
        return stage !== null && new DOMMatrixReadOnly(getComputedStyle(stage).transform).f > y + 1;
      }, dragged.y);
      const wheeled = await viewFacts(explorer);
      near(wheeled.y - dragged.y, 100, 1, 'wheel up shows what is above');

      await page.click('section.diagram-branchTree [data-action="fit"]');
      const fitted = await viewFacts(explorer);
      assert.equal(fitted.mode, 'fit');
      assert.ok(inside(fitted.drawing, fitted.canvas), 'the whole drawing is in view');
      assert.ok(fitted.scale < 1);

      // Fit stays fit while the session grows: the next thought's redraw is fitted again.
      await sendThought(explorer, full, 30);
      await waitForRenders(explorer, fitted.renders + 1);
      const grown = await viewFacts(explorer);
      assert.equal(grown.mode, 'fit');
      assert.ok(inside(grown.drawing, grown.canvas), 'still all in view after a new thought');
      assert.ok(grown.scale <= fitted.scale + 1e-9, 'a taller drawing is fitted smaller or the same');

      await page.click('section.diagram-branchTree [data-action="actual-size"]');
      await page.click('section.diagram-branchTree [data-action="zoom-in"]');
      await page.mouse.move(pointer.x, pointer.y);
      await page.mouse.wheel(0, 200);
      const chosen = await viewFacts(explorer);
      near(chosen.scale, 1.25, 0.001, '1:1 then zoom in');
      assert.equal(chosen.mode, 'free');
      // A redraw with a new node keeps exactly the zoom and pan the person chose.
      await sendThought(explorer, full, 31);
      await waitForRenders(explorer, chosen.renders + 1);
      const kept = await viewFacts(explorer);
      assert.equal(kept.renders, chosen.renders + 1);
      near(kept.scale, chosen.scale, 1e-6, 'zoom kept');
      near(kept.x, chosen.x, 0.5, 'pan x kept');
      near(kept.y, chosen.y, 0.5, 'pan y kept');
      await explorer.screenshot('navigation-zoomed');
    } finally {
      await explorer.close();
    }
  });

  it('keeps each tab its own view, and the canvas pans with the arrow keys when it has focus', async () => {
    const explorer = await openWholeTree(reactSession({ thoughts: 30 }));
    try {
      const page = explorer.page;
      await page.click('section.diagram-branchTree [data-action="zoom-in"]');
      const tree = await viewFacts(explorer);
      await explorer.showTab('stageGraph');
      await explorer.waitForDiagram('stageGraph', 'g.node');
      const stages = await viewFacts(explorer, 'stageGraph');
      assert.equal(stages.mode, 'auto', 'the stage graph was not zoomed');
      await explorer.showTab('branchTree');
      const back = await viewFacts(explorer);
      near(back.scale, tree.scale, 1e-6, 'branch tree zoom kept across tabs');

      await page.focus('section.diagram-branchTree .diagram-canvas');
      const scrolled = await page.evaluate(() => window.scrollY);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const panned = await viewFacts(explorer);
      near(panned.y - back.y, -80, 0.5, 'two ArrowDown pan 80 px');
      await page.keyboard.press('ArrowRight');
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

  it('goes from the first node to the last by arrow keys only, along edges, then Enter selects and Escape leaves', async () => {
    const snapshot = reactSession({ thoughts: 30 });
    const links = resolveLinks(snapshot.thoughts);
    // The true edges, from the session's own links (independent of the drawing).
    const neighbours = new Map<string, Set<string>>();
    const join = (a: string, b: string): void => {
      if (!neighbours.has(a)) neighbours.set(a, new Set());
      if (!neighbours.has(b)) neighbours.set(b, new Set());
      neighbours.get(a)?.add(b);
      neighbours.get(b)?.add(a);
    };
    links.parent.forEach((parent, seq) => {
      if (parent !== undefined) join(`t${parent}`, `t${seq}`);
    });
    assert.ok(links.startsBranch.some(Boolean), 'the session has a branch');
    const last = `t${snapshot.thoughts.length - 1}`;
    const pathFrom = (from: string): string[] => {
      const previous = new Map<string, string>([[from, from]]);
      const queue = [from];
      while (queue.length > 0) {
        const id = queue.shift() as string;
        if (id === last) break;
        for (const next of neighbours.get(id) ?? []) {
          if (previous.has(next)) continue;
          previous.set(next, id);
          queue.push(next);
        }
      }
      const path = [last];
      while (path[0] !== from) path.unshift(previous.get(path[0]) as string);
      return path;
    };

    const explorer = await openWholeTree(snapshot);
    try {
      const page = explorer.page;
      // Tab into the diagram: the canvas, then its node in the tab order (the first one).
      await page.focus('section.diagram-branchTree .diagram-canvas');
      await page.keyboard.press('Tab');
      let current = await focusedNodeId(explorer);
      assert.equal(current, 't0', 'Tab lands on the first node');

      const visited = [current];
      for (let step = 0; current !== last; step++) {
        assert.ok(step < 60, `reached ${last} within 60 presses (path ${visited.join(' → ')})`);
        const next = pathFrom(current as string)[1];
        const key = await page.evaluate(
          ([from, to]) => {
            const centre = (id: string): { x: number; y: number } => {
              const box = document.querySelector(`section.diagram-branchTree g.node[data-node-id="${id}"]`)?.getBoundingClientRect();
              if (!box) throw new Error(`${id} not drawn`);
              return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
            };
            const a = centre(from);
            const b = centre(to);
            const dx = b.x - a.x;
            const dy = b.y - a.y;
            return Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 'ArrowDown' : 'ArrowUp') : dx > 0 ? 'ArrowRight' : 'ArrowLeft';
          },
          [current as string, next] as const,
        );
        await page.keyboard.press(key);
        const moved = await focusedNodeId(explorer);
        assert.ok(moved !== undefined, `focus stays on a node after ${key}`);
        assert.ok(neighbours.get(current as string)?.has(moved), `${key} from ${current} moved along an edge (to ${moved})`);
        current = moved;
        visited.push(current);
      }
      // The focused node is in view (the view follows the keyboard).
      const facts = await viewFacts(explorer);
      const box = await page.locator(`section.diagram-branchTree g.node[data-node-id="${last}"]`).boundingBox();
      assert.ok(box && box.y >= facts.canvas.top - 1 && box.y + box.height <= facts.canvas.bottom + 1, 'the focused node is in view');
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
      assert.equal(await focusedNodeId(explorer), last, 'Tab comes back to the node last visited');
    } finally {
      await explorer.close();
    }
  });

  it('keeps keyboard focus on the same node when a live thought redraws the diagram', async () => {
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
      const { renders } = await viewFacts(explorer);
      await sendThought(explorer, full, 10);
      await waitForRenders(explorer, renders + 1);
      assert.equal(await focusedNodeId(explorer), 't2', 'focus survived the redraw');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focusedNodeId(explorer), 't3', 'and the keys still work on the new drawing');
    } finally {
      await explorer.close();
    }
  });

  it('moves keyboard focus to the nearest node when the focused one is no longer drawn', async () => {
    const full = reactSession({ thoughts: 12 });
    const explorer = await ExplorerPage.openWith(
      browser,
      { ...full, thoughts: full.thoughts.slice(0, 10) },
      { width: 1280, height: 900, surface: 'panel' },
    );
    try {
      const page = explorer.page;
      await explorer.showTab('branchTree');
      // The live window: the last few thoughts under an "earlier" placeholder.
      await explorer.waitForDiagram('branchTree', 'g.node[data-node-id="t9"]');
      await page.focus('section.diagram-branchTree .diagram-canvas');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      const focused = await focusedNodeId(explorer);
      assert.ok(focused !== undefined && /^t\d+$/.test(focused), `a thought has focus (${focused})`);
      const { renders } = await viewFacts(explorer);
      // Two more thoughts move the window past the focused thought.
      await sendThought(explorer, full, 10);
      await sendThought(explorer, full, 11);
      await page.waitForSelector('section.diagram-branchTree g.node[data-node-id="t11"]');
      await waitForRenders(explorer, renders + 1);
      const drawn = await page.evaluate(() =>
        [...document.querySelectorAll<SVGGElement>('section.diagram-branchTree g.node')].map((node) => node.dataset.nodeId),
      );
      assert.ok(!drawn.includes(focused), `${focused} left the window`);
      const now = await focusedNodeId(explorer);
      assert.ok(now !== undefined && drawn.includes(now), `focus stayed in the diagram, on ${now}`);
    } finally {
      await explorer.close();
    }
  });

  it('labels every node for screen readers, with one node in the tab order per diagram', async () => {
    const snapshot = reactSession({ thoughts: 30 });
    const explorer = await openWholeTree(snapshot);
    try {
      const nodes = await explorer.page.evaluate(() =>
        [...document.querySelectorAll<SVGGElement>('section.diagram-branchTree g.node')].map((node) => ({
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
      assert.equal(label(9), `thought 10, ${revision.stage?.replace(/_/g, ' ')}, revises 7`);
      assert.equal(label(24), `thought 25, ${snapshot.thoughts[24].stage?.replace(/_/g, ' ')}, branch alt-25 from 21`);
      assert.equal(label(0), 'thought 1, problem reception');
      const canvasLabel = await explorer.page.getAttribute('section.diagram-branchTree .diagram-canvas', 'aria-label');
      assert.match(canvasLabel ?? '', /Branch tree.*arrow keys/);

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
        [...document.querySelectorAll('section.diagram-branchTree .diagram-toolbar [aria-label]')].map((button) =>
          button.getAttribute('aria-label'),
        ),
      );
      assert.deepEqual(toolbar, [
        'Zoom out (Branch tree)',
        'Zoom in (Branch tree)',
        'Fit to view (Branch tree)',
        'Actual size 1:1 (Branch tree)',
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
      assert.deepEqual(
        await hitsOf('section.diagram-branchTree g.node.search-hit'),
        expected.map((seq) => `t${seq}`),
      );

      await input.press('Enter');
      assert.equal(await count.textContent(), `1 of ${expected.length}`);
      assert.deepEqual(await hitsOf('.thought-card.search-current'), [String(expected[0])]);
      assert.deepEqual(await hitsOf('section.diagram-branchTree g.node.search-current'), [`t${expected[0]}`]);
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
      assert.deepEqual(await hitsOf('section.diagram-branchTree g.node.search-hit'), ['t24']);
      await cardHits('"Thought 7:"', [6]);
      await cardHits('branch:main #26', [25]);

      await input.fill('#12 stage:nothing-like-this');
      await page.waitForFunction(() => document.querySelector('.search-count')?.textContent === 'No results');
      assert.deepEqual(await hitsOf('.thought-card.search-hit'), []);
      assert.deepEqual(await hitsOf('section.diagram-branchTree g.node.search-hit'), []);

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
    const svgText = (what: string, selector: string, shapeSelector: string): void => {
      const label = document.querySelector(selector);
      const shape = document.querySelector(shapeSelector);
      if (!label || !shape) throw new Error(`${selector} not found for ${what}`);
      const fill = over(
        parse(getComputedStyle(shape).fill),
        backgroundOf(document.querySelector('section.diagram-branchTree .diagram-canvas')),
      );
      checks.push({ what, ratio: ratio(over(parse(getComputedStyle(label).color), fill), fill), minimum: 4.5 });
    };
    text('card text', '.thought-card .thought-text');
    text('card stage', '.thought-card .thought-stage');
    text('card badge', '.thought-card .badge');
    text('search hit card text', '.thought-card.search-hit .thought-text');
    text('search count', '.session-search .search-count');
    text('search input', '.session-search input');
    text('zoom readout', 'section.diagram-branchTree .zoom-readout');
    text('diagram note', 'section.diagram-branchTree .diagram-note-text');
    svgText(
      'node label',
      'section.diagram-branchTree g.node:not(.search-hit) .nodeLabel',
      'section.diagram-branchTree g.node:not(.search-hit) rect',
    );
    svgText(
      'search hit node label',
      'section.diagram-branchTree g.node.search-hit .nodeLabel',
      'section.diagram-branchTree g.node.search-hit rect',
    );
    mark('card border', '.thought-card', 'borderTopColor', '.cards-column');
    mark(
      'node focus ring',
      'section.diagram-branchTree g.node:focus-visible',
      'outlineColor',
      'section.diagram-branchTree .diagram-canvas',
    );
    mark(
      'current search hit',
      'section.diagram-branchTree g.node.search-current rect',
      'stroke',
      'section.diagram-branchTree .diagram-canvas',
    );
    mark(
      'other search hits',
      'section.diagram-branchTree g.node.search-hit:not(.search-current) rect',
      'stroke',
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
        await page.waitForSelector('section.diagram-branchTree g.node.search-hit');
        await input.press('Enter');
        await input.press('Enter');
        // Tab lands on the selected thought (the current hit); one step down shows the ring beside the search marks.
        await page.focus('section.diagram-branchTree .diagram-canvas');
        await page.keyboard.press('Tab');
        assert.equal(
          await focusedNodeId(explorer),
          await page.getAttribute('section.diagram-branchTree g.node.search-current', 'data-node-id'),
        );
        await page.keyboard.press('ArrowDown');
        await page.waitForSelector('section.diagram-branchTree g.node:focus-visible');
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
