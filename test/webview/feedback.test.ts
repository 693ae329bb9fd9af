// Steering a live session in the explorer, in real Chromium, fed through the shared protocol as the host feeds it:
// the note box, Conclude now and the card actions post the right `giveFeedback` messages; the host's answer shows in
// the status line; feedback is drawn on the cards it is about (pending, delivered, applied), on the thought that
// applied it, and as the `feedback` class on the branch tree's node; finished sessions and replays offer no controls.
// The screenshot of a rejection and its applied revision is docs/feedback-rejection.png (refreshed with
// THOUGHT_EXPLORER_UPDATE_DOCS=1).
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { waitFor } from '../support/waitFor';
import { ROOT } from '../mcp/support/clients';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"> **bold** [link](https://example.com)';

/** A live CI-caching session recorded by the real engine; with `steered`, thought 3 rejected and then revised. */
function ciSession(options: { steered?: boolean; complete?: boolean } = {}): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  const texts = [
    'Restate the goal: cut CI time on the monorepo without flaky caches.',
    'Measure first: 60% of each run is restoring node_modules and the build cache.',
    'Key the cache on the lockfile hash only, shared by every job.',
    'Estimate: a warm cache saves about 6 minutes a run.',
  ];
  const sessionId = options.steered ? 'ci-cache-steered' : 'ci-cache';
  texts.forEach((thought, index) =>
    engine.process('c', { sessionId, thought, thoughtNumber: index + 1, totalThoughts: 6, nextThoughtNeeded: true }),
  );
  if (options.steered) {
    const reject = engine.addFeedback(sessionId, {
      kind: 'reject',
      thoughtNumber: 3,
      text: 'The cache key ignores the runner OS: Windows and Linux jobs would share one cache.',
    });
    assert.ok(reject.ok);
    engine.process('c', {
      thought: 'Note the OS question before estimating further.',
      thoughtNumber: 5,
      totalThoughts: 6,
      nextThoughtNeeded: true,
    });
    engine.process('c', {
      thought: 'Revised: key the cache on runner OS + lockfile hash, so Windows and Linux jobs never share one.',
      thoughtNumber: 6,
      totalThoughts: 7,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 3,
    });
    assert.ok(engine.addFeedback(sessionId, { kind: 'note', text: 'Consider the macOS runners as well.' }).ok);
  }
  if (options.complete) engine.process('c', { thought: 'Done.', thoughtNumber: 7, totalThoughts: 7, nextThoughtNeeded: false });
  const snapshot = engine.getSession(sessionId);
  assert.ok(snapshot);
  return snapshot;
}

function postedFeedback(explorer: ExplorerPage) {
  return explorer.record.posted.filter((message) => message.type === 'giveFeedback');
}

async function waitForFeedbackPosts(explorer: ExplorerPage, count: number) {
  await waitFor(() => postedFeedback(explorer).length >= count, `${count} giveFeedback messages`, 10_000);
  return postedFeedback(explorer);
}

