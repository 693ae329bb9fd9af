// Section: insights across 10,000 saved sessions (thinking_sessions stats without sessionId), from a fresh
// FileSessionStore on the directory (as a new CLI process or a VS Code window would): the listing from the store's
// index plus the figures, never opening a journal. Generated sessions vary in strategy, length, revisions, branches
// and status.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ThinkingEngine } from '../src/engine/engine';
import type { OverallInsights } from '../src/engine/insights/overallInsights';
import { sessionStats } from '../src/mcp/tools/thinkingSessions/stats';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { formatMs, percentile, type BenchContext, type BenchSection, type BenchSectionResult } from './section';

export const STATS_TARGET_MS = 500;
const SESSIONS = 10_000;
const REPEATS = 5;
const STRATEGIES = ['linear', 'react', 'tree_of_thoughts', 'chain_of_thought', 'self_ask'];

const quiet = () => {};

/** Session i: 2-7 thoughts; every 7th revises, every 11th branches, every 5th stays live (unfinished). */
function generateSessions(directory: string, count: number): void {
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet });
  for (let index = 0; index < count; index++) {
    const connection = `c${index}`;
    const length = 2 + (index % 6);
    const finishes = index % 5 !== 0;
    for (let number = 1; number <= length; number++) {
      const args: Record<string, unknown> = {
        thought: `Session ${index}, thought ${number}: about topic ${index % 97}`,
        thoughtNumber: number,
        totalThoughts: length,
        nextThoughtNeeded: number < length || !finishes,
      };
      if (number === 1) args.strategy = STRATEGIES[index % STRATEGIES.length];
      if (number === 2 && index % 7 === 0) Object.assign(args, { isRevision: true, revisesThought: 1 });
      else if (number === 2 && index % 11 === 0) Object.assign(args, { branchFromThought: 1, branchId: 'alt' });
      const outcome = engine.process(connection, args);
      if (!outcome.ok) throw new Error(outcome.error);
    }
    engine.closeConnection(connection);
  }
  store.close();
}

function timeStats(directory: string, request: Parameters<typeof sessionStats>[1]): { times: number[]; result: OverallInsights } {
  const times: number[] = [];
  let result: OverallInsights | undefined;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const started = performance.now();
    const store = new FileSessionStore(directory, { log: quiet });
    const engine = new ThinkingEngine({ store, log: quiet });
    result = (sessionStats(engine, request) as { overall: OverallInsights }).overall;
    times.push(performance.now() - started);
    store.close();
  }
  return { times: times.sort((a, b) => a - b), result: result as OverallInsights };
}

export const insightsSection: BenchSection = {
  title: 'Insights: stats across 10,000 saved sessions',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const directory = join(context.tempDir, 'sessions');
    context.progress(`writing ${SESSIONS} sessions`);
    generateSessions(directory, SESSIONS);

    const all = timeStats(directory, {});
    if (all.result.sessions !== SESSIONS) throw new Error(`stats counted ${all.result.sessions} sessions, expected ${SESSIONS}`);
    const filtered = timeStats(directory, { strategy: 'react', since: Date.now() - 24 * 3600 * 1000 });
    if (filtered.result.sessions !== SESSIONS / STRATEGIES.length)
      throw new Error(`filtered stats counted ${filtered.result.sessions} sessions, expected ${SESSIONS / STRATEGIES.length}`);
    const median = percentile(all.times, 0.5);
    const figures = all.result;
    return {
      lines: [
        `Each figure: a new FileSessionStore and engine on the directory plus thinking_sessions stats, ${REPEATS} repeats (median, worst).`,
        '',
        '| operation | median | worst |',
        '|---|---|---|',
        `| stats across all ${SESSIONS} sessions | ${formatMs(median)} | ${formatMs(all.times[all.times.length - 1])} |`,
        `| stats for one strategy, last 24 h | ${formatMs(percentile(filtered.times, 0.5))} | ${formatMs(filtered.times[filtered.times.length - 1])} |`,
        '',
        `Figures: ${figures.sessions} sessions, median length ${figures.medianLength}, revision rate ${figures.revisionRate}, ` +
          `branch rate ${figures.branchRate}, ${figures.byStatus.live} live, ${figures.byStatus.complete} complete, ` +
          `${figures.byStrategy.length} strategies.`,
      ],
      checks: [
        {
          name: `stats across ${SESSIONS} sessions`,
          pass: median <= STATS_TARGET_MS,
          detail: `${formatMs(median)} (target <= ${STATS_TARGET_MS} ms)`,
        },
      ],
    };
  },
};
