// Colours for a drawn diagram that follow the reader's colour scheme (`prefers-color-scheme`), for exported files: the
// HTML export's diagrams, whether drawn on opening or pre-rendered by the editor in its own theme, all look alike in a
// light and in a dark page. CSS appended inside the SVG, scoped by its id so it outranks Mermaid's own rules (which
// are scoped the same way) and touches nothing else on the page; an SVG shown as an image evaluates the media query
// with the page's scheme too.

interface Palette {
  text: string;
  muted: string;
  node: string;
  border: string;
  line: string;
  background: string;
  visited: [fill: string, stroke: string, text: string];
  current: [fill: string, stroke: string, text: string];
  unvisited: [fill: string, stroke: string, text: string];
}

// The HTML export page's own colours (src/export/html.ts), with text/background contrast ≥ 7:1 in both schemes.
const LIGHT: Palette = {
  text: '#1f2328',
  muted: '#59636e',
  node: '#f6f8fa',
  border: '#59636e',
  line: '#59636e',
  background: '#ffffff',
  visited: ['#ddf4ff', '#0969da', '#0a3069'],
  current: ['#fff8c5', '#9a6700', '#3b2300'],
  unvisited: ['#ffffff', '#818b98', '#59636e'],
};

const DARK: Palette = {
  text: '#e6edf3',
  muted: '#9198a1',
  node: '#151b23',
  border: '#9198a1',
  line: '#9198a1',
  background: '#0d1117',
  visited: ['#0c2d6b', '#4493f8', '#cae8ff'],
  current: ['#3b2e00', '#d29922', '#f8e3a1'],
  unvisited: ['#0d1117', '#656c76', '#9198a1'],
};

const SHAPES = ':is(rect, polygon, path, circle, ellipse)';
const TEXTS = ':is(.nodeLabel, .nodeLabel p, span, text, tspan)';

/** Only ids Mermaid gives (letters, digits, `-`, `_`) are accepted, so the CSS stays ours. */
const SAFE_ID = /^[A-Za-z][\w-]*$/;

/** The style sheet for the SVG with id `svgId`; empty when the id is not a plain one. */
export function diagramSchemeCss(svgId: string): string {
  if (!SAFE_ID.test(svgId)) return '';
  const scope = `#${svgId}`;
  const rules = (palette: Palette): string => {
    const node = (state: string, [fill, stroke, text]: [string, string, string], extra = ''): string =>
      `${scope} .node${state} > ${SHAPES}, ${scope} .node${state} .label-container ${SHAPES} { fill: ${fill} !important; stroke: ${stroke} !important;${extra} }` +
      `${scope} .node${state} ${TEXTS} { color: ${text} !important; fill: ${text} !important; }`;
    return [
      `${scope} { background: transparent !important; }`,
      node('', [palette.node, palette.border, palette.text]),
      node('.visited', palette.visited),
      node('.current', palette.current, ' stroke-width: 3px !important;'),
      node('.unvisited', palette.unvisited, ' stroke-dasharray: 3 3;'),
      `${scope} .node.dangling > ${SHAPES} { fill: ${palette.background} !important; }`,
      `${scope} :is(.flowchart-link, .edgePath .path) { stroke: ${palette.line} !important; }`,
      `${scope} :is(marker path, .marker, .arrowheadPath) { fill: ${palette.line} !important; stroke: ${palette.line} !important; }`,
      `${scope} :is(.edgeLabel, .edgeLabel p, .edgeLabel span, .labelBkg) { background-color: ${palette.background} !important; color: ${palette.muted} !important; }`,
      `${scope} .edgeLabel rect { fill: ${palette.background} !important; }`,
    ].join('\n');
  };
  return `${rules(LIGHT)}\n@media (prefers-color-scheme: dark) {\n${rules(DARK)}\n}`;
}

/** Appends the scheme style sheet to an SVG document's text (before its closing tag); unchanged without an id. */
export function withSchemeStyle(svg: string): string {
  const id = /^<svg\b[^>]*?\sid="([^"]+)"/i.exec(svg.slice(svg.search(/<svg[\s>]/i)))?.[1];
  const css = id === undefined ? '' : diagramSchemeCss(id);
  const end = svg.lastIndexOf('</svg>');
  if (css === '' || end < 0) return svg;
  return `${svg.slice(0, end)}<style>${css}</style>${svg.slice(end)}`;
}
