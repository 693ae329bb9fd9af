// Where a person's feedback shows on a session's thoughts: the thought each piece is about (marked `feedback` in the
// diagrams, with a marker on its card) and the thought that applied it. Pure functions of a snapshot, shared by the
// diagram sources and the explorer's cards, so both mark the same thoughts. Diagram compression keeps these unfolded.
import type { FeedbackRecord, SessionSnapshot, ThoughtRecord } from '../engine/model';

/** The Mermaid class of a thought node that feedback is about. */
export const FEEDBACK_CLASS = 'feedback';

/** The thought numbers the session's feedback names (reject, branch, notes about a thought). */
export function feedbackThoughtNumbers(snapshot: Pick<SessionSnapshot, 'feedback'>): Set<number> {
  const numbers = new Set<number>();
  for (const record of snapshot.feedback ?? []) if (record.thoughtNumber !== undefined) numbers.add(record.thoughtNumber);
  return numbers;
}

/**
 * The seq of the thought a piece of feedback is about: the latest thought with its number that existed when the
 * feedback was given (thought numbers repeat across branches and revisions), else the latest with that number.
 */
export function feedbackTargetSeq(thoughts: readonly ThoughtRecord[], record: FeedbackRecord): number | undefined {
  const number = record.thoughtNumber;
  if (number === undefined) return undefined;
  let fallback: number | undefined;
  for (let index = thoughts.length - 1; index >= 0; index--) {
    const thought = thoughts[index];
    if (thought.thoughtNumber !== number) continue;
    if (thought.timestamp <= record.createdAt) return thought.seq;
    fallback ??= thought.seq;
  }
  return fallback;
}

/** Per thought seq, the feedback about it; thoughts without feedback are absent. Empty for a session without any. */
export function feedbackBySeq(snapshot: Pick<SessionSnapshot, 'thoughts' | 'feedback'>): Map<number, FeedbackRecord[]> {
  const bySeq = new Map<number, FeedbackRecord[]>();
  for (const record of snapshot.feedback ?? []) {
    const seq = feedbackTargetSeq(snapshot.thoughts, record);
    if (seq === undefined) continue;
    const list = bySeq.get(seq);
    if (list) list.push(record);
    else bySeq.set(seq, [record]);
  }
  return bySeq;
}

/** Per thought seq, the feedback that thought applied (a revision asked for, a branch asked for, the conclusion). */
export function appliedBySeq(snapshot: Pick<SessionSnapshot, 'feedback'>): Map<number, FeedbackRecord[]> {
  const bySeq = new Map<number, FeedbackRecord[]>();
  for (const record of snapshot.feedback ?? []) {
    if (record.appliedBySeq === undefined) continue;
    const list = bySeq.get(record.appliedBySeq);
    if (list) list.push(record);
    else bySeq.set(record.appliedBySeq, [record]);
  }
  return bySeq;
}
