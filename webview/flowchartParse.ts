// Reads back the flowchart text our own diagram sources write (src/diagrams: branchTree, revisionChain, foldedDiagram)
// into nodes and edges, so the live view can draw it without Mermaid (webview/sketchDrawing.ts). Only that small
// subset is understood; any other line makes the whole text unreadable here and Mermaid draws it instead.
import { decodedLabelLines } from '../src/diagrams/mermaidText';

export type SketchShape = 'box' | 'folded' | 'stadium';

export interface SketchNode {
  id: string;
  shape: SketchShape;
  /** The label's plain text, a string per line. */
  lines: string[];
  /** classDef names given by `class` lines, in order. */
  classes: string[];
}

export interface SketchEdge {
  from: string;
  to: string;
  /** `-.->`: a branch's first edge (dotted), else `-->`. */
  dotted: boolean;
  /** Plain text of the edge's label (a branch name), if any. */
  label?: string;
}

export interface SketchGraph {
  direction: 'TB' | 'LR';
  nodes: SketchNode[];
  edges: SketchEdge[];
  /** Each classDef's declarations (`stroke-width: 3px`), as property and value pairs. */
  classStyles: Map<string, [string, string][]>;
}

const HEADER = /^flowchart (TB|LR)$/;
const ID = '[A-Za-z0-9_]+';
// `id["…"]` a thought, `id[["…"]]` a folded node, `id(["…"])` a placeholder; the label holds no `"` (mermaidLabel).
const NODE = new RegExp(`^(${ID})(\\[\\[|\\(\\[|\\[)"([^"]*)"(\\]\\]|\\]\\)|\\])$`);
const EDGE = new RegExp(`^(${ID}) (-->|-\\.->)(?:\\|"([^"]*)"\\|)? (${ID})$`);
const CLASS_DEF = /^classDef ([A-Za-z][\w-]*) (.+)$/;
const CLASS = new RegExp(`^class (${ID}(?:,${ID})*) ([A-Za-z][\\w-]*)$`);
/** A classDef declaration we pass on as a style: a plain property and a value of numbers, words and units. */
const DECLARATION = /^([a-z-]+):\s*([\w .#%-]+)$/;
const CLOSING: Record<string, string> = { '[': ']', '[[': ']]', '([': '])' };
const SHAPES: Record<string, SketchShape> = { '[': 'box', '[[': 'folded', '([': 'stadium' };

/** The graph `text` describes, or undefined when it holds anything outside the subset (Mermaid draws it then). */
export function parseFlowchart(text: string): SketchGraph | undefined {
  const lines = text.split('\n');
  const header = HEADER.exec(lines[0]?.trim() ?? '');
  if (!header) return undefined;
  const graph: SketchGraph = { direction: header[1] as 'TB' | 'LR', nodes: [], edges: [], classStyles: new Map() };
  const byId = new Map<string, SketchNode>();
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    if (line === '') continue;
    let match = NODE.exec(line);
    if (match) {
      if (CLOSING[match[2]] !== match[4] || byId.has(match[1])) return undefined;
      const node: SketchNode = { id: match[1], shape: SHAPES[match[2]], lines: decodedLabelLines(match[3]), classes: [] };
      byId.set(node.id, node);
      graph.nodes.push(node);
      continue;
    }
    match = EDGE.exec(line);
    if (match) {
      const label = match[3] === undefined ? undefined : decodedLabelLines(match[3]).join(' ');
      graph.edges.push({ from: match[1], to: match[4], dotted: match[2] === '-.->', ...(label === undefined ? {} : { label }) });
      continue;
    }
    match = CLASS_DEF.exec(line);
    if (match) {
      const declarations: [string, string][] = [];
      for (const part of match[2].split(',')) {
        const declaration = DECLARATION.exec(part.trim());
        if (!declaration) return undefined;
        declarations.push([declaration[1], declaration[2].trim()]);
      }
      graph.classStyles.set(match[1], declarations);
      continue;
    }
    match = CLASS.exec(line);
    if (match) {
      for (const id of match[1].split(',')) byId.get(id)?.classes.push(match[2]);
      continue;
    }
    return undefined;
  }
  // Edges only between declared nodes: Mermaid would invent a node for an unknown id.
  if (graph.edges.some((edge) => !byId.has(edge.from) || !byId.has(edge.to))) return undefined;
  return graph;
}
