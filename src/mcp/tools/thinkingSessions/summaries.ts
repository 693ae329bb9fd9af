// How `thinking_sessions` shows a session and its thoughts in a reply, for the actions that show them (list, get,
// search, resume).
import { visibleText } from '../../../engine/fieldRules';
import type { SessionMeta, ThoughtRecord } from '../../../engine/model';
import { sessionName } from '../../../engine/browserSafe/sessionTitle';

export function summarizeMeta(meta: SessionMeta): Record<string, unknown> {
  return {
    sessionId: meta.id,
    title: shownTitle(meta),
    strategy: meta.strategy,
    stage: meta.stage,
    status: meta.status,
    thoughtCount: meta.thoughtCount,
    revisionCount: meta.revisionCount,
    branches: meta.branchIds,
    createdAt: new Date(meta.createdAt).toISOString(),
    updatedAt: new Date(meta.updatedAt).toISOString(),
    // Why get will refuse it (the store lists such sessions with zero counts rather than hide them).
    ...(meta.unreadable !== undefined ? { unreadable: meta.unreadable } : {}),
  };
}

/** Titles come from thoughts: shown with their hidden controls (bidi and the like) written out. */
export function shownTitle(meta: SessionMeta): string | undefined {
  const title = sessionName(meta);
  return title === undefined ? undefined : visibleText(title);
}

export function compactThought(thought: ThoughtRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { thoughtNumber: thought.thoughtNumber, thought: thought.thought };
  if (thought.stage !== undefined) out.stage = thought.stage;
  if (thought.isRevision) out.revisesThought = thought.revisesThought;
  if (thought.branchId !== undefined) {
    out.branchId = thought.branchId;
    out.branchFromThought = thought.branchFromThought;
  }
  return out;
}

/**
 * Most characters (as JSON) of the thoughts one reply carries: a `get` (full) page, or the recent thoughts of `get`
 * (summary) and `resume`. The reply carries them twice (text and structuredContent), and an MCP stdio client drops a
 * line over 10 MiB.
 */
export const PAGE_MAX_CHARS = 1_000_000;

/**
 * The newest `recent` thoughts in compact form, as many as fit in PAGE_MAX_CHARS (at least the newest), oldest first;
 * `omitted` counts the asked-for thoughts left out for room. A large `recent` returned the whole session (95.7 MB).
 */
export function recentThoughts(
  thoughts: readonly ThoughtRecord[],
  recent: number,
): { thoughts: Record<string, unknown>[]; omitted: number } {
  const wanted = Math.min(recent, thoughts.length);
  const kept: Record<string, unknown>[] = [];
  let size = 2;
  for (let index = thoughts.length - 1; index >= thoughts.length - wanted; index--) {
    const compact = compactThought(thoughts[index]);
    const next = JSON.stringify(compact).length + 1;
    if (kept.length > 0 && size + next > PAGE_MAX_CHARS) break;
    size += next;
    kept.push(compact);
  }
  return { thoughts: kept.reverse(), omitted: wanted - kept.length };
}

/** The reply fields for the recent thoughts: the list, and a note when some did not fit. */
export function recentThoughtsFields(thoughts: readonly ThoughtRecord[], recent: number): Record<string, unknown> {
  const shown = recentThoughts(thoughts, recent);
  return {
    recentThoughts: shown.thoughts,
    ...(shown.omitted > 0
      ? {
          note: `The ${shown.thoughts.length} newest thoughts fit in one reply (${PAGE_MAX_CHARS} characters); ${shown.omitted} more that were asked for were left out. Use get with detail "full" and offset to read them in pages.`,
        }
      : {}),
  };
}

interface BranchSummary {
  branchId: string;
  fromThought: number | undefined;
  thoughts: number;
  lastThoughtNumber: number;
}

/** Each branch with its fork point and how far it got, in order of first appearance. */
export function describeBranches(thoughts: readonly ThoughtRecord[]): BranchSummary[] {
  const branches = new Map<string, BranchSummary>();
  for (const thought of thoughts) {
    if (thought.branchId === undefined) continue;
    const branch = branches.get(thought.branchId);
    if (branch) {
      branch.thoughts++;
      branch.lastThoughtNumber = thought.thoughtNumber;
    } else {
      branches.set(thought.branchId, {
        branchId: thought.branchId,
        fromThought: thought.branchFromThought,
        thoughts: 1,
        lastThoughtNumber: thought.thoughtNumber,
      });
    }
  }
  return [...branches.values()];
}
