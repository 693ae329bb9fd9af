// The typed thought graph (src/diagrams/thoughtGraph.ts) and its commit-graph geometry (thoughtGraphSvg.ts): lanes
// handed out once, edges of the three kinds, feedback marks by kind and state, the same graph whether built whole or
// one thought at a time, and shapes that never move for a row already drawn.
import assert from 'node:assert/strict';
import { diagramSnapshot, thoughtsFrom } from './support/diagramSessions';
import { describe, it } from 'node:test';
import type { FeedbackRecord } from '../../src/engine/model';
import { feedbackMarksBySeq, stageWords, thoughtGraph, ThoughtGraphBuilder } from '../../src/diagrams/thoughtGraph';
import {
  LANE_COLOURS,
  laneColourClass,
  ROW_HEIGHT,
  rowAccessibleName,
  rowShapes,
  rowTags,
  thoughtGraphSvg,
  thoughtGraphSvgTiles,
} from '../../src/diagrams/thoughtGraphSvg';

/** Main #1–#4, branch "alt" from #2 (#3 on it), a revision of #2 on the main line, main continues. */
const SESSION = thoughtsFrom([
  { stage: 'problem_reception' },
  { stage: 'initial_reasoning' },
  { branchId: 'alt', branchFromThought: 2, thoughtNumber: 3 },
  { thoughtNumber: 3, stage: 'reasoning_update' },
  { thoughtNumber: 4, isRevision: true, revisesThought: 2 },
  { thoughtNumber: 5, stage: 'final_response' },
]);

