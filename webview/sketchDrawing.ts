// The live view's own drawing of a thought diagram while its session is live: the flowchart text our sources write
// (webview/flowchartParse.ts) laid out by webview/sketchLayout.ts and built as SVG elements directly. Mermaid costs
// ~90 ms a render plus ~40 ms laying out its HTML labels on screen in a shared code-server renderer, which alone is
// more than the 100 ms from tool call to diagram (bench: "Tool call → redraw in real VS Code"); this costs a few ms.
// The SVG has the shape of Mermaid's (g.node ids `<svgId>-flowchart-<nodeId>-<n>`, path.flowchart-link edges with
// `data-id="L_<from>_<to>_<n>"`, .nodeLabel and .edgeLabel), so keyboard moves, search marks, selection, follow mode
// and replay work on either. Text goes in as textContent only: nothing from a thought is ever parsed as markup.
import { LABEL_FONT_PX } from '../src/diagrams/diagramLayout';
import { parseFlowchart, type SketchGraph } from './flowchartParse';
import { FOLDED_INSET, SKETCH_LINE_PX, layoutSketch, type SketchBox, type SketchRoute } from './sketchLayout';

const SVG = 'http://www.w3.org/2000/svg';

/** The colours and font of the drawing: the same values Mermaid's theme gets (webview/theme.ts). */
export interface SketchTheme {
  nodeFill: string;
  nodeBorder: string;
  text: string;
  line: string;
  labelBackground: string;
  fontFamily: string;
}

/** Draws `text` as an SVG with id `svgId`, or returns undefined when the text is not one our sources write. */
export function drawSketch(svgId: string, text: string, theme: SketchTheme): SVGSVGElement | undefined {
  const graph = parseFlowchart(text);
  if (!graph) return undefined;
  const layout = layoutSketch(graph, labelMeasure(theme.fontFamily));
  if (!layout) return undefined;
  const svg = element('svg', {
    id: svgId,
    class: 'flowchart sketch',
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    role: 'graphics-document document',
    'aria-roledescription': 'flowchart-v2',
  }) as SVGSVGElement;
  const arrowId = `${svgId}-arrow`;
  const marker = element('marker', {
    id: arrowId,
    class: 'arrowheadPath',
    viewBox: '0 0 10 10',
    refX: 10,
    refY: 5,
    markerUnits: 'userSpaceOnUse',
    markerWidth: 8,
    markerHeight: 8,
    orient: 'auto',
  });
  marker.append(element('path', { d: 'M 0 0 L 10 5 L 0 10 z' }));
  const defs = element('defs', {});
  defs.append(marker);

  const edgePaths = element('g', { class: 'edgePaths' });
  const edgeLabels = element('g', { class: 'edgeLabels' });
  const pairs = new Map<string, number>();
  for (const route of layout.routes) {
    const pair = `${route.edge.from}_${route.edge.to}`;
    const index = pairs.get(pair) ?? 0;
    pairs.set(pair, index + 1);
    const edgeId = `L_${pair}_${index}`;
    edgePaths.append(edgePath(route, graph.direction, `${svgId}-${edgeId}`, edgeId, arrowId));
    if (route.label && route.edge.label !== undefined) edgeLabels.append(edgeLabel(route, edgeId));
  }

  const nodes = element('g', { class: 'nodes' });
  let index = 0;
  for (const box of layout.boxes.values()) nodes.append(nodeGroup(box, `${svgId}-flowchart-${box.node.id}-${index++}`, graph));

  const root = element('g', { class: 'root' });
  root.append(edgePaths, edgeLabels, nodes);
  svg.append(sketchStyle(svgId, theme), defs, root);
  return svg;
}

/**
 * The drawing's look, inside the SVG as Mermaid's is, so "Export SVG" saves a file that looks the same on its own. Scoped
 * to this SVG's id; the explorer's marks (selection, search, feedback) are more specific and still win.
 */
function sketchStyle(svgId: string, theme: SketchTheme): SVGStyleElement {
  // The colours are #rrggbb (theme.ts); nothing in the font list may end a rule.
  const font = theme.fontFamily.replace(/[{}<>;\\]/g, '');
  const scope = `#${svgId}`;
  const style = document.createElementNS(SVG, 'style');
  style.textContent = [
    `${scope} .node > :is(rect, path) { fill: ${theme.nodeFill}; stroke: ${theme.nodeBorder}; stroke-width: 1px; }`,
    `${scope} .node > path.folded-border { fill: none; }`,
    `${scope} text { fill: ${theme.text}; font-family: ${font}; font-size: ${LABEL_FONT_PX}px; }`,
    `${scope} .flowchart-link { fill: none; stroke: ${theme.line}; stroke-width: 2px; }`,
    `${scope} .flowchart-link.edge-pattern-dotted { stroke-dasharray: 3; }`,
    `${scope} .arrowheadPath path { fill: ${theme.line}; }`,
    `${scope} .edgeLabel-background { fill: ${theme.labelBackground}; }`,
  ].join('\n');
  return style;
}

