// The offer of another live session in the explorer, in Chromium: the host's liveSessionOffer shows a one-line banner
// (the title as text, never markup) that switches only when asked ("Show it" posts switchToSession), goes once that
// session is on screen or the host withdraws it, and stays away for a session the person dismissed. Screenshots of the
// banner in the sidebar (dark and light) go to test-results/webview/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import type { ThemeKind } from '../../src/shared/protocol';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { waitFor } from '../support/waitFor';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

function session(sessionId: string, text: string): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  assert.ok(engine.process('c', { sessionId, thought: text, thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }).ok);
  const snapshot = engine.getSession(sessionId);
  assert.ok(snapshot);
  return snapshot;
}

const HOSTILE = '<img src=x onerror="window.__pwned=1">Plan the release';

describe('offer of another live session (Chromium)', () => {
  for (const theme of ['dark', 'light'] as ThemeKind[]) {
    it(`shows a banner that switches only when asked, and goes when done with (${theme})`, async () => {
      const pinned = session('pinned', 'Compare the two caching designs.');
      const other = session('other', HOSTILE);
      const explorer = await ExplorerPage.openWith(browser, pinned, { theme, surface: 'view', width: 300, height: 700 }, 'pinned');
      try {
        const page = explorer.page;
        await page.waitForSelector('.thought-card');
        assert.equal(await page.locator('.session-offer:visible').count(), 0, 'no banner before an offer');
        await explorer.send({ type: 'liveSessionOffer', session: { id: 'other', title: HOSTILE } });
        await page.waitForSelector('.session-offer:visible');
        assert.equal(await page.textContent('.session-offer-title'), HOSTILE);
        assert.equal(await page.locator('.session-offer img').count(), 0);
        assert.equal(await page.getAttribute('.session-offer', 'role'), 'status');
        await explorer.screenshot(`session-offer-${theme}`);
        // The view has not moved: the pinned session is still on screen.
        assert.match((await page.textContent('.thought-card')) ?? '', /caching designs/);

        await page.click('vscode-button.session-offer-switch');
        await waitFor(
          () => explorer.record.posted.some((message) => message.type === 'switchToSession' && message.sessionId === 'other'),
          'switchToSession posted',
        );
        // The host answers with the session: the offer is done with.
        await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(other) });
        await page.waitForSelector('.session-offer', { state: 'hidden' });

        // Dismissed: an offer of that session again stays hidden; a withdrawn offer hides the banner.
        await explorer.send({ type: 'liveSessionOffer', session: { id: 'third', title: 'Third' } });
        await page.waitForSelector('.session-offer:visible');
        await page.click('.session-offer-dismiss');
        await page.waitForSelector('.session-offer', { state: 'hidden' });
        await explorer.sendHandled({ type: 'liveSessionOffer', session: { id: 'third', title: 'Third' } });
        assert.equal(await page.locator('.session-offer:visible').count(), 0, 'a dismissed session is not offered again');
        await explorer.send({ type: 'liveSessionOffer', session: { id: 'fourth', title: 'Fourth' } });
        await page.waitForSelector('.session-offer:visible');
        await explorer.send({ type: 'liveSessionOffer', session: null });
        await page.waitForSelector('.session-offer', { state: 'hidden' });
        assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
        assert.deepEqual(explorer.record.pageErrors, []);
      } finally {
        await explorer.close();
      }
    });
  }
});