describe('thought graph', () => {
  it('gives each line its lane, each thought its kind, and links next, branch and revision', () => {
    const graph = thoughtGraph(SESSION);
    assert.deepEqual(
      graph.nodes.map((node) => [node.id, node.kind, node.lane]),
      [
        ['t0', 'main', 0],
        ['t1', 'main', 0],
        ['t2', 'branch', 1],
        ['t3', 'main', 0],
        ['t4', 'revision', 0],
        ['t5', 'main', 0],
      ],
    );
    assert.deepEqual(
      graph.lanes.map((lane) => [lane.branchId, lane.start, lane.first, lane.end, lane.size]),
      [
        [undefined, 0, 0, 5, 5],
        ['alt', 1, 2, 2, 1],
      ],
    );
    assert.deepEqual(graph.edges, [
      { from: 0, to: 1, kind: 'next' },
      { from: 1, to: 2, kind: 'branch' },
      { from: 1, to: 3, kind: 'next' },
      { from: 3, to: 4, kind: 'next' },
      { from: 4, to: 1, kind: 'revision' },
      { from: 4, to: 5, kind: 'next' },
    ]);
    assert.equal(graph.nodes[5].final, true);
    assert.deepEqual(rowTags(graph.nodes[2], graph), ['branch alt from #2']);
    assert.deepEqual(rowTags(graph.nodes[4], graph), ['revises #2']);
    assert.deepEqual(rowTags(graph.nodes[5], graph), ['final response', 'final']);
    assert.equal(stageWords('evaluation_checkpoint'), 'evaluation checkpoint');
  });

  it('names a fork or revision the session does not hold in words, never dropping the thought', () => {
    const graph = thoughtGraph(thoughtsFrom([{}, { branchId: 'x', branchFromThought: 40 }, { isRevision: true, revisesThought: 99 }]));
    assert.equal(graph.nodes[1].dangling, 40);
    assert.deepEqual(rowTags(graph.nodes[1], graph), ['branch x from #40']);
    assert.deepEqual(rowTags(graph.nodes[2], graph), ['revises #99 (not in this session)', 'final']);
  });

  it('is the same built whole or one thought at a time, and a row never changes once added', () => {
    const builder = new ThoughtGraphBuilder();
    const before: string[] = [];
    for (const thought of SESSION) {
      builder.add(thought);
      // Every node added before keeps exactly what it had.
      builder.graph.nodes.slice(0, before.length).forEach((node, seq) => assert.equal(JSON.stringify(node), before[seq]));
      before.push(JSON.stringify(builder.graph.nodes[builder.graph.nodes.length - 1]));
    }
    assert.deepEqual(builder.graph, thoughtGraph(SESSION));
  });

  it("puts every dot at its row and lane, whatever comes after: a row's place is a function of the row alone", () => {
    const dots = (count: number): string[] =>
      rowShapes(thoughtGraph(SESSION.slice(0, count)), 0, count, 4)
        .filter((shape) => shape.type === 'circle')
        .map((shape) => JSON.stringify(shape));
    const all = dots(SESSION.length);
    for (let count = 1; count < SESSION.length; count++) assert.deepEqual(dots(count), all.slice(0, count));
    const circles = rowShapes(thoughtGraph(SESSION), 0, SESSION.length, 4).filter((shape) => shape.type === 'circle');
    circles.forEach((shape) =>
      assert.equal(shape.type === 'circle' && shape.cy, shape.type === 'circle' && shape.seq * ROW_HEIGHT + ROW_HEIGHT / 2),
    );
    // A replay's limit draws only the rows reached.
    assert.equal(rowShapes(thoughtGraph(SESSION), 0, SESSION.length, 4, 3).filter((shape) => shape.type === 'circle').length, 3);
    // The revision link crosses the rows between the revision and what it revises.
    assert.equal(rowShapes(thoughtGraph(SESSION), 2, 4, 4).filter((shape) => shape.className === 'revision-link').length, 1);
  });

  it('marks feedback by kind and state, on the thought it is about and on the thought that applied it', () => {
    const feedback: FeedbackRecord[] = [
      { id: 'n', kind: 'note', author: 'user', createdAt: 500, thoughtNumber: 1, text: 'check the logs' },
      {
        id: 'r',
        kind: 'reject',
        author: 'user',
        createdAt: 1500,
        thoughtNumber: 2,
        deliveredAt: 1600,
        deliveredWithSeq: 1,
        appliedAt: 4000,
        appliedBySeq: 4,
      },
      { id: 'e', kind: 'branch', author: 'user', createdAt: 2500, thoughtNumber: 3, deliveredAt: 2600, deliveredWithSeq: 2 },
    ];
    const marks = feedbackMarksBySeq(diagramSnapshot(SESSION, feedback));
    assert.deepEqual(marks.get(0), [{ id: 'n', kind: 'note', state: 'waiting', text: 'check the logs' }]);
    assert.deepEqual(marks.get(1), [{ id: 'r', kind: 'reject', state: 'applied' }]);
    assert.deepEqual(marks.get(4), [{ id: 'r', kind: 'reject', state: 'applied' }]);
    assert.deepEqual(marks.get(2), [{ id: 'e', kind: 'explore', state: 'not-acted-on' }], 'three thoughts passed');
    const ended = feedbackMarksBySeq(diagramSnapshot(SESSION, feedback, 'complete'));
    assert.equal(ended.get(0)?.[0].state, 'not-acted-on', 'never delivered before the end');
    const graph = thoughtGraph(SESSION);
    assert.equal(
      rowAccessibleName(graph.nodes[0], graph, marks.get(0)),
      'thought 1, problem reception: thought 1; feedback: note, waiting',
    );
  });

  it("never gives a branch the main line's colour, however many branches there are", () => {
    // Twelve branches, each forked from #1 (lanes 1 to 12), then the main line goes on.
    const many = thoughtsFrom([
      {},
      ...Array.from({ length: 12 }, (_, index) => ({ branchId: `b${index + 1}`, branchFromThought: 1, thoughtNumber: 2 })),
      { thoughtNumber: 2 },
    ]);
    const graph = thoughtGraph(many);
    assert.equal(graph.lanes.length, 13);
    const colourOf = (className: string): string | undefined => /\blane-(\d+)\b/.exec(className)?.[1];
    const shapes = rowShapes(graph, 0, graph.nodes.length, graph.lanes.length);
    for (const shape of shapes) {
      if (shape.className === 'revision-link') continue;
      const colour = colourOf(shape.className);
      assert.ok(colour !== undefined && Number(colour) < LANE_COLOURS, `${shape.className} has a lane colour`);
      if (shape.type === 'circle')
        assert.equal(colour === '0', graph.nodes[shape.seq].lane === 0, `dot of row ${shape.seq}: ${shape.className}`);
    }
    // The branches cycle through the colours other than the main line's, all of them before repeating.
    const branchColours = graph.lanes.slice(1).map((lane) => laneColourClass(lane.index));
    assert.ok(!branchColours.includes(laneColourClass(0)), branchColours.join(' '));
    assert.equal(new Set(branchColours.slice(0, LANE_COLOURS - 1)).size, LANE_COLOURS - 1);
    assert.equal(branchColours[LANE_COLOURS - 1], branchColours[0]);
    // The export draws the same: the 7th branch's line is not in the main line's colour.
    const svg = thoughtGraphSvg(graph);
    const lines = [...svg.matchAll(/<path class="lane-line (lane-\d+)"/g)].map((match) => match[1]);
    assert.equal(lines.filter((colour) => colour === 'lane-0').length, 1, `one main line: ${lines.join(' ')}`);
  });

  it('draws every row in a standalone SVG with the text made safe', () => {
    const hostile = thoughtsFrom([{ thought: '<img src=x onerror=alert(1)> & "quotes"' }, { thought: 'second' }]);
    const svg = thoughtGraphSvg(thoughtGraph(hostile));
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.doesNotMatch(svg, /<img/);
    assert.match(svg, /&#60;img src=x onerror=alert\(1\)&#62; &#38; &#34;quotes&#34;/);
    assert.equal([...svg.matchAll(/<g class="node" data-id="t\d+">/g)].length, 2);
    assert.match(thoughtGraphSvg(thoughtGraph([])), /No thoughts yet/);
  });

  it('tiles a long drawing into images of consecutive rows that stack into the whole one', () => {
    const long = thoughtsFrom(
      Array.from({ length: 23 }, (_, seq) =>
        seq === 12 ? { branchId: 'alt', branchFromThought: 3 } : seq === 20 ? { isRevision: true, revisesThought: 2 } : {},
      ),
    );
    const graph = thoughtGraph(long);
    const whole = thoughtGraphSvg(graph);
    const tiles = thoughtGraphSvgTiles(graph, new Map(), 'Branch tree', 10);
    assert.deepEqual(
      tiles.map((tile) => [tile.from, tile.to, tile.height]),
      [
        [0, 10, 10 * ROW_HEIGHT],
        [10, 20, 10 * ROW_HEIGHT],
        [20, 23, 3 * ROW_HEIGHT],
      ],
    );
    const widths = new Set(tiles.map((tile) => tile.width));
    assert.equal(widths.size, 1, 'every tile as wide as the others');
    assert.match(whole, new RegExp(`width="${tiles[0].width}"`), 'as wide as the whole drawing');
    // Each tile's viewBox picks its rows out of the whole drawing's coordinates, so the tiles meet without a gap.
    for (const tile of tiles) {
      assert.match(tile.svg, new RegExp(`viewBox="0 ${tile.from * ROW_HEIGHT} ${tile.width} ${tile.height}"`));
      const ids = [...tile.svg.matchAll(/<g class="node" data-id="t(\d+)">/g)].map((match) => Number(match[1]));
      assert.deepEqual(
        ids,
        Array.from({ length: tile.to - tile.from }, (_, index) => tile.from + index),
      );
      assert.match(tile.svg, new RegExp(`aria-label="Branch tree, thoughts ${tile.from + 1} to ${tile.to} of 23"`));
    }
    // The revision of #2 (row 20) reaches back across tiles: drawn in each tile it crosses.
    assert.deepEqual(
      tiles.map((tile) => tile.svg.includes('class="revision-link"')),
      [true, true, true],
    );
    // An image shows a reader its alt text only: the tiles leave out the rows' <title>; the standalone SVG keeps it.
    assert.doesNotMatch(tiles[0].svg, /<title>/);
    assert.match(whole, /<title>thought 1: thought 1<\/title>/);
    assert.equal(thoughtGraphSvgTiles(thoughtGraph(long)).length, 1, 'a short session is one image');
  });
});
