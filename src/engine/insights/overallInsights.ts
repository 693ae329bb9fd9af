// Insights across sessions, from their metas only (the store's index): how many sessions per strategy, how often
// agents revise and branch, how long sessions run, how many are abandoned. Never opens a journal, so it stays fast
// over 10,000 saved sessions.
import { displayedStatus } from '../browserSafe/sessionStatus';
import type { SessionMeta, SessionStatus } from '../model';
import { median, ratio } from './statistics';

export interface InsightsFilter {
  /** Only sessions created at or after this time (ms since the epoch). */
  since?: number;
  /** Only sessions created before this time (ms since the epoch). */
  until?: number;
  strategy?: string;
}

export interface SessionGroupFigures {
  sessions: number;
  thoughts: number;
  /** Median thoughts per session. */
  medianLength: number;
  /** Share of sessions with at least one revision, 0–1. */
  revisionRate: number;
  /** Share of sessions with at least one branch, 0–1. */
  branchRate: number;
  revisionsPerThought: number;
  branchesPerSession: number;
  /** Stored as abandoned, or live and idle longer than IDLE_AS_ABANDONED_MS (as the Sessions tree draws it). */
  abandoned: number;
  abandonedRate: number;
}

export interface StrategyFigures extends SessionGroupFigures {
  strategy: string;
}

export interface OverallInsights extends SessionGroupFigures {
  filter: InsightsFilter;
  byStatus: Record<SessionStatus, number>;
  /** Most sessions first, then by name. */
  byStrategy: StrategyFigures[];
  /** Listed sessions whose journal cannot be read: left out of every figure. */
  unreadable: number;
}

export function matchesInsightsFilter(meta: SessionMeta, filter: InsightsFilter): boolean {
  if (filter.strategy !== undefined && meta.strategy !== filter.strategy) return false;
  if (filter.since !== undefined && meta.createdAt < filter.since) return false;
  if (filter.until !== undefined && meta.createdAt >= filter.until) return false;
  return true;
}

export function overallInsights(metas: readonly SessionMeta[], filter: InsightsFilter = {}, now = Date.now()): OverallInsights {
  const all = new Accumulator();
  const byStrategy = new Map<string, Accumulator>();
  const byStatus: Record<SessionStatus, number> = { live: 0, complete: 0, abandoned: 0 };
  let unreadable = 0;
  for (const meta of metas) {
    if (!matchesInsightsFilter(meta, filter)) continue;
    if (meta.unreadable !== undefined) {
      unreadable++;
      continue;
    }
    const status = displayedStatus(meta, now);
    byStatus[status]++;
    all.add(meta, status);
    let group = byStrategy.get(meta.strategy);
    if (!group) byStrategy.set(meta.strategy, (group = new Accumulator()));
    group.add(meta, status);
  }
  const strategies = [...byStrategy.entries()]
    .map(([strategy, group]) => ({ strategy, ...group.figures() }))
    .sort((a, b) => b.sessions - a.sessions || (a.strategy < b.strategy ? -1 : a.strategy > b.strategy ? 1 : 0));
  return { filter: { ...filter }, ...all.figures(), byStatus, byStrategy: strategies, unreadable };
}

class Accumulator {
  private readonly lengths: number[] = [];
  private thoughts = 0;
  private revisions = 0;
  private branches = 0;
  private revising = 0;
  private branching = 0;
  private abandoned = 0;

  add(meta: SessionMeta, status: SessionStatus): void {
    this.lengths.push(meta.thoughtCount);
    this.thoughts += meta.thoughtCount;
    this.revisions += meta.revisionCount;
    this.branches += meta.branchIds.length;
    if (meta.revisionCount > 0) this.revising++;
    if (meta.branchIds.length > 0) this.branching++;
    if (status === 'abandoned') this.abandoned++;
  }

  figures(): SessionGroupFigures {
    const sessions = this.lengths.length;
    return {
      sessions,
      thoughts: this.thoughts,
      medianLength: median(this.lengths),
      revisionRate: ratio(this.revising, sessions),
      branchRate: ratio(this.branching, sessions),
      revisionsPerThought: ratio(this.revisions, this.thoughts),
      branchesPerSession: ratio(this.branches, sessions),
      abandoned: this.abandoned,
      abandonedRate: ratio(this.abandoned, sessions),
    };
  }
}
