// A session's thoughts as a typed graph for the explorer's own drawing (webview/diagrams/thoughtGraphView.ts) and the SVG made
// from it (thoughtGraphSvg.ts): one node per thought in arrival order, each on a lane (the main line is lane 0, each
// branch takes the next lane when its first thought arrives), and the edges between them (next on a line, a branch's
// fork, a revision's target). Built one thought at a time, so a live session appends a row without touching the rows
// before it: lanes are handed out once and never change. Pure: no DOM, no Mermaid.
import type { FeedbackRecord, SessionSnapshot, SessionStatus, ThoughtRecord } from '../engine/model';
import { feedbackStatus } from '../engine/browserSafe/feedbackStatus';
import { feedbackTargetSeq } from './feedbackMarks';
import { ThoughtLinkResolver } from './thoughtLinks';

export type ThoughtNodeKind = 'main' | 'branch' | 'revision';
export type ThoughtEdgeKind = 'next' | 'branch' | 'revision';

export interface ThoughtGraphNode {
  seq: number;
  /** `t<seq>`: the id every diagram gives a thought (thoughtLinks.ts). */
  id: string;
  thoughtNumber: number;
  kind: ThoughtNodeKind;
  lane: number;
  branchId?: string;
  stage?: string;
  text: string;
  /** The thought that ended the session (nextThoughtNeeded false). */
  final: boolean;
  /** The first thought of its branch. */
  startsBranch: boolean;
  /** The thought before it on its line, or the fork of a branch's first thought. */
  parent?: number;
  /** The thought it revises, when that thought is in the session. */
  revises?: number;
  /** A thought number it names that the session does not hold (a fork or a revision target): drawn as words. */
  dangling?: number;
}

export interface ThoughtGraphEdge {
  from: number;
  to: number;
  kind: ThoughtEdgeKind;
}

export interface ThoughtGraphLane {
  index: number;
  /** Undefined for the main line. */
  branchId?: string;
  /** The row the lane's line starts on: its fork, else its first thought. */
  start: number;
  /** Its first thought. */
  first: number;
  /** Its latest thought. */
  end: number;
  /** How many thoughts it holds. */
  size: number;
}

export interface ThoughtGraph {
  nodes: ThoughtGraphNode[];
  edges: ThoughtGraphEdge[];
  lanes: ThoughtGraphLane[];
}

/** Builds the graph one thought at a time; `graph` is the same object throughout, appended to in place. */
export class ThoughtGraphBuilder {
  readonly graph: ThoughtGraph = { nodes: [], edges: [], lanes: [] };
  private readonly resolver = new ThoughtLinkResolver();
  private readonly laneOf = new Map<string | undefined, number>();

  add(thought: ThoughtRecord): ThoughtGraphNode {
    const { nodes, edges, lanes } = this.graph;
    const seq = nodes.length;
    const links = this.resolver.add(thought, seq);
    let lane = this.laneOf.get(thought.branchId);
    if (lane === undefined) {
      lane = lanes.length;
      this.laneOf.set(thought.branchId, lane);
      const start = links.startsBranch && links.parent !== undefined ? links.parent : seq;
      lanes.push({ index: lane, branchId: thought.branchId, start, first: seq, end: seq, size: 0 });
    }
    lanes[lane].end = seq;
    lanes[lane].size++;
    const isRevision = thought.isRevision === true || thought.revisesThought !== undefined;
    const node: ThoughtGraphNode = {
      seq,
      id: `t${seq}`,
      thoughtNumber: thought.thoughtNumber,
      kind: isRevision ? 'revision' : thought.branchId === undefined ? 'main' : 'branch',
      lane,
      text: thought.thought,
      final: !thought.nextThoughtNeeded,
      startsBranch: links.startsBranch,
    };
    if (thought.branchId !== undefined) node.branchId = thought.branchId;
    if (thought.stage !== undefined) node.stage = thought.stage;
    if (links.parent !== undefined) {
      node.parent = links.parent;
      edges.push({ from: links.parent, to: seq, kind: links.startsBranch ? 'branch' : 'next' });
    } else if (links.startsBranch && thought.branchFromThought !== undefined) {
      node.dangling = thought.branchFromThought;
    }
    if (links.revises !== undefined) {
      node.revises = links.revises;
      edges.push({ from: seq, to: links.revises, kind: 'revision' });
    } else if (thought.revisesThought !== undefined) {
      node.dangling = thought.revisesThought;
    }
    nodes.push(node);
    return node;
  }
}

/** The whole session's graph. */
export function thoughtGraph(thoughts: readonly ThoughtRecord[]): ThoughtGraph {
  const builder = new ThoughtGraphBuilder();
  for (const thought of thoughts) builder.add(thought);
  return builder.graph;
}

/** A stage id as words: `reasoning_update` → "reasoning update". */
export function stageWords(stage: string): string {
  return stage.replace(/[_-]+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Feedback marks

/** What the person asked: a note, a rejection, another way to explore (a branch), or to conclude. */
export type FeedbackMarkKind = 'note' | 'reject' | 'explore' | 'conclude';
/** Where it stands (src/engine/browserSafe/feedbackStatus.ts, in four words a mark can show). */
export type FeedbackMarkState = 'waiting' | 'delivered' | 'applied' | 'not-acted-on';

export interface FeedbackMark {
  id: string;
  kind: FeedbackMarkKind;
  state: FeedbackMarkState;
  /** The person's words, if any. */
  text?: string;
}

export const FEEDBACK_MARK_KIND_WORDS: Record<FeedbackMarkKind, string> = {
  note: 'note',
  reject: 'rejected',
  explore: 'explore',
  conclude: 'conclude',
};

export const FEEDBACK_MARK_STATE_WORDS: Record<FeedbackMarkState, string> = {
  waiting: 'waiting',
  delivered: 'delivered',
  applied: 'applied',
  'not-acted-on': 'not acted on',
};

function markKind(record: FeedbackRecord): FeedbackMarkKind {
  return record.kind === 'branch' ? 'explore' : record.kind;
}

function markState(record: FeedbackRecord, thoughts: readonly ThoughtRecord[], status: SessionStatus): FeedbackMarkState {
  const state = feedbackStatus(record, { thoughts, status }).state;
  if (state === 'pending') return 'waiting';
  if (state === 'undelivered') return 'not-acted-on';
  return state;
}

/**
 * Per thought seq, the marks of the feedback about it (a note on a thought, a rejection, a branch asked for) and of
 * the feedback it applied. The same rule the cards use (feedbackMarks.ts), so every view marks the same thoughts.
 */
export function feedbackMarksBySeq(snapshot: Pick<SessionSnapshot, 'thoughts' | 'feedback' | 'meta'>): Map<number, FeedbackMark[]> {
  const marks = new Map<number, FeedbackMark[]>();
  const add = (seq: number | undefined, mark: FeedbackMark): void => {
    if (seq === undefined || seq < 0 || seq >= snapshot.thoughts.length) return;
    const list = marks.get(seq);
    if (list) {
      if (!list.some((other) => other.id === mark.id)) list.push(mark);
    } else marks.set(seq, [mark]);
  };
  for (const record of snapshot.feedback ?? []) {
    const mark: FeedbackMark = { id: record.id, kind: markKind(record), state: markState(record, snapshot.thoughts, snapshot.meta.status) };
    if (record.text !== undefined) mark.text = record.text;
    add(feedbackTargetSeq(snapshot.thoughts, record), mark);
    add(record.appliedBySeq, mark);
  }
  return marks;
}
