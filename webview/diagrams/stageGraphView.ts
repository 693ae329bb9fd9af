// The live stage graph. Drawn by Mermaid once per strategy (and theme); after that each thought only moves classes
// (`visited`, `current`, `unvisited`, `taken`) and updates transition-count badges on the drawn SVG, which takes a
// millisecond where a re-render takes a hundred or more. The strategy's stages and transitions come from the host
// (the protocol's StrategyView): the webview bundles no strategy catalog.
import {
  STAGE_CLASSES,
  edgeKey,
  stageCountLabel,
  stageEdgeId,
  stageGraphSource,
  stageNodeId,
  strategyGraphSource,
  type StageGraphState,
} from '../../src/diagrams/stageGraph';
import type { SessionSnapshot } from '../../src/engine/model';
import type { StrategyView } from '../../src/shared/protocol';
import type { DiagramView } from './diagramView';
import { definitionKey, stageGraphStateFor } from './deliberationGraph';
import { nodesById } from './svgNodes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STATE_CLASSES = Object.values(STAGE_CLASSES);

export class StageGraphView {
  /** The strategy the SVG on screen was drawn for. */
  private drawnStrategy: string | undefined;
  private requestedStrategy: string | undefined;
  private latest: SessionSnapshot | undefined;
  /** The host's definition of the latest snapshot's strategy; undefined for a strategy the host does not know. */
  private latestStrategy: StrategyView | undefined;
  /** Stage name of each node id in the drawn graph, for clicks. */
  private readonly stageByNodeId = new Map<string, string>();
  updates = 0;

  constructor(private readonly view: DiagramView) {}

  /**
   * Brings the graph up to date with `snapshot`, whose strategy (`snapshot.meta.strategy`) the host described as
   * `definition`: a render only when the strategy changed, else class changes.
   */
  update(snapshot: SessionSnapshot, definition: StrategyView | undefined): void {
    this.latest = snapshot;
    this.latestStrategy = definition;
    // Keyed on the definition too: a deliberation's graph grows with the stages it takes (see deliberationGraph.ts).
    const strategy = `${snapshot.meta.strategy}|${definitionKey(definition)}`;
    if (strategy !== this.requestedStrategy) {
      this.requestedStrategy = strategy;
      // Drawn plain (no classDef colours: Mermaid would inline them and they could never change again) with room for
      // each stage's thought count; visits, the current stage and counts are then classes, labels and badges moved by
      // applyState.
      const text = definition ? strategyGraphSource(definition, { reserveCounts: true }) : stageGraphSource(snapshot, undefined);
      this.view.request({ source: () => ({ text, note: '' }) });
      return;
    }
    const svg = this.view.svg;
    if (svg && this.drawnStrategy === strategy) this.applyState(svg, stageGraphStateFor(snapshot));
  }

  /** The theme changed: the next update re-renders. */
  invalidate(): void {
    this.requestedStrategy = undefined;
    this.drawnStrategy = undefined;
  }

  /** Called by the diagram view after a new SVG is on screen. */
  afterRender(svg: SVGSVGElement): void {
    this.drawnStrategy = this.requestedStrategy;
    this.stageByNodeId.clear();
    const snapshot = this.latest;
    if (!snapshot) return;
    for (const stage of this.latestStrategy?.stages ?? []) this.stageByNodeId.set(stageNodeId(stage.name), stage.name);
    this.applyState(svg, stageGraphStateFor(snapshot));
  }

  /**
   * The full graph with its own labels, for the HTML export: its classes carry no colours (Mermaid would write them
   * inline, out of reach of the page), so the reader's colour scheme colours it like the export's other diagrams.
   */
  sourceFor(snapshot: SessionSnapshot, definition: StrategyView | undefined): string {
    return stageGraphSource(snapshot, definition, 'scheme');
  }

  nodeIdFor(stage: string): string {
    return stageNodeId(stage);
  }

  stageFor(nodeId: string): string | undefined {
    return this.stageByNodeId.get(nodeId);
  }

