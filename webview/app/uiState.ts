// What the explorer remembers across hide/show (the webview is destroyed when hidden: no retainContextWhenHidden) and
// across a window reload (VS Code hands the same state to the panel serializer and to the sidebar view's resolver,
// which read `sessionId` and `mode`: src/extension/explorer/panelState.ts). Saved state comes back untrusted: every
// field is checked here before use.
import { DIAGRAM_KINDS, type DiagramKind, isDiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import { type ExplorerMode } from '../../src/shared/protocol';

export interface UiState {
  activeTab: DiagramKind;
  /** The Insights tab is on screen (activeTab keeps the diagram tab to go back to). */
  insightsShown?: boolean;
  sessionId?: string;
  selectedSeq?: number;
  replayPosition?: number;
  replaySpeed?: number;
  /** How the host connected this webview last (live, pinned, replay): a revived panel reconnects the same way. */
  mode?: ExplorerMode;
  /**
   * The diagrams' navigation state (navigationState.ts: the stage graph's zoom and pan, the thought drawings' scroll,
   * the keyboard's node per tab, the search), validated when it is restored.
   */
  navigation?: Record<string, unknown>;
}

export function restoreUiState(saved: Partial<UiState> | undefined): UiState {
  const state: UiState = { activeTab: 'stageGraph' };
  if (!saved) return state;
  if (isDiagramKind(saved.activeTab)) state.activeTab = saved.activeTab;
  if (saved.insightsShown === true) state.insightsShown = true;
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
