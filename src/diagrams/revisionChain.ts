// The revision chain diagram source: each revised thought followed by its revisions in order (thought → rev 1 →
// rev 2 …), as a Mermaid flowchart with one row per chain. A revision of a revision continues the chain of the
// thought it ultimately revises, so each chain tells the whole story of one idea.
import type { SessionSnapshot } from '../engine/model';
import { fitDiagram, type DiagramBuild, type DiagramSource, type DiagramWindowOptions } from './diagramWindow';
import { mermaidLabel } from './mermaidText';
import { cachedThoughtLabels } from './thoughtLabel';
import { danglingLabel, danglingNodeId, resolveLinks, thoughtNodeId } from './thoughtLinks';

const DEFAULT_EXCERPT = 60;

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

/** The revision chains as Mermaid text; the window keeps chains with a revision among the most recent thoughts. */
export function revisionChainSource(snapshot: SessionSnapshot, options: DiagramWindowOptions = {}): DiagramSource {
  const thoughts = snapshot.thoughts;
  const chains = revisionChains(snapshot);
  const direction = options.direction ?? 'LR';
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
    lines.push(...nodes, ...edges);
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
