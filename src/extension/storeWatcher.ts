// Watches the session store's directory so sessions written by another process (the stdio CLI used by Claude Desktop,
// Cursor, …) appear and update live. Changes caused by this extension's own engine are already drawn from its events,
// so a journal the engine wrote to a moment ago is ignored; everything else is debounced into one refresh.
import { watch, type FSWatcher } from 'node:fs';
import { mkdirSync } from 'node:fs';
import type * as vscode from 'vscode';
import { JOURNAL_EXTENSION, sessionIdFromFileName } from '../storage/sessionIds';
import type { ExtensionServices } from './services';

export interface StoreWatcherOptions {
  debounceMs?: number;
  /** How long after an engine event a change to that session's journal counts as our own write. */
  ownWriteWindowMs?: number;
  now?: () => number;
}

export class StoreWatcher implements vscode.Disposable {
  private watcher: FSWatcher | undefined;
  private directory: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly recentOwnWrites = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly debounceMs: number;
  private readonly ownWriteWindowMs: number;
  private readonly now: () => number;
  /** External changes noticed so far (for the status command and tests). */
  externalChanges = 0;

  constructor(
    private readonly services: ExtensionServices,
    options: StoreWatcherOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 250;
    this.ownWriteWindowMs = options.ownWriteWindowMs ?? 2000;
    this.now = options.now ?? Date.now;
    this.subscriptions.push(
      services.onEngineEvent((event) => {
        this.recentOwnWrites.set(event.type === 'sessionDeleted' ? event.sessionId : event.meta.id, this.now());
      }),
      services.onDidResetEngine(() => this.start()),
    );
  }

  /** Starts (or moves) the watch to the services' current storage directory. */
  start(): void {
    const directory = this.services.storageDirectory;
    if (this.watcher && this.directory === directory) return;
    this.stopWatching();
    this.directory = directory;
    try {
      // The store creates it too; creating it here lets the watch start before the first session exists.
      mkdirSync(directory, { recursive: true });
      this.watcher = watch(directory, { persistent: false }, (_event, fileName) => this.onChange(fileName === null ? undefined : String(fileName)));
      this.watcher.on('error', (error) => {
        this.services.log.warn(`Watching ${directory} stopped: ${error.message}. Use Refresh to see sessions written by other processes.`);
        this.stopWatching();
      });
    } catch (error) {
      this.services.log.warn(`Cannot watch ${directory} for sessions written by other processes: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Handles one change notification (public for tests, which cannot rely on fs.watch timing). */
  onChange(fileName: string | undefined): void {
    if (fileName !== undefined) {
      // Only journals matter: index.json and its temporary files change on every flush.
      if (!fileName.endsWith(JOURNAL_EXTENSION)) return;
      const id = sessionIdFromFileName(fileName);
      if (id === undefined) return;
      const ownWrite = this.recentOwnWrites.get(id);
      if (ownWrite !== undefined && this.now() - ownWrite < this.ownWriteWindowMs) return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.externalChanges += 1;
      this.services.notifyStoreChangedOnDisk();
    }, this.debounceMs);
  }

  dispose(): void {
    this.stopWatching();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private stopWatching(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}

export function registerStoreWatcher(context: vscode.ExtensionContext, services: ExtensionServices): StoreWatcher {
  const watcher = new StoreWatcher(services);
  context.subscriptions.push(watcher);
  return watcher;
}
