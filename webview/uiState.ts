// What the explorer remembers across hide/show (the webview is destroyed when hidden: no retainContextWhenHidden) and
// across a window reload (VS Code hands the same state to the panel serializer and to the sidebar view's resolver,
// which read `sessionId` and `mode`: src/extension/explorer/panelState.ts). Saved state comes back untrusted: every
// field is checked here before use.
import { DIAGRAM_KINDS, type DiagramKind, isDiagramKind } from '../src/engine/browserSafe/diagramKinds';
import { type ExplorerMode } from '../src/shared/protocol';
import { restoreExpanded, type ExpandedNodes } from './diagramFolding';

export interface UiState {
  activeTab: DiagramKind;
  /** The Insights tab is on screen (activeTab keeps the diagram tab to go back to). */
  insightsShown?: boolean;
  /** Diagrams the person asked to show whole instead of the recent window. */
  showAll: DiagramKind[];
  /** Folded nodes the person opened, per thought diagram (diagramFolding.ts). */
  expanded?: ExpandedNodes;
  sessionId?: string;
  selectedSeq?: number;
  replayPosition?: number;
  replaySpeed?: number;
  /** How the host connected this webview last (live, pinned, replay): a revived panel reconnects the same way. */
  mode?: ExplorerMode;
  /**
   * Hook for the diagram navigation's view state (zoom and pan per tab): whatever its `get()` returns, handed back to
   * its `restore()`, which validates it. Saved and restored as is until that module lands.
   */
  navigation?: Record<string, unknown>;
}

export function restoreUiState(saved: Partial<UiState> | undefined): UiState {
  const state: UiState = { activeTab: 'stageGraph', showAll: [] };
  if (!saved) return state;
  if (isDiagramKind(saved.activeTab)) state.activeTab = saved.activeTab;
  if (saved.insightsShown === true) state.insightsShown = true;
  if (Array.isArray(saved.showAll)) state.showAll = saved.showAll.filter(isDiagramKind);
  if (saved.expanded !== undefined) state.expanded = restoreExpanded(saved.expanded);
  if (typeof saved.sessionId === 'string') state.sessionId = saved.sessionId;
  if (typeof saved.selectedSeq === 'number' && Number.isInteger(saved.selectedSeq) && saved.selectedSeq >= 0)
    state.selectedSeq = saved.selectedSeq;
  if (typeof saved.replayPosition === 'number' && saved.replayPosition >= 0) state.replayPosition = saved.replayPosition;
  if (typeof saved.replaySpeed === 'number') state.replaySpeed = saved.replaySpeed;
  if (saved.mode === 'live' || saved.mode === 'pinned' || saved.mode === 'replay') state.mode = saved.mode;
  if (typeof saved.navigation === 'object' && saved.navigation !== null && !Array.isArray(saved.navigation))
    state.navigation = saved.navigation;
  return state;
}

export function tabIndex(kind: DiagramKind): number {
  return DIAGRAM_KINDS.indexOf(kind);
}
