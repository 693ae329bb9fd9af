// The revision chain diagram source: each revised thought followed by its revisions in order (thought → rev 1 →
// rev 2 …), as a Mermaid flowchart with one row per chain. A revision of a revision continues the chain of the
// thought it ultimately revises, so each chain tells the whole story of one idea.
import type { SessionSnapshot } from '../engine/model';
import { ITEM_WEIGHT, type FoldLine } from './compression';
import { foldedDiagramSource } from './foldedDiagram';
import { DEFAULT_DIRECTION, fitDiagram, type DiagramBuild, type DiagramSource, type DiagramWindowOptions } from './diagramWindow';
import { mermaidLabel } from './mermaidText';
import { cachedThoughtLabels } from './thoughtLabel';
import { danglingLabel, danglingNodeId, resolveLinks, thoughtNodeId } from './thoughtLinks';
import { appendAll } from '../engine/browserSafe/arrayMath';

const DEFAULT_EXCERPT = 40;

/**
 * One revised thought (its seq) and the seqs of its revisions, in arrival order. A revision of a thought the session
 * does not hold starts a chain whose root is that thought's number (`missingRoot`), drawn as a dangling placeholder.
 */
export type RevisionChain = { root: number; revisions: number[] } | { root: undefined; missingRoot: number; revisions: number[] };

/** Groups every revision of the session into chains, ordered by each chain's first revision. */
export function revisionChains(snapshot: SessionSnapshot): RevisionChain[] {
  const thoughts = snapshot.thoughts;
  const { revises } = resolveLinks(thoughts);
  const chainOf = new Map<number, RevisionChain>();
  const chains = new Map<string, RevisionChain>();
  revises.forEach((target, index) => {
    const missing = target === undefined ? thoughts[index].revisesThought : undefined;
    if (target === undefined && missing === undefined) return;
    let chain = target === undefined ? undefined : chainOf.get(target);
    if (!chain) {
      const key = target === undefined ? `missing${missing}` : `t${target}`;
      chain = chains.get(key);
      if (!chain) {
        chain = target === undefined ? { root: undefined, missingRoot: missing as number, revisions: [] } : { root: target, revisions: [] };
        chains.set(key, chain);
      }
    }
    chainOf.set(index, chain);
    chain.revisions.push(index);
  });
  return [...chains.values()];
}

/**
 * The revision chains as Mermaid text: folded to `nodeBudget` nodes (the default: older chains fold into one node
 * first, long chains into runs of revisions), or, when `maxThoughts` is given, the chains with a revision among the
 * most recent thoughts.
 */
export function revisionChainSource(snapshot: SessionSnapshot, options: DiagramWindowOptions = {}): DiagramSource {
  const chains = revisionChains(snapshot);
  if (options.maxThoughts === undefined) return foldedRevisionChains(snapshot, chains, options);
  return windowedRevisionChains(snapshot, chains, options);
}

/** Each chain as a root line (the revised thought, then its revisions); a chain with a missing root has a placeholder. */
export function revisionChainForest(snapshot: SessionSnapshot, chains: RevisionChain[] = revisionChains(snapshot)) {
  const lines: FoldLine[] = chains.map((chain) => ({
    items: chain.root === undefined ? [...chain.revisions] : [chain.root, ...chain.revisions],
  }));
  return { lines, size: snapshot.thoughts.length };
}

