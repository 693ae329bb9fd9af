// Serving without protocol sessions (`--http --stateless`): every request is its own connection, so "this
// connection's current session" is gone after each thought. The rule for a thought without sessionId:
// - thought 1 opens a new session (as on any connection);
// - a later thought continues the one session that waits for exactly that number (its last thought is number - 1,
//   and it asked for another), among the sessions this server's stateless clients have written to;
// - when none or several wait for it, the thought is refused with an error that says to send sessionId.
// One instance serves every request of one HTTP server; what it remembers is bounded.
import type { ThinkingEngine, ThoughtReply } from '../engine/engine';
import { isWholeNumberInRange } from '../engine/fieldRules';
import { WHOLE_NUMBER_TEXT, sentField } from '../engine/thoughtInput';

/** Sessions remembered as possibly waiting for a next thought (the oldest are forgotten first). */
const MAX_REMEMBERED = 1000;
/** Session ids named in an ambiguity error. */
const MAX_NAMED = 5;

export interface StatelessContinuation {
  /** The arguments to record (with the session it continues, when unambiguous), or why the thought is refused. */
  route<A extends Record<string, unknown>>(args: A): { args: A } | { error: string };
  /** Call after a thought was recorded: its session may wait for the next number. */
  recorded(reply: ThoughtReply): void;
}

export function createStatelessContinuation(engine: ThinkingEngine): StatelessContinuation {
  /** Session id → the thought number it waits for. Insertion order is recency (a session is re-inserted on use). */
  const waiting = new Map<string, number>();

  return {
    route(args) {
      if (sentSessionId(args)) return { args };
      const number = wholeNumber(sentField(args, 'thoughtNumber'));
      // Thought 1 opens a session; a missing or bad number is the engine's to refuse, in its own words.
      if (number === undefined || number === 1) return { args };
      const candidates = [...waiting].filter(([id, next]) => next === number && engine.holdSession(id)?.status === 'live');
      if (candidates.length === 1) return { args: { ...args, sessionId: candidates[0][0] } };
      const whom =
        candidates.length === 0
          ? `no session of this server waits for thought ${number}`
          : `${candidates.length} sessions wait for thought ${number} (${candidates
              .slice(0, MAX_NAMED)
              .map(([id]) => `"${id}"`)
              .join(', ')}${candidates.length > MAX_NAMED ? ', …' : ''})`;
      return {
        error:
          `Missing sessionId: this server runs without protocol sessions (--stateless), so a thought after the first must ` +
          `name its session, and ${whom}. Send the sessionId from thought 1's reply with every later thought, or ` +
          `thoughtNumber 1 to start a new session. Nothing was recorded.`,
      };
    },
    recorded(reply) {
      waiting.delete(reply.sessionId);
      if (!reply.nextThoughtNeeded) return;
      waiting.set(reply.sessionId, reply.thoughtNumber + 1);
      if (waiting.size > MAX_REMEMBERED) waiting.delete(waiting.keys().next().value as string);
    },
  };
}

function sentSessionId(args: Record<string, unknown>): boolean {
  const id = sentField(args, 'sessionId');
  return id !== undefined && id !== null && id !== '';
}

/** A whole number ≥ 1 as sent (a number, or digits in a string, as the lenient parser takes), else undefined. */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && WHOLE_NUMBER_TEXT.test(value) ? Number(value) : value;
  return isWholeNumberInRange(number, 1) ? number : undefined;
}
