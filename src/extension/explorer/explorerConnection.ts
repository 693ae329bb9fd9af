// One explorer webview (the sidebar view, an editor panel or a replay panel) connected to the engine: answers the
// webview's messages, sends a full snapshot on `ready`, then forwards the engine's events as deltas, and decides
// which session is shown (the live one, or the one a person picked).
import type { DiagramKind } from '../../engine/browserSafe/diagramKinds';
import * as vscode from 'vscode';
import type { EngineEvent } from '../../engine/events';
import type { SessionMeta } from '../../engine/model';
import { sessionTitle } from '../../engine/browserSafe/sessionTitle';
import {
  assertNever,
  parseWebviewMessage,
  type ExplorerMode,
  type HostMessage,
  type RenderedSvgs,
  type ResponseTo,
  type SessionView,
  type WebviewMessage,
} from '../../shared/protocol';
import { PendingRequests, RequestFailedError, type RequestTimers } from '../../shared/requests';
import type { LiveDeliberationState } from '../../shared/deliberationProtocol';
import type { ExtensionServices } from '../services';
import { explorerHtml, type ExplorerSurface } from './explorerHtml';
import { strategyView, toSessionView } from './sessionView';
import { svgForImage } from '../../export/svgSanitize';
import { sessionDiagrams } from '../../export/sessionDiagrams';
import { feedbackFromExplorer } from '../feedbackCommands';
import { insightsMessage } from './insightsHost';
import { errorMessage } from '../../engine/browserSafe/errorMessage';
import { shortened } from '../../engine/browserSafe/textCut';
import { MAX_RESENDS, SnapshotConfirmation } from './snapshotConfirmation';

/** What of the extension's services an explorer uses (kept narrow so a test can stand in for them). */
export type ExplorerServices = Pick<
  ExtensionServices,
  'engine' | 'onEngineEvent' | 'onDidResetEngine' | 'onDidChangeStoreOnDisk' | 'settings' | 'log' | 'extensionUri'
> &
  Partial<Pick<ExtensionServices, 'deliberations'>>;

/** Where the webview bundle lives; also the only folder the webview may load from. */
export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

const SVG_REQUEST_TIMEOUT_MS = 120_000;
/** An offered session's title is cut to this many characters (the banner shows one line). */
const OFFER_TITLE_LENGTH = 120;

function offerTitle(meta: SessionMeta): string {
  const title = sessionTitle(meta);
  return shortened(title, OFFER_TITLE_LENGTH);
}

/** More new thoughts than this after a change on disk are sent as one snapshot rather than one message each. */
const MAX_DELTAS_FROM_DISK = 50;

export interface ExplorerConnectionStatus {
  surface: ExplorerSurface;
  mode: ExplorerMode;
  /** The webview has said `ready` since it was last hidden. */
  ready: boolean;
  sessionId: string | undefined;
  /** Thoughts of that session the webview has received (snapshot plus deltas). */
  thoughtsSent: number;
  /** The last state of a live deliberation sent for that session (roles running, done, failed, cancelled). */
  deliberation?: LiveDeliberationState;
  /** What the webview last said it shows (its tab and selection); absent until it says. */
  view?: { sessionId?: string; activeTab: DiagramKind; selectedSeq?: number };
  /** Another live session offered to switch to (liveSessionOffer). */
  offeredSessionId?: string;
}

export interface ExplorerConnectionOptions {
  surface: ExplorerSurface;
  mode: ExplorerMode;
  sessionId?: string;
  onOpenInPanel: (sessionId: string | undefined) => void;
  onSelectThought?: (sessionId: string, seq: number) => void;
  /** A replay plays from the start when it opens (default); a replay panel revived after a reload does not. */
  autoplay?: boolean;
  /** The clock requests to the webview wait on (tests pass their own). */
  timers?: RequestTimers;
}

/** How long after a dropped message the whole state is sent again. */
const RESEND_AFTER_MS = 250;

