// The host's side of the explorer's Insights tab: computes the shown session's insights and the figures across saved
// sessions (from the store's listing only) for the filter the webview asked for. Plain Node (no vscode import), so it
// is tested directly.
import type { ThinkingEngine } from '../../engine/engine';
import { overallInsights, type InsightsFilter } from '../../engine/insights/overallInsights';
import { sessionInsights } from '../../engine/insights/sessionInsights';
import type { InsightsFigures, InsightsRange, InsightsRequestFilter } from '../../shared/insightsView';

const DAY_MS = 24 * 60 * 60 * 1000;
const RANGE_MS: Record<InsightsRange, number | undefined> = { all: undefined, day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS };

type InsightsEngine = Pick<ThinkingEngine, 'getSession' | 'listSessions'>;

/** The figures of the `insights` answer to a request; `sessionId` only when it is the session the webview shows. */
export function insightsMessage(
  engine: InsightsEngine,
  sessionId: string | undefined,
  request: InsightsRequestFilter,
  now = Date.now(),
): InsightsFigures {
  const all = engine.listSessions().sessions;
  const filter: InsightsFilter = {};
  const span = RANGE_MS[request.range];
  if (span !== undefined) filter.since = now - span;
  if (request.strategy !== undefined) filter.strategy = request.strategy;
  const strategies = [...new Set(all.map((meta) => meta.strategy))].sort();
  const snapshot = sessionId === undefined ? undefined : engine.getSession(sessionId);
  return {
    type: 'insights',
    filter: request,
    ...(snapshot ? { session: sessionInsights(snapshot) } : {}),
    overall: overallInsights(all, filter, now),
    strategies,
  };
}
