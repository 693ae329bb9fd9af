// What a journal records of a session's meta besides its thoughts: the patch of fields a writer set that the thoughts
// do not give. The counters are stored nowhere: they are recomputed from the thought lines on every read (by the rule
// in src/engine/browserSafe/sessionMeta.ts), so a journal can never disagree with itself about how many thoughts it holds.
import { DERIVED_FIELDS, type DerivedField } from '../engine/browserSafe/sessionMeta';
import type { SessionMeta, ThoughtRecord } from '../engine/model';

export type MetaPatch = { [K in Exclude<keyof SessionMeta, DerivedField>]?: SessionMeta[K] | null };

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
