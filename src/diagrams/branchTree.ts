// The branch tree diagram source: the main line and every branch from its fork point, as a Mermaid flowchart.
// A flowchart rather than a gitGraph because its node ids are ours (`t<seq>`, which the explorer maps back to thought
// cards on click) and its labels decode Mermaid entity codes, so one escaping (mermaidLabel) serves every diagram;
// the extra render cost is handled by folding the tree to a node budget (compression.ts), or, when a caller asks for
// the most recent N thoughts, by the window (see diagramWindow.ts).
import type { SessionSnapshot } from '../engine/model';
import { ITEM_WEIGHT, type FoldLine } from './compression';
import { FEEDBACK_CLASS, feedbackBySeq } from './feedbackMarks';
import { DEFAULT_DIRECTION, fitDiagram, type DiagramBuild, type DiagramSource, type DiagramWindowOptions } from './diagramWindow';
import { foldedDiagramSource } from './foldedDiagram';
import { mermaidLabel } from './mermaidText';
import { cachedThoughtLabels } from './thoughtLabel';
import { danglingLabel, danglingNodeId, resolveLinks, thoughtNodeId, type ThoughtLinks } from './thoughtLinks';
import { appendAll } from '../engine/browserSafe/arrayMath';

/** Node id of the placeholder that stands for the thoughts left out of a windowed tree. */
export const EARLIER_NODE_ID = 'earlier';

const DEFAULT_EXCERPT = 36;

/**
 * The branch tree as Mermaid text within Mermaid's limits: folded to `nodeBudget` nodes (the default), or the most
 * recent `maxThoughts` thoughts when a window is asked for.
 */
export function branchTreeSource(snapshot: SessionSnapshot, options: DiagramWindowOptions = {}): DiagramSource {
  const links = resolveLinks(snapshot.thoughts);
  if (options.maxThoughts === undefined) return foldedBranchTree(snapshot, links, options);
  return windowedBranchTree(snapshot, links, options);
}

/** The tree as lines (the main line and each branch) for folding; each line hangs off its fork thought. */
export function branchTreeForest(snapshot: SessionSnapshot, links: ThoughtLinks = resolveLinks(snapshot.thoughts)) {
  const thoughts = snapshot.thoughts;
  const lineIndex = new Map<string | undefined, number>();
  const lines: (FoldLine & { items: number[]; branchId?: string })[] = [];
  thoughts.forEach((thought, index) => {
    let line = lineIndex.get(thought.branchId);
    if (line === undefined) {
      line = lines.length;
      lineIndex.set(thought.branchId, line);
      lines.push({ items: [], parent: links.parent[index], branchId: thought.branchId });
    }
    lines[line].items.push(index);
  });
  return { lines, size: thoughts.length };
}

function foldedBranchTree(snapshot: SessionSnapshot, links: ThoughtLinks, options: DiagramWindowOptions): DiagramSource {
  const thoughts = snapshot.thoughts;
  const label = cachedThoughtLabels(thoughts);
  const forest = branchTreeForest(snapshot, links);
  const last = thoughts.length - 1;
  // Thoughts a person gave feedback on stay unfolded like pinned ones, and carry the feedback mark.
  const withFeedback = feedbackBySeq(snapshot);
  const isFork = new Array<boolean>(thoughts.length).fill(false);
  const isHead = new Array<boolean>(thoughts.length).fill(false);
  for (const line of forest.lines) {
    if (line.parent !== undefined) isFork[line.parent] = true;
    isHead[line.items[line.items.length - 1]] = true;
  }
  const placeholders = new Map<number, { id: string; label: string }>();
  forest.lines.forEach((line, index) => {
    const first = line.items[0];
    const fork = links.startsBranch[first] && line.parent === undefined ? thoughts[first].branchFromThought : undefined;
    if (fork !== undefined) placeholders.set(index, { id: danglingNodeId(fork), label: danglingLabel(fork) });
  });
  return foldedDiagramSource(
    {
      thoughts,
      forest,
      baseWeight: (item) =>
        item === last
          ? ITEM_WEIGHT.current
          : withFeedback.has(item)
            ? ITEM_WEIGHT.pinned
            : isFork[item] || isHead[item]
              ? ITEM_WEIGHT.structure
              : links.startsBranch[item]
                ? ITEM_WEIGHT.branchStart
                : ITEM_WEIGHT.plain,
      placeholders,
      wholeLineName: (line) => {
        const branchId = forest.lines[line].branchId;
        return branchId === undefined ? undefined : `branch ${branchId}`;
      },
      rootsNoun: 'unconnected lines',
      thoughtNode: (item, excerptLength, classes) => {
        const thought = thoughts[item];
        const id = thoughtNodeId(thought);
        const add = (name: string): void => {
          const list = classes.get(name) ?? [];
          list.push(id);
          classes.set(name, list);
        };
        if (thought.isRevision || thought.revisesThought !== undefined) add('revision');
        if (!thought.nextThoughtNeeded) add('final');
        if (links.startsBranch[item]) add('branchStart');
        if (withFeedback.has(item)) add(FEEDBACK_CLASS);
        return `  ${id}["${label(item, excerptLength)}"]`;
      },
      lineEdgeArrow: (line) => (forest.lines[line].branchId === undefined ? '-->' : '-.->'),
      lineEdgeLabel: (line) => {
        const branchId = forest.lines[line].branchId;
        return branchId === undefined ? undefined : mermaidLabel(branchId, 40);
      },
      emptyNode: 'empty["No thoughts yet"]',
      classDefs: [
        '  classDef revision stroke-dasharray: 5 3',
        '  classDef final stroke-width: 3px',
        '  classDef branchStart stroke-width: 2px',
        '  classDef dangling stroke-dasharray: 2 4',
        ...(withFeedback.size > 0 ? [`  classDef ${FEEDBACK_CLASS} stroke-width: 4px`] : []),
      ],
      defaultExcerpt: DEFAULT_EXCERPT,
      edgeOrder: 'arrival',
    },
    options,
    options.direction ?? DEFAULT_DIRECTION,
  );
}