export class ExplorerConnection implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private mode: ExplorerMode;
  private sessionId: string | undefined;
  /** Thoughts of the shown session the webview already has: a delta the snapshot already carried is not re-sent. */
  private sentThoughts = 0;
  /** Strategy switches of the shown session the webview knows of: a new one needs a snapshot (its strategy views). */
  private sentSwitches = 0;
  /** A replay starts playing when its panel first opens; a panel shown again resumes where it was, paused. */
  private autoplayPending: boolean;
  private readonly svgRequests: PendingRequests<ResponseTo<'requestSvg'>>;
  private deliberationSent: LiveDeliberationState | undefined;
  private viewState: ExplorerConnectionStatus['view'];
  /** A fresh snapshot is due because a message was not delivered (see `post`). */
  private resendTimer: ReturnType<typeof setTimeout> | undefined;
  /** The other live session this webview was offered (liveSessionOffer), until it is taken or ends. */
  private offeredId: string | undefined;
  /** Whether the page shows the session of the last snapshot (see snapshotConfirmation.ts). */
  private readonly confirmation: SnapshotConfirmation;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly services: ExplorerServices,
    private readonly options: ExplorerConnectionOptions,
  ) {
    this.mode = options.mode;
    this.sessionId = options.sessionId;
    this.svgRequests = new PendingRequests({
      what: 'The diagrams for export',
      prefix: 'svg',
      timeoutMs: SVG_REQUEST_TIMEOUT_MS,
      timers: options.timers,
    });
    this.autoplayPending = options.mode === 'replay' && options.autoplay !== false;
    this.confirmation = new SnapshotConfirmation({
      timers: options.timers,
      onUnconfirmed: (sessionId, resends) => this.snapshotUnconfirmed(sessionId, resends),
    });
    webview.options = webviewOptions(services.extensionUri);
    const root = webviewRoot(services.extensionUri);
    webview.html = explorerHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'explorer.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'explorer.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'codicon.css')).toString(),
      surface: options.surface,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      services.onEngineEvent((event) => this.onEngineEvent(event)),
      services.onDidResetEngine(() => this.sendSnapshot()),
      services.onDidChangeStoreOnDisk(() => this.onStoreChangedOnDisk()),
    );
    const deliberations = services.deliberations;
    if (deliberations) {
      const unsubscribe = deliberations.onDidChange((state) => {
        if (state.sessionId === this.sessionId) this.sendDeliberation(state);
      });
      this.disposables.push({ dispose: unsubscribe });
    }
  }

  get shownSessionId(): string | undefined {
    return this.sessionId;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** What this webview has been sent: for diagnostics and the in-editor tests. */
  get status(): ExplorerConnectionStatus {
    return {
      surface: this.options.surface,
      mode: this.mode,
      ready: this.ready,
      sessionId: this.sessionId,
      thoughtsSent: this.sentThoughts,
      ...(this.deliberationSent ? { deliberation: this.deliberationSent } : {}),
      ...(this.viewState ? { view: this.viewState } : {}),
      ...(this.offeredId === undefined ? {} : { offeredSessionId: this.offeredId }),
    };
  }

  /** The webview was hidden and its document destroyed: nothing may be posted until it says `ready` again. */
  markHidden(): void {
    this.ready = false;
    // The new document knows of no offer: it is made again when the webview is back.
    this.offeredId = undefined;
    this.confirmation.cancel();
    this.services.log.debug(`Explorer (${this.options.surface}): hidden; its page is gone until the view is shown again.`);
  }

  /** Shows `sessionId` (pinned), or goes back to following the live session when undefined. */
  show(sessionId: string | undefined, mode: ExplorerMode = sessionId === undefined ? 'live' : 'pinned'): void {
    this.sessionId = sessionId;
    this.mode = mode;
    this.sendSnapshot();
  }

  post(message: HostMessage): void {
    if (!this.ready) return;
    void this.webview.postMessage(message).then(
      (delivered) => {
        if (!delivered) this.resendSoon();
      },
      (error: unknown) => this.services.log.warn(`Explorer message not delivered: ${String(error)}`),
    );
  }

  /**
   * VS Code drops a message its webview cannot take at that moment (postMessage answers false) and says nothing more:
   * the page would keep showing what it had (another session, a thought short). The state is re-sent whole a moment
   * later, once however many messages were dropped meanwhile.
   */
  private resendSoon(): void {
    if (this.resendTimer !== undefined) return;
    this.resendTimer = setTimeout(() => {
      this.resendTimer = undefined;
      if (this.ready) this.sendSnapshot();
    }, RESEND_AFTER_MS);
  }

  /** Full SVGs of the diagrams of `sessionId` (or of the shown session), rendered by this webview's Mermaid. */
  async requestSvgs(sessionId?: string): Promise<RenderedSvgs> {
    if (!this.ready) return {};
    let session: SessionView | undefined;
    if (sessionId !== undefined && sessionId !== this.sessionId) {
      session = this.sessionView(sessionId) ?? undefined;
      if (!session) return {};
    }
    try {
      const answer = await this.svgRequests.request((requestId) => this.post({ type: 'requestSvg', requestId, session }));
      for (const error of answer.errors) this.services.log.warn(`Export rendering: ${error}`);
      return answer.svgs;
    } catch (error) {
      if (!(error instanceof RequestFailedError)) throw error;
      // An export goes on without pre-rendered SVGs (the exporter draws Mermaid text instead).
      if (error.reason === 'timeout')
        this.services.log.warn('The explorer did not render the diagrams for export in time; exporting without pre-rendered SVGs.');
      return {};
    }
  }

  dispose(): void {
    clearTimeout(this.resendTimer);
    this.confirmation.cancel();
    this.svgRequests.closeAll('the explorer closed');
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.services.log.warn(`Explorer sent a message this version does not understand: ${parsed.problem}`);
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: WebviewMessage): void {
    switch (message.type) {
      case 'ready':
        this.services.log.debug(`Explorer (${this.options.surface}): page ready.`);
        this.ready = true;
        this.sendSnapshot();
        this.offerNewestLive();
        if (this.autoplayPending && this.mode === 'replay') {
          this.autoplayPending = false;
          this.post({ type: 'replayState', playing: true, position: 0 });
        }
        return;
      case 'selectThought':
        this.options.onSelectThought?.(message.sessionId, message.seq);
        return;
      case 'requestFullSession':
        if (message.sessionId === this.sessionId) this.sendSnapshot();
        return;
      case 'openInPanel':
        this.options.onOpenInPanel(message.sessionId ?? this.sessionId);
        return;
      case 'switchToSession':
        // Only to the session offered: a webview does not pick sessions on its own.
        if (message.sessionId === this.offeredId) this.show(message.sessionId, this.mode === 'live' ? 'live' : 'pinned');
        return;
      case 'exportSvg':
        void saveSvg(message.diagram, message.svg, message.sessionId ?? this.sessionId, this.services);
        return;
      case 'copyMermaid':
        void copyMermaid(message.diagram, message.sessionId ?? this.sessionId, this.services);
        return;
      case 'renderFailed':
        this.services.log.warn(`Explorer could not draw the ${message.diagram}: ${message.message}`);
        return;
      case 'svgRendered':
        // An answer to no request waiting (late, repeated, or another webview's) is dropped.
        this.svgRequests.answer(message.requestId, message);
        return;
      case 'uiState':
        this.viewState = { sessionId: message.sessionId, activeTab: message.activeTab, selectedSeq: message.selectedSeq };
        this.confirmation.pageShows(message.sessionId);
        return;
      case 'giveFeedback':
        this.post(feedbackFromExplorer(this.services.engine, message, this.services.log));
        return;
      case 'requestInsights':
        // A session's own figures only for the session this webview shows.
        this.post({
          ...insightsMessage(this.services.engine, message.sessionId === this.sessionId ? this.sessionId : undefined, message.filter),
          requestId: message.requestId,
        });
        return;
      case 'stopDeliberation':
        // Only the session this webview shows: a webview cannot stop runs it was never told about.
        if (message.sessionId === this.sessionId && this.services.deliberations?.stop(message.sessionId)) {
          this.services.log.info(`Deliberation in session ${message.sessionId} stopped from the explorer.`);
        }
        return;
      default:
        assertNever(message, 'webview message');
    }
  }

  private onEngineEvent(event: EngineEvent): void {
    if (!this.ready) return;
    const follow = this.mode === 'live' && this.services.settings.followLiveSession;
    switch (event.type) {
      case 'sessionStarted':
        // A new session while following: switch to it (its first thought is already in the snapshot).
        if (follow && event.meta.id !== this.sessionId) {
          this.sessionId = event.meta.id;
          this.sendSnapshot();
        } else this.offer(event.meta);
        return;
      case 'thoughtAdded':
        if (event.meta.id === this.sessionId) {
          if (event.thought.seq < this.sentThoughts) return;
          this.sentThoughts = event.thought.seq + 1;
          this.post({ type: 'thoughtAdded', sessionId: event.meta.id, meta: event.meta, thought: event.thought });
        } else if (follow) {
          this.sessionId = event.meta.id;
          this.sendSnapshot();
        } else this.offer(event.meta);
        return;
      case 'stageChanged':
        // The thoughtAdded that caused it carries the new stage already.
        return;
      case 'sessionEnded':
      case 'sessionUpdated':
        if (event.meta.id === this.offeredId && event.meta.status !== 'live') this.withdrawOffer();
        if (event.meta.id !== this.sessionId) return;
        // A re-read after concurrent writes by two processes, or an import over the shown session, changes thoughts
        // that no delta describes: start over from a snapshot.
        if (event.meta.thoughtCount !== this.sentThoughts) this.sendSnapshot();
        else this.post({ type: 'sessionUpdated', meta: event.meta, strategy: strategyView(event.meta.strategy) });
        return;
      case 'sessionDeleted':
        if (event.sessionId === this.sessionId) {
          this.sessionId = undefined;
          this.sendSnapshot();
        }
        return;
      case 'feedbackAdded':
      case 'feedbackChanged':
        if (event.meta.id === this.sessionId)
          this.post({
            type: 'feedbackChanged',
            sessionId: event.meta.id,
            feedback: this.services.engine.getSession(event.meta.id)?.feedback ?? [],
          });
        return;
      default:
        assertNever(event, 'engine event');
    }
  }

  /**
   * Another process (the stdio CLI used by another MCP client) wrote to the store: no engine event tells us what, so
   * the shown session is re-read and what is new is sent as deltas; a follower moves to a newer live session.
   */
  private onStoreChangedOnDisk(): void {
    if (!this.ready) return;
    try {
      if (this.mode === 'live' && this.services.settings.followLiveSession) {
        const latest = this.latestSessionId();
        if (latest !== undefined && latest !== this.sessionId) {
          this.sessionId = latest;
          this.sendSnapshot();
          return;
        }
      } else this.offerNewestLive();
      if (this.sessionId === undefined) return;
      const snapshot = this.services.engine.getSession(this.sessionId);
      if (
        !snapshot ||
        snapshot.thoughts.length < this.sentThoughts ||
        snapshot.thoughts.length - this.sentThoughts > MAX_DELTAS_FROM_DISK ||
        snapshot.strategySwitches.length !== this.sentSwitches
      ) {
        this.sendSnapshot();
        return;
      }
      if (snapshot.thoughts.length === this.sentThoughts) {
        this.post({ type: 'sessionUpdated', meta: snapshot.meta, strategy: strategyView(snapshot.meta.strategy) });
        return;
      }
      for (const thought of snapshot.thoughts.slice(this.sentThoughts)) {
        this.post({ type: 'thoughtAdded', sessionId: snapshot.meta.id, meta: snapshot.meta, thought });
      }
      this.sentThoughts = snapshot.thoughts.length;
    } catch (error) {
      this.services.log.warn(`Explorer could not re-read the session store: ${errorMessage(error)}`);
    }
  }

  /**
   * Offers `meta` when this webview stays on its session by choice (pinned, or not following) and `meta` is another
   * live session not offered yet. A replay is never interrupted.
   */
  private offer(meta: SessionMeta): void {
    const staying = this.mode === 'pinned' || (this.mode === 'live' && !this.services.settings.followLiveSession);
    // Not ready: nothing can be posted, and `ready` offers the newest live session anyway.
    if (!this.ready || !staying || meta.status !== 'live' || meta.id === this.sessionId || meta.id === this.offeredId) return;
    this.offeredId = meta.id;
    this.post({ type: 'liveSessionOffer', session: { id: meta.id, title: offerTitle(meta) } });
  }

  private offerNewestLive(): void {
    try {
      // The newest live session other than the one shown.
      const live = this.services.engine.listSessions({ status: 'live', limit: 2 }).sessions.find((meta) => meta.id !== this.sessionId);
      if (live) this.offer(live);
    } catch (error) {
      this.services.log.warn(`Explorer could not list live sessions: ${errorMessage(error)}`);
    }
  }

  private withdrawOffer(): void {
    if (this.offeredId === undefined) return;
    this.offeredId = undefined;
    this.post({ type: 'liveSessionOffer', session: null });
  }

  /** The whole state of the shown session; `resends` counts earlier snapshots of it the page did not confirm. */
  private sendSnapshot(resends = 0): void {
    if (!this.ready) return;
    if (this.offeredId !== undefined && this.offeredId === this.sessionId) this.withdrawOffer();
    let session: SessionView | null = null;
    try {
      if (this.sessionId === undefined && this.mode === 'live') this.sessionId = this.latestSessionId();
      session = this.sessionId === undefined ? null : this.sessionView(this.sessionId);
    } catch (error) {
      this.services.log.error(`Explorer could not load session ${this.sessionId ?? ''}: ${errorMessage(error)}`);
    }
    this.sentThoughts = session?.thoughts.length ?? 0;
    this.sentSwitches = session?.strategySwitches.length ?? 0;
    this.post({ type: 'snapshot', mode: this.mode, session });
    this.confirmation.sent(session?.meta.id, resends);
    this.services.log.debug(
      `Explorer (${this.options.surface}): sent ${session ? `session ${session.meta.id} (${session.thoughts.length} thoughts)` : 'no session'}, ${this.mode}.`,
    );
    this.deliberationSent = undefined;
    const live = this.sessionId === undefined ? undefined : this.services.deliberations?.state(this.sessionId);
    if (live && this.mode !== 'replay') this.sendDeliberation(live);
  }

  /** The page did not say it shows the session sent: the snapshot is sent again, a bounded number of times. */
  private snapshotUnconfirmed(sessionId: string | undefined, resends: number): void {
    // Only the last snapshot is awaited (each one sent replaces the one before), so this is still the state to show.
    if (!this.ready) return;
    const what = sessionId === undefined ? 'the empty state' : `session ${sessionId}`;
    if (resends >= MAX_RESENDS) {
      this.services.log.warn(`Explorer (${this.options.surface}): the page still does not show ${what} after ${resends + 1} snapshots.`);
      return;
    }
    this.services.log.debug(`Explorer (${this.options.surface}): the page did not confirm ${what}; sending it again.`);
    this.sendSnapshot(resends + 1);
  }

  private sendDeliberation(state: LiveDeliberationState): void {
    if (!this.ready || this.mode === 'replay') return;
    this.deliberationSent = state;
    this.post({ type: 'deliberationState', state });
  }

  /** The live session updated last, else the session updated last; undefined when there are none. */
  private latestSessionId(): string | undefined {
    const engine = this.services.engine;
    const live = engine.listSessions({ status: 'live', limit: 1 }).sessions[0];
    return (live ?? engine.listSessions({ limit: 1 }).sessions[0])?.id;
  }

  private sessionView(sessionId: string): SessionView | null {
    const snapshot = this.services.engine.getSession(sessionId);
    return snapshot ? toSessionView(snapshot) : null;
  }
}

