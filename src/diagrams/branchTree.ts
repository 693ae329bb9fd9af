// The branch tree diagram source: the main line and every branch from its fork point, as a Mermaid flowchart.
// A flowchart rather than a gitGraph because its node ids are ours (`t<seq>`, which the explorer maps back to thought
// cards on click) and its labels decode Mermaid entity codes, so one escaping (mermaidLabel) serves every diagram;
// the extra render cost is handled by the window (see diagramWindow.ts).
import { FEEDBACK_CLASS, feedbackBySeq } from './feedbackMarks';
import type { SessionSnapshot } from '../engine/model';
import { fitDiagram, type DiagramBuild, type DiagramSource, type DiagramWindowOptions } from './diagramWindow';
import { mermaidLabel } from './mermaidText';
import { cachedThoughtLabels } from './thoughtLabel';
import { danglingLabel, danglingNodeId, resolveLinks, thoughtNodeId } from './thoughtLinks';

/** Node id of the placeholder that stands for the thoughts left out of a windowed tree. */
export const EARLIER_NODE_ID = 'earlier';

const DEFAULT_EXCERPT = 48;

/** The branch tree as Mermaid text, windowed and shrunk to stay within Mermaid's limits. */
export function branchTreeSource(snapshot: SessionSnapshot, options: DiagramWindowOptions = {}): DiagramSource {
  const thoughts = snapshot.thoughts;
  const links = resolveLinks(thoughts);
  const direction = options.direction ?? 'LR';
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
    lines.push(...edges);
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
