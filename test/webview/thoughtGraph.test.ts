// The thoughts' own drawing (webview/diagrams/thoughtGraphView.ts) in real Chromium, as a person watches it: the demo session
// played into the panel and the sidebar one thought at a time, the drawing sampled after every thought. No row drawn
// before moves, resizes or disappears while the session is live; the label size stays the same and at least 12 px;
// the newest row is on screen; the finish changes nothing but a badge. Then a 10,000-thought session: only the rows in
// view are in the DOM, and the last thought is reached by scrolling and by the keyboard. Screenshots go to
// test-results/webview/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import type { ExplorerSurface } from '../../src/extension/explorer/explorerHtml';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { demoSession, reactSession, metaAfter } from './support/sessions';
import { waitFor } from '../support/waitFor';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

interface RowSample {
  seq: number;
  top: number;
  left: number;
  height: number;
  fontPx: number;
  dotX: number | undefined;
  dotY: number | undefined;
}

interface Sample {
  rows: RowSample[];
  /** The newest row lies wholly inside the drawing's visible part. */
  newestInView: boolean;
  scrollWidth: number;
  clientWidth: number;
}

/** Where every row of the branch tree sits in the drawing (not the viewport: the drawing scrolls to follow). */
async function sample(explorer: ExplorerPage, newest: number): Promise<Sample> {
  return explorer.page.evaluate((last) => {
    const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .graph-canvas');
    if (!canvas) throw new Error('no branch tree drawing');
    const box = canvas.getBoundingClientRect();
    const rows: RowSample[] = [];
    for (const row of canvas.querySelectorAll<HTMLElement>('.graph-row')) {
      const seq = Number(row.dataset.seq);
      const rect = row.getBoundingClientRect();
      const dot = findDot(canvas, rect);
      rows.push({
        seq,
        top: rect.top - box.top + canvas.scrollTop,
        left: rect.left - box.left,
        height: rect.height,
        fontPx: parseFloat(getComputedStyle(row.querySelector('.row-text') ?? row).fontSize),
        dotX: dot?.x,
        dotY: dot === undefined ? undefined : dot.y - box.top + canvas.scrollTop,
      });
    }
    function findDot(scope: Element, rect: DOMRect): { x: number; y: number } | undefined {
      for (const circle of scope.querySelectorAll('circle.graph-dot')) {
        const at = circle.getBoundingClientRect();
        const y = at.top + at.height / 2;
        if (y > rect.top && y < rect.bottom) return { x: at.left + at.width / 2 - box.left, y };
      }
      return undefined;
    }
    const newestRow = canvas.querySelector(`.graph-row[data-seq="${last}"]`)?.getBoundingClientRect();
    const newestInView = newestRow !== undefined && newestRow.top >= box.top - 0.5 && newestRow.bottom <= box.bottom + 0.5;
    return { rows, newestInView, scrollWidth: canvas.scrollWidth, clientWidth: canvas.clientWidth };
  }, newest);
}

async function rendersOf(explorer: ExplorerPage): Promise<number> {
  return explorer.page.evaluate(() => Number(document.querySelector<HTMLElement>('section.diagram-branchTree')?.dataset.renders ?? 0));
}

