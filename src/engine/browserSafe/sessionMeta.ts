// How a session's meta follows from its thoughts: the counters (thought and revision counts, branches, the last
// thought's number) and the fields each thought sets (when, the estimate, the stage). The engine records by it, the
// store replays journals and checks imports by it, the explorer and the MCP App describe a replay's prefix by it.
// Structural types, so the module needs nothing of the model's but its shape (it is bundled into the webview).
import { shortenedLine } from './textCut';

/** The meta fields a thought moves. */
export interface ThoughtDerivedMeta {
  updatedAt: number;
  thoughtCount: number;
  revisionCount: number;
  branchIds: string[];
  lastThoughtNumber: number;
  totalThoughts: number;
  stage?: string;
}

/** What of a thought the meta follows. */
export interface MetaThought {
  thoughtNumber: number;
  totalThoughts: number;
  timestamp: number;
  isRevision?: boolean;
  branchId?: string;
  stage?: string;
}

/** Meta fields that are always derived from the thoughts and never taken from a stored meta. */
export const DERIVED_FIELDS = ['thoughtCount', 'revisionCount', 'branchIds', 'lastThoughtNumber'] as const;
export type DerivedField = (typeof DERIVED_FIELDS)[number];

/** The counters of a session with no thoughts: every new, imported, unreadable or replayed meta starts from them. */
export function noThoughtCounters(): Pick<ThoughtDerivedMeta, DerivedField> {
  return { thoughtCount: 0, revisionCount: 0, branchIds: [], lastThoughtNumber: 0 };
}

/** The meta with no thoughts applied: counters back to zero. */
export function resetDerived<M extends ThoughtDerivedMeta>(meta: M): M {
  return { ...meta, ...noThoughtCounters() };
}

/** Takes the non-derived fields from `source` and the derived ones from `counters`. */
export function withDerivedFrom<M extends ThoughtDerivedMeta>(source: M, counters: ThoughtDerivedMeta): M {
  return {
    ...source,
    thoughtCount: counters.thoughtCount,
    revisionCount: counters.revisionCount,
    branchIds: counters.branchIds,
    lastThoughtNumber: counters.lastThoughtNumber,
  };
}

/** The meta after one more thought (a copy; `meta` and its branch list are left as they were). */
export function applyThought<M extends ThoughtDerivedMeta>(meta: M, thought: MetaThought): M {
  // A copy, then assignments: on the per-thought path V8 ran a spread followed by the same fields in one literal
  // several times slower (record()'s own time per thought halved in the CPU profile when this changed).
  const next: M = { ...meta };
  const branchId = thought.branchId;
  if (branchId !== undefined && !meta.branchIds.includes(branchId)) next.branchIds = [...meta.branchIds, branchId];
  advance(next, thought);
  return next;
}

/** applyThought without copying: for readers replaying thoughts into a meta (and branch list) nobody else holds yet. */
export function applyThoughtInPlace(meta: ThoughtDerivedMeta, thought: MetaThought): void {
  const branchId = thought.branchId;
  if (branchId !== undefined && !meta.branchIds.includes(branchId)) meta.branchIds.push(branchId);
  advance(meta, thought);
}

/** `meta` (its non-derived fields) with every thought of `thoughts` applied in order from zero counters. */
export function metaFromThoughts<M extends ThoughtDerivedMeta>(meta: M, thoughts: Iterable<MetaThought>): M {
  const derived = resetDerived(meta);
  for (const thought of thoughts) applyThoughtInPlace(derived, thought);
  return derived;
}

/** The fields one thought sets; the branch list is the caller's (copied or not). */
function advance(meta: ThoughtDerivedMeta, thought: MetaThought): void {
  meta.updatedAt = thought.timestamp;
  meta.thoughtCount = meta.thoughtCount + 1;
  if (thought.isRevision === true) meta.revisionCount = meta.revisionCount + 1;
  meta.lastThoughtNumber = thought.thoughtNumber;
  meta.totalThoughts = thought.totalThoughts;
  if (thought.stage !== undefined) meta.stage = thought.stage;
}

const PURPOSE_LENGTH = 120;

/** A one-line summary of a thought: a session's purpose, made from its first thought. */
export function purposeOf(text: string): string {
  return shortenedLine(text, PURPOSE_LENGTH);
}
