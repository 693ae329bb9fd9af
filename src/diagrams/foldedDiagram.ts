// Turns folded groups (compression.ts) into Mermaid nodes and edges, and fits the result into Mermaid's limits. Shared
// by the branch tree and the revision chain: a group of one thought is that thought's node (`t<seq>`, as before);
// a larger group is a folded node with a stable key (`run_<first>_<last>`, `branch_<first>`, `roots_<first>_<last>`),
// the `folded` class and a label that says what it holds ("#12–#51 · 40 thoughts · analysis, synthesis").
import type { ThoughtRecord } from '../engine/model';
import {
  DEFAULT_NODE_BUDGET,
  EXPANDED_WEIGHT,
  MIN_NODE_BUDGET,
  expandedDepths,
  foldForest,
  type FoldForest,
  type FoldGroup,
  type FoldResult,
} from './compression';
import {
  MERMAID_MAX_EDGES,
  MERMAID_MAX_TEXT_SIZE,
  type DiagramDirection,
  type DiagramSource,
  type DiagramWindowOptions,
} from './diagramWindow';
import { mermaidLabel } from './mermaidText';
import { thoughtNodeId } from './thoughtLinks';
import { appendAll, smallest } from '../engine/browserSafe/arrayMath';

/** What a diagram supplies to be folded and drawn. */
export interface FoldedDiagramSpec {
  thoughts: readonly ThoughtRecord[];
  forest: FoldForest;
  /** Base protection of an item (ITEM_WEIGHT); pinned and expanded items are added by the fitting. */
  baseWeight: (item: number) => number;
  /** Placeholder nodes drawn beside the groups (dangling references), by root line; each costs one node. */
  placeholders: Map<number, { id: string; label: string }>;
  /** The folded node's label when it covers a whole non-root line (e.g. "branch css"); undefined for a stretch. */
  wholeLineName?: (line: number) => string | undefined;
  /** Plain-text noun for a roots group ("lines", "revision chains"). */
  rootsNoun: string;
  /** Mermaid text of a single thought's node, with its classes collected into `classes`. */
  thoughtNode: (item: number, excerptLength: number, classes: Map<string, string[]>) => string;
  /** Label of the edge into a line's first group from its parent (e.g. the branch name), or undefined. */
  lineEdgeLabel?: (line: number) => string | undefined;
  /** Arrow used into a line's first group ('-.->' for branches). */
  lineEdgeArrow?: (line: number) => string;
  /** Edges in arrival order of their target thought (the branch tree), or line by line (the revision chains). */
  edgeOrder: 'arrival' | 'lines';
  /** Node text when there is nothing to draw. */
  emptyNode: string;
  /** Class definitions always emitted after the nodes. */
  classDefs: string[];
  defaultExcerpt: number;
}

export interface FoldedBuild {
  members: Map<string, number[]>;
  text: string;
  edges: number;
  nodes: number;
  foldedNodes: number;
}

const TEXT_HEADROOM = 0.96;
const EDGE_HEADROOM = 10;

