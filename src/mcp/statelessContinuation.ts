// Serving without protocol sessions (`--http --stateless`): every request is its own connection, so "this
// connection's current session" is gone after each thought, and nothing in a request tells one client from another
// except the conversation a host names (`_meta["vscode.conversationId"]`). The rule for a thought without sessionId:
// - thought 1 opens a new session (as on any connection);
// - a later thought continues its own conversation's session: the one that conversation wrote to last here, else
//   (after a restart, or once forgotten) its newest live session in the store's index, found by the conversation id
//   the session's meta keeps. Whole sessions are never read to find it;
// - a thought that names no conversation, or whose conversation has no live session, is refused with an error that
//   says to send the sessionId from thought 1's reply. It never lands in another client's session.
// A conversation's state (its current session, what it was told) lives in the engine under an owner id of its own,
// kept across requests; one instance serves every request of one HTTP server, and remembers a bounded number of them.
import type { ThinkingEngine } from '../engine/engine';
import { isWholeNumberInRange } from '../engine/fieldRules';
import { WHOLE_NUMBER_TEXT } from '../engine/lenientSchema';
import { sentField } from '../engine/thoughtInput';

/** Conversations remembered across requests (the least recently used is forgotten first). */
const MAX_REMEMBERED = 1000;

export interface StatelessContinuation {
  /**
   * The arguments to record and the engine owner to record them as (the conversation's, else the request's own), or
   * why the thought is refused.
   */
  route<A extends Record<string, unknown>>(
    args: A,
    conversationId: string | undefined,
    requestOwner: string,
  ): { args: A; ownerId: string } | { error: string };
}

export function createStatelessContinuation(engine: ThinkingEngine, limit = MAX_REMEMBERED): StatelessContinuation {
  /** Conversation id → its owner id in the engine; insertion order is recency. */
  const owners = new Map<string, string>();
  const ownerOf = (conversationId: string): string => {
    const ownerId = owners.get(conversationId) ?? `stateless\u0000${conversationId}`;
    owners.delete(conversationId);
    owners.set(conversationId, ownerId);
    if (owners.size > limit) {
      const [oldest, oldestOwner] = owners.entries().next().value as [string, string];
      owners.delete(oldest);
      engine.closeConnection(oldestOwner);
    }
    return ownerId;
  };

  return {
    route(args, conversationId, requestOwner) {
      const ownerId = conversationId === undefined ? requestOwner : ownerOf(conversationId);
      if (sentSessionId(args)) return { args, ownerId };
      const number = wholeNumber(sentField(args, 'thoughtNumber'));
      // Thought 1 opens a session; a missing or bad number is the engine's to refuse, in its own words.
      if (number === undefined || number === 1) return { args, ownerId };
      if (conversationId === undefined) return { error: refusal(number, 'the call names no conversation') };
      // The conversation's current session here: the engine continues it, reading no other session.
      if (engine.currentSessionId(ownerId) !== undefined) return { args, ownerId };
      const own = newestLiveSessionOf(engine, conversationId);
      if (own !== undefined) return { args: { ...args, sessionId: own }, ownerId };
      return { error: refusal(number, 'this conversation has no live session here') };
    },
  };
}

/** The conversation's most recently updated live session, from the index (metas only). */
function newestLiveSessionOf(engine: ThinkingEngine, conversationId: string): string | undefined {
  // Newest first: the first match is the one.
  return engine.listSessions({ status: 'live' }).sessions.find((meta) => meta.conversationId === conversationId)?.id;
}

function refusal(number: number, why: string): string {
  return (
    `Missing sessionId: this server runs without protocol sessions (--stateless), so thought ${number} must name its ` +
    `session, and ${why}. Send "sessionId" with the value from thought 1's reply, or thoughtNumber 1 to start a new ` +
    `session. Nothing was recorded.`
  );
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
