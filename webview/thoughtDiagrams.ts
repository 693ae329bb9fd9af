// The Mermaid text of the two thought diagrams on screen (branch tree, revision chain): how much of the session the
// live view draws, how long its labels are, and the note that says what was left out. Pure: no DOM, no state.
import { branchTreeSource } from '../src/diagrams/branchTree';
import type { DiagramSource } from '../src/diagrams/diagramWindow';
import { revisionChainSource } from '../src/diagrams/revisionChain';
import type { SessionSnapshot } from '../src/engine/model';
import { MAX_EDGES, MAX_TEXT_SIZE } from './mermaidSetup';

/**
 * Thoughts drawn live in the branch tree. Mermaid's flowchart cost grows about linearly with nodes and label text
 * (≈10 ms a node on a 2-core machine without GPU), so a small window with short labels keeps a live redraw within
 * the 100 ms budget (bench/webviewRender.ts); "Show all" draws the whole session with longer labels on request.
 */
export const LIVE_BRANCH_WINDOW = 5;
/** Characters of thought text in a live node label; the card beside it shows the whole text. */
export const LIVE_EXCERPT = 28;
/** Revision chains whose latest revision is among this many recent thoughts are drawn live. */
export const LIVE_REVISION_WINDOW = 40;

export type ThoughtDiagramKind = 'branchTree' | 'revisionChain';

export function isThoughtDiagram(kind: string): kind is ThoughtDiagramKind {
  return kind === 'branchTree' || kind === 'revisionChain';
}

/** The diagram as drawn in the explorer: the live window, or the whole session when the person asked for all. */
export function liveThoughtDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, showAll: boolean): { text: string; note: string } {
  const maxThoughts = showAll ? undefined : kind === 'branchTree' ? LIVE_BRANCH_WINDOW : LIVE_REVISION_WINDOW;
  const excerptLength = showAll ? undefined : LIVE_EXCERPT;
  const source = thoughtDiagramSource(kind, snapshot, { maxThoughts, excerptLength });
  let note = '';
  if (source.truncated) {
    const what =
      kind === 'branchTree'
        ? `Last ${source.shown} of ${source.total} thoughts`
        : `Revisions among the last ${source.shown} of ${source.total} thoughts`;
    // "Show all" that still had to leave thoughts out says why, instead of silently drawing less.
    note = showAll ? `${what} (the most Mermaid can draw)` : what;
  } else if (showAll) {
    note = `All ${source.total} thoughts`;
  }
  return { text: source.text, note };
}

/** The whole diagram (as much as Mermaid can draw), for exports. */
export function fullThoughtDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot): string {
  return thoughtDiagramSource(kind, snapshot, {}).text;
}

function thoughtDiagramSource(
  kind: ThoughtDiagramKind,
  snapshot: SessionSnapshot,
  window: { maxThoughts?: number; excerptLength?: number },
): DiagramSource {
  // The tree grows downwards (a sidebar is tall and narrow); each revision chain reads as one row.
  const options = { ...window, maxTextSize: MAX_TEXT_SIZE, maxEdges: MAX_EDGES };
  return kind === 'branchTree'
    ? branchTreeSource(snapshot, { ...options, direction: 'TB' })
    : revisionChainSource(snapshot, { ...options, direction: 'LR' });
}