describe('feedback controls in the explorer (Chromium)', () => {
  it('posts a note, a rejection, an alternative and a conclusion with the right fields, and shows the host’s answer', async () => {
    const explorer = await ExplorerPage.openWith(browser, ciSession());
    try {
      const page = explorer.page;
      await page.waitForSelector('.feedback-panel:not([hidden])');
      await page.fill('.feedback-note-input', 'Consider the Windows runners too.');
      await page.click('vscode-button.feedback-send-note');
      let posts = await waitForFeedbackPosts(explorer, 1);
      assert.deepEqual(
        { ...posts[0], requestId: undefined },
        {
          type: 'giveFeedback',
          requestId: undefined,
          sessionId: 'ci-cache',
          kind: 'note',
          text: 'Consider the Windows runners too.',
        },
      );
      await explorer.send({ type: 'feedbackResult', requestId: posts[0].requestId, ok: true });
      await page.waitForFunction(() => (document.querySelector('.feedback-note-input') as HTMLTextAreaElement).value === '');
      assert.match((await page.textContent('.feedback-status')) ?? '', /next thought/);

      // Card actions: on the newest card at first, then on whichever card is pointed at or tabbed to; no selection needed.
      await page.waitForSelector('.thought-card[data-seq="3"] .feedback-actions vscode-button.feedback-reject');
      await page.hover('.thought-card[data-seq="2"] .thought-text');
      await page.click('.thought-card[data-seq="2"] vscode-button.feedback-reject');
      assert.equal(await page.locator('.thought-card.selected').count(), 0, 'rejecting needs no selected card');
      await page.fill('.thought-card[data-seq="2"] .feedback-input-reject', 'The key ignores the OS.');
      await page.click('.thought-card[data-seq="2"] vscode-button.feedback-submit-reject');
      posts = await waitForFeedbackPosts(explorer, 2);
      assert.deepEqual([posts[1].kind, posts[1].thoughtNumber, posts[1].text], ['reject', 3, 'The key ignores the OS.']);

      await explorer.send({ type: 'feedbackResult', requestId: posts[1].requestId, ok: true });
      await page.waitForSelector('.feedback-input-reject', { state: 'detached' });
      // From the keyboard: Tab onto a card, then into its actions.
      await page.mouse.move(0, 0);
      await page.focus('.thought-card[data-seq="1"]');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(
          () => document.activeElement?.closest('.thought-card')?.getAttribute('data-seq') + ':' + document.activeElement?.className,
        ),
        '1:feedback-branch',
      );
      await page.keyboard.press('Enter');
      assert.equal(await page.inputValue('.thought-card[data-seq="1"] .feedback-input-branch'), 'alt-2');
      await page.fill('.thought-card[data-seq="1"] .feedback-input-branch', 'alt-remote-cache');
      await page.press('.thought-card[data-seq="1"] .feedback-input-branch', 'Enter');
      posts = await waitForFeedbackPosts(explorer, 3);
      assert.deepEqual([posts[2].kind, posts[2].thoughtNumber, posts[2].branchId], ['branch', 2, 'alt-remote-cache']);

      await page.click('vscode-button.feedback-conclude');
      posts = await waitForFeedbackPosts(explorer, 4);
      assert.equal(posts[3].kind, 'conclude');
      assert.equal(new Set(posts.map((post) => post.requestId)).size, 4);

      // A refusal is shown as the host wrote it.
      await explorer.send({
        type: 'feedbackResult',
        requestId: posts[3].requestId,
        ok: false,
        error: 'Session "ci-cache" is complete; feedback goes to live sessions.',
      });
      await page.waitForSelector('.feedback-status.error');
      assert.equal(await page.textContent('.feedback-status'), 'Session "ci-cache" is complete; feedback goes to live sessions.');
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });

  it('draws feedback on its card, the applied state on the revision, and marks by kind and state in the branch tree', async () => {
    const snapshot = ciSession({ steered: true });
    const explorer = await ExplorerPage.openWith(browser, snapshot, { surface: 'panel', width: 1280, height: 820 });
    try {
      const page = explorer.page;
      await page.waitForSelector('.thought-card[data-seq="2"].has-feedback .feedback-mark.feedback-reject.feedback-applied');
      const mark = await page.textContent('.thought-card[data-seq="2"] .feedback-mark');
      assert.match(mark ?? '', /Rejected.*The cache key ignores the runner OS.*applied by #6/);
      assert.match(
        (await page.textContent('.thought-card[data-seq="5"] .badge-applies-feedback')) ?? '',
        /Applies your feedback \(reject #3\)/,
      );
      assert.equal(await page.locator('.has-feedback').count(), 1);
      const note = page.locator('.feedback-general .feedback-mark.feedback-note.feedback-pending .feedback-text');
      assert.equal(await note.textContent(), 'Consider the macOS runners as well.');

      await explorer.showTab('branchTree');
      // The rejection's mark, by kind and state, on the thought it is about and on the revision that applied it.
      await explorer.waitForDiagram('branchTree', '.graph-row .graph-mark.mark-reject');
      const marked = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('section.diagram-branchTree .graph-row')]
          .filter((row) => row.querySelector('.graph-mark.mark-reject.state-applied'))
          .map((row) => row.dataset.nodeId),
      );
      assert.deepEqual(marked, ['t2', 't5']);
      assert.match(
        (await page.getAttribute('section.diagram-branchTree .graph-row[data-seq="2"]', 'aria-label')) ?? '',
        /feedback: rejected, applied/,
      );

      // A change from the host (delivered now) redraws the note's state.
      const delivered = (snapshot.feedback ?? []).map((record) => ({ ...record, deliveredAt: record.deliveredAt ?? Date.now() }));
      await explorer.send({ type: 'feedbackChanged', sessionId: snapshot.meta.id, feedback: delivered });
      await page.waitForSelector('.feedback-general .feedback-mark.feedback-note.feedback-delivered');
      // The picture for the docs: the rejected card and the revision that applied it, selected.
      await page.click('.thought-card[data-seq="5"] .thought-text');
      await page.waitForSelector('.thought-card.selected[data-seq="5"]');
      await page.locator('.thought-card[data-seq="2"]').scrollIntoViewIfNeeded();
      const path = await explorer.screenshot('feedback-rejection');
      // The picture in docs/ is refreshed on request only: a test run leaves the working tree as it found it.
      if (process.env.THOUGHT_EXPLORER_UPDATE_DOCS === '1') copyFileSync(path, join(ROOT, 'docs', 'feedback-rejection.png'));

      // Feedback text is untrusted: a note and a reason that look like markup stay text, on cards and in the panel.
      const hostile = delivered.map((record) => ({ ...record, text: HOSTILE }));
      await explorer.send({ type: 'feedbackChanged', sessionId: snapshot.meta.id, feedback: hostile });
      await page.waitForFunction((text) => document.querySelector('.feedback-general .feedback-text')?.textContent === text, HOSTILE);
      assert.equal(await page.textContent('.thought-card[data-seq="2"] .feedback-text'), HOSTILE);
      assert.equal(await page.locator('.feedback-marks img, .feedback-general img, .feedback-marks a').count(), 0);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      assert.deepEqual(explorer.record.pageErrors, []);
      assert.deepEqual(explorer.record.cspViolations, []);
    } finally {
      await explorer.close();
    }
  });

  it('shows each state: waiting, delivered, applied, not acted on (thoughts passed, session ended), not delivered', async () => {
    const engine = new ThinkingEngine({ log: () => undefined });
    const think = (sessionId: string, thoughtNumber: number, extra: Record<string, unknown> = {}) =>
      engine.process('c', {
        sessionId,
        thought: `Thought ${thoughtNumber} of the plan.`,
        thoughtNumber,
        totalThoughts: 9,
        nextThoughtNeeded: true,
        ...extra,
      });
    const reject = (sessionId: string, thoughtNumber: number) => {
      const given = engine.addFeedback(sessionId, { kind: 'reject', thoughtNumber, text: `Thought ${thoughtNumber} is wrong.` });
      assert.ok(given.ok);
    };
    // Live: #1 rejected and ignored for three thoughts, #2 rejected and revised, #3 rejected just now, #4 not yet sent.
    for (let number = 1; number <= 3; number++) think('states', number);
    reject('states', 1);
    reject('states', 2);
    think('states', 4);
    think('states', 5, { isRevision: true, revisesThought: 2 });
    think('states', 6);
    reject('states', 3);
    think('states', 7);
    reject('states', 4);
    const live = engine.getSession('states');
    assert.ok(live);
    const explorer = await ExplorerPage.openWith(browser, live, { surface: 'panel', width: 1280, height: 900 });
    try {
      const page = explorer.page;
      const stateOf = async (seq: number) => {
        const mark = page.locator(`.thought-card[data-seq="${seq}"] .feedback-mark`);
        return `${(await mark.getAttribute('class'))?.match(/feedback-(pending|delivered|applied|not-acted-on|undelivered)/)?.[1]}: ${await mark.locator('.feedback-state').textContent()}`;
      };
      await page.waitForSelector('.thought-card[data-seq="3"] .feedback-mark');
      assert.deepEqual(
        [await stateOf(0), await stateOf(1), await stateOf(2), await stateOf(3)],
        [
          'not-acted-on: not acted on: 3 thoughts passed',
          'applied: applied by #5',
          'delivered: delivered to the agent',
          'pending: waiting for the next thought',
        ],
      );
      await page.locator('.thought-card[data-seq="0"]').scrollIntoViewIfNeeded();
      const path = await explorer.screenshot('feedback-states-live');
      if (process.env.THOUGHT_EXPLORER_UPDATE_DOCS === '1') copyFileSync(path, join(ROOT, 'docs', 'feedback-states.png'));

      // The agent finishes without acting on #3 or ever receiving #4: the cards say so once the session ends.
      think('states', 8, { nextThoughtNeeded: false });
      const ended = engine.getSession('states');
      assert.ok(ended);
      await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(ended) });
      await page.waitForSelector('.thought-card[data-seq="3"] .feedback-mark.feedback-not-acted-on');
      assert.deepEqual(
        [await stateOf(0), await stateOf(1), await stateOf(2), await stateOf(3)],
        [
          'not-acted-on: not acted on: session ended',
          'applied: applied by #5',
          'not-acted-on: not acted on: session ended',
          'not-acted-on: not acted on: session ended',
        ],
      );
      await explorer.screenshot('feedback-states-ended');
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });

  it('keeps a note and Conclude now listed after the session ends, says a followed Conclude was acted on, and drops "Sent" once delivered', async () => {
    const engine = new ThinkingEngine({ log: () => undefined });
    const sessionId = 'ending';
    const think = (thoughtNumber: number, nextThoughtNeeded = true) =>
      assert.ok(
        engine.process('c', {
          sessionId,
          thought: `Step ${thoughtNumber} of the plan.`,
          thoughtNumber,
          totalThoughts: 5,
          nextThoughtNeeded,
        }).ok,
      );
    for (let number = 1; number <= 3; number++) think(number);
    const view = () => toSessionView(engine.getSession(sessionId)!);
    for (const theme of ['dark', 'light'] as const) {
      const explorer = await ExplorerPage.open(browser, { theme, surface: 'panel', width: 1280, height: 820 });
      try {
        const page = explorer.page;
        if (theme === 'light') {
          // The second run shows the ended session as it was left.
          await explorer.send({ type: 'snapshot', mode: 'live', session: view() });
        } else {
          await explorer.send({ type: 'snapshot', mode: 'live', session: view() });
          // The host's part, as feedbackCommands does it: record, answer, then tell every view the list changed.
          const answer = async (index: number) => {
            const post = (await waitForFeedbackPosts(explorer, index + 1))[index];
            const { kind, text, thoughtNumber, branchId } = post;
            const given = engine.addFeedback(post.sessionId, { kind, text, thoughtNumber, branchId });
            assert.ok(given.ok);
            await explorer.send({ type: 'feedbackChanged', sessionId, feedback: engine.getSession(sessionId)!.feedback! });
            await explorer.send({ type: 'feedbackResult', requestId: post.requestId, ok: true, feedback: given.feedback });
          };
          await page.fill('.feedback-note-input', 'Mind the Windows runners.');
          await page.click('vscode-button.feedback-send-note');
          await answer(0);
          await page.waitForFunction(() => /^Sent: /.test(document.querySelector('.feedback-status')?.textContent ?? ''));
          await page.click('vscode-button.feedback-conclude');
          await answer(1);
          await page.waitForFunction(() => /^Sent: /.test(document.querySelector('.feedback-status')?.textContent ?? ''));
          // The next thought carries both: the list says delivered, so the status line's promise goes.
          think(4);
          await explorer.send({ type: 'snapshot', mode: 'live', session: view() });
          await explorer.send({ type: 'feedbackChanged', sessionId, feedback: engine.getSession(sessionId)!.feedback! });
          await page.waitForSelector('.feedback-general .feedback-mark.feedback-conclude.feedback-delivered');
          await page.waitForFunction(() => document.querySelector('.feedback-status')?.textContent === '');
          // The agent concludes.
          think(5, false);
          await explorer.send({ type: 'snapshot', mode: 'live', session: view() });
        }
        await page.waitForSelector('.feedback-panel:not([hidden]) .feedback-general .feedback-mark.feedback-conclude.feedback-applied');
        const listed = await page.$$eval('.feedback-general .feedback-mark', (items) =>
          items.map((item) => [item.querySelector('.feedback-kind')?.textContent, item.querySelector('.feedback-state')?.textContent]),
        );
        assert.deepEqual(listed, [
          ['Note', 'delivered to the agent'],
          ['Conclude asked', 'acted on: the agent concluded at #5'],
        ]);
        assert.equal(await page.textContent('.feedback-title'), 'Your feedback');
        assert.equal(
          await page.locator('.feedback-note-input:visible, vscode-button.feedback-conclude:visible').count(),
          0,
          'no controls once ended',
        );
        await page.locator('.feedback-panel').scrollIntoViewIfNeeded();
        await explorer.screenshot(`feedback-after-end-${theme}`);
        assert.deepEqual(explorer.record.pageErrors, []);
      } finally {
        await explorer.close();
      }
    }
  });

  it('offers no controls on a finished session or in a replay', async () => {
    for (const [snapshot, mode] of [
      [ciSession({ complete: true }), 'live'],
      [ciSession(), 'replay'],
    ] as const) {
      const explorer = await ExplorerPage.openWith(browser, snapshot, {}, mode);
      try {
        const page = explorer.page;
        // A replay starts before the first thought: step to the end so there are cards to click.
        if (mode === 'replay') {
          await page.waitForSelector('.replay-bar:not([hidden])');
          await page.keyboard.press('End');
        }
        await page.waitForSelector('.thought-card');
        assert.equal(await page.locator('.feedback-panel:not([hidden])').count(), 0, `${mode}: panel shown`);
        await page.locator('.thought-card').first().click();
        await page.waitForSelector('.thought-card.selected');
        assert.equal(await page.locator('.feedback-actions').count(), 0, `${mode}: card actions shown`);
      } finally {
        await explorer.close();
      }
    }
  });
});
