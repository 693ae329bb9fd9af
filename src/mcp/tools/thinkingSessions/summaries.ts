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
