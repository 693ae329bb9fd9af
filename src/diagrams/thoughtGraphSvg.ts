// Where the thought graph (thoughtGraph.ts) is drawn, row by row, like a commit graph: one row per thought at a fixed
// height, one lane per line of thought at a fixed pitch, so a row's place depends only on its seq and its lane, never on
// the thoughts after it. The explorer draws the rows in view with these shapes (webview/diagrams/thoughtGraphView.ts); the
// exports draw every row as one standalone SVG (`thoughtGraphSvg`). Pure: no DOM.
import type { SessionSnapshot } from '../engine/model';
import {
  FEEDBACK_MARK_KIND_WORDS,
  FEEDBACK_MARK_STATE_WORDS,
  feedbackMarksBySeq,
  stageWords,
  thoughtGraph,
  type FeedbackMark,
  type ThoughtGraph,
  type ThoughtGraphNode,
} from './thoughtGraph';
import { shortenedLine } from '../engine/browserSafe/textCut';

/** One row per thought: room for a 13 px label and its marks. */
export const ROW_HEIGHT = 26;
/** Lanes side by side. */
export const LANE_PITCH = 14;
export const DOT_RADIUS = 4.5;
/** Left of the first lane, and between the last lane and the revision links' gutter. */
const GRAPH_PAD = 9;
/** The label size at the default view: the drawing never zooms, so this is the size on screen. */
export const GRAPH_LABEL_PX = 13;

/** How many lanes get their own column when the drawing is `width` px wide: more lanes share the last column. */
export function lanesShownFor(laneCount: number, width: number): number {
  const room = Math.max(2, Math.floor((Math.min(width * 0.3, 160) - 2 * GRAPH_PAD) / LANE_PITCH) + 1);
  return Math.max(1, Math.min(laneCount, room));
}

/** The graph column's width for `lanesShown` lanes (and the revision gutter to their right). */
export function graphWidth(lanesShown: number): number {
  return 2 * GRAPH_PAD + (Math.max(1, lanesShown) - 1) * LANE_PITCH + GRAPH_PAD;
}

export function laneX(lane: number, lanesShown: number): number {
  return GRAPH_PAD + Math.min(lane, Math.max(1, lanesShown) - 1) * LANE_PITCH;
}

function rowCentre(row: number): number {
  return row * ROW_HEIGHT + ROW_HEIGHT / 2;
}

/**
 * A shape of the drawing. `key` names what it draws (a lane's line, a fork, a revision's link, a row's dot), the same
 * for every window of rows that holds it, so a drawing that moves its window can keep the element that drew it.
 */
export type GraphShape = { key: string } & (
  { type: 'path'; d: string; className: string } | { type: 'circle'; cx: number; cy: number; r: number; className: string; seq: number }
);

/** CSS classes of a thought's dot: its kind, its lane's colour, final. */
export function dotClass(node: ThoughtGraphNode): string {
  return `graph-dot kind-${node.kind} ${laneColourClass(node.lane)}${node.final ? ' final' : ''}`;
}

/** Colours a lane can have (media/explorer.css, mcp-app/app.css and the exported SVG's style): `lane-0` to `lane-5`. */
export const LANE_COLOURS = 6;

/**
 * The CSS class of a lane's colour, the one rule every drawing uses (view, overview strip, chips, exports, MCP App):
 * the main line (lane 0) has a colour of its own, and branches cycle through the other colours, so no branch ever
 * looks like the main line.
 */
export function laneColourClass(lane: number): string {
  return `lane-${lane <= 0 ? 0 : 1 + ((lane - 1) % (LANE_COLOURS - 1))}`;
}

/**
 * The shapes of rows `from` to `to` (exclusive) when the first `limit` rows are shown (a replay's position; the whole
 * session otherwise): lane lines, fork curves, dots and the revision links that cross those rows.
 */
