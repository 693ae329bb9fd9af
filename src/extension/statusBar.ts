// The status bar item shown while a session is live (`$(lightbulb) 4/7 · react · action_planning`); clicking it opens
// the session in the explorer. Hidden when nothing is live.
import * as vscode from 'vscode';
import type { EngineEvent } from '../engine/events';
import type { SessionMeta } from '../engine/model';
import type { ExtensionServices } from './services';
import { IDLE_AS_ABANDONED_MS, sessionTitle } from './sessionTreeModel';

/** The item's text for a live session: thought n of total, strategy, stage. */
export function statusBarText(meta: SessionMeta): string {
  const parts = [`${meta.lastThoughtNumber}/${meta.totalThoughts}`, meta.strategy];
  if (meta.stage) parts.push(meta.stage);
  return `$(lightbulb) ${parts.join(' · ')}`;
}

/**
 * Tracks which session to show: the live session that most recently received a thought. When it ends, another live
 * one (if any) takes its place; a session idle past the abandoned threshold no longer counts as live.
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

export function registerStatusBar(context: vscode.ExtensionContext, services: ExtensionServices): { item: vscode.StatusBarItem; tracker: LiveSessionTracker } {
  const item = vscode.window.createStatusBarItem('thoughtExplorer.liveSession', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Thought Explorer: live session';
  const tracker = new LiveSessionTracker();
  const update = () => {
    const meta = tracker.current();
    if (!meta) {
      item.hide();
      return;
    }
    item.text = statusBarText(meta);
    item.tooltip = `Thought Explorer: ${sessionTitle(meta)} (click to open in the explorer)`;
    item.command = { title: 'Open in Explorer', command: 'thoughtExplorer.openInExplorer', arguments: [meta.id] };
    item.show();
  };
  const idleCheck = setInterval(update, 60_000);
  idleCheck.unref?.();
  context.subscriptions.push(
    item,
    { dispose: () => clearInterval(idleCheck) },
    services.onEngineEvent((event) => {
      if (tracker.apply(event)) update();
    }),
    services.onDidResetEngine(() => {
      tracker.clear();
      update();
    }),
  );
  return { item, tracker };
}
