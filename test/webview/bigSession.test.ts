// A 10,000-thought session in the explorer, in real Chromium: only a window of cards is in the DOM — the newest page
// on open, the right cards after "Show earlier thoughts", a live thought, a replay seek or a restored selection far
// back. Also the host's showInView and the webview's uiState report, and the state a webview saves for a window
// reload (session, mode, tab, selection): it comes back, while a malformed saved state is ignored, never trusted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { CARD_PAGE, MAX_CARDS_IN_DOM } from '../../webview/cards/cardWindow';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { reactSession } from './support/sessions';

const TOTAL = 10_000;
let browser: Browser;
let big: SessionSnapshot;

before(async () => {
  browser = await launchChromium();
  big = reactSession({ thoughts: TOTAL, sessionId: 'big-session' });
});

after(async () => {
  await browser?.close();
});

/** The seqs of the cards in the DOM, in document order. */
async function cardSeqs(explorer: ExplorerPage): Promise<number[]> {
  return explorer.page.$$eval('.thought-card', (cards) => cards.map((card) => Number((card as HTMLElement).dataset.seq)));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

describe('a 10,000-thought session in the explorer', () => {
  it('opens on its newest page of cards; "Show earlier thoughts" adds the page before, in order, within the cap', async () => {
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1280, height: 900 });
    try {
      await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(big) });
      await explorer.page.waitForSelector(`.thought-card[data-seq="${TOTAL - 1}"]`);
      assert.deepEqual(await cardSeqs(explorer), range(TOTAL - CARD_PAGE, TOTAL));
      assert.equal((await explorer.page.textContent('.cards-earlier button'))?.trim(), 'Show earlier thoughts (9,900 more)');
      assert.equal(await explorer.page.isHidden('.cards-later'), true);
      // The text on a card is the thought's own.
      assert.equal(
        (await explorer.page.textContent(`.thought-card[data-seq="${TOTAL - 1}"] .thought-text`))?.trim(),
        big.thoughts[TOTAL - 1].thought,
      );

      for (let click = 1; click <= 3; click++) await explorer.page.click('.cards-earlier button');
      // Three pages earlier with a cap of three pages: the newest page gave way.
      let seqs = await cardSeqs(explorer);
      assert.deepEqual(seqs, range(TOTAL - 4 * CARD_PAGE, TOTAL - CARD_PAGE));
      assert.equal(seqs.length, MAX_CARDS_IN_DOM);
      assert.equal((await explorer.page.textContent('.cards-later button'))?.trim(), `Show later thoughts (${CARD_PAGE} more)`);
      await explorer.page.click('.cards-later button');
      seqs = await cardSeqs(explorer);
      assert.deepEqual(seqs, range(TOTAL - 3 * CARD_PAGE, TOTAL));
      assert.equal(await explorer.page.isHidden('.cards-later'), true);

      // A live thought extends a window that reached the end; the DOM stays within the cap.
      const next = reactSession({ thoughts: TOTAL + 1, sessionId: 'big-session' });
      const thought = next.thoughts[TOTAL];
      await explorer.send({ type: 'thoughtAdded', sessionId: 'big-session', meta: next.meta, thought });
      await explorer.page.waitForSelector(`.thought-card[data-seq="${TOTAL}"]`);
      seqs = await cardSeqs(explorer);
      assert.equal(seqs.at(-1), TOTAL);
      assert.ok(seqs.length <= MAX_CARDS_IN_DOM, `${seqs.length} cards`);
      assert.deepEqual(seqs, range(seqs[0], TOTAL + 1), 'consecutive, no gap, no duplicate');
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });

  it('a selection far back (restored after a reload) brings its card into the window, selected', async () => {
    const explorer = await ExplorerPage.open(browser, {
      surface: 'panel',
      width: 1280,
      height: 900,
      savedState: { sessionId: 'big-session', mode: 'pinned', activeTab: 'revisionChain', selectedSeq: 1_234, showAll: [] },
    });
    try {
      await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(big) });
      await explorer.page.waitForSelector('.thought-card.selected[data-seq="1234"]');
      const seqs = await cardSeqs(explorer);
      assert.ok(seqs.includes(1_234) && seqs.length <= MAX_CARDS_IN_DOM);
      assert.equal(await explorer.page.getAttribute('vscode-tabs', 'selected-index'), '2', 'the revision chain tab is back');
      const visible = await explorer.page.evaluate(() => {
        const column = document.querySelector('.cards-column')?.getBoundingClientRect();
        const card = document.querySelector('.thought-card.selected')?.getBoundingClientRect();
        return column !== undefined && card !== undefined && card.top >= column.top - 1 && card.bottom <= column.bottom + 1;
      });
      assert.ok(visible, 'the selected card is scrolled into view');
      const state = await explorer.savedState();
      assert.deepEqual(
        [state.sessionId, state.mode, state.activeTab, state.selectedSeq],
        ['big-session', 'pinned', 'revisionChain', 1_234],
      );
    } finally {
      await explorer.close();
    }
  });

  it('a replay seek shows the cards up to the new position', async () => {
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1280, height: 900 });
    try {
      await explorer.send({ type: 'snapshot', mode: 'replay', session: toSessionView(big) });
      await explorer.page.waitForSelector('.replay-bar:not([hidden])');
      for (const position of [9_000, 9_050, 4_321, 120, 0, TOTAL]) {
        await explorer.send({ type: 'replayState', playing: false, position });
        await explorer.page.waitForFunction(
          (text) => document.querySelector('.replay-position')?.textContent === text,
          `${position} / ${TOTAL}`,
        );
        const seqs = await cardSeqs(explorer);
        if (position === 0) {
          assert.deepEqual(seqs, []);
          continue;
        }
        assert.equal(seqs.at(-1), position - 1, `the last card at position ${position}`);
        assert.deepEqual(seqs, range(seqs[0], position), `consecutive cards at ${position}`);
        assert.ok(seqs.length <= MAX_CARDS_IN_DOM);
      }
      assert.equal((await explorer.savedState()).mode, 'replay');
    } finally {
      await explorer.close();
    }
  });

  it('the host can show a tab and a thought (showInView); the webview reports what it shows (uiState)', async () => {
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1280, height: 900 });
    try {
      await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(big) });
      await explorer.page.waitForSelector(`.thought-card[data-seq="${TOTAL - 1}"]`);
      await explorer.send({ type: 'showInView', tab: 'branchTree', seq: 42 });
      await explorer.page.waitForSelector('.thought-card.selected[data-seq="42"]');
      assert.equal(await explorer.page.getAttribute('vscode-tabs', 'selected-index'), '1');
      const reports = explorer.record.posted.filter((message) => message.type === 'uiState');
      assert.deepEqual(reports.at(-1), { type: 'uiState', sessionId: 'big-session', activeTab: 'branchTree', selectedSeq: 42 });
    } finally {
      await explorer.close();
    }
  });

  it('ignores a malformed saved state instead of trusting it', async () => {
    const explorer = await ExplorerPage.open(browser, {
      savedState: {
        sessionId: 42,
        mode: 'admin',
        activeTab: '<img src=x onerror=alert(1)>',
        selectedSeq: -5,
        showAll: 'all',
        navigation: [1],
      },
    });
    try {
      const small = reactSession({ thoughts: 8, sessionId: 'small' });
      await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(small) });
      await explorer.page.waitForSelector('.thought-card[data-seq="7"]');
      assert.equal(await explorer.page.getAttribute('vscode-tabs', 'selected-index'), '0');
      assert.equal(await explorer.page.locator('.thought-card.selected').count(), 0);
      const state = await explorer.savedState();
      assert.deepEqual([state.sessionId, state.mode, state.activeTab, 'showAll' in state], ['small', 'live', 'stageGraph', false]);
      // The malformed navigation was dropped: what is saved now is the view's own state (the stage graph's zoom and
      // pan, the thought drawings' scroll).
      const navigation = state.navigation as
        { views?: Record<string, unknown>; scroll?: Record<string, unknown>; search?: unknown } | undefined;
      assert.deepEqual(Object.keys(navigation?.views ?? {}), ['stageGraph']);
      assert.deepEqual(Object.keys(navigation?.scroll ?? {}).sort(), ['branchTree', 'revisionChain']);
      assert.equal(navigation?.search, '');
      assert.deepEqual(explorer.record.pageErrors, []);
      assert.deepEqual(explorer.record.dialogs, []);
    } finally {
      await explorer.close();
    }
  });
});
