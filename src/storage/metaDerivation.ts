// How a session's meta follows from its thoughts. The journal stores these counters nowhere: they are recomputed from
// the thought lines on every read, so a journal can never disagree with itself about how many thoughts it holds.
import type { SessionMeta, ThoughtRecord } from '../engine/model';

/** Meta fields that are always derived from the thoughts and never taken from a stored meta. */
export const DERIVED_FIELDS = ['thoughtCount', 'revisionCount', 'branchIds', 'lastThoughtNumber'] as const;

type DerivedField = (typeof DERIVED_FIELDS)[number];
export type MetaPatch = { [K in Exclude<keyof SessionMeta, DerivedField>]?: SessionMeta[K] | null };

/** The meta with no thoughts applied: counters back to zero. */
export function resetDerived(meta: SessionMeta): SessionMeta {
  return { ...meta, thoughtCount: 0, revisionCount: 0, branchIds: [], lastThoughtNumber: 0 };
}

/** Takes the non-derived fields from `source` and the derived ones from `counters`. */
export function withDerivedFrom(source: SessionMeta, counters: SessionMeta): SessionMeta {
  return {
    ...source,
    thoughtCount: counters.thoughtCount,
    revisionCount: counters.revisionCount,
    branchIds: counters.branchIds,
    lastThoughtNumber: counters.lastThoughtNumber,
  };
}

/** The meta after one more thought, by the rules every writer follows; anything else is recorded as a patch. */
export function applyThought(meta: SessionMeta, thought: ThoughtRecord): SessionMeta {
  const next: SessionMeta = {
    ...meta,
    updatedAt: thought.timestamp,
    thoughtCount: meta.thoughtCount + 1,
    revisionCount: meta.revisionCount + (thought.isRevision === true ? 1 : 0),
    branchIds:
      thought.branchId !== undefined && !meta.branchIds.includes(thought.branchId) ? [...meta.branchIds, thought.branchId] : meta.branchIds,
    lastThoughtNumber: thought.thoughtNumber,
    totalThoughts: thought.totalThoughts,
  };
  if (thought.stage !== undefined) next.stage = thought.stage;
  return next;
}

/** applyThought without copying: for readers replaying a journal into a meta object nobody else holds yet. */
export function applyThoughtInPlace(meta: SessionMeta, thought: ThoughtRecord): void {
  meta.updatedAt = thought.timestamp;
  meta.thoughtCount++;
  if (thought.isRevision === true) meta.revisionCount++;
  if (thought.branchId !== undefined && !meta.branchIds.includes(thought.branchId)) meta.branchIds.push(thought.branchId);
  meta.lastThoughtNumber = thought.thoughtNumber;
  meta.totalThoughts = thought.totalThoughts;
  if (thought.stage !== undefined) meta.stage = thought.stage;
}

/**
 * The non-derived fields in which `next` differs from applyThought(previous, thought) (null marks a field `next`
 * lacks), without building the derived meta: the store computes this for every thought it appends, and the answer is
 * nearly always "no patch".
 */
export function thoughtMetaPatch(previous: SessionMeta, next: SessionMeta, thought: ThoughtRecord): MetaPatch | undefined {
  const before = previous as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  let patch: Record<string, unknown> | undefined;
  // The keys applyThought's result has: the previous meta's, then those it always sets.
  for (const key in before) {
    if (isDerived(key)) continue;
    patch = notePatch(patch, after, key, expectedAfterThought(before, thought, key));
  }
  if (!Object.hasOwn(before, 'updatedAt')) patch = notePatch(patch, after, 'updatedAt', thought.timestamp);
  if (!Object.hasOwn(before, 'totalThoughts')) patch = notePatch(patch, after, 'totalThoughts', thought.totalThoughts);
  if (thought.stage !== undefined && !Object.hasOwn(before, 'stage')) patch = notePatch(patch, after, 'stage', thought.stage);
  // Then the keys only the new meta has (notePatch is idempotent, so a key seen twice changes nothing).
  for (const key in after) {
    if (Object.hasOwn(before, key) || isDerived(key)) continue;
    patch = notePatch(patch, after, key, expectedAfterThought(before, thought, key));
  }
  return patch as MetaPatch | undefined;
}

/** Adds `key` to the patch when `after` does not hold what a reader would derive (`have`); a plain function, not a closure per thought. */
function notePatch(
  patch: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
  key: string,
  have: unknown,
): Record<string, unknown> | undefined {
  const want = after[key];
  if (sameValue(want, have)) return patch;
  const result = patch ?? {};
  result[key] = want === undefined ? null : want;
  return result;
}

/** What applyThought(previous, thought)[key] is, for a non-derived key. */
function expectedAfterThought(previous: Record<string, unknown>, thought: ThoughtRecord, key: string): unknown {
  if (key === 'updatedAt') return thought.timestamp;
  if (key === 'totalThoughts') return thought.totalThoughts;
  if (key === 'stage' && thought.stage !== undefined) return thought.stage;
  return previous[key];
}

function isDerived(key: string): boolean {
  return key === 'thoughtCount' || key === 'revisionCount' || key === 'branchIds' || key === 'lastThoughtNumber';
}

export function applyPatch(meta: SessionMeta, patch: MetaPatch): SessionMeta {
  const next = { ...meta } as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    // "__proto__" is no meta field; assigning it would swap the prototype and let a journal line smuggle in fields.
    if ((DERIVED_FIELDS as readonly string[]).includes(key) || key === '__proto__') continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as unknown as SessionMeta;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const PURPOSE_LENGTH = 120;

/** A one-line summary of a thought, as the engine makes a session's purpose from its first thought. */
export function purposeOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PURPOSE_LENGTH ? `${flat.slice(0, PURPOSE_LENGTH - 1)}…` : flat;
}
