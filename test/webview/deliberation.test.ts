// A six-hats deliberation drawn by the explorer in real Chromium: the session is recorded through a real MCP Client
// whose scripted model answers sampling/createMessage (five hats in parallel, then the synthesis), then shown in the
// explorer page harness as the host shows it. Asserts the role badges (one theme colour per hat), tokens and time on
// the cards, the header's budget line, the branch tree's parallel hats side by side, and a stage graph of the stages
// taken (not the strategy's every-role-to-every-role table). With THOUGHT_EXPLORER_UPDATE_DOCS=1 it also refreshes docs/deliberation-hats.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { stageNodeId } from '../../src/diagrams/stageGraph';
import type { SessionSnapshot } from '../../src/engine/model';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { connectDeliberation } from '../mcp/support/scriptedModel';
import { ExplorerPage, cardCount, drawnNodeIds, launchChromium } from './support/explorerPage';
import { THEMES } from './support/themes';

const HATS = { factual: 'white', emotional: 'red', critical: 'black', optimistic: 'yellow', creative: 'green', synthesis: 'blue' } as const;
const SAYS: Record<string, string> = {
  factual: 'Reads hit the database 40 times per page; p95 latency is 900 ms. Missing: the cache hit rate we could expect.',
  emotional: 'The team is tired of firefighting slow pages; a cache feels like relief, but stale data makes people nervous.',
  critical: 'Invalidation is the risk: stale prices for up to the TTL, and a cold cache after deploys can stampede the DB.',
  optimistic: 'Most reads are for the same 200 products: a small cache could cut p95 to under 100 ms and halve DB cost.',
  creative: 'Cache rendered fragments instead of rows; or precompute the product pages on write and serve them statically.',
  synthesis: 'Add a read-through cache for product rows with a 60 s TTL and write-time invalidation; warm it on deploy.',
};

let browser: Browser;
let session: SessionSnapshot;

