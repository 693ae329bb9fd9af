// The graph of a drawn flowchart, read back from Mermaid's SVG: which nodes are drawn and which edges join them, so the
// keyboard can move along edges whatever source (windowed, folded, stage graph) produced the drawing. Mermaid 11 gives
// each edge path `data-id="L_<from>_<to>_<n>"` (and the element id `<svgId>-L_<from>_<to>_<n>`); node ids may hold
// underscores themselves (`run_3_40`), so an edge id is split where both halves are drawn nodes. The stage graph names
// its edges itself (stageEdgeId: `e_` + the escaped `from->to`, between stageNodeId nodes `s_` + the escaped name).
import { nodesById } from './svgNodes';

export interface DiagramGraph {
  /** Node groups in document order (Mermaid writes them in source order). */
  order: string[];
  nodes: Map<string, SVGGElement>;
  /** Nodes joined by an edge either way. */
  neighbours: Map<string, Set<string>>;
}

const EDGE_ID = /^L_(.+)_\d+$/;
/** `->` as mermaidId escapes it, between the two escaped stage names of a stage graph edge id. */
const STAGE_ARROW = '_45__62_';

/** The two node ids an edge id joins, when both are drawn; undefined for anything else. */
export function edgeEndpoints(edgeId: string, drawn: ReadonlySet<string> | ReadonlyMap<string, unknown>): [string, string] | undefined {
  if (edgeId.startsWith('e_')) return stageEdgeEndpoints(edgeId.slice(2), drawn);
  const inner = EDGE_ID.exec(edgeId)?.[1];
  if (inner === undefined) return undefined;
  for (let cut = inner.indexOf('_'); cut !== -1; cut = inner.indexOf('_', cut + 1)) {
    const from = inner.slice(0, cut);
    const to = inner.slice(cut + 1);
    if (drawn.has(from) && drawn.has(to)) return [from, to];
  }
  return undefined;
}

function stageEdgeEndpoints(inner: string, drawn: ReadonlySet<string> | ReadonlyMap<string, unknown>): [string, string] | undefined {
  for (let cut = inner.indexOf(STAGE_ARROW); cut !== -1; cut = inner.indexOf(STAGE_ARROW, cut + 1)) {
    const from = `s_${inner.slice(0, cut)}`;
    const to = `s_${inner.slice(cut + STAGE_ARROW.length)}`;
    if (drawn.has(from) && drawn.has(to)) return [from, to];
  }
  return undefined;
}

export function readDiagramGraph(svg: SVGSVGElement): DiagramGraph {
  const nodes = nodesById(svg);
  const neighbours = new Map<string, Set<string>>();
  for (const id of nodes.keys()) neighbours.set(id, new Set());
  const prefix = `${svg.id}-`;
  for (const edge of svg.querySelectorAll('[data-edge="true"], path.flowchart-link')) {
    const id = edge.getAttribute('data-id') ?? (edge.id.startsWith(prefix) ? edge.id.slice(prefix.length) : edge.id);
    const ends = edgeEndpoints(id, nodes);
    if (!ends || ends[0] === ends[1]) continue;
    neighbours.get(ends[0])?.add(ends[1]);
    neighbours.get(ends[1])?.add(ends[0]);
  }
  return { order: [...nodes.keys()], nodes, neighbours };
}

export type Direction = 'up' | 'down' | 'left' | 'right';

interface Point {
  x: number;
  y: number;
}

/**
 * The candidate that lies best in `direction` from `from`: ahead of it along the arrow's axis, preferring the one
 * closest to the axis (a node straight below wins over one below and far to the side). Undefined when none is ahead.
 */
export function pickInDirection<T>(from: Point, direction: Direction, candidates: Iterable<{ key: T; at: Point }>): T | undefined {
  let best: T | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const dx = candidate.at.x - from.x;
    const dy = candidate.at.y - from.y;
    const ahead = direction === 'down' ? dy : direction === 'up' ? -dy : direction === 'right' ? dx : -dx;
    const aside = Math.abs(direction === 'down' || direction === 'up' ? dx : dy);
    if (ahead <= 1) continue;
    const score = ahead + 2 * aside;
    if (score < bestScore) {
      bestScore = score;
      best = candidate.key;
    }
  }
  return best;
}

export function directionOfKey(key: string): Direction | undefined {
  switch (key) {
    case 'ArrowUp':
      return 'up';
    case 'ArrowDown':
      return 'down';
    case 'ArrowLeft':
      return 'left';
    case 'ArrowRight':
      return 'right';
    default:
      return undefined;
  }
}
