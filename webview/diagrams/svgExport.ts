// SVG for exports: the diagram on screen as a file (the header's "Export SVG" button), and SVGs of every diagram for
// the host's HTML/Markdown export, made off-screen so the views on screen are left alone. The thought diagrams are the
// explorer's own drawing of every row (src/diagrams/thoughtGraphSvg.ts), the stage graph is Mermaid's.
import { sessionThoughtGraphSvg } from '../../src/diagrams/thoughtGraphSvg';
import { DIAGRAM_KINDS, DIAGRAM_TITLES } from '../../src/engine/browserSafe/diagramKinds';
import type { SessionSnapshot } from '../../src/engine/model';
import { type RenderedSvgs, type StrategyView } from '../../src/shared/protocol';
import type { DiagramView } from './diagramView';
import type { StageGraphView } from './stageGraphView';
import { errorMessage } from '../../src/engine/browserSafe/errorMessage';

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
  stageView: DiagramView,
  stageGraph: StageGraphView,
): Promise<{ svgs: RenderedSvgs; errors: string[] }> {
  const svgs: RenderedSvgs = {};
  const errors: string[] = [];
  for (const kind of DIAGRAM_KINDS) {
    try {
      svgs[kind] =
        kind === 'stageGraph'
          ? await stageView.renderDetached(stageGraph.sourceFor(snapshot, strategy))
          : sessionThoughtGraphSvg(snapshot, DIAGRAM_TITLES[kind]);
    } catch (error) {
      errors.push(`${DIAGRAM_TITLES[kind]}: ${errorMessage(error)}`);
    }
  }
  return { svgs, errors };
}
