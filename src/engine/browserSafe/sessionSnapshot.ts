// The one rule that turns the explorer's session view back into an engine snapshot, which is what the diagram sources,
// the cards' marks and the exports' SVGs take. Every copy of it once drifted (the SVGs the explorer drew for an export
// left the feedback out, so HTML exported from VS Code lacked the marks the CLI's export draws): keep it here only.
// Structural types, so the module needs nothing of the model or the protocol but their shape (it is bundled into the
// webview): a SessionView goes in, a SessionSnapshot of the same records comes out.
import { metaFromThoughts, type MetaThought, type ThoughtDerivedMeta } from './sessionMeta';

/** What of a session's meta a prefix re-describes. */
export interface SnapshotMeta extends ThoughtDerivedMeta {
  strategy: string;
  status: string;
  createdAt: number;
}

/** What of a thought a prefix is cut and counted by. */
export interface SnapshotThought extends MetaThought {
  seq: number;
}

/** What of a strategy switch a prefix keeps or drops by. */
export interface SnapshotSwitch {
  atSeq: number;
  from: string;
}

/** What of a feedback record a prefix rewinds: when it was given, delivered and applied. */
export interface SnapshotFeedback {
  createdAt: number;
  deliveredAt?: number;
  deliveredWithSeq?: number;
  appliedAt?: number;
  appliedBySeq?: number;
}

/** A session as the view holds it, or as a snapshot: the same four parts. */
export interface SessionParts<M extends SnapshotMeta, T extends SnapshotThought, S extends SnapshotSwitch, F extends SnapshotFeedback> {
  meta: M;
  thoughts: T[];
  strategySwitches: S[];
  feedback?: F[];
}

/**
 * `view` as a snapshot: the whole session, or its first `shown` thoughts (a replay's position). A prefix describes
 * itself (meta counted from its thoughts, live until its end, the strategy and switches of that moment) and carries
 * the feedback given by then, delivered or applied only where that happened within it.
 */
export function snapshotOfView<M extends SnapshotMeta, T extends SnapshotThought, S extends SnapshotSwitch, F extends SnapshotFeedback>(
  view: SessionParts<M, T, S, F>,
  shown: number = view.thoughts.length,
): SessionParts<M, T, S, F> {
  const whole = shown >= view.thoughts.length;
  const snapshot: SessionParts<M, T, S, F> = whole
    ? { meta: view.meta, thoughts: view.thoughts, strategySwitches: view.strategySwitches }
    : prefixOf(view, Math.max(0, shown));
  const feedback = whole ? view.feedback : feedbackBy(view.feedback, snapshot.thoughts);
  if (feedback !== undefined && feedback.length > 0) snapshot.feedback = feedback;
  return snapshot;
}

function prefixOf<M extends SnapshotMeta, T extends SnapshotThought, S extends SnapshotSwitch, F extends SnapshotFeedback>(
  view: SessionParts<M, T, S, F>,
  shown: number,
): SessionParts<M, T, S, F> {
  const thoughts = view.thoughts.slice(0, shown);
  const last = thoughts[thoughts.length - 1];
  // During a replay the meta must describe the prefix, or the header and stage graph would show the ending.
  const laterSwitch = view.strategySwitches.find((change) => change.atSeq >= shown);
  // "live" is a status every session has; the spread keeps the rest of M.
  const base = {
    ...view.meta,
    strategy: laterSwitch ? laterSwitch.from : view.meta.strategy,
    status: 'live',
    updatedAt: view.meta.createdAt,
  } as M;
  // The stage is the last shown thought's, even when that thought has none (an imported one): not an earlier one's.
  const meta: M = { ...metaFromThoughts(base, thoughts), stage: last?.stage };
  return { meta, thoughts, strategySwitches: view.strategySwitches.filter((change) => change.atSeq < shown) };
}

/** The feedback as it stood when the last of `thoughts` was recorded; the same array when nothing differs. */
function feedbackBy<F extends SnapshotFeedback>(feedback: readonly F[] | undefined, thoughts: readonly SnapshotThought[]): F[] | undefined {
  if (feedback === undefined) return undefined;
  const last = thoughts[thoughts.length - 1];
  if (last === undefined) return [];
  let changed = false;
  const out: F[] = [];
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
    } as F); // F less marks that are optional in every record
  }
  return changed ? out : (feedback as F[]);
}
