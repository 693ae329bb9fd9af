// The feedback step of recording a thought: marks delivered feedback the thought follows as applied, then hands out
// the feedback not yet delivered, each item exactly once. Every mark is journaled before memory changes, so a mark
// that could not be written is retried on the next thought instead of being lost or repeated.
import { deliveredForm, feedbackGuidance, thoughtApplies, type DeliveredFeedback } from '../feedbackRules';
import type { FeedbackEntry, FeedbackRecord, ThoughtRecord } from '../model';
import type { HeldSession } from './heldSession';
import { errorMessage } from '../browserSafe/errorMessage';

export interface FeedbackStepResult {
  /** What goes on the reply (undefined: nothing to deliver, the reply stays as it was). */
  delivery?: { items: DeliveredFeedback[]; guidance: string };
  /** Whether any record changed (for the `feedbackChanged` event). */
  changed: boolean;
}

export interface FeedbackStepContext {
  /** Whether this reply reaches the agent (the sequentialthinking tool); otherwise feedback is only checked for being applied. */
  deliver: boolean;
  now: number;
  /** Journals one change; throws when it cannot (then the change is not made in memory either). */
  persist: (entry: FeedbackEntry) => void;
  /** Told about a mark that could not be journaled (it is retried on the next thought). */
  log: (message: string) => void;
  /** The strategy's final stage, named in the guidance for 'conclude'. */
  finalStage: string | undefined;
}

const UNCHANGED: FeedbackStepResult = { changed: false };

/** Most characters (as JSON) of feedback one thought's reply delivers. */
export const FEEDBACK_REPLY_MAX_CHARS = 200_000;

/** Runs after the thought is stored and applied. Costs one array length check for a session without feedback. */
export function feedbackStep(
  session: HeldSession,
  thought: ThoughtRecord,
  completes: boolean,
  context: FeedbackStepContext,
): FeedbackStepResult {
  const all = session.feedback;
  if (all.length === 0) return UNCHANGED;
  let changed = false;
  // Applied first: only feedback the agent had already been given can be followed by this thought.
  for (let index = 0; index < all.length; index++) {
    const record = all[index];
    if (record.deliveredAt === undefined || record.appliedAt !== undefined || !thoughtApplies(record, thought, completes)) continue;
    if (!tryPersist(context, { type: 'feedbackApplied', id: record.id, at: context.now, bySeq: thought.seq })) continue;
    all[index] = { ...record, appliedAt: context.now, appliedBySeq: thought.seq };
    changed = true;
  }
  if (!context.deliver) return { changed };
  // Oldest first, as many as fit in the reply's share: 1,000 notes of 4,000 characters made a 49.6 MB reply. The rest
  // stay undelivered and go out with the next thoughts.
  const pending: number[] = [];
  let size = 0;
  let waiting = 0;
  for (let index = 0; index < all.length; index++) {
    if (all[index].deliveredAt !== undefined) continue;
    const next = JSON.stringify(deliveredForm(all[index])).length + 1;
    if (pending.length > 0 && size + next > FEEDBACK_REPLY_MAX_CHARS) {
      waiting++;
      continue;
    }
    size += next;
    pending.push(index);
  }
  if (pending.length === 0) return { changed };
  const ids = pending.map((index) => all[index].id);
  if (!tryPersist(context, { type: 'feedbackDelivered', ids, at: context.now, withSeq: thought.seq })) return { changed };
  const delivered: FeedbackRecord[] = [];
  for (const index of pending) {
    all[index] = { ...all[index], deliveredAt: context.now, deliveredWithSeq: thought.seq };
    delivered.push(all[index]);
  }
  return {
    changed: true,
    delivery: {
      items: delivered.map(deliveredForm),
      guidance:
        feedbackGuidance(delivered, context.finalStage) +
        (waiting > 0
          ? ` ${waiting} more feedback item(s) come with your next thought (one reply holds ${FEEDBACK_REPLY_MAX_CHARS} characters of feedback).`
          : ''),
    },
  };
}

function tryPersist(context: FeedbackStepContext, entry: FeedbackEntry): boolean {
  try {
    context.persist(entry);
    return true;
  } catch (error) {
    context.log(`feedback mark not saved (retried with the next thought): ${errorMessage(error)}`);
    return false;
  }
}
