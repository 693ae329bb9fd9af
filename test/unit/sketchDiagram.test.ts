// The live view's own drawing, its DOM-free half: the flowchart text our diagram sources write read back into nodes and
// edges (webview/flowchartParse.ts), and the lane layout (webview/sketchLayout.ts). The SVG it becomes is checked in
// real Chromium (test/webview/liveView.test.ts) and timed in real VS Code (bench "Tool call → redraw").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { branchTreeSource } from '../../src/diagrams/branchTree';
import { excerpt, thoughtHead } from '../../src/diagrams/thoughtLabel';
import { revisionChainSource } from '../../src/diagrams/revisionChain';
import { thoughtNodeId } from '../../src/diagrams/thoughtLinks';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { parseFlowchart, type SketchGraph } from '../../webview/flowchartParse';
import { layoutSketch, type SketchLayout } from '../../webview/sketchLayout';
import { INJECTION_CORPUS, demoSession, reactSession } from '../webview/support/sessions';

/** A measure without a canvas: every character 8 px, wide enough to tell lines apart. */
const measure = (text: string): number => Array.from(text).length * 8;

function parsed(text: string): SketchGraph {
  const graph = parseFlowchart(text);
  assert.ok(graph, `the sketch could not read:\n${text}`);
  return graph;
}

function laidOut(graph: SketchGraph): SketchLayout {
  const layout = layoutSketch(graph, measure);
  assert.ok(layout, 'no layout');
  return layout;
}

/** No two node boxes overlap, every edge runs forward along the flow, and the drawing holds every box. */
function assertSound(graph: SketchGraph, layout: SketchLayout): void {
  const boxes = [...layout.boxes.values()];
  for (let a = 0; a < boxes.length; a++)
    for (let b = a + 1; b < boxes.length; b++) {
      const [one, two] = [boxes[a], boxes[b]];
      const apart = Math.abs(one.x - two.x) >= (one.width + two.width) / 2 || Math.abs(one.y - two.y) >= (one.height + two.height) / 2;
      assert.ok(apart, `${one.node.id} and ${two.node.id} overlap`);
    }
  for (const box of boxes) {
    assert.ok(box.x - box.width / 2 >= 0 && box.x + box.width / 2 <= layout.width, `${box.node.id} outside the width`);
    assert.ok(box.y - box.height / 2 >= 0 && box.y + box.height / 2 <= layout.height, `${box.node.id} outside the height`);
  }
  for (const route of layout.routes) {
    if (graph.direction === 'TB') assert.ok(route.from.y < route.to.y, `${route.edge.from} → ${route.edge.to} runs upwards`);
    else assert.ok(route.from.x < route.to.x, `${route.edge.from} → ${route.edge.to} runs backwards`);
  }
}

function session(thoughts: string[]): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  thoughts.forEach((thought, index) => {
    const outcome = engine.process('fixture', {
      sessionId: 'sketch',
      thought,
      thoughtNumber: index + 1,
      totalThoughts: thoughts.length,
      nextThoughtNeeded: index < thoughts.length - 1,
    });
    assert.ok(outcome.ok);
  });
  return engine.getSession('sketch') as SessionSnapshot;
}

