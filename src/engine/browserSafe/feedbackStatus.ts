// Where a piece of the person's feedback stands, derived from the session as journaled (never stored): waiting for
// the next thought, delivered, applied, or not acted on because the agent moved on. One rule, so the explorer's cards,
// the Sessions tree, `thinking_sessions get` and the exports all say the same thing. The engine only records delivery
// and application (recording/feedbackDelivery.ts). Structural types (the model's records fit them), as everywhere here.
import type { FeedbackKind } from './feedbackKinds';

/** What the rule reads of a feedback record: its kind and delivery marks (the model's FeedbackRecord extends it). */
export interface FeedbackMarks {
  kind: FeedbackKind;
  /** Set once, when it went out on a sequentialthinking reply. */
  deliveredAt?: number;
  /** seq of the thought whose reply carried it (the "N thoughts passed" count starts after it). */
  deliveredWithSeq?: number;
  /** When the agent did what was asked (revised N, branched from N, reached the final stage). Notes are never applied. */
  appliedAt?: number;
  /** seq of the thought that applied it. */
  appliedBySeq?: number;
}

/** A session's state as the model's SessionStatus names it. */
type SessionState = 'live' | 'complete' | 'abandoned';

/**
 * How many thoughts the agent may send after feedback reached it before the feedback counts as not acted on. Three:
 * the next thought may finish the one in hand, the second should act; by the third the agent has moved on.
 */
export const THOUGHTS_BEFORE_NOT_ACTED_ON = 3;

export type FeedbackStatus =
  | { state: 'pending' }
  | { state: 'delivered' }
  | { state: 'applied'; bySeq?: number }
  /** Never reached the agent: the session ended first. */
  | { state: 'undelivered'; reason: 'session-ended' }
  | { state: 'not-acted-on'; reason: 'session-ended' | 'thoughts-passed'; thoughtsPassed: number };

/** What the rule reads of the session. */
export interface FeedbackSessionView {
  thoughts: readonly { seq: number; timestamp: number }[];
  status: SessionState;
}

/** Thoughts the agent sent after the reply that carried the feedback. */
export function thoughtsAfterDelivery(record: FeedbackMarks, thoughts: FeedbackSessionView['thoughts']): number {
  if (record.deliveredAt === undefined) return 0;
  if (record.deliveredWithSeq !== undefined) return Math.max(0, thoughts.length - 1 - record.deliveredWithSeq);
  // Journals from before deliveredWithSeq: the thoughts stamped after the delivery time.
  const deliveredAt = record.deliveredAt;
  let count = 0;
  for (let index = thoughts.length - 1; index >= 0 && thoughts[index].timestamp > deliveredAt; index--) count++;
  return count;
}

export function feedbackStatus(record: FeedbackMarks, session: FeedbackSessionView): FeedbackStatus {
  if (record.appliedAt !== undefined)
    return record.appliedBySeq === undefined ? { state: 'applied' } : { state: 'applied', bySeq: record.appliedBySeq };
  // "Conclude now" asks for the ending: a session that completed did what it asked, even when the final thought was
  // already on its way (the ask then rides on the last reply and no later thought can mark it applied).
  if (record.kind === 'conclude' && session.status === 'complete') {
    const last = session.thoughts[session.thoughts.length - 1];
    return last === undefined ? { state: 'applied' } : { state: 'applied', bySeq: last.seq };
  }
  const ended = session.status !== 'live';
  if (record.deliveredAt === undefined) return ended ? { state: 'undelivered', reason: 'session-ended' } : { state: 'pending' };
  // A note asks for nothing checkable: delivered is as far as it goes.
  if (record.kind === 'note') return { state: 'delivered' };
  const thoughtsPassed = thoughtsAfterDelivery(record, session.thoughts);
  if (ended) return { state: 'not-acted-on', reason: 'session-ended', thoughtsPassed };
  if (thoughtsPassed >= THOUGHTS_BEFORE_NOT_ACTED_ON) return { state: 'not-acted-on', reason: 'thoughts-passed', thoughtsPassed };
  return { state: 'delivered' };
}

/**
 * The status in words, the same everywhere: "waiting for the next thought", "delivered to the agent", "applied by #5",
 * "not acted on: session ended", "not acted on: 3 thoughts passed", "not delivered: session ended"; a "Conclude now"
 * that was followed reads "acted on: the agent concluded at #8".
 * `thoughtNumberOf` turns the applying thought's seq into its number (undefined when the thought is not at hand).
 */
export function describeFeedbackStatus(
  status: FeedbackStatus,
  thoughtNumberOf: (seq: number) => number | undefined,
  kind?: FeedbackKind,
): string {
  switch (status.state) {
    case 'pending':
      return 'waiting for the next thought';
    case 'delivered':
      return 'delivered to the agent';
    case 'applied': {
      const number = status.bySeq === undefined ? undefined : thoughtNumberOf(status.bySeq);
      if (kind === 'conclude')
        return number === undefined ? 'acted on: the agent concluded' : `acted on: the agent concluded at #${number}`;
      return number === undefined ? 'applied' : `applied by #${number}`;
    }
    case 'undelivered':
      return 'not delivered: session ended';
    case 'not-acted-on':
      return status.reason === 'session-ended'
        ? 'not acted on: session ended'
        : `not acted on: ${status.thoughtsPassed} thought${status.thoughtsPassed === 1 ? '' : 's'} passed`;
  }
}

/** Status and words for a record of a session snapshot: what the explorer, tree, tools and exports show. */
export function feedbackStatusText(
  record: FeedbackMarks,
  thoughts: readonly { seq: number; timestamp: number; thoughtNumber: number }[],
  status: SessionState,
): string {
  return describeFeedbackStatus(feedbackStatus(record, { thoughts, status }), (seq) => thoughts[seq]?.thoughtNumber, record.kind);
}
