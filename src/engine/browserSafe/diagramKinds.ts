// The diagrams drawn of a session, by one name each: the explorer's tabs, the SVGs it renders for exports, and the
// diagrams every export draws.
export const DIAGRAM_KINDS = ['stageGraph', 'branchTree', 'revisionChain'] as const;
export type DiagramKind = (typeof DIAGRAM_KINDS)[number];

/** Each diagram's title, wherever it is named: the explorer's tabs and panes, exported SVGs, the HTML and Markdown exports. */
export const DIAGRAM_TITLES: Record<DiagramKind, string> = {
  stageGraph: 'Stage graph',
  branchTree: 'Branch tree',
  revisionChain: 'Revision chain',
};

/** The diagrams drawn from the thoughts (the stage graph draws the strategy): windowed and folded as a session grows. */
export const THOUGHT_DIAGRAM_KINDS = ['branchTree', 'revisionChain'] as const satisfies readonly DiagramKind[];
export type ThoughtDiagramKind = (typeof THOUGHT_DIAGRAM_KINDS)[number];

export function isDiagramKind(value: unknown): value is DiagramKind {
  return typeof value === 'string' && (DIAGRAM_KINDS as readonly string[]).includes(value);
}

export function isThoughtDiagram(kind: string): kind is ThoughtDiagramKind {
  return (THOUGHT_DIAGRAM_KINDS as readonly string[]).includes(kind);
}