before(async () => {
  // Recorded the real way: the deliberate tool on our server, a real MCP Client answering sampling from a script.
  const harness = await connectDeliberation((call) => ({
    text: SAYS[call.role] ?? 'A view.',
    delayMs: 20 + 15 * Object.keys(HATS).indexOf(call.role),
    usage: { inputTokens: 300 + call.index, outputTokens: 40 + call.index },
  }));
  try {
    const result = await harness.deliberate({ problem: 'Should we add a cache in front of the product database?', plan: 'parallel-hats' });
    assert.notEqual(result.isError, true);
    const sessionId = (result.structuredContent as { sessionId: string }).sessionId;
    session = harness.engine.getSession(sessionId) as SessionSnapshot;
  } finally {
    await harness.close();
  }
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

describe('explorer: a six-hats deliberation', () => {
  it('draws role badges, tokens and time on cards, the budget line, parallel hats side by side and the stages taken', async () => {
    assert.deepEqual(session.thoughts.map((thought) => thought.stage).sort(), [
      'creative',
      'critical',
      'emotional',
      'factual',
      'framing',
      'optimistic',
      'synthesis',
    ]);
    const explorer = await ExplorerPage.open(browser, { theme: 'dark', width: 900, height: 1000, surface: 'panel' });
    try {
      await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(session) });
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      assert.equal(await cardCount(explorer), 7);

      // One role badge per hat card, coloured with the theme's chart colour of that hat.
      const dark = THEMES.dark;
      const expected: Record<string, string | undefined> = {
        white: dark['vscode-charts-foreground'],
        red: dark['vscode-charts-red'],
        black: dark['vscode-charts-foreground'],
        yellow: dark['vscode-charts-yellow'],
        green: dark['vscode-charts-green'],
        blue: dark['vscode-charts-blue'],
      };
      const badges = await explorer.page.$$eval('.thought-card .badge-role', (elements) =>
        elements.map((element) => ({
          text: element.textContent ?? '',
          colour: getComputedStyle(element.querySelector('.codicon') as Element).color,
          icon: (element.querySelector('.codicon') as Element).className,
          border: getComputedStyle(element.closest('.thought-card') as Element).borderLeftColor,
        })),
      );
      for (const [role, hat] of Object.entries(HATS)) {
        const badge = badges.find((candidate) => candidate.text === `${role} · ${hat} hat`);
        assert.ok(badge, `badge for ${role}`);
        assert.equal(badge.colour, rgb(expected[hat] as string), `${role} badge colour`);
        assert.equal(badge.border, rgb(expected[hat] as string), `${role} card border`);
      }
      assert.match(badges.find((badge) => badge.text.startsWith('factual'))?.icon ?? '', /circle-large-outline/, 'white hat: outlined');
      assert.match(badges.find((badge) => badge.text.startsWith('critical'))?.icon ?? '', /circle-large-filled/, 'black hat: filled');
      assert.ok(badges.some((badge) => badge.text === 'framing'));

      // Tokens, time and model on each role card.
      const metas = await explorer.page.$$eval('.thought-card[data-hat] .deliberation-meta', (elements) =>
        elements.map((element) => element.textContent ?? ''),
      );
      assert.equal(metas.length, 6);
      for (const meta of metas) assert.match(meta, /^\d+ in · \d+ out tokens · \d+ ms · scripted-1$/);

      // The header's budget line: plan, state, calls, output tokens used of allowed, model.
      const line = (await explorer.page.textContent('.deliberation-line')) ?? '';
      const used = session.thoughts.reduce(
        (sum, thought) => sum + ((thought.extra?.tokens as { output: number } | undefined)?.output ?? 0),
        0,
      );
      assert.match(line, /parallel-hats \(parallel\)/);
      assert.match(line, /complete/);
      assert.match(line, /6 calls/);
      assert.ok(line.includes(`tokens ${used}/32,000`), line);
      assert.match(line, /scripted-1/);

      // Stage graph: the seven stages taken, hats fanning out of framing and into synthesis; no unused stage.
      const stageNodes = await drawnNodeIds(explorer, 'stageGraph');
      assert.deepEqual(stageNodes.sort(), ['framing', ...Object.keys(HATS)].map(stageNodeId).sort());
      const edges = await explorer.page.$$eval('section.diagram-stageGraph svg path.taken[data-id]', (paths) => paths.length);
      assert.equal(edges, 10, 'framing → 5 hats, 5 hats → synthesis, all taken');

      // Branch tree: a row per thought, the five parallel hats each on a lane of its own beside the framing's.
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="6"]');
      assert.deepEqual((await drawnNodeIds(explorer, 'branchTree')).sort(), ['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
      const dots = await explorer.page.$$eval('section.diagram-branchTree circle.graph-dot', (circles) =>
        circles.map((circle) => ({ x: Number(circle.getAttribute('cx')), y: Number(circle.getAttribute('cy')) })),
      );
      await explorer.screenshot('deliberation-branch-tree');
      const hatSeqs = session.thoughts.filter((thought) => thought.branchId !== undefined).map((thought) => thought.seq);
      assert.equal(hatSeqs.length, 5);
      const dotOf = (seq: number) => dots.find((dot) => Math.abs(dot.y - (seq * 26 + 13)) < 0.5);
      const hatX = hatSeqs.map((seq) => dotOf(seq)?.x);
      assert.equal(new Set(hatX).size, 5, `five lanes, not on top of each other: ${hatX.join(',')}`);
      const framing = dotOf(0);
      assert.ok(framing && hatX.every((x) => x !== framing.x), 'the fork thought sits on a lane of its own');

      await explorer.showTab('stageGraph');
      await explorer.waitForDiagram('stageGraph', 'g.node.current');
      const shot = await explorer.screenshot('deliberation-hats');
      // The picture in docs/ is refreshed on request only: a test run leaves the working tree as it found it.
      if (process.env.THOUGHT_EXPLORER_UPDATE_DOCS === '1') {
        const docs = resolve(__dirname, '..', '..', 'docs');
        mkdirSync(docs, { recursive: true });
        copyFileSync(shot, join(docs, 'deliberation-hats.png'));
      }
      assert.deepEqual(explorer.record.cspViolations, []);
      assert.deepEqual(explorer.record.pageErrors, []);
    } finally {
      await explorer.close();
    }
  });
});

/** A theme colour as getComputedStyle reports it. */
function rgb(hex: string): string {
  const value = hex.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((offset) => parseInt(value.slice(offset, offset + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
