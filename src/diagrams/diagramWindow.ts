// What the thought diagrams (branch tree, revision chain) share: the window option, the result shape, and the fitting
// loop that keeps every generated source inside Mermaid's default limits, so a large session never becomes a diagram
// Mermaid refuses to draw (it renders an error box instead of the graph once a limit is crossed).

/** Mermaid's defaults (`maxTextSize`, `maxEdges`); a renderer that raises them can pass its own values. */
export const MERMAID_MAX_TEXT_SIZE = 50_000;
export const MERMAID_MAX_EDGES = 500;

export type DiagramDirection = 'LR' | 'TB';
/** The thought diagrams' direction unless a caller asks for another: time runs left to right, as in the editor. */
export const DEFAULT_DIRECTION: DiagramDirection = 'LR';

export interface DiagramWindowOptions {
  /** Show only the most recent N thoughts (by arrival). Omitted: as many as the limits allow, newest first. */
  maxThoughts?: number;
  /** Characters of thought text in each label before shortening kicks in (default depends on the diagram). */
  excerptLength?: number;
  /** Limits of the Mermaid that will draw the text; default to Mermaid's own defaults. */
  maxTextSize?: number;
  maxEdges?: number;
  /** Flowchart direction (default DEFAULT_DIRECTION). */
  direction?: DiagramDirection;
  /**
   * Most nodes to draw when folding (compression.ts); used when `maxThoughts` is not given. Default
   * DEFAULT_NODE_BUDGET; a session that fits is drawn whole.
   */
  nodeBudget?: number;
  /** Keys of folded nodes the person opened (`run_3_40`, `branch_25`, …): their thoughts fold last. */
  expanded?: Iterable<string>;
  /** Seqs of thoughts that stay their own node as long as the budget allows (selection, feedback, search hits). */
  pinned?: Iterable<number>;
}

export interface DiagramSource {
  /** Mermaid source text. */
  text: string;
  /** True when older thoughts were left out (by `maxThoughts` or to stay within Mermaid's limits). */
  truncated: boolean;
  /** How many of the session's most recent thoughts the diagram covers. */
  shown: number;
  /** How many thoughts the session has. */
  total: number;
  /** Nodes drawn, when the diagram was folded to a node budget. */
  nodes?: number;
  /** How many of those nodes are folded (stand for more than one thought). */
  foldedNodes?: number;
  /** The thoughts (seqs) each drawn node holds, by node id, when folded; placeholders are not listed. */
  members?: ReadonlyMap<string, readonly number[]>;
}

/** One attempt at drawing the most recent `count` thoughts with labels of `excerptLength` characters of text. */
export interface DiagramBuild {
  text: string;
  edges: number;
}

// Headroom below the hard limits: a renderer may prepend a line or two (an init directive, a theme), and Mermaid
// counts its own edges (e.g. subgraph links) slightly differently from ours.
const TEXT_HEADROOM = 0.96;
const EDGE_HEADROOM = 10;

/**
 * Finds the largest window (at most `maxThoughts`) and the longest labels that fit the limits: shorter labels first,
 * then fewer thoughts. `build` must be monotone: fewer thoughts or shorter excerpts never give a longer text.
 */
export function fitDiagram(
  total: number,
  options: DiagramWindowOptions,
  defaultExcerptLength: number,
  build: (count: number, excerptLength: number) => DiagramBuild,
  /** Optional: the most recent thoughts that fit `edgeLimit` edges, known without building any text. */
  countWithinEdges?: (edgeLimit: number) => number,
): DiagramSource {
  const maxThoughts = checkedPositive('maxThoughts', options.maxThoughts) ?? total;
  const textLimit = Math.floor((checkedPositive('maxTextSize', options.maxTextSize) ?? MERMAID_MAX_TEXT_SIZE) * TEXT_HEADROOM);
  const edgeLimit = Math.max(1, (checkedPositive('maxEdges', options.maxEdges) ?? MERMAID_MAX_EDGES) - EDGE_HEADROOM);
  const excerpt = checkedNonNegative('excerptLength', options.excerptLength) ?? defaultExcerptLength;
  const excerptLadder = [...new Set([excerpt, Math.min(excerpt, 24), Math.min(excerpt, 12), 0])];

  let count = Math.min(total, maxThoughts);
  // Jumping straight to the edge limit spares building (and escaping) labels for thousands of thoughts.
  if (countWithinEdges) count = Math.min(count, countWithinEdges(edgeLimit));
  for (;;) {
    let last: DiagramBuild | undefined;
    let ratio = 1;
    for (const length of excerptLadder) {
      last = build(count, length);
      if (last.text.length <= textLimit && last.edges <= edgeLimit) {
        return { text: last.text, truncated: count < total, shown: count, total };
      }
      // Shorter labels never remove an edge: go straight to fewer thoughts.
      if (last.edges > edgeLimit) {
        ratio = edgeLimit / last.edges;
        break;
      }
      ratio = textLimit / last.text.length;
    }
    if (count === 0 || last === undefined) {
      // Even an empty diagram is too large: only possible with absurdly small limits. Say so rather than emit text
      // Mermaid would refuse.
      throw new RangeError(`Diagram limits too small: maxTextSize ${options.maxTextSize}, maxEdges ${options.maxEdges}`);
    }
    // Shrink in proportion to the overshoot, and always by at least one thought so the loop ends.
    count = Math.max(0, Math.min(count - 1, Math.floor(count * ratio * 0.97)));
  }
}

function checkedPositive(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
  return value;
}

function checkedNonNegative(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of at least 0, got ${value}`);
  return value;
}
