// The diagrams room: the three drawings of a session (the stage graph in Mermaid, the branch tree and the revision
// chain as rows of the thought graph, the word diff under the revision chain), their zoom, pan and keyboard, the
// theme's colours they are drawn in, their SVG exports, and the policy that says what each change redraws. What the
// rest of the explorer uses of it; exportRender.ts is a bundle of its own (the script inlined into an HTML export).
export { stageGraphDefinition } from './deliberationGraph';
export {
  followAction,
  GrownThoughtGraph,
  redrawFor,
  revealsSelection,
  thoughtDrawingInput,
  type DiagramChange,
  type SelectSource,
} from './diagramPolicy';
export { DiagramView } from './diagramView';
export { configureMermaid } from './mermaidSetup';
export { RevisionDiffView } from './revisionDiffView';
export { StageGraphView } from './stageGraphView';
export { renderExportSvgs, serializeDiagram } from './svgExport';
export { nodesById } from './svgNodes';
export { currentThemeKind, watchTheme } from './theme';
export { ThoughtGraphView, type CollapsedBranches } from './thoughtGraphView';
export { restoreTransform, type ViewTransform } from './viewTransform';