export function rowShapes(graph: ThoughtGraph, from: number, to: number, lanesShown: number, limit = graph.nodes.length): GraphShape[] {
  const shapes: GraphShape[] = [];
  const last = Math.min(to, limit, graph.nodes.length);
  if (from >= last) return shapes;
  const top = (row: number): number => row * ROW_HEIGHT;
  for (const lane of graph.lanes) {
    if (lane.first >= limit) continue;
    const end = Math.min(lane.end, limit - 1);
    const lo = Math.max(from, lane.start);
    const hi = Math.min(last - 1, end);
    if (lo > hi) continue;
    const x = laneX(lane.index, lanesShown);
    const colour = `lane-line ${laneColourClass(lane.index)}`;
    // The fork: a curve from the fork's dot to this lane, on the fork's row.
    if (lane.start !== lane.first && lo === lane.start) {
      const forkX = laneX(graph.nodes[lane.start].lane, lanesShown);
      const y = rowCentre(lane.start);
      const bottom = top(lane.start + 1);
      shapes.push({
        key: `fork ${lane.index}`,
        type: 'path',
        d: `M${forkX} ${y} C${forkX} ${bottom},${x} ${y},${x} ${bottom}`,
        className: colour,
      });
    }
    // The straight part, as one segment over the rows in range: from the first dot's centre to the last dot's centre.
    const forked = lane.start !== lane.first;
    const lineTop = forked ? (lo === lane.start ? top(lane.start + 1) : top(lo)) : Math.max(top(lo), rowCentre(lane.first));
    const lineBottom = Math.min(top(hi + 1), rowCentre(end));
    if (lineBottom > lineTop)
      shapes.push({ key: `lane ${lane.index}`, type: 'path', d: `M${x} ${lineTop}V${lineBottom}`, className: colour });
  }
  const gutter = laneX(lanesShown - 1, lanesShown) + GRAPH_PAD;
  for (const edge of graph.edges) {
    if (edge.kind !== 'revision' || edge.from >= limit) continue;
    // A revision links its row to the row it revises, along the gutter right of the lanes.
    const [upper, lower] = edge.to < edge.from ? [edge.to, edge.from] : [edge.from, edge.to];
    if (lower < from || upper >= last) continue;
    const x1 = laneX(graph.nodes[upper].lane, lanesShown) + DOT_RADIUS;
    const x2 = laneX(graph.nodes[lower].lane, lanesShown) + DOT_RADIUS;
    const y1 = rowCentre(upper);
    const y2 = rowCentre(lower);
    shapes.push({ key: `revision ${edge.from}`, type: 'path', d: `M${x2} ${y2}H${gutter}V${y1}H${x1}`, className: 'revision-link' });
  }
  for (let row = from; row < last; row++) {
    const node = graph.nodes[row];
    shapes.push({
      key: `dot ${row}`,
      type: 'circle',
      cx: laneX(node.lane, lanesShown),
      cy: rowCentre(row),
      r: DOT_RADIUS,
      className: dotClass(node),
      seq: row,
    });
  }
  return shapes;
}

/** What a row says after the thought's number: its stage as words, its branch, what it revises. */
export function rowTags(node: ThoughtGraphNode, graph: ThoughtGraph): string[] {
  const tags: string[] = [];
  if (node.stage) tags.push(stageWords(node.stage));
  if (node.startsBranch && node.branchId !== undefined) {
    const fork = node.parent === undefined ? node.dangling : graph.nodes[node.parent]?.thoughtNumber;
    tags.push(fork === undefined ? `branch ${node.branchId}` : `branch ${node.branchId} from #${fork}`);
  }
  if (node.revises !== undefined) tags.push(`revises #${graph.nodes[node.revises].thoughtNumber}`);
  else if (node.kind === 'revision')
    tags.push(node.dangling === undefined ? 'revision' : `revises #${node.dangling} (not in this session)`);
  if (node.final) tags.push('final');
  return tags;
}

/** A mark in words: "note, waiting". */
export function markWords(mark: FeedbackMark): string {
  return `${FEEDBACK_MARK_KIND_WORDS[mark.kind]}, ${FEEDBACK_MARK_STATE_WORDS[mark.state]}`;
}

/**
 * What a screen reader says for a row: "thought 12, planning, revises #6: <its text>", then its marks. A caller that
 * shows the row's tags too passes them, so they are made once.
 */
export function rowAccessibleName(
  node: ThoughtGraphNode,
  graph: ThoughtGraph,
  marks: readonly FeedbackMark[] = [],
  tags: readonly string[] = rowTags(node, graph),
): string {
  const head = [`thought ${node.thoughtNumber}`, ...tags].join(', ');
  const text = shortenedLine(node.text, 300);
  const feedback = marks.length > 0 ? `; feedback: ${marks.map(markWords).join('; ')}` : '';
  return `${head}: ${text}${feedback}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.codePointAt(0)};`).replace(/[\p{Cc}\p{Cf}]/gu, '');
}

