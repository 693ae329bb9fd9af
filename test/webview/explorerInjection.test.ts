// Thought text is untrusted: the injection corpus in thoughts, branch names and the session title must stay text in
// every part of the explorer (cards, all three diagrams, the word diff, replay), run no script, open no dialog, load
// nothing from outside the webview bundle and trip no Content-Security-Policy rule.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, WEBVIEW_ORIGIN, cardCount, launchChromium } from './support/explorerPage';
import { INJECTION_CORPUS } from './support/sessions';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** A session whose every thought, revision and branch name carries a corpus entry. */
function hostileSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  const sessionId = 'hostile';
  let n = 0;
  const send = (args: Record<string, unknown>): void => {
    n++;
    const outcome = engine.process('hostile', {
      sessionId,
      thoughtNumber: n,
      totalThoughts: INJECTION_CORPUS.length * 3,
      nextThoughtNeeded: true,
      ...args,
    });
    if (!outcome.ok) throw new Error(outcome.error);
  };
  for (const text of INJECTION_CORPUS) send({ thought: text });
  for (const [index, text] of INJECTION_CORPUS.entries())
    send({ thought: `${text} (revised)`, isRevision: true, revisesThought: index + 1 });
  for (const index of INJECTION_CORPUS.keys())
    send({ thought: INJECTION_CORPUS[index], branchFromThought: index + 1, branchId: `b${index}` });
  const snapshot = structuredClone(engine.getSession(sessionId));
  if (!snapshot) throw new Error('hostile session missing');
  // The engine refuses such branch names, but a hand-edited or imported file may carry anything: the webview must
  // not rely on the engine's rules.
  for (const thought of snapshot.thoughts) {
    if (thought.branchId !== undefined) thought.branchId = INJECTION_CORPUS[Number(thought.branchId.slice(1))];
  }
  return { ...snapshot, meta: { ...snapshot.meta, title: INJECTION_CORPUS[1], branchIds: [...INJECTION_CORPUS] } };
}

describe('explorer webview with hostile thought text', () => {
  it('keeps every corpus entry as text everywhere and runs nothing', { timeout: 120_000 }, async () => {
    const snapshot = hostileSession();
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
    try {
      await explorer.page.evaluate(() => {
        // Any payload that managed to run would most likely call one of these.
        const target = window as unknown as Record<string, unknown>;
        target.__ran = [];
        for (const name of ['alert', 'confirm', 'prompt']) {
          target[name] = (...args: unknown[]) => (target.__ran as unknown[]).push([name, ...args]);
        }
      });
      await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(snapshot) });
      await explorer.waitForDiagram('stageGraph', 'g.node');
      for (const kind of ['branchTree', 'revisionChain'] as const) {
        await explorer.showTab(kind);
        await explorer.waitForDiagram(kind, '.graph-row[data-seq="0"]');
      }
      // The word diff of a hostile revision, and clicks on hostile nodes.
      const revision = snapshot.thoughts.find((thought) => thought.isRevision);
      assert.ok(revision);
      await explorer.page.click(`.thought-card[data-seq="${revision.seq}"]`);
      await explorer.page.waitForSelector('.revision-diff ins, .revision-diff del');
      await explorer.page.click(`section.diagram-revisionChain .graph-row[data-seq="${revision.seq}"]`);
      // Whatever the clicks made the page post or report (CSP violations included) has arrived once this returns.
      await explorer.postedSoFar();

      // Every thought is shown verbatim, as text.
      assert.equal(await cardCount(explorer), snapshot.thoughts.length);
      const texts = await explorer.page.locator('.thought-text').allTextContents();
      assert.deepEqual(
        texts,
        snapshot.thoughts.map((thought) => thought.thought),
      );
      assert.equal(await explorer.page.textContent('.session-title'), INJECTION_CORPUS[1]);

      // Nothing ran, nothing opened, nothing was loaded or blocked.
      assert.deepEqual(await explorer.page.evaluate(() => (window as unknown as { __ran: unknown[] }).__ran), []);
      assert.deepEqual(explorer.record.dialogs, []);
      assert.deepEqual(explorer.record.pageErrors, []);
      assert.deepEqual(explorer.record.cspViolations, []);
      assert.deepEqual(
        explorer.record.requests.filter((url) => !url.startsWith(WEBVIEW_ORIGIN)),
        [],
        'no request left the webview bundle',
      );
      const dangerous = await explorer.page.evaluate(() => {
        const app = document.getElementById('app');
        if (!app) return ['no #app'];
        const found: string[] = [];
        for (const element of app.querySelectorAll('*')) {
          const tag = element.tagName.toLowerCase();
          if (['script', 'img', 'iframe', 'object', 'embed', 'a'].includes(tag)) found.push(`<${tag}>`);
          for (const attribute of element.getAttributeNames()) {
            const value = element.getAttribute(attribute) ?? '';
            if (attribute.startsWith('on')) found.push(`${tag}[${attribute}]`);
            // aria-label is text for screen readers, never a URL: a diagram node speaks its branch name, hostile or not.
            if (/javascript:/i.test(value) && attribute !== 'aria-label') found.push(`${tag}[${attribute}=${value.slice(0, 40)}]`);
          }
        }
        return found;
      });
      assert.deepEqual(dangerous, [], 'no element or attribute from thought text became live markup');
      // The diagrams show the text (decoded), not markup: the <img> payload is visible as characters.
      await explorer.showTab('branchTree');
      const branchText = (await explorer.page.textContent('section.diagram-branchTree .graph-canvas')) ?? '';
      assert.ok(branchText.includes('<img src=x onerror=alert(1)>'), 'payload drawn as text in the branch tree');
      await explorer.screenshot('injection-corpus');

      // Replay through the same hostile session.
      // Handled before End is pressed: an End that reaches the page first finds no replay yet and shows nothing.
      await explorer.sendHandled({ type: 'snapshot', mode: 'replay', session: toSessionView(snapshot) });
      await explorer.page.waitForSelector('.replay-bar:not([hidden])');
      await explorer.page.keyboard.press('End');
      assert.equal(await cardCount(explorer), snapshot.thoughts.length);
      assert.deepEqual(explorer.record.dialogs, []);
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });
});
