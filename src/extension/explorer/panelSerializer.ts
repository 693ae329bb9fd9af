// Explorer and replay panels survive a window reload: VS Code keeps each open panel's view type and the state its
// webview saved (`setState`), and after the reload hands both to the serializer registered for that view type, which
// reconnects the panel to the engine on the session it showed. The webview restores its own tab, selection and zoom
// from the same state. VS Code only revives a panel if the extension activates for it, which is why package.json
// lists `onWebviewPanel:<viewType>` for these two view types (no contribution point implies that event).
import * as vscode from 'vscode';
import { parseRestoredState, type RestoredExplorerState } from './panelState';

export const EXPLORER_PANEL_VIEW_TYPE = 'thoughtExplorer.explorerPanel';
export const REPLAY_PANEL_VIEW_TYPE = 'thoughtExplorer.replayPanel';

/** What the explorer does with a panel VS Code revived. */
export interface RestorablePanels {
  restorePanel(panel: vscode.WebviewPanel, state: RestoredExplorerState): void;
  restoreReplay(panel: vscode.WebviewPanel, state: RestoredExplorerState): void;
}

export function registerPanelSerializers(panels: RestorablePanels): vscode.Disposable[] {
  return [
    vscode.window.registerWebviewPanelSerializer(EXPLORER_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => panels.restorePanel(panel, parseRestoredState(state)),
    }),
    vscode.window.registerWebviewPanelSerializer(REPLAY_PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => panels.restoreReplay(panel, parseRestoredState(state)),
    }),
  ];
}