/** Plays `full` into a fresh explorer one thought at a time and checks every sample against the ones before. */
async function playAndSample(full: SessionSnapshot, surface: ExplorerSurface, width: number, height: number): Promise<ExplorerPage> {
  const explorer = await ExplorerPage.open(browser, { surface, width, height, theme: 'dark' });
  const first: SessionSnapshot = { ...full, meta: metaAfter(full, 1), thoughts: full.thoughts.slice(0, 1) };
  await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(first) });
  await explorer.showTab('branchTree');
  await explorer.page.waitForSelector('section.diagram-branchTree .graph-row[data-seq="0"]');
  const seen = new Map<number, RowSample>();
  let fontPx: number | undefined;
  // The last thought arrives with the session's ended meta: that is the finish.
  for (let seq = 1; seq < full.thoughts.length; seq++) {
    const before = await rendersOf(explorer);
    const thought = full.thoughts[seq];
    await explorer.send({ type: 'thoughtAdded', sessionId: full.meta.id, meta: metaAfter(full, seq + 1), thought });
    await waitFor(async () => (await rendersOf(explorer)) > before, `thought ${seq} drawn`);
    await explorer.page.waitForSelector(`section.diagram-branchTree .graph-row[data-seq="${seq}"]`, { state: 'attached' });
    const now = await sample(explorer, seq);
    assert.ok(now.newestInView, `after thought ${seq} the newest row is on screen`);
    assert.ok(now.scrollWidth <= now.clientWidth, `no sideways scroll (${now.scrollWidth} > ${now.clientWidth})`);
    for (const row of now.rows) {
      fontPx ??= row.fontPx;
      assert.equal(row.fontPx, fontPx, `label size of row ${row.seq} stays ${fontPx} px`);
      assert.ok(row.fontPx >= 12, `label of row ${row.seq} is at least 12 px (${row.fontPx})`);
      const earlier = seen.get(row.seq);
      if (earlier) assert.deepEqual(row, earlier, `row ${row.seq} did not move or resize after thought ${seq}`);
      else seen.set(row.seq, row);
    }
    // Every row drawn before is still drawn (the demo fits the view; nothing folds away).
    for (const seqSeen of seen.keys())
      assert.ok(
        now.rows.some((row) => row.seq === seqSeen),
        `row ${seqSeen} is still drawn`,
      );
  }
  return explorer;
}

describe('thought drawing: append-only while live', () => {
  it('the panel: rows never move, labels stay 13 px, the newest row is in view, the finish moves nothing', async () => {
    const full = await demoSession('graph-panel');
    const explorer = await playAndSample(full, 'panel', 1400, 900);
    const badge = await explorer.page.locator('section.diagram-branchTree .row-final').count();
    assert.equal(badge, 1, 'the final thought carries its badge');
    await explorer.screenshot('thought-graph-panel-finished-dark');
    await explorer.close();
  });

  it('the sidebar at 300 px: the same, with no sideways scrollbar', async () => {
    const full = await demoSession('graph-sidebar');
    const explorer = await playAndSample(full, 'view', 300, 900);
    const overflow = await explorer.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the sidebar page has no sideways scroll (${overflow} px)`);
    await explorer.screenshot('thought-graph-sidebar-finished-dark');
    await explorer.close();
  });
});

describe('thought drawing: any size', () => {
  it('10,000 thoughts: only rows in view are in the DOM; the last is reached by End and by scrolling', async () => {
    const full = reactSession({ sessionId: 'graph-10k', thoughts: 10_000, branchEvery: 500, revisionEvery: 7 });
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1400, height: 900 });
    await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(full) });
    await explorer.showTab('branchTree');
    await explorer.page.waitForSelector('section.diagram-branchTree .graph-row');
    const inDom = await explorer.page.locator('section.diagram-branchTree .graph-row').count();
    assert.ok(inDom > 0 && inDom < 200, `only the rows near the view are in the DOM (${inDom})`);
    // Keyboard: Tab into the drawing, End goes to the last thought.
    await explorer.page.focus('section.diagram-branchTree .graph-canvas');
    await explorer.page.keyboard.press('Enter');
    await explorer.page.keyboard.press('End');
    const last = full.thoughts.length - 1;
    await explorer.page.waitForFunction((seq) => (document.activeElement as HTMLElement | null)?.dataset.seq === String(seq), last);
    const label = await explorer.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    assert.match(label, new RegExp(`^thought ${full.thoughts[last].thoughtNumber}\\b`), label);
    assert.ok(label.includes(full.thoughts[last].thought.slice(0, 20)), 'the accessible name carries the thought text');
    // Scrolling to the top and back brings rows in and out.
    await explorer.page.evaluate(() => {
      const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .graph-canvas');
      if (canvas) canvas.scrollTop = 0;
    });
    await explorer.page.waitForSelector('section.diagram-branchTree .graph-row[data-seq="0"]', { state: 'attached' });
    const after = await explorer.page.locator('section.diagram-branchTree .graph-row').count();
    assert.ok(after < 200, `still only the rows near the view (${after})`);
    await explorer.screenshot('thought-graph-10k-top');
    await explorer.close();
  });
});