/** "Copy as Mermaid": the diagram's Mermaid text, built here from the engine's session as the Markdown export builds it. */
async function copyMermaid(diagram: DiagramKind, sessionId: string | undefined, services: ExplorerServices): Promise<void> {
  const snapshot = sessionId === undefined ? undefined : services.engine.getSession(sessionId);
  const source = snapshot ? sessionDiagrams(snapshot).find((entry) => entry.key === diagram)?.source : undefined;
  if (!source) {
    void vscode.window.showWarningMessage(vscode.l10n.t('There is no session to copy a diagram of.'));
    return;
  }
  await vscode.env.clipboard.writeText(source.text);
  void vscode.window.showInformationMessage(vscode.l10n.t('Copied the diagram as Mermaid text.'));
}

async function saveSvg(diagram: DiagramKind, svg: string, sessionId: string | undefined, services: ExplorerServices): Promise<void> {
  try {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${sessionId ?? 'session'}-${diagram}.svg`.replace(/[^A-Za-z0-9._-]/g, '_');
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export SVG of the diagram in view'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { [vscode.l10n.t('SVG image')]: ['svg'] },
    });
    if (!target) return;
    // The webview's SVG carries the agent's text: sanitised and made well-formed XML (control characters in a label
    // would otherwise give a file no XML reader opens).
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${svgForImage(svg)}`;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    services.log.info(`Exported the ${diagram} to ${target.fsPath}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved {0}.', target.fsPath.split(/[\\/]/).pop() ?? 'the SVG'));
  } catch (error) {
    const message = errorMessage(error);
    services.log.error(`SVG export failed: ${message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not save the SVG: {0}', message));
  }
}
