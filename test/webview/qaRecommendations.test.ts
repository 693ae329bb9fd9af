// Tool recommendations in the explorer, in real Chromium fed through the shared protocol: each thought card shows its
// recommended tools as chips with confidence, the header shows the QA steps strip (done / current / remaining) and
// follows live thoughts, and hostile tool names and step texts stay text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { qaAnnotator } from '../../src/recommendations/qaAnnotator';
import { ExplorerPage, WEBVIEW_ORIGIN, launchChromium } from './support/explorerPage';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const EVIL_TOOL = '<img src=x onerror="alert(1)">';
const STEPS = [
  'Check installed Tailwind version in package.json',
  'Retrieve the configuration approach from the docs',
  'Design the <b>config</b>',
  'Test the configuration',
];

/** The Tailwind example's four QA steps, one thought each, with a tool list holding a hostile name. */
function qaSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  const annotate = qaAnnotator();
  const availableTools = ['read_file', 'execute_command', 'browser_navigate', 'replace_in_file', EVIL_TOOL];
  STEPS.forEach((stepDescription, index) => {
    const outcome = engine.process(
      'qa',
      {
        sessionId: 'qa-steps',
        thought: `Step ${index + 1}: ${stepDescription}`,
        thoughtNumber: index + 1,
        totalThoughts: STEPS.length,
        nextThoughtNeeded: index + 1 < STEPS.length,
        verificationTarget: 'Tailwind CSS version',
        availableTools,
        currentStep: {
          stepDescription,
          expectedOutcome: 'Done',
          recommendedTools: index === 0 ? [{ toolName: EVIL_TOOL, confidence: 0.9, rationale: 'hostile', priority: 1 }] : [],
        },
        remainingSteps: STEPS.slice(index + 1),
      },
      { annotate },
    );
    if (!outcome.ok) throw new Error(outcome.error);
  });
  const snapshot = engine.getSession('qa-steps');
  if (!snapshot) throw new Error('session missing');
  return structuredClone(snapshot);
}

async function strip(explorer: ExplorerPage): Promise<{ state: string; text: string }[]> {
  return explorer.page.$$eval('.qa-steps .qa-step', (items) =>
    items.map((item) => ({ state: (item as HTMLElement).dataset.state ?? '', text: item.textContent ?? '' })),
  );
}

describe('tool recommendations in the explorer webview', () => {
  it(
    'shows chips with confidence on the cards and a done/current/remaining steps strip that follows live thoughts',
    { timeout: 120_000 },
    async () => {
      const full = qaSession();
      const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
      try {
        const firstTwo: SessionSnapshot = {
          ...full,
          thoughts: full.thoughts.slice(0, 2),
          meta: { ...full.meta, thoughtCount: 2, lastThoughtNumber: 2 },
        };
        await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(firstTwo) });
        await explorer.page.waitForSelector('.thought-card[data-seq="1"] .tool-chip');

        // Chips: the recorded recommendations of each thought, in order, with their confidence.
        for (const thought of firstTwo.thoughts) {
          const recorded = (thought.extra?.qa as { recommendation: { recommendedTools: { toolName: string; confidence: number }[] } })
            .recommendation.recommendedTools;
          assert.ok(recorded.length > 0);
          const chips = await explorer.page.$$eval(`.thought-card[data-seq="${thought.seq}"] .tool-chip`, (items) =>
            items.map((item) => ({
              name: item.querySelector('.tool-name')?.textContent,
              confidence: (item as HTMLElement).dataset.confidence,
              shown: item.querySelector('.tool-confidence')?.textContent,
            })),
          );
          assert.deepEqual(
            chips,
            recorded.map((tool) => ({
              name: tool.toolName,
              confidence: tool.confidence.toFixed(2),
              shown: `${Math.round(tool.confidence * 100)}%`,
            })),
          );
        }
        // The agent's hostile tool name is the first chip of the first card, as text.
        assert.equal(await explorer.page.textContent('.thought-card[data-seq="0"] .tool-chip .tool-name'), EVIL_TOOL);

        // Strip: step 1 done, step 2 current, steps 3 and 4 to do.
        assert.deepEqual(await strip(explorer), [
          { state: 'done', text: STEPS[0] },
          { state: 'current', text: STEPS[1] },
          { state: 'remaining', text: STEPS[2] },
          { state: 'remaining', text: STEPS[3] },
        ]);
        assert.equal(await explorer.page.getAttribute('.qa-step.current', 'aria-current'), 'step');

        // A live thought moves the strip on.
        const third = full.thoughts[2];
        await explorer.send({
          type: 'thoughtAdded',
          sessionId: full.meta.id,
          meta: { ...full.meta, thoughtCount: 3, lastThoughtNumber: 3 },
          thought: third,
        });
        await explorer.page.waitForSelector('.thought-card[data-seq="2"] .tool-chip');
        await explorer.page.waitForFunction(() => document.querySelector('.qa-step.current')?.textContent?.startsWith('Design'));
        assert.deepEqual(
          (await strip(explorer)).map((step) => step.state),
          ['done', 'done', 'current', 'remaining'],
        );
        assert.equal(await explorer.page.textContent('.qa-step.current'), STEPS[2]);
        await explorer.screenshot('qa-recommendations');

        // Nothing hostile became markup, ran, or was blocked.
        assert.equal(await explorer.page.locator('#app img').count(), 0);
        assert.deepEqual(explorer.record.dialogs, []);
        assert.deepEqual(explorer.record.pageErrors, []);
        assert.deepEqual(explorer.record.cspViolations, []);
        assert.deepEqual(
          explorer.record.requests.filter((url) => !url.startsWith(WEBVIEW_ORIGIN)),
          [],
        );
      } finally {
        await explorer.close();
      }
    },
  );

  it('hides the strip and shows no chips for a session without QA steps', { timeout: 60_000 }, async () => {
    const engine = new ThinkingEngine({ log: () => undefined });
    const outcome = engine.process('plain', { thought: 'A plain thought', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false });
    assert.ok(outcome.ok);
    const snapshot = engine.getSession(outcome.reply.sessionId);
    assert.ok(snapshot);
    const explorer = await ExplorerPage.open(browser);
    try {
      await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(snapshot) });
      await explorer.page.waitForSelector('.thought-card[data-seq="0"]');
      assert.equal(await explorer.page.locator('.tool-chip').count(), 0);
      assert.equal(await explorer.page.isHidden('.qa-steps'), true);
    } finally {
      await explorer.close();
    }
  });
});
