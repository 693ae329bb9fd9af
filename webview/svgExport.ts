// SVG for exports: the diagram on screen as a file (the header's "Export SVG" button), and SVGs (folded to the node budget) of
// every diagram for the host's HTML/Markdown export, rendered off-screen so the views on screen are left alone.
import { DIAGRAM_KINDS, type DiagramKind } from '../src/engine/browserSafe/diagramKinds';
import type { SessionSnapshot } from '../src/engine/model';
import { type RenderedSvgs, type StrategyView } from '../src/shared/protocol';
import type { DiagramView } from './diagramView';
import { DIAGRAM_TITLES } from './explorerLayout';
import type { StageGraphView } from './stageGraphView';
import { fullThoughtDiagram } from './thoughtDiagrams';
import { errorMessage } from '../src/engine/browserSafe/errorMessage';

/** The drawn SVG as standalone text, without the on-screen selection and search marks or the keyboard's tab stops. */
export function serializeDiagram(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone
    .querySelectorAll('.selected-node, .search-hit')
    .forEach((node) => node.classList.remove('selected-node', 'search-hit', 'search-current'));
  clone.querySelectorAll('[tabindex]').forEach((node) => node.removeAttribute('tabindex'));
  return new XMLSerializer().serializeToString(clone);
}

/** The session's whole diagrams; a diagram that fails is left out and named in `errors`. */
export async function renderExportSvgs(
  snapshot: SessionSnapshot,
  strategy: StrategyView | undefined,
  views: Record<DiagramKind, DiagramView>,
  stageGraph: StageGraphView,
  /** The node budget the thought diagrams fold to (the explorer's setting). */
  nodeBudget?: number,
): Promise<{ svgs: RenderedSvgs; errors: string[] }> {
  const svgs: RenderedSvgs = {};
  const errors: string[] = [];
  const source = (kind: DiagramKind): string =>
    kind === 'stageGraph' ? stageGraph.sourceFor(snapshot, strategy) : fullThoughtDiagram(kind, snapshot, nodeBudget);
  for (const kind of DIAGRAM_KINDS) {
    try {
      svgs[kind] = await views[kind].renderDetached(source(kind));
    } catch (error) {
      errors.push(`${DIAGRAM_TITLES[kind]}: ${errorMessage(error)}`);
    }
  }
  return { svgs, errors };
}
