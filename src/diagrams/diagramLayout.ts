// How the thought diagrams are laid out and how long their labels may be, shared by every place that draws them (the
// explorer, the HTML export's renderer, the MCP App) so a diagram has the same shape everywhere. Compact: short node
// padding and spacing, labels that never wrap on their own (thoughtLabel puts the line break), and an excerpt sized to
// the room the pane gives each node at a readable scale.

/** Mermaid's flowchart layout options for every diagram we draw. */
export const FLOWCHART_LAYOUT = {
  // Room between nodes side by side and between ranks; Mermaid's defaults (50/50) make a 12-thought tree 1,700 px tall.
  nodeSpacing: 24,
  rankSpacing: 24,
  // Between a label and its node's border (default 15).
  padding: 8,
  // Labels wrap only where thoughtLabel breaks them; the excerpt length decides the width.
  wrappingWidth: 640,
  diagramPadding: 6,
} as const;

/**
 * What every Mermaid we bundle is initialised with (the explorer's, the HTML export's); each adds its theme and limits.
 * Strict security: HTML labels are sanitised, and they are what decode the entity codes mermaidLabel uses for
 * untrusted text (SVG text labels would show `#60;` literally). Mermaid 12 lays flowcharts out with ELK by default;
 * dagre keeps elkjs (1.6 MB) out of the bundle (see scripts/mermaidFlowchartOnly.mjs) and is the layout every figure
 * in bench/ was measured with. Natural size: a wide diagram scrolls instead of shrinking to unreadable.
 */
export const MERMAID_BASE_CONFIG = {
  startOnLoad: false,
  securityLevel: 'strict',
  layout: 'dagre',
  flowchart: { useMaxWidth: false, ...FLOWCHART_LAYOUT },
} as const;

/** The font size of Mermaid's node labels (its default theme size). */
export const LABEL_FONT_PX = 16;
/** Labels must stay at least this large on screen. */
export const MIN_LABEL_PX = 11;
/** The smallest scale at which a drawing is still readable (labels ≥ MIN_LABEL_PX). */
export const MIN_READABLE_SCALE = MIN_LABEL_PX / LABEL_FONT_PX;

/** Average advance of a label character at LABEL_FONT_PX in the UI fonts (measured: 7.6–8.4 px for prose). */
const CHARACTER_PX = 8.2;
const SHORTEST_EXCERPT = 16;
const LONGEST_EXCERPT = 64;
/** Excerpt lengths come in steps, so a small resize does not change every label and redraw. */
const EXCERPT_STEP = 4;

/**
 * The excerpt length that lets `across` nodes sit side by side in a pane `paneWidth` CSS pixels wide while the drawing
 * stays at a readable scale: the pane's width at MIN_READABLE_SCALE, shared out among the nodes. Between 16 and 64
 * characters; a narrow pane scrolls rather than cutting labels to nothing.
 */
export function excerptForRoom(paneWidth: number, across: number): number {
  const nodes = Math.max(1, Math.min(4, Math.floor(across)));
  // 85 %: the height must fit at that scale too, and the measure of a character is an average.
  const drawingWidth = (0.85 * paneWidth) / MIN_READABLE_SCALE - 2 * FLOWCHART_LAYOUT.diagramPadding;
  const perNode = (drawingWidth - (nodes - 1) * FLOWCHART_LAYOUT.nodeSpacing) / nodes - 2 * FLOWCHART_LAYOUT.padding;
  const characters = Math.floor(perNode / CHARACTER_PX / EXCERPT_STEP) * EXCERPT_STEP;
  if (!Number.isFinite(characters)) return SHORTEST_EXCERPT;
  return Math.max(SHORTEST_EXCERPT, Math.min(LONGEST_EXCERPT, characters));
}
