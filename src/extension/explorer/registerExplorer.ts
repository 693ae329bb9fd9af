// Host side of the explorer: the sidebar webview view (`thoughtExplorer.explorer`), editor panels with the same UI,
// the replay panel (command `thoughtExplorer.replaySession`), and the functions other parts of the extension call
// (show a session, open the panel, pre-rendered SVGs for exports). Registers "Open Explorer" (the panel) and
// "Replay Session…"; the commands' palette entries and menus are declared in package.json by the extension.
import type { DiagramKind } from '../../engine/browserSafe/diagramKinds';
import * as vscode from 'vscode';
import { sessionTitle } from '../../engine/browserSafe/sessionTitle';
import type { RenderedSvgs } from '../../shared/protocol';
import type { ExplorerHandle, ExtensionServices } from '../services';
import { sessionIdFromArgument } from '../sessionPicker';
import { ExplorerConnection, webviewOptions, type ExplorerConnectionStatus, type ExplorerServices } from './explorerConnection';
import { EXPLORER_PANEL_VIEW_TYPE, REPLAY_PANEL_VIEW_TYPE, registerPanelSerializers, type RestorablePanels } from './panelSerializer';
import { parseRestoredState, restoredExplorerTarget, type RestoredExplorerState } from './panelState';
import { shortened } from '../../engine/browserSafe/textCut';

export const EXPLORER_VIEW_ID = 'thoughtExplorer.explorer';
export const REPLAY_COMMAND = 'thoughtExplorer.replaySession';
export const OPEN_EXPLORER_COMMAND = 'thoughtExplorer.openExplorer';
export const OPEN_IN_EDITOR_TAB_COMMAND = 'thoughtExplorer.openInEditorTab';
const PANEL_VIEW_TYPE = EXPLORER_PANEL_VIEW_TYPE;
const REPLAY_VIEW_TYPE = REPLAY_PANEL_VIEW_TYPE;

export interface ExplorerApi extends ExplorerHandle {
  /** Shows a session in the sidebar view (and in the explorer panel when one is open). */
  showSession(sessionId: string): Promise<void>;
  /** Opens (or reveals) the explorer editor panel; with a session id, pinned to that session. */
  openPanel(sessionId?: string): void;
  /** Opens a replay panel for a session; without an id, asks which. */
  replay(sessionId?: string): Promise<void>;
  /** Full SVGs of the three diagrams, rendered by an open explorer; `{}` when none is open or rendering fails. */
  renderedSvgs(sessionId?: string): Promise<RenderedSvgs>;
  /** Every open explorer webview and what it has been sent (diagnostics, in-editor tests). */
  status(): ExplorerConnectionStatus[];
  /** Shows a diagram tab and/or selects a thought in the explorer panel, if one is open and ready. */
  showInPanel(request: { tab?: DiagramKind; seq?: number }): void;
  /** Fires when a thought is selected in any explorer. */
  readonly onDidSelectThought: vscode.Event<{ sessionId: string; seq: number }>;
  /** Fires when an explorer (sidebar view or panel) or a replay opens, however it was opened (walkthrough progress). */
  readonly onDidOpen: vscode.Event<'explorer' | 'replay'>;
}

