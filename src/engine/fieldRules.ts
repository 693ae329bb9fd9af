// The bounds every value of the thought model must keep, wherever it comes from: tool input, the journal, an import.
// One copy, so the parser and the readers can never disagree (a thought accepted by one and refused by the other is a
// thought acknowledged and later lost).
import type { SessionStatus } from './model';

/** Ids, branch names, strategies and stages end up in file names, diagrams and logs: a safe alphabet only. */
export const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const NAME_RULE = '1-64 letters, digits, "_", "-", "." or ":"';

export const SESSION_STATUSES: readonly SessionStatus[] = ['live', 'complete', 'abandoned'];

/** Thought numbers and counts: whole numbers that survive a JSON round trip exactly. */
export const MAX_WHOLE_NUMBER = Number.MAX_SAFE_INTEGER;

/** Timestamps: from 1970 to the year 2999 (far beyond any real clock, and well inside what Date can hold). */
export const MAX_TIMESTAMP = Date.UTC(3000, 0, 1) - 1;

export function isWholeNumberInRange(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}

export function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_TIMESTAMP;
}

export function isName(value: unknown): value is string {
  return typeof value === 'string' && NAME_PATTERN.test(value);
}

/** How a refused value is named in every error message (tool input, journal, import): JSON, cut at 80 characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
