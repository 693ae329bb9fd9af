// A replay of the thought diagrams (branch tree, revision chain) without a Mermaid render per step: the diagram is
// drawn once for the whole session, and each step only shows the part up to the replay position — nodes whose
// thoughts all lie ahead are hidden, as are the edges and edge labels that touch them, and the node holding the latest
// shown thought is marked. A render of even an 8-node tree takes 40–100 ms here, longer than a frame at 8× speed
// (bench/bigSession.ts); toggling classes on ~100 nodes takes well under a millisecond, and the drawing no longer
// jumps around as it grows.
import { edgeEndpoints } from './diagramGraph';
import { diagramNodeId } from './svgNodes';
import { largest, smallest } from '../src/engine/browserSafe/arrayMath';

const AHEAD = 'replay-ahead';
const CURRENT = 'replay-current';

interface RevealIndex {
  /** Each node with the earliest and the latest thought (seq) it holds. */
  nodes: { element: Element; first: number; last: number }[];
  /** Each edge path and edge label with the later of its two ends' first thoughts: shown once both ends are. */
  edges: { element: Element; from: number }[];
}

/** Built once per drawing: a step then only compares numbers. */
const indexes = new WeakMap<SVGSVGElement, RevealIndex>();

function buildIndex(svg: SVGSVGElement, members: ReadonlyMap<string, readonly number[]>): RevealIndex {
  const firstSeq = new Map<string, number>();
  const nodes: RevealIndex['nodes'] = [];
  for (const element of svg.querySelectorAll('g.node')) {
    const id = diagramNodeId(element);
    if (id === undefined) continue;
    const seqs = members.get(id) ?? seqOfThoughtNode(id);
    if (seqs.length === 0) continue;
    const first = smallest(seqs);
    firstSeq.set(id, first);
    nodes.push({ element, first, last: largest(seqs) });
  }
  const edges: RevealIndex['edges'] = [];
  const prefix = `${svg.id}-`;
  for (const element of svg.querySelectorAll('[data-edge="true"], path.flowchart-link, .edgeLabels [data-id]')) {
    const id = element.getAttribute('data-id') ?? (element.id.startsWith(prefix) ? element.id.slice(prefix.length) : element.id);
    const ends = edgeEndpoints(id, firstSeq);
    if (!ends) continue;
    const from = Math.max(firstSeq.get(ends[0]) ?? 0, firstSeq.get(ends[1]) ?? 0);
    // A label sits in a group of its own (g.edgeLabel); hiding that group hides its background box too.
    edges.push({ element: element.closest('g.edgeLabel') ?? element, from });
  }
  return { nodes, edges };
}

/** `t12` → [12]: a node of one thought whose drawing recorded no members (an unfolded diagram). */
function seqOfThoughtNode(id: string): number[] {
  const match = /^t(\d+)$/.exec(id);
  return match ? [Number(match[1])] : [];
}

/** Shows what the first `position` thoughts drew; `members` maps each node id to the thoughts (seqs) it holds. */
export function revealUpTo(svg: SVGSVGElement, members: ReadonlyMap<string, readonly number[]>, position: number): void {
  let index = indexes.get(svg);
  if (!index) {
    index = buildIndex(svg, members);
    indexes.set(svg, index);
  }
  const latest = position - 1;
  for (const { element, first, last } of index.nodes) {
    element.classList.toggle(AHEAD, first >= position);
    element.classList.toggle(CURRENT, first <= latest && latest <= last);
  }
  for (const { element, from } of index.edges) element.classList.toggle(AHEAD, from >= position);
}

/** The whole drawing again (the replay ended, or the explorer left it). */
export function revealAll(svg: SVGSVGElement): void {
  for (const element of svg.querySelectorAll(`.${AHEAD}, .${CURRENT}`)) element.classList.remove(AHEAD, CURRENT);
}

/** Whether a node is hidden because the replay has not reached it (keyboard navigation skips it). */
export function isAheadOfReplay(node: Element): boolean {
  return node.classList.contains(AHEAD);
}