function foldedRevisionChains(snapshot: SessionSnapshot, chains: RevisionChain[], options: DiagramWindowOptions): DiagramSource {
  const thoughts = snapshot.thoughts;
  const label = cachedThoughtLabels(thoughts);
  const forest = revisionChainForest(snapshot, chains);
  const last = thoughts.length - 1;
  const isLatest = new Set(forest.lines.map((line) => line.items[line.items.length - 1]));
  const placeholders = new Map<number, { id: string; label: string }>();
  chains.forEach((chain, index) => {
    if (chain.root === undefined)
      placeholders.set(index, { id: danglingNodeId(chain.missingRoot), label: danglingLabel(chain.missingRoot) });
  });
  const isRevision = new Set(chains.flatMap((chain) => chain.revisions));
  return foldedDiagramSource(
    {
      thoughts,
      forest,
      baseWeight: (item) => (item === last ? ITEM_WEIGHT.current : isLatest.has(item) ? ITEM_WEIGHT.structure : ITEM_WEIGHT.plain),
      placeholders,
      rootsNoun: 'revision chains',
      thoughtNode: (item, excerptLength, classes) => {
        const id = thoughtNodeId(thoughts[item]);
        if (isRevision.has(item)) {
          const list = classes.get('revision') ?? [];
          list.push(id);
          classes.set('revision', list);
        }
        return `  ${id}["${label(item, excerptLength)}"]`;
      },
      emptyNode: 'empty["No revisions yet"]',
      classDefs: ['  classDef revision stroke-dasharray: 5 3', '  classDef dangling stroke-dasharray: 2 4'],
      defaultExcerpt: DEFAULT_EXCERPT,
      edgeOrder: 'lines',
    },
    options,
    options.direction ?? DEFAULT_DIRECTION,
  );
}

function windowedRevisionChains(snapshot: SessionSnapshot, chains: RevisionChain[], options: DiagramWindowOptions): DiagramSource {
  const thoughts = snapshot.thoughts;
  const direction = options.direction ?? DEFAULT_DIRECTION;
  const label = cachedThoughtLabels(thoughts);

  const build = (count: number, excerptLength: number): DiagramBuild => {
    const first = thoughts.length - count;
    const lines: string[] = [`flowchart ${direction}`];
    const nodes: string[] = [];
    const edges: string[] = [];
    const revisionIds: string[] = [];
    const danglingIds: string[] = [];
    for (const chain of chains) {
      const visible = chain.revisions.filter((index) => index >= first);
      if (visible.length === 0) continue;
      // The revised thought is always drawn, even when older than the window: a revision means little without it.
      let rootId: string;
      if (chain.root === undefined) {
        rootId = danglingNodeId(chain.missingRoot);
        nodes.push(`  ${rootId}(["${mermaidLabel(danglingLabel(chain.missingRoot))}"])`);
        danglingIds.push(rootId);
      } else {
        rootId = thoughtNodeId(thoughts[chain.root]);
        nodes.push(`  ${rootId}["${label(chain.root, excerptLength)}"]`);
      }
      let previousId = rootId;
      let hidden = chain.revisions.length - visible.length;
      for (const index of visible) {
        const id = thoughtNodeId(thoughts[index]);
        nodes.push(`  ${id}["${label(index, excerptLength)}"]`);
        revisionIds.push(id);
        const note = hidden > 0 ? `|"${mermaidLabel(`${hidden} earlier revision${hidden === 1 ? '' : 's'} not shown`)}"|` : '';
        edges.push(`  ${previousId} -->${note} ${id}`);
        hidden = 0;
        previousId = id;
      }
    }
    if (nodes.length === 0) nodes.push(`  empty["${first > 0 ? 'No revisions among the most recent thoughts' : 'No revisions yet'}"]`);
    appendAll(lines, nodes);
    appendAll(lines, edges);
    if (revisionIds.length > 0) lines.push('  classDef revision stroke-dasharray: 5 3', `  class ${revisionIds.join(',')} revision`);
    if (danglingIds.length > 0) lines.push('  classDef dangling stroke-dasharray: 2 4', `  class ${danglingIds.join(',')} dangling`);
    return { text: lines.join('\n'), edges: edges.length };
  };

  // Each revision in the window brings exactly one edge (from the previous member of its chain).
  const isRevision = new Array<boolean>(thoughts.length).fill(false);
  for (const chain of chains) for (const index of chain.revisions) isRevision[index] = true;
  const countWithinEdges = (edgeLimit: number): number => {
    let edges = 0;
    let count = 0;
    for (let index = thoughts.length - 1; index >= 0; index--) {
      if (isRevision[index]) edges++;
      if (edges > edgeLimit) break;
      count++;
    }
    return count;
  };

  return fitDiagram(thoughts.length, options, DEFAULT_EXCERPT, build, countWithinEdges);
}
