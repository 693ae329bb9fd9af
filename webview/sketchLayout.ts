// Where the live view's own drawing (webview/sketchDrawing.ts) puts each node and edge: ranks along the flow (each node
// one rank below its parent) and lanes across it, like a commit graph: a line of thought keeps its lane, a branch takes
// the next free lane beside it. No measuring in the DOM: label widths come from `measure` (a canvas), so laying out
// costs microseconds where Mermaid's layout pass costs tens of milliseconds. Pure: no DOM, no state.
import { FLOWCHART_LAYOUT, LABEL_FONT_PX } from '../src/diagrams/diagramLayout';
import type { SketchEdge, SketchGraph, SketchNode } from './flowchartParse';
import { largest } from '../src/engine/browserSafe/arrayMath';

/** Height of one label line: Mermaid's HTML labels are 1.5 lines high. */
export const SKETCH_LINE_PX = Math.round(LABEL_FONT_PX * 1.5);
/** A folded node's inner borders, inset from its sides (Mermaid's subroutine shape). */
export const FOLDED_INSET = 8;
/** Room around an edge label inside the gap between two ranks. */
const EDGE_LABEL_PAD = 4;

export interface SketchBox {
  node: SketchNode;
  /** Centre of the node. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Width of each label line, as measured. */
  lineWidths: number[];
}

export interface SketchRoute {
  edge: SketchEdge;
  /** Where the edge leaves its source and meets its target (the middle of the facing sides). */
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** Centre and size of the label's box, when the edge has a label. */
  label?: { x: number; y: number; width: number; height: number };
}

export interface SketchLayout {
  width: number;
  height: number;
  boxes: Map<string, SketchBox>;
  routes: SketchRoute[];
}

/**
 * Lays out `graph`; `measure` gives a label line's width at LABEL_FONT_PX. Undefined when the edges form a cycle
 * (our sources never write one; Mermaid draws such a text instead).
 */
export function layoutSketch(graph: SketchGraph, measure: (text: string) => number): SketchLayout | undefined {
  const { padding, nodeSpacing, rankSpacing, diagramPadding } = FLOWCHART_LAYOUT;
  const across = graph.direction === 'TB' ? 'width' : 'height';
  const along = graph.direction === 'TB' ? 'height' : 'width';

  const boxes = new Map<string, SketchBox>();
  for (const node of graph.nodes) {
    const lineWidths = node.lines.map((line) => measure(line));
    const inset = node.shape === 'folded' ? FOLDED_INSET : 0;
    const height = node.lines.length * SKETCH_LINE_PX + 2 * padding;
    // A stadium's round ends take half its height on each side.
    const ends = node.shape === 'stadium' ? height / 2 : padding;
    const width = Math.ceil(largest(lineWidths, 0) + 2 * ends + 2 * inset);
    boxes.set(node.id, { node, x: 0, y: 0, width, height, lineWidths });
  }

  const rank = ranks(graph);
  if (!rank) return undefined;
  const lane = lanes(graph, rank);

  // Each rank is as deep as its deepest node along the flow; each lane as wide as its widest node across it.
  const rankCount = largest(rank.values(), 0) + 1;
  const laneCount = largest(lane.values(), 0) + 1;
  const rankSize = new Array<number>(rankCount).fill(0);
  const laneSize = new Array<number>(laneCount).fill(0);
  for (const box of boxes.values()) {
    const r = rank.get(box.node.id) as number;
    const l = lane.get(box.node.id) as number;
    rankSize[r] = Math.max(rankSize[r], box[along]);
    laneSize[l] = Math.max(laneSize[l], box[across]);
  }
  // A gap holding an edge label grows to fit it, as Mermaid makes room for its label nodes.
  const labelSize = new Map<SketchEdge, { width: number; height: number }>();
  const gap = new Array<number>(rankCount).fill(rankSpacing);
  for (const edge of graph.edges) {
    if (edge.label === undefined || edge.label === '') continue;
    const size = { width: Math.ceil(measure(edge.label) + 2 * EDGE_LABEL_PAD), height: SKETCH_LINE_PX };
    labelSize.set(edge, size);
    const into = rank.get(edge.to) as number;
    gap[into] = Math.max(gap[into], size[along] + 2 * rankSpacing);
  }

  const rankStart: number[] = [];
  let position = diagramPadding;
  for (let r = 0; r < rankCount; r++) {
    if (r > 0) position += gap[r];
    rankStart.push(position);
    position += rankSize[r];
  }
  const alongTotal = position + diagramPadding;
  const laneStart: number[] = [];
  position = diagramPadding;
  for (let l = 0; l < laneCount; l++) {
    if (l > 0) position += nodeSpacing;
    laneStart.push(position);
    position += laneSize[l];
  }
  const acrossTotal = position + diagramPadding;

  for (const box of boxes.values()) {
    const r = rank.get(box.node.id) as number;
    const l = lane.get(box.node.id) as number;
    const alongCentre = rankStart[r] + rankSize[r] / 2;
    const acrossCentre = laneStart[l] + laneSize[l] / 2;
    box.x = graph.direction === 'TB' ? acrossCentre : alongCentre;
    box.y = graph.direction === 'TB' ? alongCentre : acrossCentre;
  }

  const spread = fanOut(graph, boxes, lane);
  const routes: SketchRoute[] = graph.edges.map((edge) => {
    const source = boxes.get(edge.from) as SketchBox;
    const target = boxes.get(edge.to) as SketchBox;
    const offset = spread.get(edge) ?? 0;
    const from =
      graph.direction === 'TB'
        ? { x: source.x + offset, y: source.y + source.height / 2 }
        : { x: source.x + source.width / 2, y: source.y + offset };
    const to =
      graph.direction === 'TB' ? { x: target.x, y: target.y - target.height / 2 } : { x: target.x - target.width / 2, y: target.y };
    const size = labelSize.get(edge);
    if (!size) return { edge, from, to };
    // On the curve's middle: sketchDrawing.ts draws an S whose midpoint is halfway between both ends.
    const label = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2, ...size };
    return { edge, from, to, label };
  });

  const width = graph.direction === 'TB' ? acrossTotal : alongTotal;
  const height = graph.direction === 'TB' ? alongTotal : acrossTotal;
  return { width: Math.ceil(width), height: Math.ceil(height), boxes, routes };
}

