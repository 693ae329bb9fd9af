// The argument fields of `thinking_sessions` as each action reads them. McpServer first parses a call leniently, with
// the schema made from the canonical one (src/mcp/lenientSchema.ts: "20" for 20, null for absent; a value it cannot
// take is kept as a RefusedValue), because McpServer would word a refusal itself. The readers here take that output:
// a refused value becomes an issue saying what was sent and what to send, which the tool answers as
// "Invalid <field>: <issue>".
import { z } from 'zod';
import type { ThinkingEngine } from '../../../engine/engine';
import { MAX_WHOLE_NUMBER, describeValue, noSuchSession } from '../../../engine/fieldRules';
import type { SessionSnapshot } from '../../../engine/model';
import { WHOLE_NUMBER_TEXT, sentValue } from '../../../engine/lenientSchema';

/** A refusal found while running an action (an unknown session, nothing to do): answered with its message as it is. */
export class ArgumentProblem extends Error {}

/** Page sizes of list and search. */
export const SESSION_LIST_DEFAULT_LIMIT = 20;
export const SESSION_LIST_MAX_LIMIT = 100;
/** How many last thoughts get (summary) and resume show. */
export const RESUME_DEFAULT_RECENT = 5;

/** Ends a strict field's parse with the problem, worded after "Invalid <field>: ". */
function problem(context: z.RefinementCtx, message: string): never {
  context.issues.push({ code: 'custom', message, input: undefined });
  return z.NEVER;
}

/** "got <the value as sent>; expected <expected>." */
export function refuse(context: z.RefinementCtx, value: unknown, expected: string): never {
  return problem(context, `got ${describeValue(sentValue(value))}; expected ${expected}.`);
}

const absent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** Any value, also none: optional, so that a strict field's transform also runs for a missing key (defaults, required). */
const anyValue = () => z.unknown().optional();

/** Strict: text, or undefined when absent. */
export const text = () =>
  anyValue().transform((value, context) =>
    absent(value) ? undefined : typeof value === 'string' ? value : refuse(context, value, 'text'),
  );

/** Strict: the session an action works on, required. */
export const sessionId = () =>
  text().transform((id, context) =>
    id === undefined || id === '' ? problem(context, 'this action needs sessionId (find one with action "list" or "search").') : id,
  );

/** Strict: one of `choices`; text that is none of them is refused with the list (or `expected`), anything else as not text. */
export function choice<T extends string>(choices: readonly T[], expected = `one of ${choices.join(', ')}`) {
  return anyValue().transform((value, context): T | undefined => {
    if (absent(value)) return undefined;
    if (choices.includes(value as T)) return value as T;
    return refuse(context, value, typeof sentValue(value) === 'string' ? expected : 'text');
  });
}

/** Strict: a count of 0 or more, or `fallback` when absent. */
export function count<F extends number | undefined = undefined>(fallback?: F) {
  return anyValue().transform((value, context): number | F => {
    if (absent(value) || value === '') return fallback as F;
    if (typeof value === 'number') return value;
    const sent = sentValue(value);
    const number = typeof sent === 'string' && WHOLE_NUMBER_TEXT.test(sent) ? Number(sent) : sent;
    const inRange = typeof number === 'number' && Number.isInteger(number) && number >= 0;
    return refuse(context, sent, inRange ? `a whole number from 0 to ${MAX_WHOLE_NUMBER}` : 'a whole number of 0 or more');
  });
}

/** Strict: a page size of list and search. */
export const pageLimit = () =>
  count(SESSION_LIST_DEFAULT_LIMIT).transform((limit, context) =>
    limit >= 1 && limit <= SESSION_LIST_MAX_LIMIT ? limit : problem(context, `got ${limit}; expected 1 to ${SESSION_LIST_MAX_LIMIT}.`),
  );

/** Strict: the value as sent, for an action that words its own refusals (null is absent). */
export const sent = () => anyValue().transform((value) => sentValue(value) ?? undefined);

/** The session `id` names; a journal the store could not open is refused with its reason, not as "no session". */
export function requireSession(engine: ThinkingEngine, id: string): SessionSnapshot {
  const snapshot = engine.getSession(id);
  if (snapshot) return snapshot;
  const listed = engine.listSessions().sessions.find((meta) => meta.id === id);
  if (listed?.unreadable !== undefined)
    throw new ArgumentProblem(`Session ${describeValue(id)} is unreadable: ${listed.unreadable}. Its journal was left untouched.`);
  throw new ArgumentProblem(unknownSession(id));
}

export function unknownSession(id: string): string {
  return `Invalid sessionId: ${noSuchSession(id)}. Use thinking_sessions with action "list" or "search" to find one.`;
}
