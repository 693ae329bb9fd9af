// The explorer's Insights tab in real Chromium: sessions recorded by the real engine, the figures computed by the
// host's module (insightsHost.ts) and posted through the protocol, as the extension does. Asserts the tab asks for the
// shown session, the per-session and across-session figures, the bar chart (one bar per strategy, sized by count,
// coloured by the theme's chart variable in dark and light), the filters asking again, and that hostile names stay
// text. With THOUGHT_EXPLORER_UPDATE_DOCS=1 it also refreshes docs/insights.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { insightsMessage } from '../../src/extension/explorer/insightsHost';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import type { InsightsMessage } from '../../src/shared/insightsView';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { THEMES } from './support/themes';

let browser: Browser;
let engine: ThinkingEngine;
let shown: SessionSnapshot;
/** The engine's clock: an hour ago, moved on by hand before each thought. */
let clock = Date.now() - 3600_000;

function record(connection: string, calls: Record<string, unknown>[], gapsSeconds: number[] = []): string {
  let sessionId = '';
  for (const [index, call] of calls.entries()) {
    clock += (gapsSeconds[index] ?? 5) * 1000;
    const outcome = engine.process(connection, call);
    if (!outcome.ok) throw new Error(outcome.error);
    sessionId = outcome.reply.sessionId;
  }
  return sessionId;
}

before(async () => {
  engine = new ThinkingEngine({ log: () => undefined, now: () => clock });
  // Two react sessions an hour ago, one finished, the other left live (so abandoned).
  record('b', [{ thought: 'q', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true, strategy: 'react' }]);
  record('c', [
    { thought: 'q', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true, strategy: 'react' },
    { thought: 'a', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false },
  ]);
  clock = Date.now() - 10 * 60_000;
  // The shown session: linear, 6 thoughts, one revision, one branch of two thoughts.
  const shownId = record(
    'a',
    [
      { thought: 'Restate: why are CI runs slow?', thoughtNumber: 1, totalThoughts: 6, nextThoughtNeeded: true },
      { thought: 'Plan: measure each job.', thoughtNumber: 2, totalThoughts: 6, nextThoughtNeeded: true },
      { thought: 'The cache is cold on every run.', thoughtNumber: 3, totalThoughts: 6, nextThoughtNeeded: true },
      {
        thought: 'Correction: only on Windows runners.',
        thoughtNumber: 4,
        totalThoughts: 6,
        nextThoughtNeeded: true,
        isRevision: true,
        revisesThought: 3,
      },
      {
        thought: 'Alternative: split the test job.',
        thoughtNumber: 5,
        totalThoughts: 6,
        nextThoughtNeeded: true,
        branchFromThought: 2,
        branchId: 'split',
      },
      { thought: 'Splitting halves the wall time.', thoughtNumber: 6, totalThoughts: 6, nextThoughtNeeded: true, branchId: 'split' },
    ],
    [0, 90, 30, 60, 90, 30],
  );
  shown = engine.getSession(shownId) as SessionSnapshot;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

async function openInsights(explorer: ExplorerPage): Promise<void> {
  await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(shown) });
  await explorer.page.click('vscode-tab-header[data-tab="insights"]');
  const request = await explorer.waitForPosted('requestInsights');
  assert.equal(request.sessionId, shown.meta.id);
  assert.deepEqual(request.filter, { range: 'all' });
  await explorer.send({ ...insightsMessage(engine, request.sessionId, request.filter), requestId: request.requestId });
  await explorer.page.waitForSelector('.insights-bars rect.insights-bar', { state: 'visible' });
}

async function figures(explorer: ExplorerPage, selector: string): Promise<Record<string, string>> {
  return explorer.page.$$eval(`${selector} dt`, (terms) =>
    Object.fromEntries(terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? ''])),
  );
}

