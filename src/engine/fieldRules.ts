// The bounds every value of the thought model must keep, wherever it comes from: tool input, the journal, an import.
// One copy, so the parser and the readers can never disagree (a thought accepted by one and refused by the other is a
// thought acknowledged and later lost).
import { cutEnd } from './browserSafe/textCut';

/** Ids, branch names, strategies and stages end up in file names, diagrams and logs: a safe alphabet only. */
export const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const NAME_RULE = '1-64 letters, digits, "_", "-", "." or ":"';

/** A session's statuses, named once: the model's `SessionStatus` is this list's members. */
export const SESSION_STATUSES = ['live', 'complete', 'abandoned'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export { FEEDBACK_KINDS, isFeedbackKind } from './browserSafe/feedbackKinds';

/**
 * How much a `sequentialthinking` reply says (see replyDetail.ts): compact, only what the connection was not told yet;
 * standard, every field without empty or unchanged extras; full, every field on every reply.
 */
export const REPLY_DETAILS = ['compact', 'standard', 'full'] as const;
export type ReplyDetail = (typeof REPLY_DETAILS)[number];

export function isReplyDetail(value: unknown): value is ReplyDetail {
  return typeof value === 'string' && (REPLY_DETAILS as readonly string[]).includes(value);
}

/** Longest feedback text (note, reason, comment), in characters: a message to an agent, not a document. */
export const MAX_FEEDBACK_TEXT_LENGTH = 4_000;

/** Most feedback records one session may hold: a guard against a runaway script, far above what a person types. */
export const MAX_FEEDBACK_PER_SESSION = 1_000;

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

const DESCRIBED_LENGTH = 80;

/**
 * A short JSON-like picture of a value for an error message (at most 80 characters). Written out piece by piece and
 * stopped at the limit, so a huge or deeply nested value (a 100,000-deep array) costs no more than a small one and
 * never overflows the stack, where JSON.stringify would walk all of it first.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = boundedJson(value, DESCRIBED_LENGTH + 1) ?? String(value);
  return text.length > DESCRIBED_LENGTH ? `${text.slice(0, DESCRIBED_LENGTH - 3)}...` : text;
}

/**
 * The one wording of "that session does not exist", for every face (tools, resources, the CLI): the id comes from
 * outside, so it is shown bounded, as describeValue shows any value. Callers add what to send instead.
 */
export function noSuchSession(id: unknown): string {
  return `no session ${describeValue(id)} exists`;
}

/** JSON.stringify(value), but only its first `limit` characters or more (undefined where JSON.stringify gives it). */
function boundedJson(value: unknown, limit: number): string | undefined {
  let out = '';
  const write = (item: unknown, inArray: boolean): void => {
    if (out.length >= limit) return;
    if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      item = (item as { toJSON: () => unknown }).toJSON();
    }
    if (item === null || typeof item === 'boolean') out += String(item);
    else if (typeof item === 'number') out += Number.isFinite(item) ? String(item) : 'null';
    // A long string is cut before escaping: only its first characters can show.
    else if (typeof item === 'string') out += JSON.stringify(item.length > limit ? item.slice(0, limit) : item);
    else if (typeof item === 'bigint') out += String(item);
    else if (Array.isArray(item)) {
      out += '[';
      for (let index = 0; index < item.length && out.length < limit; index++) {
        if (index > 0) out += ',';
        write(item[index], true);
      }
      out += ']';
    } else if (typeof item === 'object') {
      out += '{';
      let first = true;
      for (const key of Object.keys(item)) {
        if (out.length >= limit) break;
        const member = (item as Record<string, unknown>)[key];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        write(member, false);
      }
      out += '}';
    } else if (inArray) out += 'null';
  };
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  write(value, false);
  return out;
}

/**
 * Characters that change how text around them looks without showing themselves: bidi controls (Trojan Source), the C0
 * controls other than tab, line feed and carriage return, DEL and the C1 controls, and the Unicode line and paragraph
 * separators.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const HIDDEN_CONTROLS = new RegExp(HIDDEN_CONTROL.source, 'g');

/**
 * Text from outside as it may be shown (exports, tree labels, lists, guidance): each hidden control written out as
 * `\uXXXX`, so it can neither reorder nor hide what is around it. What is stored keeps the original.
 */
export function visibleText(text: string): string {
  if (!HIDDEN_CONTROL.test(text)) return text;
  return text.replace(HIDDEN_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Longest error text from outside (an endpoint, a client) that is stored or echoed, in characters. */
export const MAX_OUTSIDE_ERROR_LENGTH = 500;

/**
 * `text` cut to at most `max` characters (never inside a surrogate pair), followed by a marker saying how much was cut
 * and, when given, where the rest is.
 */
export function cutText(text: string, max: number, rest?: string): string {
  if (text.length <= max) return text;
  const end = cutEnd(text, max);
  return `${text.slice(0, end)}… [${text.length - end} more characters cut${rest ? `; ${rest}` : ''}]`;
}

/** An error's message (or the thrown value) from outside, cut to MAX_OUTSIDE_ERROR_LENGTH. */
export function outsideErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : describeValue(error);
  return cutText(message, MAX_OUTSIDE_ERROR_LENGTH);
}

/** What the rules of a session say about feedback for it: who may receive it and about which thought. */
export interface FeedbackPlace {
  id: string;
  status: SessionStatus;
  thoughtNumbers: ReadonlySet<number>;
}

/**
 * Why a session may not take this feedback, by the rules the engine applies when the person gives it (feedback goes
 * to live sessions, about a thought they hold); undefined when it may. One copy for live feedback and imports.
 */
export function feedbackRefusal(session: FeedbackPlace, thoughtNumber: number | undefined): string | undefined {
  if (session.status !== 'live') return `Session "${session.id}" is ${session.status}; feedback goes to live sessions.`;
  if (thoughtNumber !== undefined && !session.thoughtNumbers.has(thoughtNumber))
    return `Unknown thought ${thoughtNumber}: session "${session.id}" holds thoughts ${describeNumbers(session.thoughtNumbers)}; name one of those.`;
  return undefined;
}

/** "1-5, 7" for a person reading which thought numbers exist. */
export function describeNumbers(numbers: ReadonlySet<number>): string {
  if (numbers.size === 0) return 'none yet';
  const sorted = [...numbers].sort((a, b) => a - b);
  const ranges: string[] = [];
  let start = sorted[0];
  let end = start;
  for (const value of sorted.slice(1)) {
    if (value === end + 1) end = value;
    else {
      ranges.push(start === end ? String(start) : `${start}-${end}`);
      start = end = value;
    }
  }
  ranges.push(start === end ? String(start) : `${start}-${end}`);
  return ranges.length > 6 ? `${ranges.slice(0, 6).join(', ')}, …` : ranges.join(', ');
}

/** The longest conversation id kept in a session's meta (VS Code's are UUIDs); longer ones are kept as a digest. */
export const MAX_CONVERSATION_ID_LENGTH = 128;