/** The colours of the standalone SVG (the explorer takes them from the theme instead). */
const EXPORT_STYLE = [
  '.lane-line{fill:none;stroke-width:2}',
  '.revision-link{fill:none;stroke:#b180d7;stroke-width:1.5;stroke-dasharray:4 3}',
  '.graph-dot{stroke-width:2;fill:#fff}',
  '.graph-dot.kind-revision{fill:#fff;stroke-dasharray:2 1.5}',
  '.graph-dot.final{stroke-width:3.5}',
  ...['#3794ff', '#89d185', '#cca700', '#f14c4c', '#b180d7', '#d18616'].map(
    (colour, index) =>
      `.lane-${index}.lane-line{stroke:${colour}}.lane-${index}.graph-dot{stroke:${colour}}.lane-${index}.graph-dot:not(.kind-revision){fill:${colour}}`,
  ),
  '.row{fill:#f3f3f3}.node{color:#1f1f1f}',
  'text{font:13px sans-serif;fill:#1f1f1f}.n{font-weight:600}',
  '.tags{fill:#555}',
  '.mark{font-size:12px;fill:#a1260d}',
  // The reader's colour scheme (an HTML export opened in a dark browser, an SVG in a dark viewer).
  '@media (prefers-color-scheme:dark){.row{fill:#252526}.node{color:#e0e0e0}text{fill:#e0e0e0}.tags{fill:#b0b0b0}.mark{fill:#f48771}.graph-dot.kind-revision{fill:#1e1e1e}}',
].join('');

/**
 * Characters on a row of the standalone SVG, its number, tags, text and marks together, that fit its background at
 * 13 px (no measuring there): the thought's text gets what the rest leaves, at least EXPORT_TEXT_MIN_CHARS.
 */
const EXPORT_ROW_CHARS = 110;
const EXPORT_TEXT_MIN_CHARS = 24;
/** The row's background is as wide as this many px right of the text's start. */
const EXPORT_ROW_WIDTH = 820;

/** Rows in one image of a tiled drawing: a browser draws several short images far faster than one very tall one. */
export const ROWS_PER_TILE = 200;

/** The whole graph as one standalone SVG (Export SVG, HTML export): every row, text beside the lanes, marks in words. */
export function thoughtGraphSvg(
  graph: ThoughtGraph,
  marks: ReadonlyMap<number, readonly FeedbackMark[]> = new Map(),
  title = 'Branch tree',
): string {
  return thoughtGraphRowsSvg(graph, marks, title, 0, graph.nodes.length, true).svg;
}

/** One image of a tiled drawing: the SVG of rows `from` to `to` (exclusive). */
export interface ThoughtGraphTile {
  svg: string;
  from: number;
  to: number;
  width: number;
  height: number;
}

/**
 * The graph as standalone SVGs of at most `rowsPerTile` rows each, top to bottom. Rows have a fixed height and every
 * tile the same width, so the tiles stacked without gaps are the whole drawing (lines that cross a tile's edge are
 * drawn in both and cut by each one's viewBox). Meant for `<img>`, which shows a reader only its alt text, so the rows
 * carry no <title> (half the bytes of a row); the page beside the images holds every thought's text.
 */
export function thoughtGraphSvgTiles(
  graph: ThoughtGraph,
  marks: ReadonlyMap<number, readonly FeedbackMark[]> = new Map(),
  title = 'Branch tree',
  rowsPerTile = ROWS_PER_TILE,
): ThoughtGraphTile[] {
  const total = graph.nodes.length;
  if (total <= rowsPerTile) return [thoughtGraphRowsSvg(graph, marks, title, 0, total, false)];
  const tiles: ThoughtGraphTile[] = [];
  for (let from = 0; from < total; from += rowsPerTile) {
    const to = Math.min(total, from + rowsPerTile);
    tiles.push(thoughtGraphRowsSvg(graph, marks, `${title}, thoughts ${from + 1} to ${to} of ${total}`, from, to, false));
  }
  return tiles;
}

/**
 * Rows `from` to `to` (exclusive) as one standalone SVG, in the whole drawing's coordinates (its viewBox picks them);
 * with `titles`, each row carries its accessible name as a <title> (a tooltip where the SVG is opened on its own).
 */
