// The one rule that turns the explorer's session view back into an engine snapshot, which is what the diagram sources,
// the cards' marks and the exports' SVGs take. Every copy of it once drifted (the SVGs the explorer drew for an export
// left the feedback out, so HTML exported from VS Code lacked the marks the CLI's export draws): keep it here only.
import { metaFromThoughts } from '../engine/browserSafe/sessionMeta';
import type { FeedbackRecord, SessionMeta, SessionSnapshot, ThoughtRecord } from '../engine/model';
import type { SessionView } from './protocol';

/**
 * `view` as a snapshot: the whole session, or its first `shown` thoughts (a replay's position). A prefix describes
 * itself (meta counted from its thoughts, live until its end, the strategy and switches of that moment) and carries
 * the feedback given by then, delivered or applied only where that happened within it.
 */
export function snapshotOfView(view: SessionView, shown: number = view.thoughts.length): SessionSnapshot {
  const whole = shown >= view.thoughts.length;
  const snapshot: SessionSnapshot = whole
    ? { meta: view.meta, thoughts: view.thoughts, strategySwitches: view.strategySwitches }
    : prefixOf(view, Math.max(0, shown));
  const feedback = whole ? view.feedback : feedbackBy(view.feedback, snapshot.thoughts);
  if (feedback !== undefined && feedback.length > 0) snapshot.feedback = feedback;
  return snapshot;
}

function prefixOf(view: SessionView, shown: number): SessionSnapshot {
  const thoughts = view.thoughts.slice(0, shown);
  const last = thoughts[thoughts.length - 1];
  // During a replay the meta must describe the prefix, or the header and stage graph would show the ending.
  const laterSwitch = view.strategySwitches.find((change) => change.atSeq >= shown);
  const base: SessionMeta = {
    ...view.meta,
    strategy: laterSwitch ? laterSwitch.from : view.meta.strategy,
    status: 'live',
    updatedAt: view.meta.createdAt,
  };
  // The stage is the last shown thought's, even when that thought has none (an imported one): not an earlier one's.
  const meta: SessionMeta = { ...metaFromThoughts(base, thoughts), stage: last?.stage };
  return { meta, thoughts, strategySwitches: view.strategySwitches.filter((change) => change.atSeq < shown) };
}

/** The feedback as it stood when the last of `thoughts` was recorded; the same array when nothing differs. */
function feedbackBy(feedback: readonly FeedbackRecord[] | undefined, thoughts: readonly ThoughtRecord[]): FeedbackRecord[] | undefined {
  if (feedback === undefined) return undefined;
  const last = thoughts[thoughts.length - 1];
  if (last === undefined) return [];
  let changed = false;
  const out: FeedbackRecord[] = [];
  for (const record of feedback) {
    if (record.createdAt > last.timestamp) {
      changed = true;
      continue;
    }
    const delivered = record.deliveredWithSeq === undefined || record.deliveredWithSeq <= last.seq;
    const applied = record.appliedBySeq === undefined || record.appliedBySeq <= last.seq;
    if (delivered && applied) {
      out.push(record);
      continue;
    }
    changed = true;
    const { deliveredAt, deliveredWithSeq, appliedAt, appliedBySeq, ...rest } = record;
    out.push({
      ...rest,
      ...(delivered ? { deliveredAt, deliveredWithSeq } : {}),
      ...(delivered && applied ? { appliedAt, appliedBySeq } : {}),
    });
  }
  return changed ? out : (feedback as FeedbackRecord[]);
}
