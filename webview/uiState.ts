// What the explorer remembers across hide/show (the webview is destroyed when hidden: no retainContextWhenHidden).
import { DIAGRAM_KINDS, isDiagramKind, type DiagramKind } from '../src/shared/protocol';
import { restoreExpanded, type ExpandedNodes } from './diagramFolding';

export interface UiState {
  activeTab: DiagramKind;
  /** Diagrams the person asked to show whole instead of the recent window. */
  showAll: DiagramKind[];
  /** Folded nodes the person opened, per thought diagram (diagramFolding.ts). */
  expanded?: ExpandedNodes;
  sessionId?: string;
  selectedSeq?: number;
  replayPosition?: number;
  replaySpeed?: number;
}

export function restoreUiState(saved: Partial<UiState> | undefined): UiState {
  const state: UiState = { activeTab: 'stageGraph', showAll: [] };
  if (!saved) return state;
  if (isDiagramKind(saved.activeTab)) state.activeTab = saved.activeTab;
  if (Array.isArray(saved.showAll)) state.showAll = saved.showAll.filter(isDiagramKind);
  if (saved.expanded !== undefined) state.expanded = restoreExpanded(saved.expanded);
  if (typeof saved.sessionId === 'string') state.sessionId = saved.sessionId;
  if (typeof saved.selectedSeq === 'number' && Number.isInteger(saved.selectedSeq) && saved.selectedSeq >= 0)
    state.selectedSeq = saved.selectedSeq;
  if (typeof saved.replayPosition === 'number' && saved.replayPosition >= 0) state.replayPosition = saved.replayPosition;
  if (typeof saved.replaySpeed === 'number') state.replaySpeed = saved.replaySpeed;
  return state;
}

export function tabIndex(kind: DiagramKind): number {
  return DIAGRAM_KINDS.indexOf(kind);
}
