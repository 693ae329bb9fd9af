// The explorer's diagram policy (webview/diagrams/diagramPolicy.ts), without the app or a browser: which drawing each diagram
// kind gets, what each change redraws, the thought graph kept across updates, what the thought drawings are given
// live and in a replay, and how each drawing follows the newest thought or shows a pick.
// The same rules applied to a page in real Chromium are in test/webview/liveView.test.ts and navigation.test.ts.
import assert from 'node:assert/strict';
import { diagramSnapshot } from './support/diagramSessions';
import { describe, it } from 'node:test';
import { DIAGRAM_KINDS, THOUGHT_DIAGRAM_KINDS } from '../../src/engine/browserSafe/diagramKinds';
import { thoughtGraph } from '../../src/diagrams/thoughtGraph';
import type { FeedbackRecord, ThoughtRecord } from '../../src/engine/model';
import {
  drawingOf,
  followAction,
  GrownThoughtGraph,
  redrawFor,
  revealsSelection,
  thoughtDrawingInput,
  type DiagramChange,
  type SelectSource,
} from '../../webview/diagrams/diagramPolicy';

function thoughts(count: number, first = 0, spec: Partial<ThoughtRecord> = {}): ThoughtRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const seq = first + index;
    return {
      seq,
      thought: `thought ${seq + 1}`,
      thoughtNumber: seq + 1,
      totalThoughts: 9,
      nextThoughtNeeded: true,
      timestamp: seq,
      ...spec,
    };
  });
}

const NOTE: FeedbackRecord = { id: 'n', kind: 'note', author: 'user', createdAt: 1, text: 'check the logs', thoughtNumber: 1 };

describe('diagram policy', () => {
  it('draws the stage graph with Mermaid and every thought kind as rows of the thought graph', () => {
    assert.equal(drawingOf('stageGraph'), 'mermaid');
    for (const kind of THOUGHT_DIAGRAM_KINDS) assert.equal(drawingOf(kind), 'thoughtRows', kind);
    assert.deepEqual(
      DIAGRAM_KINDS.filter((kind) => drawingOf(kind) === 'thoughtRows'),
      [...THOUGHT_DIAGRAM_KINDS],
    );
  });

  it('draws Mermaid again only for another session or another theme; a live thought changes it in place', () => {
    const invalidating = (['snapshot', 'theme', 'liveThought', 'meta', 'seek', 'feedback'] as DiagramChange[]).filter(
      (change) => redrawFor(change, false).invalidateMermaid,
    );
    assert.deepEqual(invalidating, ['snapshot', 'theme']);
    assert.deepEqual(redrawFor('liveThought', false), { invalidateMermaid: false, stageGraph: true, thoughtDrawings: true });
    assert.deepEqual(redrawFor('seek', true), { invalidateMermaid: false, stageGraph: true, thoughtDrawings: true });
  });

  it('redraws only the thought drawings for feedback, and nothing while a replay shows the thoughts as written', () => {
    assert.deepEqual(redrawFor('feedback', false), { invalidateMermaid: false, stageGraph: false, thoughtDrawings: true });
    assert.deepEqual(redrawFor('feedback', true), { invalidateMermaid: false, stageGraph: false, thoughtDrawings: false });
  });

  it('keeps the thought graph across live thoughts: the same nodes, one appended per thought', () => {
    const grown = new GrownThoughtGraph();
    const first = thoughts(3);
    const graph = grown.graphOf(first);
    const firstNode = graph.nodes[0];
    const more = [...first, ...thoughts(2, 3)];
    const after = grown.graphOf(more);
    assert.equal(after, graph, 'the same graph object, grown in place');
    assert.equal(after.nodes[0], firstNode, 'a node already drawn is not rebuilt');
    assert.equal(after.nodes.length, 5);
    assert.deepEqual(after, thoughtGraph(more), 'grown one at a time equals built whole');
    assert.equal(grown.graphOf(more), graph, 'the same thoughts again grow nothing');
    assert.equal(after.nodes.length, 5);
  });

  it('builds the graph again for thoughts that do not extend the ones it grew from', () => {
    const grown = new GrownThoughtGraph();
    const graph = grown.graphOf(thoughts(4));
    const fewer = grown.graphOf(thoughts(2));
    assert.notEqual(fewer, graph, 'fewer thoughts (a snapshot replaced them)');
    assert.equal(fewer.nodes.length, 2);
    const other = thoughts(3, 0, { branchId: 'alt' });
    const replaced = grown.graphOf(other);
    assert.notEqual(replaced, fewer, 'another session: its last shared thought is another record');
    assert.deepEqual(replaced, thoughtGraph(other));
  });

  it('gives the thought drawings every row, the feedback marks and the live state outside a replay', () => {
    const records = thoughts(3);
    const live = diagramSnapshot(records, [NOTE]);
    const graph = thoughtGraph(records);
    const input = thoughtDrawingInput(live, graph, { active: false, position: 1 });
    assert.equal(input.graph, graph);
    assert.equal(input.limit, 3);
    assert.equal(input.live, true);
    assert.deepEqual(input.marks.get(0), [{ id: 'n', kind: 'note', state: 'waiting', text: 'check the logs' }]);
    assert.equal(thoughtDrawingInput(diagramSnapshot(records, [], 'complete'), graph, { active: false, position: 3 }).live, false);
  });

  it('gives a replay the rows up to its position, no marks and never live', () => {
    const records = thoughts(5);
    const input = thoughtDrawingInput(diagramSnapshot(records, [NOTE]), thoughtGraph(records), { active: true, position: 2 });
    assert.equal(input.limit, 2);
    assert.equal(input.marks.size, 0);
    assert.equal(input.live, false);
    assert.equal(thoughtDrawingInput(diagramSnapshot(records), thoughtGraph(records), { active: true, position: 9 }).limit, 5);
  });

  it('follows the newest thought: the stage graph pans to the current stage, a thought drawing scrolls to its last row', () => {
    assert.deepEqual(followAction('stageGraph', 4), { kind: 'panToCurrentStage' });
    assert.deepEqual(followAction('branchTree', 4), { kind: 'scrollToRow', seq: 3 });
    assert.deepEqual(followAction('revisionChain', 1), { kind: 'scrollToRow', seq: 0 });
    assert.deepEqual(followAction('branchTree', 0), { kind: 'none' }, 'no row to scroll to yet');
  });

  it('shows a pick from a card or the search in the active diagram only, and a restored one in a thought drawing', () => {
    const reveals = (source: SelectSource) => DIAGRAM_KINDS.filter((kind) => revealsSelection(kind, kind, source));
    assert.deepEqual(reveals('card'), [...DIAGRAM_KINDS]);
    assert.deepEqual(reveals('search'), [...DIAGRAM_KINDS]);
    assert.deepEqual(reveals('restore'), [...THOUGHT_DIAGRAM_KINDS], 'the stage graph keeps its saved pan');
    assert.deepEqual(reveals('diagram'), [], 'picked in the diagram: already in view');
    assert.equal(revealsSelection('branchTree', 'stageGraph', 'card'), false, 'a hidden tab does not scroll');
  });
});
