// Watches the session store's directory so sessions written by another process (the stdio CLI used by Claude Desktop,
// Cursor, …) appear and update live. Each changed journal is checked at once with the engine (one stat through the
// store): our own writes are recognised exactly (the store knows the size it left each journal at) and change
// nothing; a session the engine holds in memory that another process wrote to is re-read, so the views and exports
// never show a stale copy. External changes are then debounced into one "changed on disk" notification.
import { watch, type FSWatcher } from 'node:fs';
import { mkdirSync } from 'node:fs';
import type * as vscode from 'vscode';
import { JOURNAL_EXTENSION, sessionIdFromFileName } from '../storage/sessionIds';
import type { ExtensionServices } from './services';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export interface StoreWatcherOptions {
  debounceMs?: number;
}

export class StoreWatcher implements vscode.Disposable {
  private watcher: FSWatcher | undefined;
  private directory: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly debounceMs: number;
  /** External changes noticed so far (for the status command and tests). */
  externalChanges = 0;
  /** Journal change notifications checked so far, ours and others' (tests wait on it instead of sleeping). */
  journalNotificationsChecked = 0;

  /** Whether an external change is waiting for the debounce timer to announce it. */
  get notificationPending(): boolean {
    return this.timer !== undefined;
  }

  constructor(
    private readonly services: ExtensionServices,
    options: StoreWatcherOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 250;
    this.subscriptions.push(services.onDidResetEngine(() => this.start()));
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
      this.watcher = watch(directory, { persistent: false }, (_event, fileName) =>
        this.onChange(fileName === null ? undefined : String(fileName)),
      );
      this.watcher.on('error', (error) => {
        this.services.log.warn(`Watching ${directory} stopped: ${error.message}. Use Refresh to see sessions written by other processes.`);
        this.stopWatching();
      });
    } catch (error) {
      this.services.log.warn(`Cannot watch ${directory} for sessions written by other processes: ${errorMessage(error)}`);
    }
  }

  /** Handles one change notification (public for tests, which cannot rely on fs.watch timing). */
  onChange(fileName: string | undefined): void {
    let external: boolean;
    if (fileName !== undefined) {
      // Only journals matter: index.json and its temporary files change on every flush.
      if (!fileName.endsWith(JOURNAL_EXTENSION)) return;
      const id = sessionIdFromFileName(fileName);
      if (id === undefined) return;
      external = this.refresh((engine) => engine.refreshSession(id));
      this.journalNotificationsChecked += 1;
    } else {
      // The platform did not say which file changed: check every session the engine holds, and re-list.
      this.refresh((engine) => engine.refreshHeldSessions().length > 0);
      external = true;
    }
    if (!external) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.externalChanges += 1;
      this.services.notifyStoreChangedOnDisk();
    }, this.debounceMs);
  }

  /**
   * Runs a refresh on the engine if it is built (an unbuilt engine holds nothing that could be stale, and whatever
   * changed is news to it). Returns whether the change came from another process.
   */
  private refresh(check: (engine: ExtensionServices['engine']) => boolean): boolean {
    if (!this.services.isEngineBuilt) return true;
    try {
      return check(this.services.engine);
    } catch (error) {
      this.services.log.warn(`Checking the session store for changes by another process failed: ${errorMessage(error)}`);
      return true;
    }
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