/** Folds to the budget (after pins and expansions), then shortens labels, then lowers the budget to fit Mermaid. */
export function foldedDiagramSource(spec: FoldedDiagramSpec, options: DiagramWindowOptions, direction: DiagramDirection): DiagramSource {
  const textLimit = Math.floor((positive('maxTextSize', options.maxTextSize) ?? MERMAID_MAX_TEXT_SIZE) * TEXT_HEADROOM);
  const edgeLimit = Math.max(1, (positive('maxEdges', options.maxEdges) ?? MERMAID_MAX_EDGES) - EDGE_HEADROOM);
  const excerpt = options.excerptLength ?? spec.defaultExcerpt;
  if (!Number.isInteger(excerpt) || excerpt < 0) throw new RangeError(`excerptLength must be a whole number of at least 0, got ${excerpt}`);
  const ladder = [...new Set([excerpt, Math.min(excerpt, 24), Math.min(excerpt, 12), 0])];
  let budget = Math.max(MIN_NODE_BUDGET, positive('nodeBudget', options.nodeBudget) ?? DEFAULT_NODE_BUDGET);
  // Every node but the first brings at most one edge, so the edge limit caps the budget.
  budget = Math.min(budget, edgeLimit + 1);

  const depth = expandedDepths(spec.forest, options.expanded ?? []);
  const pinned = new Set(options.pinned ?? []);
  const weight = (item: number): number => Math.max(spec.baseWeight(item), pinned.has(item) ? 4 : 0) + depth[item] * EXPANDED_WEIGHT;
  const total = spec.thoughts.length;
  const placeholderCount = new Set([...spec.placeholders.values()].map((placeholder) => placeholder.id)).size;

  for (;;) {
    const drawPlaceholders = placeholderCount + MIN_NODE_BUDGET <= budget;
    const folded = foldForest(spec.forest, weight, budget - (drawPlaceholders ? placeholderCount : 0));
    let last: FoldedBuild | undefined;
    let ratio = 1;
    for (const length of ladder) {
      last = renderFolded(spec, folded, length, drawPlaceholders, direction);
      if (last.text.length <= textLimit && last.edges <= edgeLimit) {
        return {
          text: last.text,
          truncated: false,
          shown: total,
          total,
          nodes: last.nodes,
          foldedNodes: last.foldedNodes,
          members: last.members,
        };
      }
      ratio = Math.min(edgeLimit / Math.max(1, last.edges), textLimit / last.text.length);
    }
    if (budget <= MIN_NODE_BUDGET) {
      throw new RangeError(`Diagram limits too small: maxTextSize ${options.maxTextSize}, maxEdges ${options.maxEdges}`);
    }
    budget = Math.max(MIN_NODE_BUDGET, Math.min(budget - 1, Math.floor(budget * ratio * 0.95)));
  }
}

/** The stable key (and Mermaid node id) of a group of more than one thought. */
export function groupKey(forest: FoldForest, result: FoldResult, group: FoldGroup): string {
  if (group.kind === 'roots') {
    const first = forest.lines[result.rootLines[group.rootFrom]].items[0];
    const last = forest.lines[result.rootLines[group.rootTo]].items[0];
    return `roots_${first}_${last}`;
  }
  const line = forest.lines[group.line];
  const first = line.items[group.start];
  if (group.start === 0 && group.end === line.items.length - 1 && line.parent !== undefined) return `branch_${first}`;
  return `run_${first}_${line.items[group.end]}`;
}

