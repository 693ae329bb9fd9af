// thinking_sessions action "stats": insights for one session (with sessionId) or across saved sessions (filtered by
// strategy and a time range), and the time-bound parsing it needs. Across sessions reads only the store's listing.
import { z } from 'zod';
import type { ThinkingEngine } from '../../../engine/engine';
import { describeValue, noSuchSession } from '../../../engine/fieldRules';
import { overallInsights, type InsightsFilter } from '../../../engine/insights/overallInsights';
import { sessionInsights } from '../../../engine/insights/sessionInsights';
import type { ToolContext } from '../../toolContext';
import { ArgumentProblem, sent, text } from './arguments';

export const schema = z.object({
  action: z.literal('stats'),
  sessionId: text(),
  strategy: text(),
  // Worded by timeBound below, which also takes milliseconds.
  since: sent(),
  until: sent(),
});

export function run(args: z.output<typeof schema>, { engine, telemetry }: ToolContext): Record<string, unknown> {
  const value = sessionStats(engine, args);
  // Live trace streaming's counters (spans sent, dropped, queued) go with the stats when streaming is on.
  const traceStream = telemetry?.stats();
  if (traceStream) value.traceStream = traceStream;
  return value;
}

export interface StatsRequest {
  sessionId?: string;
  strategy?: string;
  since?: unknown;
  until?: unknown;
}

export function sessionStats(engine: ThinkingEngine, request: StatsRequest, now = Date.now()): Record<string, unknown> {
  if (request.sessionId !== undefined && request.sessionId !== '') {
    const snapshot = engine.getSession(request.sessionId);
    if (!snapshot) {
      throw new ArgumentProblem(
        `Invalid sessionId: ${noSuchSession(request.sessionId)}. Omit sessionId for stats across sessions, or use action "list" to find one.`,
      );
    }
    return { session: sessionInsights(snapshot) };
  }
  const filter: InsightsFilter = {};
  if (request.strategy !== undefined && request.strategy !== '') filter.strategy = request.strategy;
  const since = timeBound('since', request.since);
  const until = timeBound('until', request.until);
  if (since !== undefined) filter.since = since;
  if (until !== undefined) filter.until = until;
  if (since !== undefined && until !== undefined && until <= since)
    throw new ArgumentProblem(`Invalid until: it must be later than since (got since ${request.since}, until ${request.until}).`);
  const listing = engine.listSessions(filter.strategy === undefined ? {} : { strategy: filter.strategy });
  return { overall: overallInsights(listing.sessions, filter, now) };
}

/** An ISO date or date-time ("2026-01-31", "2026-01-31T12:00:00Z") or milliseconds since the epoch; absent stays absent. */
export function timeBound(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return timeBound(name, Number(value));
    if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
      const parsed = Date.parse(value);
      if (Number.isFinite(parsed)) return parsed;
    }
  }
  throw new ArgumentProblem(
    `Invalid ${name}: got ${describeValue(value)}; expected an ISO date or date-time such as "2026-01-31" or "2026-01-31T12:00:00Z", or milliseconds since 1970.`,
  );
}