/** Registers the view provider and the replay command; returns the explorer's API. */
export function registerExplorer(
  context: vscode.ExtensionContext,
  services: ExplorerServices & Pick<ExtensionServices, 'setExplorer' | 'selectedSessionId' | 'onDidSelectSession'>,
): ExplorerApi {
  const explorer = new Explorer(services);
  context.subscriptions.push(
    explorer,
    vscode.window.registerWebviewViewProvider(EXPLORER_VIEW_ID, explorer, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.commands.registerCommand(REPLAY_COMMAND, (argument?: unknown) => explorer.replay(sessionIdFromArgument(argument))),
    // "Open Explorer" opens the larger editor panel: on the session given (tree item) or picked, else the live one;
    // the Sessions tree's "Open in Editor Tab" is the same on its item.
    ...[OPEN_EXPLORER_COMMAND, OPEN_IN_EDITOR_TAB_COMMAND].map((command) =>
      vscode.commands.registerCommand(command, (argument?: unknown) =>
        explorer.openPanel(sessionIdFromArgument(argument) ?? services.selectedSessionId),
      ),
    ),
    services.onDidSelectSession((sessionId) => {
      if (sessionId !== undefined) explorer.showPicked(sessionId);
    }),
    ...registerPanelSerializers(explorer),
  );
  services.setExplorer(explorer);
  context.subscriptions.push({ dispose: () => services.setExplorer(undefined) });
  return explorer;
}

class Explorer implements vscode.WebviewViewProvider, ExplorerApi, RestorablePanels, vscode.Disposable {
  private view: { webviewView: vscode.WebviewView; connection: ExplorerConnection } | undefined;
  private panel: { panel: vscode.WebviewPanel; connection: ExplorerConnection } | undefined;
  private readonly replays = new Set<ExplorerConnection>();
  private readonly selectEmitter = new vscode.EventEmitter<{ sessionId: string; seq: number }>();
  readonly onDidSelectThought = this.selectEmitter.event;
  private readonly openEmitter = new vscode.EventEmitter<'explorer' | 'replay'>();
  readonly onDidOpen = this.openEmitter.event;
  /** The last selection passed from one explorer to the other, so its echo is not passed back. */
  private passedSelection: { sessionId: string; seq: number } | undefined;

  constructor(private readonly services: ExplorerServices & Pick<ExtensionServices, 'selectedSessionId'>) {}

  resolveWebviewView(webviewView: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): void {
    this.view?.connection.dispose();
    // A session picked in the tree wins; else the view goes back to what it showed before (a reload, or the view
    // hidden and shown again), as its webview saved it.
    const picked = this.services.selectedSessionId;
    const target =
      picked === undefined ? restoredExplorerTarget(parseRestoredState(context?.state), (id) => this.sessionExists(id)) : undefined;
    const connection = new ExplorerConnection(webviewView.webview, this.services, {
      surface: 'view',
      mode: target?.mode ?? 'pinned',
      sessionId: picked ?? target?.sessionId,
      onOpenInPanel: (sessionId) => this.openPanel(sessionId),
      onSelectThought: (sessionId, seq) => this.thoughtSelected(connection, sessionId, seq),
    });
    const view = { webviewView, connection };
    this.view = view;
    // A view resolved again (VS Code re-creates it) gets a new page: worth knowing when a page seems stuck.
    this.services.log.debug(`Explorer (view): resolved, on ${picked ?? target?.sessionId ?? 'the live session'}.`);
    this.openEmitter.fire('explorer');
    webviewView.onDidChangeVisibility(() => {
      // Hidden webviews lose their document; the new one says `ready` and gets a fresh snapshot.
      if (!webviewView.visible) connection.markHidden();
    });
    webviewView.onDidDispose(() => {
      connection.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** A session picked in the Sessions tree: pin the sidebar view to it. */
  showPicked(sessionId: string): void {
    if (this.view && this.view.connection.shownSessionId !== sessionId) this.view.connection.show(sessionId);
  }

  async showSession(sessionId: string): Promise<void> {
    if (this.panel) this.panel.connection.show(sessionId);
    if (this.view) {
      this.view.connection.show(sessionId);
      this.view.webviewView.show(true);
      return;
    }
    // The view has never been opened: focusing it resolves it, and it starts on the picked session.
    await vscode.commands.executeCommand(`${EXPLORER_VIEW_ID}.focus`);
    this.resolvedView()?.connection.show(sessionId);
  }

  /** Read through a method: TypeScript cannot know that an awaited command resolved the view meanwhile. */
  private resolvedView(): { webviewView: vscode.WebviewView; connection: ExplorerConnection } | undefined {
    return this.view;
  }

  openPanel(sessionId?: string): void {
    if (this.panel) {
      if (sessionId !== undefined) this.panel.connection.show(sessionId);
      this.panel.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, 'Thought Explorer', vscode.ViewColumn.Active, {
      ...webviewOptions(this.services.extensionUri),
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'explorer-panel.svg');
    const connection = this.connectPanel(panel, sessionId === undefined ? 'live' : 'pinned', sessionId);
    const entry = { panel, connection };
    this.panel = entry;
    this.openEmitter.fire('explorer');
    panel.onDidDispose(() => {
      if (this.panel === entry) this.panel = undefined;
    });
  }

  /** An explorer panel VS Code revived after a reload: reconnected on the session it showed (or live again). */
  restorePanel(panel: vscode.WebviewPanel, state: RestoredExplorerState): void {
    if (this.panel) {
      // Only one explorer panel is kept; a second revived one (never expected) is closed rather than left orphaned.
      panel.dispose();
      return;
    }
    const target = restoredExplorerTarget(state, (id) => this.sessionExists(id));
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'explorer-panel.svg');
    const connection = this.connectPanel(panel, target.mode, target.sessionId);
    const entry = { panel, connection };
    this.panel = entry;
    panel.onDidDispose(() => {
      if (this.panel === entry) this.panel = undefined;
    });
  }

  /** A replay panel VS Code revived: the same session, paused where the webview was (no autoplay from the start). */
  restoreReplay(panel: vscode.WebviewPanel, state: RestoredExplorerState): void {
    const sessionId = state.sessionId;
    if (sessionId === undefined || !this.sessionExists(sessionId)) {
      panel.dispose();
      if (sessionId !== undefined)
        void vscode.window.showInformationMessage(vscode.l10n.t('The replayed session "{0}" no longer exists.', sessionId));
      return;
    }
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'explorer-panel.svg');
    const connection = this.connectPanel(panel, 'replay', sessionId, { autoplay: false });
    this.replays.add(connection);
    panel.onDidDispose(() => this.replays.delete(connection));
  }

  async replay(sessionId?: string): Promise<void> {
    const id = sessionId ?? (await this.pickSession());
    if (id === undefined) return;
    const snapshot = this.services.engine.getSession(id);
    if (!snapshot) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Session "{0}" was not found; it may have been deleted.', id));
      return;
    }
    const title = sessionTitle(snapshot.meta);
    const panel = vscode.window.createWebviewPanel(REPLAY_VIEW_TYPE, `Replay: ${shortened(title, 40)}`, vscode.ViewColumn.Active, {
      ...webviewOptions(this.services.extensionUri),
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'explorer-panel.svg');
    const connection = this.connectPanel(panel, 'replay', id);
    this.replays.add(connection);
    panel.onDidDispose(() => this.replays.delete(connection));
    this.openEmitter.fire('replay');
  }

  async renderedSvgs(sessionId?: string): Promise<RenderedSvgs> {
    // A visible webview has a live Mermaid; the panel is preferred (it is larger and usually in front).
    for (const connection of [this.panel?.connection, this.view?.connection, ...this.replays]) {
      if (connection?.isReady) return connection.requestSvgs(sessionId);
    }
    return {};
  }

  status(): ExplorerConnectionStatus[] {
    return [this.view?.connection, this.panel?.connection, ...this.replays].flatMap((connection) =>
      connection ? [connection.status] : [],
    );
  }

  showInPanel(request: { tab?: DiagramKind; seq?: number }): void {
    this.panel?.connection.post({ type: 'showInView', ...request });
  }

  dispose(): void {
    this.view?.connection.dispose();
    this.panel?.panel.dispose();
    for (const connection of this.replays) connection.dispose();
    this.selectEmitter.dispose();
    this.openEmitter.dispose();
  }

  /**
   * A thought selected in one explorer: announced, and selected in the other explorer (sidebar view ↔ panel) when it
   * shows the same session. Replays keep their own position.
   */
  private thoughtSelected(source: ExplorerConnection, sessionId: string, seq: number): void {
    this.selectEmitter.fire({ sessionId, seq });
    if (source.status.mode === 'replay') return;
    const passed = this.passedSelection;
    // The other explorer answers a passed selection with its own selectThought: that echo goes no further.
    if (passed?.sessionId === sessionId && passed.seq === seq) return;
    this.passedSelection = { sessionId, seq };
    for (const other of [this.view?.connection, this.panel?.connection])
      if (other && other !== source && other.shownSessionId === sessionId) other.post({ type: 'showInView', seq });
  }

  private sessionExists(sessionId: string): boolean {
    try {
      return this.services.engine.getSession(sessionId) !== undefined;
    } catch {
      return false;
    }
  }

  private connectPanel(
    panel: vscode.WebviewPanel,
    mode: 'live' | 'pinned' | 'replay',
    sessionId: string | undefined,
    options: { autoplay?: boolean } = {},
  ): ExplorerConnection {
    const connection = new ExplorerConnection(panel.webview, this.services, {
      surface: mode === 'replay' ? 'replay' : 'panel',
      mode,
      sessionId,
      autoplay: options.autoplay,
      onOpenInPanel: (id) => this.openPanel(id),
      onSelectThought: (id, seq) => this.thoughtSelected(connection, id, seq),
    });
    panel.onDidChangeViewState(() => {
      if (!panel.visible) connection.markHidden();
    });
    panel.onDidDispose(() => connection.dispose());
    return connection;
  }

  private async pickSession(): Promise<string | undefined> {
    const { sessions } = this.services.engine.listSessions({ limit: 200 });
    if (sessions.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There are no thinking sessions to replay yet.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      sessions.map((meta) => ({
        label: sessionTitle(meta),
        description: vscode.l10n.t('{0} · {1} thoughts · {2}', meta.strategy, meta.thoughtCount, meta.status),
        detail: new Date(meta.updatedAt).toLocaleString(),
        sessionId: meta.id,
      })),
      { title: vscode.l10n.t('Replay Session'), placeHolder: vscode.l10n.t('Pick a session to replay'), matchOnDescription: true },
    );
    return picked?.sessionId;
  }
}