describe('the sketch reads every flowchart our thought diagrams write', () => {
  it('the demo session: every node and edge, the branch names on their edges, the classes', async () => {
    const demo = await demoSession();
    const source = branchTreeSource(demo, { direction: 'TB' });
    const graph = parsed(source.text);
    assert.equal(graph.direction, 'TB');
    assert.deepEqual(
      graph.nodes.map((node) => node.id),
      demo.thoughts.map((thought) => thoughtNodeId(thought)),
    );
    assert.equal(graph.edges.length, demo.thoughts.length - 1);
    const branchEdges = graph.edges.filter((edge) => edge.dotted);
    assert.deepEqual(branchEdges.map((edge) => edge.label).sort(), ['cache-key', 'runner-image']);
    const revision = graph.nodes.find((node) => node.lines[0].includes('revises #6'));
    assert.ok(revision?.classes.includes('revision'));
    assert.deepEqual(graph.classStyles.get('revision'), [['stroke-dasharray', '5 3']]);
    // Each thought's label is its head and an excerpt of its text, decoded back to plain text.
    demo.thoughts.forEach((thought, index) => {
      assert.equal(graph.nodes[index].lines[0], thoughtHead(thought));
      // thoughtLabel: the excerpt is never shorter than the head.
      assert.equal(graph.nodes[index].lines[1], excerpt(thought.thought, Math.max(36, Array.from(thoughtHead(thought)).length)));
    });
    assertSound(graph, laidOut(graph));
  });

  it('folded trees at several budgets, windows and revision chains of a 1,000-thought session', () => {
    const big = reactSession({ thoughts: 1_000 });
    for (const nodeBudget of [8, 40, 100, 400]) {
      const source = branchTreeSource(big, { direction: 'TB', nodeBudget });
      const graph = parsed(source.text);
      assert.equal(graph.nodes.length, source.nodes);
      assert.ok(graph.nodes.some((node) => node.shape === 'folded' && node.classes.includes('folded')));
      assertSound(graph, laidOut(graph));
    }
    const windowed = parsed(branchTreeSource(big, { direction: 'TB', maxThoughts: 30 }).text);
    assert.equal(windowed.nodes[0].shape, 'stadium');
    assertSound(windowed, laidOut(windowed));
    const chains = parsed(revisionChainSource(big, { direction: 'LR', nodeBudget: 100 }).text);
    assert.equal(chains.direction, 'LR');
    assertSound(chains, laidOut(chains));
  });

  it('hostile thought text stays plain text in the labels', () => {
    const graph = parsed(branchTreeSource(session([...INJECTION_CORPUS]), { direction: 'TB', excerptLength: 64 }).text);
    INJECTION_CORPUS.forEach((text, index) => {
      assert.equal(graph.nodes[index].lines[1], excerpt(text, 64));
    });
  });

  it('an empty session is one node', async () => {
    const demo = await demoSession();
    const graph = parsed(branchTreeSource({ ...demo, thoughts: [] }, { direction: 'TB' }).text);
    assert.equal(graph.nodes.length, 1);
    assertSound(graph, laidOut(graph));
  });

  it('leaves anything else to Mermaid', () => {
    for (const text of [
      'graph TB\n  a["x"]',
      'flowchart TB\n  a["x"]\n  click a call alert()',
      'flowchart TB\n  %%{init: {"securityLevel": "loose"}}%%',
      'flowchart TB\n  subgraph s\n  a["x"]\n  end',
      'flowchart TB\n  a["x"]\n  style a fill:#f00',
      'flowchart TB\n  a["x"]\n  classDef bad fill: url(javascript:alert(1))',
      'flowchart TB\n  a["x"] --> b',
      'flowchart TB\n  a["x"]]',
      'flowchart TB\n  a["x"]\n  a["again"]',
    ])
      assert.equal(parseFlowchart(text), undefined, text);
  });
});

describe('the sketch lays a tree out in lanes', () => {
  it('the main line keeps one lane; each branch takes its own beside it, one rank below its fork', async () => {
    const demo = await demoSession();
    const graph = parsed(branchTreeSource(demo, { direction: 'TB' }).text);
    const layout = laidOut(graph);
    const box = (number: number, branch?: string) => {
      const thought = demo.thoughts.find((candidate) => candidate.thoughtNumber === number && candidate.branchId === branch);
      assert.ok(thought, `thought #${number} ${branch ?? ''}`);
      return layout.boxes.get(thoughtNodeId(thought)) as NonNullable<ReturnType<typeof layout.boxes.get>>;
    };
    const main = demo.thoughts
      .filter((thought) => thought.branchId === undefined)
      .map((thought) => layout.boxes.get(thoughtNodeId(thought)));
    assert.equal(new Set(main.map((mainBox) => mainBox?.x)).size, 1, 'the main line is one column');
    const fork = box(6);
    const branches = graph.nodes.filter((node) => graph.edges.some((edge) => edge.dotted && edge.to === node.id));
    assert.equal(branches.length, 2);
    const lanes = branches.map((node) => layout.boxes.get(node.id));
    assert.equal(new Set([fork.x, ...lanes.map((lane) => lane?.x)]).size, 3, 'two branches, two lanes of their own');
    for (const lane of lanes) assert.ok((lane?.y ?? 0) > fork.y);
    // The fork's edges leave from three points, and each branch name sits on its own edge, between fork and branch.
    const fromFork = layout.routes.filter((route) => route.edge.from === fork.node.id);
    assert.equal(new Set(fromFork.map((route) => route.from.x)).size, 3);
    for (const route of layout.routes.filter((candidate) => candidate.edge.label !== undefined)) {
      assert.ok(route.label && route.label.y > route.from.y && route.label.y < route.to.y);
      assert.ok(route.label.x > route.from.x && route.label.x < route.to.x);
    }
  });

  it('refuses a cycle rather than loop', () => {
    const graph = parseFlowchart('flowchart TB\n  a["a"]\n  b["b"]\n  a --> b\n  b --> a');
    assert.ok(graph);
    assert.equal(layoutSketch(graph, measure), undefined);
  });
});