function thoughtGraphRowsSvg(
  graph: ThoughtGraph,
  marks: ReadonlyMap<number, readonly FeedbackMark[]>,
  title: string,
  from: number,
  to: number,
  titles: boolean,
): ThoughtGraphTile {
  const lanesShown = Math.max(1, Math.min(graph.lanes.length, 12));
  const textX = graphWidth(lanesShown) + 6;
  const width = textX + EXPORT_ROW_WIDTH;
  const rows = Math.max(1, to - from);
  const height = rows * ROW_HEIGHT;
  const label = from === 0 && to === graph.nodes.length ? `${title}, ${graph.nodes.length} thoughts` : title;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="thought-graph" width="${width}" height="${height}" viewBox="0 ${from * ROW_HEIGHT} ${width} ${height}" role="img" aria-label="${escapeXml(label)}">`,
    `<style>${EXPORT_STYLE}</style>`,
  ];
  if (graph.nodes.length === 0) out.push(`<text x="8" y="${ROW_HEIGHT / 2 + 4}">No thoughts yet</text>`);
  else
    // The rows' backgrounds as one rectangle filled with a pattern a row high, not a rectangle per row: a sixth of a
    // 10,000-thought export's bytes.
    out.push(
      `<defs><pattern id="te-thought-rows" width="${width}" height="${ROW_HEIGHT}" patternUnits="userSpaceOnUse">`,
      `<rect class="row" x="${textX - 4}" y="2" width="${width - textX}" height="${ROW_HEIGHT - 4}" rx="3"/></pattern></defs>`,
      `<clipPath id="te-row-text"><rect x="${textX - 4}" y="${from * ROW_HEIGHT}" width="${width - textX - 2}" height="${height}"/></clipPath>`,
      `<rect fill="url(#te-thought-rows)" x="0" y="${from * ROW_HEIGHT}" width="${width}" height="${height}"/>`,
    );
  for (const shape of rowShapes(graph, from, to, lanesShown)) {
    if (shape.type === 'path') out.push(`<path class="${shape.className}" d="${shape.d}"/>`);
    else out.push(`<circle class="${shape.className}" cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}"/>`);
  }
  // The rows' text stays inside their background: a line that the character budget misjudges (wide letters) is cut.
  if (graph.nodes.length > 0) out.push('<g clip-path="url(#te-row-text)">');
  for (let seq = from; seq < to; seq++) {
    const node = graph.nodes[seq];
    const y = rowCentre(node.seq) + 4.5;
    const number = `#${node.thoughtNumber}`;
    const tagList = rowTags(node, graph);
    const tags = tagList.join(' · ');
    const rowMarks = marks.get(node.seq) ?? [];
    const markText = rowMarks.length > 0 ? `[${rowMarks.map(markWords).join('; ')}]` : '';
    const textChars = Math.max(EXPORT_TEXT_MIN_CHARS, EXPORT_ROW_CHARS - number.length - tags.length - markText.length - 3);
    out.push(
      `<g class="node" data-id="${node.id}">`,
      titles ? `<title>${escapeXml(rowAccessibleName(node, graph, rowMarks, tagList))}</title>` : '',
      `<text x="${textX}" y="${y}"><tspan class="n">${number}</tspan>`,
      tags.length > 0 ? ` <tspan class="tags">${escapeXml(tags)}</tspan>` : '',
      ` <tspan>${escapeXml(shortenedLine(node.text, textChars))}</tspan>`,
      markText ? ` <tspan class="mark">${escapeXml(markText)}</tspan>` : '',
      '</text></g>',
    );
  }
  if (graph.nodes.length > 0) out.push('</g>');
  out.push('</svg>');
  return { svg: out.join(''), from, to, width, height };
}

/**
 * A session's thoughts as one standalone SVG with every feedback mark: the one drawing of the branch tree and revision
 * links that every export carries, whether the explorer made it (VS Code's exports) or the CLI (its HTML export).
 */
export function sessionThoughtGraphSvg(snapshot: Pick<SessionSnapshot, 'thoughts' | 'feedback' | 'meta'>, title: string): string {
  return thoughtGraphSvg(thoughtGraph(snapshot.thoughts), feedbackMarksBySeq(snapshot), title);
}
