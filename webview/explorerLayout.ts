// The explorer page's structure: header, replay bar, empty state, the three diagrams in tabs (with their "Show all"
// notes and the word diff under the revision chain) and the thought cards. Builds the elements once and hands back the
// parts the app drives; what happens on a click is the app's business (passed in as callbacks).
import { DIAGRAM_KINDS, type DiagramKind } from '../src/engine/browserSafe/diagramKinds';
import { DiagramView } from './diagramView';
import { ExplorerHeader } from './header';
import { InsightsView } from './insightsView';
import type { InsightsRequestFilter } from '../src/shared/insightsView';
import { ReplayController, type ReplaySnapshot } from './replayController';
import { RevisionDiffView } from './revisionDiffView';
import { StageGraphView } from './stageGraphView';
import { ThoughtCards } from './thoughtCards';
import { tabIndex } from './uiState';

export const DIAGRAM_TITLES: Record<DiagramKind, string> = {
  stageGraph: 'Stage graph',
  branchTree: 'Branch tree',
  revisionChain: 'Revision chain',
};

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
  onRendered: (kind: DiagramKind, svg: SVGSVGElement) => void;
  /** The person opened the Insights tab. */
  onSelectInsights: () => void;
  onRenderFailed: (kind: DiagramKind, message: string) => void;
  onNodeClick: (nodeId: string) => void;
  /** A diagram node's spoken label (webview/nodeLabels.ts). */
  describeNode?: (nodeId: string) => string | undefined;
  onViewChange?: () => void;
  /** The person zoomed or panned a diagram. */
  onUserViewChange?: () => void;
  onToggleShowAll: (kind: DiagramKind) => void;
  onSelectCard: (seq: number) => void;
  onCardsWindowMoved?: () => void;
  onSelectTab: (kind: DiagramKind) => void;
  onRequestInsights: (filter: InsightsRequestFilter, requestId: string) => void;
}

export interface ExplorerLayout {
  header: ExplorerHeader;
  replay: ReplayController;
  views: Record<DiagramKind, DiagramView>;
  stageGraph: StageGraphView;
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
  const views = diagramViews(callbacks);
  const stageGraph = new StageGraphView(views.stageGraph);
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
    panel.append(views[kind].element);
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

  for (const kind of DIAGRAM_KINDS) views[kind].setVisible(!insightsShown && kind === activeTab);
  return { header, replay, views, stageGraph, diff, cards, insights, cardsColumn, empty, body };
}

/**
 * The button under a thought diagram: "Expand all" while it is folded to the budget, "Fold" once the person opened
 * anything (a folded node, or everything). A diagram shown whole keeps its natural size and scrolls.
 */
export function setShowAllButton(view: DiagramView, showAll: boolean, opened = showAll): void {
  const button = view.noteElement.querySelector<HTMLElement>('.show-all');
  if (button) {
    button.textContent = opened ? 'Fold' : 'Expand all';
    button.setAttribute('icon', opened ? 'fold' : 'unfold');
  }
  view.element.classList.toggle('natural-size', showAll);
}

function diagramViews(callbacks: LayoutCallbacks): Record<DiagramKind, DiagramView> {
  const entries = DIAGRAM_KINDS.map((kind): [DiagramKind, DiagramView] => {
    const view = new DiagramView({
      kind,
      title: DIAGRAM_TITLES[kind],
      onRendered: (_view, svg) => callbacks.onRendered(kind, svg),
      onFailed: (_view, message) => callbacks.onRenderFailed(kind, message),
      onNodeClick: callbacks.onNodeClick,
      describeNode: callbacks.describeNode,
      onViewChange: callbacks.onViewChange,
      onUserViewChange: callbacks.onUserViewChange,
    });
    const note = view.noteElement;
    const text = document.createElement('span');
    text.className = 'diagram-note-text';
    const toggle = document.createElement('vscode-button');
    toggle.setAttribute('secondary', '');
    toggle.className = 'show-all';
    toggle.dataset.diagram = kind;
    toggle.addEventListener('click', () => callbacks.onToggleShowAll(kind));
    note.append(text, toggle);
    note.hidden = true;
    return [kind, view];
  });
  return Object.fromEntries(entries) as Record<DiagramKind, DiagramView>;
}
