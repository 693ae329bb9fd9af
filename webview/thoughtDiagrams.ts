// The Mermaid text of the two thought diagrams on screen (branch tree, revision chain): folded to the node budget
// (src/diagrams/compression.ts) with the nodes the person opened, how long its labels are, and the note that says what
// was folded. Pure: no DOM, no state.
import type { ThoughtDiagramKind } from '../src/engine/browserSafe/diagramKinds';
import { branchTreeSource } from '../src/diagrams/branchTree';
import { DEFAULT_NODE_BUDGET } from '../src/diagrams/compression';
import { excerptForRoom } from '../src/diagrams/diagramLayout';
import type { DiagramSource } from '../src/diagrams/diagramWindow';
import { revisionChainSource, revisionChains } from '../src/diagrams/revisionChain';
import type { SessionSnapshot } from '../src/engine/model';
import { MAX_EDGES, MAX_TEXT_SIZE } from './mermaidSetup';
import { largest } from '../src/engine/browserSafe/arrayMath';

/** Characters of thought text in a live node label when the pane's width is not known; the card shows the whole text. */
export const LIVE_EXCERPT = 28;
/**
 * "Expand all": the budget when the person asks for everything. Mermaid draws about 8 ms a node here, so a few hundred
 * nodes is the most that stays drawable in a few seconds; a larger session stays folded down to this many nodes.
 */
export const EXPAND_ALL_BUDGET = 400;

/**
 * While thoughts stream in, each new thought redraws the tree with at most this many nodes. Even the live view's own
 * drawing (webview/sketchDrawing.ts) costs about 0.7 ms a node on screen in code-server's shared renderer (100 nodes:
 * tool call → diagram p95 142 ms, measured; 12 nodes: 83–99 ms; 8 nodes: 77 ms), so a small drawing keeps it within the
 * 100 ms target. Once the session pauses (REFINE_AFTER_MS without a thought) the diagram is redrawn at the full budget.
 */
export const STREAMING_NODE_BUDGET = 8;
export const REFINE_AFTER_MS = 1_500;

export interface LiveDiagramOptions {
  /** The person asked for everything ("Expand all"). */
  showAll: boolean;
  /** Keys of folded nodes the person opened. */
  expanded?: readonly string[];
  /** Thoughts kept as their own node while the budget allows (the selected one, feedback, search hits). */
  pinned?: readonly number[];
  /** The node budget (setting `thoughtExplorer.diagrams.nodeBudget`). */
  nodeBudget?: number;
  /** A redraw for a thought that just arrived, while more may follow: at most STREAMING_NODE_BUDGET nodes. */
  streaming?: boolean;
  /** The pane's width in CSS pixels: labels are cut to what fits there at a readable scale (diagramLayout.ts). */
  room?: number;
}

export interface LiveDiagram {
  text: string;
  note: string;
  /** Thoughts (seqs) of every drawn node, by node id. */
  members: ReadonlyMap<string, readonly number[]>;
  /** Nodes drawn and how many of them are folded. */
  nodes: number;
  foldedNodes: number;
}

/** The diagram as drawn in the explorer: folded to the budget, or to the "Expand all" budget on request. */
export function liveThoughtDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, options: LiveDiagramOptions): LiveDiagram {
  const full = options.nodeBudget ?? DEFAULT_NODE_BUDGET;
  const budget = options.streaming && !options.showAll ? Math.min(full, STREAMING_NODE_BUDGET) : full;
  const source = thoughtDiagramSource(kind, snapshot, {
    nodeBudget: options.showAll ? Math.max(budget, EXPAND_ALL_BUDGET) : budget,
    excerptLength: options.showAll ? undefined : liveExcerpt(kind, snapshot, options.room),
    expanded: options.expanded,
    pinned: options.pinned,
  });
  const nodes = source.nodes ?? 0;
  const foldedNodes = source.foldedNodes ?? 0;
  const opened = options.showAll || (options.expanded?.length ?? 0) > 0;
  let note = '';
  if (foldedNodes > 0) {
    const what = kind === 'branchTree' ? `${source.total} thoughts` : 'Revision chains';
    note = `${what} in ${nodes} nodes; open a folded node to see its thoughts${options.showAll ? ' (the most that stays drawable)' : ''}`;
  } else if (opened) {
    note = `All ${source.total} thoughts`;
  }
  return { text: source.text, note, members: source.members ?? new Map(), nodes, foldedNodes };
}

/** How much thought text a live label holds: what the pane's width gives each of the nodes drawn side by side. */
function liveExcerpt(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, room: number | undefined): number {
  if (room === undefined || !(room > 0)) return LIVE_EXCERPT;
  // Side by side: the tree's lines (main line and branches) grow downwards next to each other; a revision chain is a row.
  const across =
    kind === 'branchTree'
      ? snapshot.meta.branchIds.length + 1
      : largest(
          revisionChains(snapshot).map((chain) => chain.revisions.length + 1),
          1,
        );
  return excerptForRoom(room, across);
}

/** The diagram for exports: folded to the budget, as the HTML and Markdown exports draw it. */
export function fullThoughtDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, nodeBudget?: number): string {
  return thoughtDiagramSource(kind, snapshot, { nodeBudget }).text;
}

function thoughtDiagramSource(
  kind: ThoughtDiagramKind,
  snapshot: SessionSnapshot,
  folding: { nodeBudget?: number; excerptLength?: number; expanded?: readonly string[]; pinned?: readonly number[] },
): DiagramSource {
  // The tree grows downwards (a sidebar is tall and narrow); each revision chain reads as one row.
  const options = { ...folding, maxTextSize: MAX_TEXT_SIZE, maxEdges: MAX_EDGES };
  return kind === 'branchTree'
    ? branchTreeSource(snapshot, { ...options, direction: 'TB' })
    : revisionChainSource(snapshot, { ...options, direction: 'LR' });
}