describe('explorer: the Insights tab', () => {
  it('asks for the shown session and draws its figures, the figures across sessions and a bar per strategy', async () => {
    const explorer = await ExplorerPage.open(browser, { theme: 'dark', width: 420, height: 760 });
    try {
      await openInsights(explorer);
      const session = await figures(explorer, '.insights-session');
      assert.equal(session.Thoughts, '6');
      assert.equal(session.Revisions, '1 (16.7%)');
      assert.equal(session.Branches, '1 (2 thoughts, 33.3%)');
      assert.match(session['Stages visited'], /^\d+, 0 loops back$/);
      // Gaps 90, 30, 60, 90, 30 s.
      assert.equal(session['Time between thoughts'], 'median 1 min, longest 1 min 30 s');
      assert.equal(session.Feedback, '0 given, 0 applied');
      const overall = await figures(explorer, '.insights-overall');
      assert.equal(overall.Sessions, '3');
      // Lengths 1, 2, 6.
      assert.equal(overall['Median length'], '2 thoughts');
      assert.equal(overall.Revised, '33.3% of sessions');
      assert.equal(overall.Branched, '33.3% of sessions');
      // The live react session has had no thought for about an hour.
      assert.equal(overall.Abandoned, '1 (33.3%)');
      const bars = await explorer.page.$$eval('rect.insights-bar', (rects) =>
        rects.map((rect) => ({
          strategy: rect.getAttribute('data-strategy'),
          value: rect.getAttribute('data-value'),
          width: Number(rect.getAttribute('width')),
        })),
      );
      assert.deepEqual(
        bars.map((bar) => [bar.strategy, bar.value]),
        [
          ['react', '2'],
          ['linear', '1'],
        ],
      );
      assert.equal(bars[0].width, 2 * bars[1].width);
      const options = await explorer.page.$$eval('select.insights-strategy option', (list) => list.map((option) => option.textContent));
      assert.deepEqual(options, ['All strategies', 'linear', 'react']);
      const shot = await explorer.screenshot('insights-dark');
      if (process.env.THOUGHT_EXPLORER_UPDATE_DOCS === '1') {
        const docs = resolve(__dirname, '..', '..', 'docs');
        mkdirSync(docs, { recursive: true });
        copyFileSync(shot, join(docs, 'insights.png'));
      }
      assert.deepEqual(explorer.record.cspViolations, []);
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });

  it('comes back on the Insights tab after hide/show (getState/setState), and asks for the figures again', async () => {
    const first = await ExplorerPage.open(browser, { theme: 'dark' });
    let saved: unknown;
    try {
      await openInsights(first);
      saved = await first.savedState();
    } finally {
      await first.close();
    }
    const second = await ExplorerPage.open(browser, { theme: 'dark', savedState: saved });
    try {
      assert.equal(await second.page.getAttribute('vscode-tabs', 'selected-index'), '3');
      await second.send({ type: 'snapshot', mode: 'live', session: toSessionView(shown) });
      const request = await second.waitForPosted('requestInsights');
      assert.equal(request.sessionId, shown.meta.id);
      // A diagram tab chosen afterwards is what the next restore shows.
      await second.showTab('branchTree');
      const state = await second.savedState();
      assert.equal(state.insightsShown, undefined);
    } finally {
      await second.close();
    }
  });

  it('the filters ask again, and the host answers for that strategy and time range', async () => {
    const explorer = await ExplorerPage.open(browser, { theme: 'dark' });
    try {
      await openInsights(explorer);
      explorer.record.posted.length = 0;
      await explorer.page.selectOption('select.insights-strategy', 'react');
      const byStrategy = await explorer.waitForPosted('requestInsights');
      assert.deepEqual(byStrategy.filter, { range: 'all', strategy: 'react' });
      await explorer.send({ ...insightsMessage(engine, byStrategy.sessionId, byStrategy.filter), requestId: byStrategy.requestId });
      await explorer.page.waitForFunction(() => document.querySelectorAll('rect.insights-bar').length === 1);
      assert.equal((await figures(explorer, '.insights-overall')).Sessions, '2');
      explorer.record.posted.length = 0;
      await explorer.page.selectOption('select.insights-range', 'day');
      const byRange = await explorer.waitForPosted('requestInsights');
      assert.deepEqual(byRange.filter, { range: 'day', strategy: 'react' });
      // Everything was recorded just now; a day later none of it is in the last 24 hours.
      await explorer.send({
        ...insightsMessage(engine, byRange.sessionId, byRange.filter, Date.now() + 2 * 24 * 3600 * 1000),
        requestId: byRange.requestId,
      });
      await explorer.page.waitForSelector('.insights-chart .insights-none');
      assert.equal((await figures(explorer, '.insights-overall')).Sessions, '0');
      assert.equal(await explorer.page.$eval('select.insights-strategy', (select) => (select as HTMLSelectElement).value), 'react');
    } finally {
      await explorer.close();
    }
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`bars take the theme's chart colour (${theme})`, async () => {
      const explorer = await ExplorerPage.open(browser, { theme });
      try {
        await openInsights(explorer);
        const fill = await explorer.page.$eval('rect.insights-bar', (rect) => getComputedStyle(rect).fill);
        const expected = await explorer.page.evaluate((hex) => {
          const probe = document.createElement('div');
          probe.style.color = hex;
          document.body.append(probe);
          const colour = getComputedStyle(probe).color;
          probe.remove();
          return colour;
        }, THEMES[theme]['vscode-charts-blue']);
        assert.equal(fill, expected);
      } finally {
        await explorer.close();
      }
    });
  }

  it('draws hostile names as text, and refuses a malformed answer', async () => {
    const explorer = await ExplorerPage.open(browser, { theme: 'dark' });
    try {
      await openInsights(explorer);
      explorer.record.posted.length = 0;
      await explorer.page.selectOption('select.insights-range', 'week');
      const request = await explorer.waitForPosted('requestInsights');
      const hostile = '<img src=x onerror=alert(1)>';
      const message: InsightsMessage = {
        type: 'insights',
        requestId: request.requestId,
        filter: { range: 'week' },
        overall: {
          sessions: 1,
          thoughts: 1,
          medianLength: 1,
          revisionRate: 0,
          branchRate: 0,
          abandoned: 0,
          byStrategy: [{ strategy: hostile, sessions: 1, thoughts: 1, medianLength: 1, revisionRate: 0, branchRate: 0, abandoned: 0 }],
        },
        strategies: [hostile],
      };
      await explorer.send(message);
      await explorer.page.waitForFunction(
        (name) => document.querySelector('rect.insights-bar')?.getAttribute('data-strategy') === name,
        hostile,
      );
      assert.equal(await explorer.page.$$eval('.insights img', (images) => images.length), 0);
      const label = await explorer.page.$eval('.insights-bar-label', (text) => text.textContent);
      assert.equal(label, '<img src=x onerror=…');
      // No session in the answer: the tab says so.
      assert.equal(await explorer.page.$eval('.insights-session .insights-none', (text) => text.textContent), 'No session shown.');
      // A malformed answer (a negative count) is ignored: the chart stays as it was.
      await explorer.sendHandled({ ...message, overall: { ...message.overall, sessions: -1, byStrategy: [] } } as InsightsMessage);
      assert.equal((await figures(explorer, '.insights-overall')).Sessions, '1');
      assert.equal(await explorer.page.$$eval('rect.insights-bar', (rects) => rects.length), 1);
      assert.deepEqual(explorer.record.dialogs, []);
      assert.deepEqual(explorer.record.cspViolations, []);
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });
});
