// The status bar item shown while a session is live (`$(lightbulb) 4/7 · react · action_planning`); clicking it opens
// the session in the explorer. Hidden when nothing is live. Follows this extension's engine through its events, and
// sessions of other processes (the stdio CLI) through one store listing per debounced change on disk.
import * as vscode from 'vscode';
import type { EngineEvent } from '../engine/events';
import type { SessionMeta } from '../engine/model';
import type { ExtensionServices } from './services';
import { sessionTitle } from './sessionTreeModel';
import { IDLE_AS_ABANDONED_MS } from '../engine/browserSafe/sessionStatus';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { traceStreamSummary, type TraceStreamingHost } from './traceStreaming';

/** The item's text for a live session: thought n of total, strategy, stage. */
export function statusBarText(meta: SessionMeta): string {
  const parts = [`${meta.lastThoughtNumber}/${meta.totalThoughts}`, meta.strategy];
  if (meta.stage) parts.push(meta.stage);
  return `$(lightbulb) ${parts.join(' · ')}`;
}

/**
 * Tracks which session to show: the live session that most recently received a thought, in this process or (through
 * `syncFromStore`) another. When it ends, another live one (if any) takes its place; a session idle past the
 * abandoned threshold no longer counts as live.
 */
export class LiveSessionTracker {
  private readonly live = new Map<string, SessionMeta>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly idleMs = IDLE_AS_ABANDONED_MS,
  ) {}

  /** Applies an engine event; returns true when the shown session may have changed. */
  apply(event: EngineEvent): boolean {
    if (event.type === 'sessionDeleted') return this.live.delete(event.sessionId);
    const meta = event.meta;
    if (meta.status === 'live') {
      // Re-inserting keeps the Map ordered by most recent activity.
      this.live.delete(meta.id);
      this.live.set(meta.id, meta);
      return true;
    }
    return this.live.delete(meta.id);
  }

  /**
   * Takes the store's newest live session (`listSessions({ status: 'live', limit: 1 })`), which may belong to another
   * process. The store lists every session, this engine's too, at least as fresh as its events: a session tracked
   * here as live but as new as that one (or newer) and not it has ended or gone meanwhile. Returns true when the
   * shown session may have changed.
   */
  syncFromStore(latestLive: SessionMeta | undefined): boolean {
    const latest = latestLive?.status === 'live' ? latestLive : undefined;
    let changed = false;
    for (const [id, meta] of this.live) {
      if (id !== latest?.id && (latest === undefined || meta.updatedAt >= latest.updatedAt)) {
        this.live.delete(id);
        changed = true;
      }
    }
    if (latest) {
      const tracked = this.live.get(latest.id);
      if (tracked === undefined || tracked.updatedAt <= latest.updatedAt) {
        // Every entry left is older, so it goes last: the Map stays ordered by most recent activity.
        this.live.delete(latest.id);
        this.live.set(latest.id, latest);
        changed = true;
      }
    }
    return changed;
  }

  clear(): void {
    this.live.clear();
  }

  /** The session to show, or undefined when nothing is live. */
  current(): SessionMeta | undefined {
    const now = this.now();
    let shown: SessionMeta | undefined;
    for (const [id, meta] of this.live) {
      if (now - meta.updatedAt > this.idleMs) this.live.delete(id);
      else shown = meta;
    }
    return shown;
  }
}

/** How long the status bar waits before listing the store, so a burst of notifications costs one listing. */
const STORE_SYNC_DELAY_MS = 100;

export function registerStatusBar(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  traceStream?: Pick<TraceStreamingHost, 'stats' | 'onDidChange'>,
): { item: vscode.StatusBarItem; tracker: LiveSessionTracker } {
  const item = vscode.window.createStatusBarItem('thoughtExplorer.liveSession', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Thought Explorer: live session';
  const tracker = new LiveSessionTracker();
  let command: vscode.Command | undefined;
  const update = () => {
    const meta = tracker.current();
    if (!meta) {
      item.hide();
      return;
    }
    item.text = statusBarText(meta);
    const session = vscode.l10n.t('Thought Explorer: {0} (click to open in the explorer)', sessionTitle(meta));
    // With trace streaming on, what was sent and dropped (a dropped span is never a lost thought: it is on disk).
    const traces = traceStreamSummary(traceStream?.stats());
    item.tooltip = traces === undefined ? session : `${session}\n${traces}`;
    // The same command object while the session is the same: each new one (a command with arguments) makes VS Code
    // register a fresh internal delegate and drop the last, so a click landing between two thoughts found
    // "command '_internal_command_delegation…' not found".
    if (command?.arguments?.[0] !== meta.id) {
      command = { title: vscode.l10n.t('Open in Explorer'), command: 'thoughtExplorer.openInExplorer', arguments: [meta.id] };
      item.command = command;
    }
    item.show();
  };
  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  const syncFromStore = () => {
    syncTimer = undefined;
    if (!services.isEngineBuilt) return;
    let latest: SessionMeta | undefined;
    try {
      latest = services.engine.listSessions({ status: 'live', limit: 1 }).sessions[0];
    } catch (error) {
      services.log.warn(`The status bar could not list live sessions: ${errorMessage(error)}`);
      return;
    }
    if (tracker.syncFromStore(latest)) update();
  };
  const scheduleSync = () => {
    syncTimer ??= setTimeout(syncFromStore, STORE_SYNC_DELAY_MS);
  };
  const idleCheck = setInterval(update, 60_000);
  idleCheck.unref?.();
  context.subscriptions.push(
    item,
    { dispose: () => clearInterval(idleCheck) },
    services.onEngineEvent((event) => {
      if (tracker.apply(event)) update();
    }),
    ...(traceStream ? [traceStream.onDidChange(update)] : []),
    // Changes on disk come only from other processes (the store watcher already debounced them); the store opening
    // finds a CLI session that was live before. Either way one short listing, deferred and coalesced.
    services.onDidChangeStoreOnDisk(scheduleSync),
    services.onDidOpenStore(scheduleSync),
    { dispose: () => clearTimeout(syncTimer) },
    services.onDidResetEngine(() => {
      tracker.clear();
      update();
    }),
  );
  return { item, tracker };
}
