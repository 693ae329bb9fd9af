// Collapsing branches of the thought graph (src/diagrams/thoughtGraphCollapse.ts): a collapsed branch keeps its first
// thought's row, its other thoughts map to that row, the rows after move up, links into the hidden thoughts land on the
// branch's row, the main line never collapses, and a replay's position counts shown rows.
import assert from 'node:assert/strict';
import { thoughtsFrom } from './support/diagramSessions';
import { describe, it } from 'node:test';
import { thoughtGraph } from '../../src/diagrams/thoughtGraph';
import { collapseLanes } from '../../src/diagrams/thoughtGraphCollapse';
import { rowShapes } from '../../src/diagrams/thoughtGraphSvg';

/** Main #1–#2; branch "alt" from #2 with three thoughts; "sub" from alt's second; a revision of alt's third; main. */
const GRAPH = thoughtGraph(
  thoughtsFrom([
    {},
    {},
    { branchId: 'alt', branchFromThought: 2 },
    { branchId: 'alt', branchFromThought: 2 },
    { branchId: 'alt', branchFromThought: 2 },
    { branchId: 'sub', branchFromThought: 4 },
    { isRevision: true, revisesThought: 5 },
    {},
  ]),
);

describe('collapsing branches of the thought graph', () => {
  it('with nothing collapsed it is the graph itself', () => {
    const shown = collapseLanes(GRAPH, new Set());
    assert.equal(shown.graph, GRAPH);
    assert.equal(shown.rowOf(5), 5);
    assert.equal(shown.rowsFor(4), 4);
  });

  it('folds a branch to its first row, moves the rows after it up and lands links on the branch row', () => {
    const alt = GRAPH.nodes[2].lane;
    const shown = collapseLanes(GRAPH, new Set([alt]));
    assert.deepEqual(
      shown.graph.nodes.map((_, row) => [row, shown.seqAt(row)]),
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 5],
        [4, 6],
        [5, 7],
      ],
    );
    assert.deepEqual(
      [3, 4].map((seq) => [shown.hidden(seq), shown.rowOf(seq)]),
      [
        [true, 2],
        [true, 2],
      ],
    );
    assert.equal(shown.hidden(2), false);
    assert.equal(shown.hiddenUnder(2), 2, 'two thoughts hidden under the branch row');
    assert.equal(shown.hiddenUnder(3), 0);
    // "sub" forked from a hidden thought: it now forks from the branch row; the revision of a hidden thought links there.
    const sub = shown.graph.lanes[GRAPH.nodes[5].lane];
    assert.deepEqual([sub.start, sub.first], [2, 3]);
    assert.ok(shown.graph.edges.some((edge) => edge.kind === 'revision' && edge.from === 4 && edge.to === 2));
    assert.deepEqual([shown.graph.lanes[alt].first, shown.graph.lanes[alt].end], [2, 2]);
    // The same geometry draws it: one dot per shown row.
    const dots = rowShapes(shown.graph, 0, shown.graph.nodes.length, 4).filter((shape) => shape.type === 'circle');
    assert.equal(dots.length, 6);
    // A replay at thought 5 (seq 0–4 shown) shows three rows; at 7, five.
    assert.equal(shown.rowsFor(5), 3);
    assert.equal(shown.rowsFor(7), 5);
  });

  it('never collapses the main line', () => {
    const shown = collapseLanes(GRAPH, new Set([0]));
    assert.equal(shown.graph, GRAPH);
  });
});
