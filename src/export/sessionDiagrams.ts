// The diagrams every export draws for a session, in the order they are shown, with stable keys the HTML export and
// the editor's pre-rendered SVGs agree on.
import { DIAGRAM_TITLES, type DiagramKind } from '../engine/browserSafe/diagramKinds';
import type { SessionSnapshot } from '../engine/model';
import { branchTreeSource } from '../diagrams/branchTree';
import { revisionChainSource } from '../diagrams/revisionChain';
import { stageGraphSource } from '../diagrams/stageGraph';
import type { DiagramSource, DiagramWindowOptions } from '../diagrams/diagramWindow';
import { findStrategy } from '../engine/strategies/catalog';

export interface SessionDiagram {
  key: DiagramKind;
  title: string;
  source: DiagramSource;
}

/** `colours: 'scheme'` leaves the stage graph's colours to the page (the HTML export); Markdown keeps them fixed. */
export function sessionDiagrams(
  snapshot: SessionSnapshot,
  window: DiagramWindowOptions = {},
  colours: 'fixed' | 'scheme' = 'fixed',
): SessionDiagram[] {
  const total = snapshot.thoughts.length;
  return [
    // The stage graph draws the strategy, not the thoughts: its size is fixed by the strategy, never windowed.
    {
      key: 'stageGraph',
      title: DIAGRAM_TITLES.stageGraph,
      source: {
        text: stageGraphSource(snapshot, findStrategy(snapshot.meta.strategy), colours).trimEnd(),
        truncated: false,
        shown: total,
        total,
      },
    },
    // Top to bottom in documents: a long main line reads down the page, branches step aside.
    { key: 'branchTree', title: DIAGRAM_TITLES.branchTree, source: branchTreeSource(snapshot, { direction: 'TB', ...window }) },
    { key: 'revisionChain', title: DIAGRAM_TITLES.revisionChain, source: revisionChainSource(snapshot, window) },
  ];
}

/**
 * What a diagram leaves out, for the reader: "Showing the most recent 200 of 1000 thoughts." when windowed, or how it
 * was folded to its node budget (every thought is still listed in the document).
 */
export function windowNote(source: DiagramSource): string | undefined {
  if (source.truncated) return `Showing the most recent ${source.shown} of ${source.total} thoughts.`;
  if ((source.foldedNodes ?? 0) > 0)
    return `Folded to ${source.nodes} nodes: runs of thoughts, whole branches and older stretches are drawn as one node each.`;
  return undefined;
}
