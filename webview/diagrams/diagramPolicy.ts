// The explorer's diagram policy, apart from the page that applies it: which drawing each diagram kind gets, what is
// kept across updates, what a change redraws, and how each drawing follows the newest thought or shows a pick. Pure
// (no DOM), so its rules are tested without the app (test/unit/diagramPolicy.test.ts); explorerApp.ts applies them.
import { isThoughtDiagram, type DiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import { feedbackMarksBySeq, ThoughtGraphBuilder, type FeedbackMark, type ThoughtGraph } from '../../src/diagrams/thoughtGraph';
import type { SessionSnapshot, ThoughtRecord } from '../../src/engine/model';

/**
 * The drawing a kind gets: the stage graph is a Mermaid drawing of the strategy (panned and zoomed, drawn again only
 * when invalidated); the thought kinds are rows of the session's thought graph (scrolled, never zoomed, grown in place).
 */
export type DiagramDrawing = 'mermaid' | 'thoughtRows';

export function drawingOf(kind: DiagramKind): DiagramDrawing {
  return isThoughtDiagram(kind) ? 'thoughtRows' : 'mermaid';
}

/** What happened to the session or the page. */
export type DiagramChange = 'snapshot' | 'theme' | 'liveThought' | 'meta' | 'seek' | 'feedback';

export interface DiagramRedraw {
  /** Mermaid's drawing is thrown away and drawn again (another session, other colours). */
  invalidateMermaid: boolean;
  /** The stage graph's definition is given again (its classes change in place when the definition is the same). */
  stageGraph: boolean;
  /** The thought drawings are given the session's graph again (new rows, marks, a replay's limit). */
  thoughtDrawings: boolean;
}

const REDRAWS: Record<DiagramChange, DiagramRedraw> = {
  snapshot: { invalidateMermaid: true, stageGraph: true, thoughtDrawings: true },
  theme: { invalidateMermaid: true, stageGraph: true, thoughtDrawings: true },
  liveThought: { invalidateMermaid: false, stageGraph: true, thoughtDrawings: true },
  meta: { invalidateMermaid: false, stageGraph: true, thoughtDrawings: true },
  seek: { invalidateMermaid: false, stageGraph: true, thoughtDrawings: true },
  feedback: { invalidateMermaid: false, stageGraph: false, thoughtDrawings: true },
};

/**
 * What `change` redraws. During a replay feedback redraws nothing: the replay shows the thoughts as they were written,
 * without the marks.
 */
export function redrawFor(change: DiagramChange, replaying: boolean): DiagramRedraw {
  if (change === 'feedback' && replaying) return { invalidateMermaid: false, stageGraph: false, thoughtDrawings: false };
  return REDRAWS[change];
}

/** What the thought drawings are given: the graph, the feedback marks, the rows shown, whether the session is live. */
export interface ThoughtDrawingInput {
  /** The session drawn: branches the person collapsed stay collapsed while the drawing shows this session. */
  sessionId: string;
  graph: ThoughtGraph;
  marks: ReadonlyMap<number, readonly FeedbackMark[]>;
  /** Rows shown: a replay's position (later rows keep their place, not drawn yet); every thought otherwise. */
  limit: number;
  live: boolean;
}

/** The thought drawings' input for `session`; a replay shows the rows up to `replay.position` and no marks. */
export function thoughtDrawingInput(
  session: Pick<SessionSnapshot, 'thoughts' | 'feedback' | 'meta'>,
  graph: ThoughtGraph,
  replay: { active: boolean; position: number },
): ThoughtDrawingInput {
  const sessionId = session.meta.id;
  if (replay.active) return { sessionId, graph, marks: new Map(), limit: Math.min(replay.position, session.thoughts.length), live: false };
  return { sessionId, graph, marks: feedbackMarksBySeq(session), limit: session.thoughts.length, live: session.meta.status === 'live' };
}

/**
 * Kept across updates: the thought graph of the session held, grown one thought at a time, so a live thought appends
 * a node and leaves the others (and the rows drawn of them) as they were. Built again only when the thoughts given do
 * not extend the ones it grew from (another session, a snapshot that replaced them).
 */
export class GrownThoughtGraph {
  private held: { thoughts: readonly ThoughtRecord[]; builder: ThoughtGraphBuilder } | undefined;

  /** The graph of `thoughts`: the same object as last time when they extend the thoughts it was grown from. */
  graphOf(thoughts: readonly ThoughtRecord[]): ThoughtGraph {
    const held = this.held;
    const grown = held?.builder.graph.nodes.length ?? 0;
    const current =
      !held || grown > thoughts.length || (grown > 0 && held.thoughts[grown - 1] !== thoughts[grown - 1])
        ? { thoughts, builder: new ThoughtGraphBuilder() }
        : { thoughts, builder: held.builder };
    this.held = current;
    for (let seq = current.builder.graph.nodes.length; seq < thoughts.length; seq++) current.builder.add(thoughts[seq]);
    return current.builder.graph;
  }
}

/**
 * How a drawing brings the newest thought into view when following: the stage graph pans (not the page) to the
 * current stage; a thought drawing scrolls its newest row to the bottom edge (never zooms).
 */
export type FollowAction = { kind: 'panToCurrentStage' } | { kind: 'scrollToRow'; seq: number } | { kind: 'none' };

export function followAction(kind: DiagramKind, shownThoughts: number): FollowAction {
  if (drawingOf(kind) === 'mermaid') return { kind: 'panToCurrentStage' };
  return shownThoughts > 0 ? { kind: 'scrollToRow', seq: shownThoughts - 1 } : { kind: 'none' };
}

/** Where a selection came from: a card, a diagram's node or row, saved state, or the search stepping. */
export type SelectSource = 'card' | 'diagram' | 'restore' | 'search';

/**
 * Whether selecting a thought scrolls `kind`'s drawing to it. Picked from a card or the search: the active diagram
 * shows where it sits (the diagram moves, the card list stays). Restored from saved state: the active thought
 * drawing scrolls back to it; the stage graph keeps its saved pan. Picked in a diagram: it is already in view.
 */
export function revealsSelection(kind: DiagramKind, activeTab: DiagramKind, source: SelectSource): boolean {
  if (kind !== activeTab) return false;
  if (source === 'card' || source === 'search') return true;
  return source === 'restore' && drawingOf(kind) === 'thoughtRows';
}
