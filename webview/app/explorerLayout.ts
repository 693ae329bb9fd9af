// The explorer page's structure: header, replay bar, empty state, the three diagrams in tabs (with their "Show all"
// notes and the word diff under the revision chain) and the thought cards. Builds the elements once and hands back the
// parts the app drives; what happens on a click is the app's business (passed in as callbacks).
import { DIAGRAM_KINDS, DIAGRAM_TITLES, type DiagramKind, type ThoughtDiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import { DiagramView, RevisionDiffView, StageGraphView, ThoughtGraphView } from '../diagrams';
import { ExplorerHeader } from '../header';
import { InsightsView } from '../insights';
import type { InsightsRequestFilter } from '../../src/shared/insightsView';
import { ReplayController, type ReplaySnapshot } from '../replay';
import { ThoughtCards } from '../cards';
import { tabIndex } from './uiState';

/** Tab labels: short, so all three fit a narrow sidebar. */
const TAB_LABELS: Record<DiagramKind, string> = {
  stageGraph: 'Stages',
  branchTree: 'Branches',
  revisionChain: 'Revisions',
};

const EMPTY_TEXT =
  'No thinking session to show yet. Ask your agent to "think step by step with sequentialthinking", or pick a session in the Sessions view.';

export interface LayoutCallbacks {
  /** Absent in the editor panel (it is the panel). */
  onOpenInPanel?: () => void;
  onExportSvg: () => void;
  onReplaySeek: (position: number) => void;
  onReplayChange: (state: ReplaySnapshot) => void;
  /** The stage graph was drawn. */
  onRendered: (svg: SVGSVGElement) => void;
  /** The person opened the Insights tab. */
  onSelectInsights: () => void;
  onRenderFailed: (kind: DiagramKind, message: string) => void;
  /** A stage-graph node was clicked or activated. */
  onNodeClick: (nodeId: string) => void;
  /** A thought's row was clicked or activated in the branch tree or the revision links. */
  onSelectRow: (seq: number) => void;
  /** "Copy as Mermaid" under a thought diagram. */
  onCopyMermaid: (kind: ThoughtDiagramKind) => void;
  onViewChange?: () => void;
  /** The person zoomed, panned or scrolled a diagram. */
  onUserViewChange?: () => void;
  onSelectCard: (seq: number) => void;
  onCardsWindowMoved?: () => void;
  onSelectTab: (kind: DiagramKind) => void;
  onRequestInsights: (filter: InsightsRequestFilter, requestId: string) => void;
}

export interface ExplorerLayout {
  header: ExplorerHeader;
  replay: ReplayController;
  /** The stage graph's Mermaid drawing. */
  stageView: DiagramView;
  stageGraph: StageGraphView;
  /** The thoughts' own drawing, in the branch tree's tab and (revision links picked out) the revision tab. */
  graphs: Record<ThoughtDiagramKind, ThoughtGraphView>;
  diff: RevisionDiffView;
  cards: ThoughtCards;
  /** The Insights tab, after the diagram tabs. */
  insights: InsightsView;
  /** The cards' own scroll area (in the wide panel; in the sidebar the page scrolls). */
  cardsColumn: HTMLElement;
  empty: HTMLElement;
  body: HTMLElement;
}

/** Builds the page inside `root` with `activeTab` selected, or the Insights tab when `insightsShown`. */
export function buildLayout(root: HTMLElement, activeTab: DiagramKind, callbacks: LayoutCallbacks, insightsShown = false): ExplorerLayout {
  const header = new ExplorerHeader({ onOpenInPanel: callbacks.onOpenInPanel, onExportSvg: callbacks.onExportSvg });
  const replay = new ReplayController({ onSeek: callbacks.onReplaySeek, onChange: callbacks.onReplayChange });
  const stageView = new DiagramView({
    kind: 'stageGraph',
    title: DIAGRAM_TITLES.stageGraph,
    onRendered: (_view, svg) => callbacks.onRendered(svg),
    onFailed: (_view, message) => callbacks.onRenderFailed('stageGraph', message),
    onNodeClick: callbacks.onNodeClick,
    onViewChange: callbacks.onViewChange,
    onUserViewChange: callbacks.onUserViewChange,
  });
  const stageGraph = new StageGraphView(stageView);
  const graphs = thoughtGraphViews(callbacks);
  const elements: Record<DiagramKind, HTMLElement> = {
    stageGraph: stageView.element,
    branchTree: graphs.branchTree.element,
    revisionChain: graphs.revisionChain.element,
  };
  const diff = new RevisionDiffView();
  const cards = new ThoughtCards({ onSelect: callbacks.onSelectCard, onWindowMoved: callbacks.onCardsWindowMoved });

  const tabs = document.createElement('vscode-tabs');
  tabs.className = 'diagram-tabs';
  for (const kind of DIAGRAM_KINDS) {
    const tabHeader = document.createElement('vscode-tab-header');
    tabHeader.setAttribute('slot', 'header');
    tabHeader.dataset.diagram = kind;
    tabHeader.textContent = TAB_LABELS[kind];
    tabHeader.title = DIAGRAM_TITLES[kind];
    const panel = document.createElement('vscode-tab-panel');
    panel.dataset.diagram = kind;
    panel.append(elements[kind]);
    if (kind === 'revisionChain') panel.append(diff.element);
    tabs.append(tabHeader, panel);
  }
  const insights = new InsightsView(callbacks.onRequestInsights);
  insights.attachTo(tabs, insightsShown);
  // The Insights tab comes after the diagram tabs.
  tabs.setAttribute('selected-index', String(insightsShown ? DIAGRAM_KINDS.length : tabIndex(activeTab)));
  tabs.addEventListener('vsc-tabs-select', (event) => {
    const detail = (event as CustomEvent<{ selectedIndex: number }>).detail;
    const kind = DIAGRAM_KINDS[detail.selectedIndex];
    if (kind) callbacks.onSelectTab(kind);
    else callbacks.onSelectInsights();
  });

  const empty = document.createElement('div');
  empty.className = 'empty-state';
  const emptyText = document.createElement('p');
  emptyText.textContent = EMPTY_TEXT;
  empty.append(emptyText);

  const diagramsColumn = document.createElement('div');
  diagramsColumn.className = 'diagrams-column';
  diagramsColumn.append(tabs);
  const cardsColumn = document.createElement('div');
  cardsColumn.className = 'cards-column';
  cardsColumn.append(cards.element);
  const body = document.createElement('main');
  body.className = 'explorer-body';
  body.append(diagramsColumn, cardsColumn);
  root.append(header.element, replay.element, empty, body);

  stageView.setVisible(!insightsShown && activeTab === 'stageGraph');
  for (const kind of ['branchTree', 'revisionChain'] as const) graphs[kind].setVisible(!insightsShown && kind === activeTab);
  return { header, replay, stageView, stageGraph, graphs, diff, cards, insights, cardsColumn, empty, body };
}

function thoughtGraphViews(callbacks: LayoutCallbacks): Record<ThoughtDiagramKind, ThoughtGraphView> {
  const view = (kind: ThoughtDiagramKind): ThoughtGraphView =>
    new ThoughtGraphView({
      kind,
      title: DIAGRAM_TITLES[kind],
      onSelect: callbacks.onSelectRow,
      onUserScroll: () => callbacks.onUserViewChange?.(),
      onViewChange: () => callbacks.onViewChange?.(),
      onCopyMermaid: () => callbacks.onCopyMermaid(kind),
    });
  return { branchTree: view('branchTree'), revisionChain: view('revisionChain') };
}