  private applyState(svg: SVGSVGElement, state: StageGraphState): void {
    this.updates++;
    for (const [id, node] of nodesById(svg)) {
      const stage = this.stageByNodeId.get(id);
      if (stage === undefined) continue;
      const visits = state.visits[stage] ?? 0;
      const name = stage === state.current ? 'current' : visits > 0 ? 'visited' : 'unvisited';
      for (const other of STATE_CLASSES) node.classList.toggle(other, other === name);
      setLabel(node, stageCountLabel(stage, visits));
      node.setAttribute(
        'aria-label',
        `${stage}: ${visits} thought${visits === 1 ? '' : 's'}${name === 'current' ? ', current stage' : ''}`,
      );
    }
    const layer = this.badgeLayer(svg);
    const seen = new Set<string>();
    for (const [key, count] of Object.entries(state.edgeCounts)) {
      const [from, to] = splitEdgeKey(key);
      if (from === undefined || to === undefined || edgeKey(from, to) !== key) continue;
      const edgeId = stageEdgeId(from, to);
      const path = svg.querySelector<SVGPathElement>(`path[data-id="${CSS.escape(edgeId)}"]`);
      if (!path) continue;
      seen.add(edgeId);
      path.classList.add('taken');
      this.setBadge(layer, edgeId, path, count);
    }
    for (const path of svg.querySelectorAll<SVGPathElement>('path.taken[data-id]')) {
      const id = path.getAttribute('data-id') ?? '';
      if (!seen.has(id)) path.classList.remove('taken');
    }
    for (const badge of layer.querySelectorAll<SVGGElement>('g.edge-count')) {
      if (!seen.has(badge.dataset.edge ?? '')) badge.remove();
    }
  }

  private badgeLayer(svg: SVGSVGElement): SVGGElement {
    let layer = svg.querySelector<SVGGElement>('g.edge-counts');
    if (!layer) {
      layer = document.createElementNS(SVG_NS, 'g');
      layer.setAttribute('class', 'edge-counts');
      // Inside Mermaid's root group so the badges share its transform with the paths they sit on.
      (svg.querySelector('g.root') ?? svg).append(layer);
    }
    return layer;
  }

  /** A small "×n" badge at the middle of a transition's path. */
  private setBadge(layer: SVGGElement, edgeId: string, path: SVGPathElement, count: number): void {
    let badge = layer.querySelector<SVGGElement>(`g.edge-count[data-edge="${CSS.escape(edgeId)}"]`);
    if (!badge) {
      badge = document.createElementNS(SVG_NS, 'g');
      badge.setAttribute('class', 'edge-count');
      badge.dataset.edge = edgeId;
      const middle = path.getPointAtLength(path.getTotalLength() / 2);
      badge.setAttribute('transform', `translate(${middle.x.toFixed(1)},${middle.y.toFixed(1)})`);
      const rect = document.createElementNS(SVG_NS, 'rect');
      rect.setAttribute('rx', '6');
      rect.setAttribute('height', '14');
      rect.setAttribute('y', '-7');
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('text-anchor', 'middle');
      text.setAttribute('dominant-baseline', 'central');
      badge.append(rect, text);
      layer.append(badge);
    }
    const text = badge.querySelector('text');
    const rect = badge.querySelector('rect');
    const label = `×${count}`;
    if (text && text.textContent !== label) {
      text.textContent = label;
      const width = 8 + label.length * 7;
      rect?.setAttribute('width', String(width));
      rect?.setAttribute('x', String(-width / 2));
    }
  }
}

/** Rewrites a drawn node's label text in place (Mermaid's HTML label, else its SVG text). */
function setLabel(node: SVGGElement, text: string): void {
  const target = node.querySelector('.nodeLabel p') ?? node.querySelector('.nodeLabel') ?? node.querySelector('text');
  if (target && target.textContent !== text) target.textContent = text;
}

function splitEdgeKey(key: string): [string | undefined, string | undefined] {
  const index = key.indexOf('->');
  return index === -1 ? [undefined, undefined] : [key.slice(0, index), key.slice(index + 2)];
}
