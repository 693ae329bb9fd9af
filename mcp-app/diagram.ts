// The branch tree in the chat column: the explorer's thought drawing (the typed graph of src/diagrams/thoughtGraph.ts
// and the row geometry of thoughtGraphSvg.ts), built with DOM APIs. Shapes carry only numbers and class names from
// that geometry; every piece of thought text goes in as textContent, so no markup is ever made from a session.
import type { SessionSnapshot } from '../src/engine/model';
import { ThoughtGraphBuilder, type ThoughtGraph } from '../src/diagrams/thoughtGraph';
import {
  GRAPH_LABEL_PX,
  ROW_HEIGHT,
  graphWidth,
  lanesShownFor,
  rowAccessibleName,
  rowShapes,
  rowTags,
} from '../src/diagrams/thoughtGraphSvg';

/** The most recent thoughts drawn inline; the full explorer shows the rest. */
export const INLINE_THOUGHTS = 24;
/** The chat column's usual width, for how many lanes get their own column. */
const COLUMN_WIDTH = 640;
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The session's graph, grown one thought at a time as pages arrive (thoughts only ever append). */
export class InlineGraph {
  private builder = new ThoughtGraphBuilder();
  private sessionId: string | undefined;

  /** The graph of the snapshot's thoughts, reusing the rows already built when the session only grew. */
  update(snapshot: SessionSnapshot): ThoughtGraph {
    const held = this.builder.graph.nodes.length;
    if (snapshot.meta.id !== this.sessionId || snapshot.thoughts.length < held) {
      this.builder = new ThoughtGraphBuilder();
      this.sessionId = snapshot.meta.id;
    }
    for (let seq = this.builder.graph.nodes.length; seq < snapshot.thoughts.length; seq++) this.builder.add(snapshot.thoughts[seq]);
    return this.builder.graph;
  }
}

export interface DrawnDiagram {
  figure: HTMLElement;
  shown: number;
  total: number;
}

/** The latest INLINE_THOUGHTS rows: lanes and dots in an SVG on the left, one row of text per thought beside them. */
export function drawThoughtGraph(graph: ThoughtGraph): DrawnDiagram {
  const total = graph.nodes.length;
  const from = Math.max(0, total - INLINE_THOUGHTS);
  const shown = total - from;
  const lanesShown = lanesShownFor(graph.lanes.length, COLUMN_WIDTH);
  const width = graphWidth(lanesShown);
  const height = shown * ROW_HEIGHT;

  const figure = document.createElement('div');
  figure.className = 'thought-graph';
  figure.style.setProperty('--graph-width', `${width}px`);
  figure.style.setProperty('--row-height', `${ROW_HEIGHT}px`);
  figure.style.setProperty('--label-size', `${GRAPH_LABEL_PX}px`);
  if (from > 0) {
    const earlier = document.createElement('p');
    earlier.className = 'graph-earlier';
    earlier.textContent = `${from} earlier ${from === 1 ? 'thought' : 'thoughts'} in the explorer`;
    figure.append(earlier);
  }
  const body = document.createElement('div');
  body.className = 'graph-body';
  body.style.height = `${height}px`;

  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'graph-lines');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('aria-hidden', 'true');
  // The geometry places row `from` at y = from × ROW_HEIGHT: shift it to the top.
  const shapes = document.createElementNS(SVG_NS, 'g');
  shapes.setAttribute('transform', `translate(0 ${-from * ROW_HEIGHT})`);
  for (const shape of rowShapes(graph, from, total, lanesShown)) {
    const element = document.createElementNS(SVG_NS, shape.type);
    element.setAttribute('class', shape.className);
    if (shape.type === 'path') element.setAttribute('d', shape.d);
    else {
      element.setAttribute('cx', String(shape.cx));
      element.setAttribute('cy', String(shape.cy));
      element.setAttribute('r', String(shape.r));
    }
    shapes.append(element);
  }
  svg.append(shapes);

  const rows = document.createElement('ol');
  rows.className = 'graph-rows';
  rows.setAttribute('aria-label', `Branch tree, ${total} ${total === 1 ? 'thought' : 'thoughts'}`);
  for (let seq = from; seq < total; seq++) {
    const node = graph.nodes[seq];
    const row = document.createElement('li');
    row.className = `graph-row kind-${node.kind}${node.final ? ' final' : ''}`;
    row.dataset.id = node.id;
    const tags = rowTags(node, graph);
    const name = rowAccessibleName(node, graph, [], tags);
    row.setAttribute('aria-label', name);
    row.title = name;
    const number = span('graph-num', `#${node.thoughtNumber}`);
    const text = span('graph-text', node.text.replace(/\s+/g, ' ').trim());
    row.append(number);
    if (tags.length > 0) row.append(span('graph-tags', tags.join(' · ')));
    row.append(text);
    rows.append(row);
  }
  body.append(svg, rows);
  figure.append(body);
  return { figure, shown, total };
}

function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}
