// A session as the engine holds it in memory: the stored snapshot plus the lookups each new thought needs.
import type { FeedbackRecord, SessionMeta, SessionSnapshot, StrategySwitch, ThoughtRecord } from '../model';

export interface HeldSession {
  meta: SessionMeta;
  thoughts: ThoughtRecord[];
  strategySwitches: StrategySwitch[];
  thoughtNumbers: Set<number>;
  /** Thoughts recorded in the current stage since entering it. */
  thoughtsInStage: number;
  /** The person's feedback in arrival order (empty for most sessions). */
  feedback: FeedbackRecord[];
}

export function holdFromSnapshot(snapshot: SessionSnapshot): HeldSession {
  const thoughts = snapshot.thoughts;
  // Only thoughts since the last strategy switch count: an old strategy may have a stage of the same name.
  const switchedAt = lastSwitchSeq(snapshot.strategySwitches);
  let thoughtsInStage = 0;
  for (let index = thoughts.length - 1; index >= switchedAt && thoughts[index].stage === snapshot.meta.stage; index--) thoughtsInStage++;
  return {
    meta: snapshot.meta,
    thoughts,
    strategySwitches: snapshot.strategySwitches,
    thoughtNumbers: new Set(thoughts.map((thought) => thought.thoughtNumber)),
    thoughtsInStage,
    feedback: snapshot.feedback ?? [],
  };
}

/** The snapshot view of a held session (shared arrays, no copy: callers treat snapshots as read-only). */
export function snapshotOf(session: HeldSession): SessionSnapshot {
  const snapshot: SessionSnapshot = { meta: session.meta, thoughts: session.thoughts, strategySwitches: session.strategySwitches };
  if (session.feedback.length > 0) snapshot.feedback = session.feedback;
  return snapshot;
}

/** Where the session's current strategy began (0 when it never switched). */
export function lastSwitchSeq(switches: readonly StrategySwitch[]): number {
  return switches[switches.length - 1]?.atSeq ?? 0;
}