function renderFolded(
  spec: FoldedDiagramSpec,
  folded: FoldResult,
  excerptLength: number,
  drawPlaceholders: boolean,
  direction: string,
): FoldedBuild {
  const { forest, thoughts } = spec;
  const lines: string[] = [`flowchart ${direction}`];
  if (folded.groups.length === 0) {
    lines.push(`  ${spec.emptyNode}`);
    return { text: lines.join('\n'), edges: 0, nodes: 1, foldedNodes: 0, members: new Map() };
  }
  const classes = new Map<string, string[]>();
  const addClass = (name: string, id: string): void => {
    const list = classes.get(name) ?? [];
    list.push(id);
    classes.set(name, list);
  };
  // Node id of each item's group.
  const nodeOf = new Map<number, string>();
  const members = new Map<string, number[]>();
  const edges: string[] = [];
  let foldedNodes = 0;
  let groups = folded.groups;
  if (spec.edgeOrder === 'lines') {
    const rank = new Map<number, number>();
    for (const line of forest.lines) for (const item of line.items) rank.set(item, rank.size);
    const firstRank = (group: FoldGroup): number => smallest(group.items.map((item) => rank.get(item) as number));
    groups = groups
      .map((group) => [firstRank(group), group] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, group]) => group);
  }
  for (const group of groups) {
    const single = group.items.length === 1;
    const id = single ? thoughtNodeId(thoughts[group.items[0]]) : groupKey(forest, folded, group);
    for (const item of group.items) nodeOf.set(item, id);
    members.set(id, group.items);
    if (single) {
      lines.push(spec.thoughtNode(group.items[0], excerptLength, classes));
    } else {
      foldedNodes++;
      lines.push(`  ${id}[["${mermaidLabel(groupLabel(spec, group, excerptLength > 0), Number.MAX_SAFE_INTEGER)}"]]`);
      addClass('folded', id);
    }
  }
  let nodes = folded.groups.length;
  // Placeholders for dangling references, by root line.
  const placeholderOfLine = new Map<number, string>();
  if (drawPlaceholders) {
    const drawn = new Set<string>();
    for (const [line, placeholder] of spec.placeholders) {
      placeholderOfLine.set(line, placeholder.id);
      if (drawn.has(placeholder.id)) continue;
      drawn.add(placeholder.id);
      lines.push(`  ${placeholder.id}(["${mermaidLabel(placeholder.label)}"])`);
      addClass('dangling', placeholder.id);
      nodes++;
    }
  }
  // One edge into the first group of every line stretch that does not continue a group: from the previous item's
  // group on the same line, from the parent's group, or from the line's placeholder.
  const seen = new Set<string>();
  const addEdge = (from: string, to: string, arrow: string, label: string | undefined): void => {
    const key = `${from}>${to}`;
    if (from === to || seen.has(key)) return;
    seen.add(key);
    edges.push(label === undefined ? `  ${from} ${arrow} ${to}` : `  ${from} ${arrow}|"${label}"| ${to}`);
  };
  // In arrival order, as the unfolded diagram has always listed them (Mermaid's layout follows the edge order).
  const where: [number, number, number][] = [];
  forest.lines.forEach((line, lineIndex) => line.items.forEach((item, position) => where.push([lineIndex, position, item])));
  if (spec.edgeOrder === 'arrival') where.sort((a, b) => a[2] - b[2]);
  for (const [lineIndex, position, item] of where) {
    const line = forest.lines[lineIndex];
    const to = nodeOf.get(item) as string;
    if (position > 0) {
      addEdge(nodeOf.get(line.items[position - 1]) as string, to, '-->', undefined);
      continue;
    }
    const arrow = spec.lineEdgeArrow?.(lineIndex) ?? '-->';
    const label = spec.lineEdgeLabel?.(lineIndex);
    if (line.parent !== undefined) addEdge(nodeOf.get(line.parent) as string, to, arrow, label);
    else {
      const placeholder = placeholderOfLine.get(lineIndex);
      if (placeholder !== undefined) addEdge(placeholder, to, arrow, label);
    }
  }
  appendAll(lines, edges);
  lines.push(...spec.classDefs);
  if (foldedNodes > 0) lines.push('  classDef folded stroke-width: 2px');
  for (const [name, ids] of classes) if (ids.length > 0) lines.push(`  class ${ids.join(',')} ${name}`);
  return { text: lines.join('\n'), edges: edges.length, nodes, foldedNodes, members };
}

/** Plain-text label of a folded node: what range it covers, how many thoughts, and what they were about. */
function groupLabel(spec: FoldedDiagramSpec, group: FoldGroup, withStages: boolean): string {
  const { thoughts, forest } = spec;
  const count = group.items.length;
  const parts: string[] = [];
  if (group.kind === 'roots') {
    const lineCount = group.absorbedLines.length;
    parts.push(`${count} thought${count === 1 ? '' : 's'} on ${lineCount} ${spec.rootsNoun}`);
  } else {
    const line = forest.lines[group.line];
    const whole = group.start === 0 && group.end === line.items.length - 1 ? spec.wholeLineName?.(group.line) : undefined;
    const first = thoughts[line.items[group.start]].thoughtNumber;
    const last = thoughts[line.items[group.end]].thoughtNumber;
    parts.push(whole ?? (first === last ? `#${first}` : `#${first}–#${last}`), `${count} thoughts`);
    const branches = group.absorbedLines.length;
    if (branches > 0) parts.push(`${branches} branch${branches === 1 ? '' : 'es'}`);
  }
  let revisions = 0;
  for (const item of group.items) if (thoughts[item].isRevision || thoughts[item].revisesThought !== undefined) revisions++;
  if (revisions > 0) parts.push(`${revisions} revision${revisions === 1 ? '' : 's'}`);
  if (group.items.some((item) => !thoughts[item].nextThoughtNeeded)) parts.push('final');
  if (withStages) {
    const stages: string[] = [];
    for (const item of group.items) {
      const stage = thoughts[item].stage;
      if (stage !== undefined && !stages.includes(stage)) {
        stages.push(stage);
        if (stages.length > 3) break;
      }
    }
    if (stages.length > 0) parts.push(stages.length > 3 ? `${stages.slice(0, 3).join(', ')}, …` : stages.join(', '));
  }
  return parts.join(' · ');
}

function positive(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
  return value;
}