function nodeGroup(box: SketchBox, id: string, graph: SketchGraph): SVGGElement {
  const { node, width, height } = box;
  const group = element('g', {
    class: ['node', 'default', ...node.classes].join(' '),
    id,
    'data-id': node.id,
    transform: `translate(${round(box.x)}, ${round(box.y)})`,
  }) as SVGGElement;
  const shape = element('rect', {
    class: 'basic label-container',
    x: round(-width / 2),
    y: round(-height / 2),
    width,
    height,
    ...(node.shape === 'stadium' ? { rx: height / 2, ry: height / 2 } : {}),
  });
  // classDef styles win over the stylesheet, as Mermaid writes them (selection and search draw an outline instead).
  for (const name of node.classes)
    for (const [property, value] of graph.classStyles.get(name) ?? []) shape.style.setProperty(property, value, 'important');
  group.append(shape);
  if (node.shape === 'folded') {
    const left = round(-width / 2 + FOLDED_INSET);
    const right = round(width / 2 - FOLDED_INSET);
    const top = round(-height / 2);
    const bottom = round(height / 2);
    group.append(element('path', { class: 'folded-border', d: `M ${left} ${top} V ${bottom} M ${right} ${top} V ${bottom}` }));
  }
  const label = element('text', { class: 'nodeLabel', 'text-anchor': 'middle' });
  const firstLine = -((node.lines.length - 1) * SKETCH_LINE_PX) / 2;
  node.lines.forEach((text, line) => {
    // A trailing space keeps the lines apart in textContent (what search and tests read), as Mermaid's <br> does.
    const span = element('tspan', { x: 0, y: round(firstLine + line * SKETCH_LINE_PX), 'dominant-baseline': 'central' });
    span.textContent = line < node.lines.length - 1 ? `${text} ` : text;
    label.append(span);
  });
  group.append(label);
  return group;
}

function edgePath(route: SketchRoute, direction: 'TB' | 'LR', id: string, dataId: string, arrowId: string): SVGPathElement {
  const { from, to } = route;
  // A smooth S from side to side: straight when both ends are in one lane.
  const d =
    direction === 'TB'
      ? `M ${round(from.x)} ${round(from.y)} C ${round(from.x)} ${round((from.y + to.y) / 2)}, ${round(to.x)} ${round((from.y + to.y) / 2)}, ${round(to.x)} ${round(to.y)}`
      : `M ${round(from.x)} ${round(from.y)} C ${round((from.x + to.x) / 2)} ${round(from.y)}, ${round((from.x + to.x) / 2)} ${round(to.y)}, ${round(to.x)} ${round(to.y)}`;
  return element('path', {
    class: `flowchart-link ${route.edge.dotted ? 'edge-pattern-dotted' : 'edge-pattern-solid'}`,
    id,
    'data-id': dataId,
    'data-edge': 'true',
    d,
    'marker-end': `url(#${arrowId})`,
  }) as SVGPathElement;
}

function edgeLabel(route: SketchRoute, dataId: string): SVGGElement {
  const box = route.label as NonNullable<SketchRoute['label']>;
  const group = element('g', { class: 'edgeLabel', transform: `translate(${round(box.x)}, ${round(box.y)})` }) as SVGGElement;
  group.append(
    element('rect', {
      class: 'edgeLabel-background',
      x: round(-box.width / 2),
      y: round(-box.height / 2),
      width: box.width,
      height: box.height,
    }),
  );
  const text = element('text', { class: 'edgeLabel', 'data-id': dataId, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
  text.textContent = route.edge.label ?? '';
  group.append(text);
  return group;
}

let measureContext: { font: string; context: CanvasRenderingContext2D; widths: Map<string, number> } | undefined;

/** A label line's width in the drawing's font, measured on a canvas (no layout) and remembered per font. */
function labelMeasure(fontFamily: string): (text: string) => number {
  const font = `${LABEL_FONT_PX}px ${fontFamily}`;
  if (!measureContext || measureContext.font !== font) {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return (text) => Array.from(text).length * LABEL_FONT_PX * 0.6;
    context.font = font;
    measureContext = { font, context, widths: new Map() };
  }
  const { context, widths } = measureContext;
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      width = context.measureText(text).width;
      // A bound on what is remembered: labels change as thoughts arrive.
      if (widths.size > 5_000) widths.clear();
      widths.set(text, width);
    }
    return width;
  };
}

function element(name: string, attributes: Record<string, string | number>): SVGElement {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  return created;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