/** The most recent `maxThoughts` thoughts (the window), shrunk to stay within Mermaid's limits. */
function windowedBranchTree(snapshot: SessionSnapshot, links: ThoughtLinks, options: DiagramWindowOptions): DiagramSource {
  const thoughts = snapshot.thoughts;
  const direction = options.direction ?? DEFAULT_DIRECTION;
  const label = cachedThoughtLabels(thoughts);
  const withFeedback = feedbackBySeq(snapshot);
  /** The thought number a branch's first thought forks from when the session does not hold it. */
  const danglingFork = (index: number): number | undefined =>
    links.startsBranch[index] && links.parent[index] === undefined ? thoughts[index].branchFromThought : undefined;

  const build = (count: number, excerptLength: number): DiagramBuild => {
    const first = thoughts.length - count;
    const lines: string[] = [`flowchart ${direction}`];
    if (thoughts.length === 0) {
      lines.push('  empty["No thoughts yet"]');
      return { text: lines.join('\n'), edges: 0 };
    }
    if (first > 0) lines.push(`  ${EARLIER_NODE_ID}(["${mermaidLabel(`… ${first} earlier thought${first === 1 ? '' : 's'}`)}"])`);
    const edges: string[] = [];
    const revisions: string[] = [];
    const finals: string[] = [];
    const branchStarts: string[] = [];
    const feedbackNodes: string[] = [];
    const dangling = new Set<number>();
    for (let index = first; index < thoughts.length; index++) {
      const thought = thoughts[index];
      const id = thoughtNodeId(thought);
      lines.push(`  ${id}["${label(index, excerptLength)}"]`);
      if (thought.isRevision || thought.revisesThought !== undefined) revisions.push(id);
      if (!thought.nextThoughtNeeded) finals.push(id);
      if (withFeedback.has(thought.seq)) feedbackNodes.push(id);

      const parent = links.parent[index];
      const forkNumber = danglingFork(index);
      if (forkNumber !== undefined && !dangling.has(forkNumber)) {
        dangling.add(forkNumber);
        lines.push(`  ${danglingNodeId(forkNumber)}(["${mermaidLabel(danglingLabel(forkNumber))}"])`);
      }
      // A parent outside the window is drawn as the placeholder, so every line still shows where it comes from; a
      // fork the session does not hold is drawn as its own dangling placeholder.
      const from =
        forkNumber !== undefined
          ? danglingNodeId(forkNumber)
          : parent === undefined
            ? undefined
            : parent >= first
              ? thoughtNodeId(thoughts[parent])
              : EARLIER_NODE_ID;
      if (links.startsBranch[index]) {
        branchStarts.push(id);
        const name = mermaidLabel(thought.branchId ?? '', 40);
        if (from !== undefined) edges.push(`  ${from} -.->|"${name}"| ${id}`);
      } else if (from !== undefined) {
        edges.push(`  ${from} --> ${id}`);
      }
    }
    appendAll(lines, edges);
    // Classes let the explorer and GitHub style roles without colours that would fight the theme.
    lines.push('  classDef revision stroke-dasharray: 5 3');
    lines.push('  classDef final stroke-width: 3px');
    lines.push('  classDef branchStart stroke-width: 2px');
    if (dangling.size > 0)
      lines.push('  classDef dangling stroke-dasharray: 2 4', `  class ${[...dangling].map(danglingNodeId).join(',')} dangling`);
    if (revisions.length > 0) lines.push(`  class ${revisions.join(',')} revision`);
    if (finals.length > 0) lines.push(`  class ${finals.join(',')} final`);
    if (branchStarts.length > 0) lines.push(`  class ${branchStarts.join(',')} branchStart`);
    if (feedbackNodes.length > 0)
      lines.push(`  classDef ${FEEDBACK_CLASS} stroke-width: 4px`, `  class ${feedbackNodes.join(',')} ${FEEDBACK_CLASS}`);
    return { text: lines.join('\n'), edges: edges.length };
  };

  // Every drawn thought with a parent brings exactly one edge (from its parent or from the placeholder).
  const countWithinEdges = (edgeLimit: number): number => {
    let edges = 0;
    let count = 0;
    for (let index = thoughts.length - 1; index >= 0; index--) {
      if (links.parent[index] !== undefined || danglingFork(index) !== undefined) edges++;
      if (edges > edgeLimit) break;
      count++;
    }
    return count;
  };

  return fitDiagram(thoughts.length, options, DEFAULT_EXCERPT, build, countWithinEdges);
}
