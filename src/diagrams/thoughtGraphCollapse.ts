// The thought graph with some branches collapsed by the person (never automatically): a collapsed branch keeps its
// first thought's row, which stands for the branch, and its other thoughts take no rows, so the rows after them move up.
// The result is a graph in shown rows (row i is `seqAt(i)`), drawn by the same geometry as the whole one
// (thoughtGraphSvg.ts: rowShapes); what a row says still comes from the whole graph, by seq. Pure: no DOM.
import type { ThoughtGraph, ThoughtGraphLane, ThoughtGraphNode } from './thoughtGraph';

export interface ShownGraph {
  /** The graph in shown rows: node i is the thought on row i, lanes and links in rows too. */
  graph: ThoughtGraph;
  /** The thought (seq) shown on row `row`. */
  seqAt(row: number): number;
  /** The row that shows thought `seq`: its own, or its collapsed branch's first row. */
  rowOf(seq: number): number;
  /** Is thought `seq` hidden inside a collapsed branch? */
  hidden(seq: number): boolean;
  /** Thoughts hidden under row `row` (a collapsed branch's first row), else 0. */
  hiddenUnder(row: number): number;
  /** Rows shown when the first `limit` thoughts are shown (a replay's position). */
  rowsFor(limit: number): number;
}

/** Can lane `lane` of `graph` be collapsed? Every branch can; the main line cannot. */
export function collapsible(graph: ThoughtGraph, lane: number): boolean {
  return lane > 0 && lane < graph.lanes.length;
}

/** `graph` with the branches on `collapsed` lanes folded to their first thought (the whole graph when none are). */
export function collapseLanes(graph: ThoughtGraph, collapsed: ReadonlySet<number>): ShownGraph {
  const total = graph.nodes.length;
  const folded = [...collapsed].filter((lane) => collapsible(graph, lane));
  if (folded.length === 0) {
    return {
      graph,
      seqAt: (row) => row,
      rowOf: (seq) => seq,
      hidden: () => false,
      hiddenUnder: () => 0,
      rowsFor: (limit) => Math.min(limit, total),
    };
  }
  const isFolded = new Set(folded);
  const rowOf = new Int32Array(total);
  const seqs: number[] = [];
  for (let seq = 0; seq < total; seq++) {
    const lane = graph.nodes[seq].lane;
    const first = graph.lanes[lane].first;
    if (isFolded.has(lane) && seq !== first) rowOf[seq] = rowOf[first];
    else {
      rowOf[seq] = seqs.length;
      seqs.push(seq);
    }
  }
  const at = (seq: number): number => rowOf[seq];
  const under = new Map<number, number>();
  for (const lane of folded) under.set(at(graph.lanes[lane].first), graph.lanes[lane].size - 1);
  const nodes: ThoughtGraphNode[] = seqs.map((seq, row) => {
    const node = graph.nodes[seq];
    return {
      ...node,
      seq: row,
      parent: node.parent === undefined ? undefined : at(node.parent),
      revises: node.revises === undefined ? undefined : at(node.revises),
    };
  });
  const edges = graph.edges.map((edge) => ({ ...edge, from: at(edge.from), to: at(edge.to) })).filter((edge) => edge.from !== edge.to);
  const lanes: ThoughtGraphLane[] = graph.lanes.map((lane) => {
    const first = at(lane.first);
    return { ...lane, start: at(lane.start), first, end: isFolded.has(lane.index) ? first : at(lane.end) };
  });
  return {
    graph: { nodes, edges, lanes },
    seqAt: (row) => seqs[row],
    rowOf: at,
    hidden: (seq) => seqs[at(seq)] !== seq,
    hiddenUnder: (row) => under.get(row) ?? 0,
    // Rows are in seq order, so the rows shown for the first `limit` thoughts are those whose thought is before it.
    rowsFor: (limit) => {
      let low = 0;
      let high = seqs.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (seqs[middle] < limit) low = middle + 1;
        else high = middle;
      }
      return low;
    },
  };
}