/**
 * Where along its source's facing side each edge leaves: an edge into the source's own lane from the middle, edges
 * into other lanes spread out towards their side in lane order, so a fork's branches do not all start at one point.
 */
function fanOut(graph: SketchGraph, boxes: Map<string, SketchBox>, lane: Map<string, number>): Map<SketchEdge, number> {
  const offsets = new Map<SketchEdge, number>();
  const bySource = new Map<string, SketchEdge[]>();
  for (const edge of graph.edges) {
    const edges = bySource.get(edge.from);
    if (edges) edges.push(edge);
    else bySource.set(edge.from, [edge]);
  }
  for (const [from, edges] of bySource) {
    const own = lane.get(from) as number;
    const box = boxes.get(from) as SketchBox;
    const half = (graph.direction === 'TB' ? box.width : box.height) / 2;
    const reach = Math.max(0, half - Math.min(12, half / 2));
    for (const side of [-1, 1]) {
      const aside = edges
        .filter((edge) => Math.sign((lane.get(edge.to) as number) - own) === side)
        .sort((a, b) => side * ((lane.get(a.to) as number) - (lane.get(b.to) as number)));
      aside.forEach((edge, index) => offsets.set(edge, (side * reach * (index + 1)) / aside.length));
    }
  }
  return offsets;
}

/** Each node's rank: 0 without a parent, else one past its deepest parent. Undefined on a cycle. */
function ranks(graph: SketchGraph): Map<string, number> | undefined {
  const rank = new Map<string, number>(graph.nodes.map((node) => [node.id, 0]));
  // Our edges mostly run from earlier to later nodes, so this settles in a pass or two; more passes than nodes is a cycle.
  for (let pass = 0; pass <= graph.nodes.length; pass++) {
    let changed = false;
    for (const edge of graph.edges) {
      const next = (rank.get(edge.from) as number) + 1;
      if (next > (rank.get(edge.to) as number)) {
        rank.set(edge.to, next);
        changed = true;
      }
    }
    if (!changed) return rank;
  }
  return undefined;
}

/**
 * Each node's lane: a node continues its parent's lane when it is the first child to claim it (solid edges before a
 * branch's dotted one), else it takes the lowest lane to the right of its parent's that has ended (its last node holds
 * no children still to place and lies above), else a new lane.
 */
function lanes(graph: SketchGraph, rank: Map<string, number>): Map<string, number> {
  const parentEdge = new Map<string, SketchEdge>();
  const unplacedChildren = new Map<string, number>();
  for (const edge of graph.edges) {
    const known = parentEdge.get(edge.to);
    if (!known || (known.dotted && !edge.dotted)) parentEdge.set(edge.to, edge);
  }
  for (const edge of parentEdge.values()) unplacedChildren.set(edge.from, (unplacedChildren.get(edge.from) ?? 0) + 1);
  const order = graph.nodes
    .map((node, index) => ({ node, index }))
    .sort((a, b) => {
      const byRank = (rank.get(a.node.id) as number) - (rank.get(b.node.id) as number);
      if (byRank !== 0) return byRank;
      const dotted = Number(parentEdge.get(a.node.id)?.dotted ?? false) - Number(parentEdge.get(b.node.id)?.dotted ?? false);
      return dotted !== 0 ? dotted : a.index - b.index;
    });
  const lane = new Map<string, number>();
  /** The last node placed in each lane. */
  const tails: string[] = [];
  const ended = (index: number, beforeRank: number): boolean => {
    const tail = tails[index];
    return (unplacedChildren.get(tail) ?? 0) === 0 && (rank.get(tail) as number) < beforeRank;
  };
  for (const { node } of order) {
    const parent = parentEdge.get(node.id)?.from;
    const parentLane = parent === undefined ? -1 : (lane.get(parent) as number);
    let chosen: number | undefined;
    if (parent !== undefined && tails[parentLane] === parent) chosen = parentLane;
    else {
      const at = rank.get(node.id) as number;
      for (let index = parentLane + 1; index < tails.length && chosen === undefined; index++) if (ended(index, at)) chosen = index;
      chosen ??= tails.length;
    }
    if (parent !== undefined) unplacedChildren.set(parent, (unplacedChildren.get(parent) as number) - 1);
    tails[chosen] = node.id;
    lane.set(node.id, chosen);
  }
  return lane;
}
