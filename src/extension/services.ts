// The extension's shared services: one engine over one store, built lazily on first use (so activation stays fast),
// rebuilt when a setting changes what they are (storage path, limits, default strategy). Every view, command and the
// MCP server read the same engine through here, and subscribe to its events through here so that a rebuild does not
// leave them listening to a dead engine.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { ThinkingEngine } from '../engine/engine';
import type { EngineEvent } from '../engine/events';
import type { SessionStore } from '../engine/model';
import type { RenderedSvgs } from '../shared/protocol';
import { LiveDeliberations } from './liveDeliberations';
import {
  engineSettingsChanged,
  readSettings,
  resolveStoragePath,
  SETTINGS_SECTION,
  type ExtensionSettings,
  type SettingsSource,
} from './settings';
import { errorMessage } from '../engine/browserSafe/errorMessage';

/** The store as the extension uses it: the engine's interface plus where a session's file is, and a way to close. */
export interface OpenedStore extends SessionStore {
  sessionFilePath(id: string): string;
  close(): void;
}

export type StoreOpener = (directory: string, log: (message: string) => void) => OpenedStore;

/** What the explorer webview hands back so "Open in Explorer" can show a session in it. */
export interface ExplorerHandle {
  showSession(sessionId: string): void | Thenable<void>;
  /** The three diagrams as SVG, rendered by an open explorer (for HTML export); `{}` when it cannot. */
  renderedSvgs?(sessionId?: string): Promise<RenderedSvgs>;
}

export interface ServicesOptions {
  extensionUri: vscode.Uri;
  extensionPath: string;
  extensionVersion: string;
  log: vscode.LogOutputChannel;
  /** The `thoughtExplorer` configuration section, read fresh on each call. */
  configuration(): SettingsSource;
  openStore: StoreOpener;
  /** The CLI's default store (`~/.thought-explorer/sessions` or `$THOUGHT_EXPLORER_STORAGE`). */
  defaultStoragePath(): string;
  workspaceFolder(): string | undefined;
}

interface Built {
  engine: ThinkingEngine;
  store: OpenedStore;
  directory: string;
  unsubscribe: () => void;
}

export class ExtensionServices implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  readonly extensionPath: string;
  readonly extensionVersion: string;
  /** Deliberations running in this window (chat participant, in-host MCP server): the explorer shows and stops them. */
  readonly deliberations = new LiveDeliberations();

  private currentSettings: ExtensionSettings;
  private built: Built | undefined;
  private explorer: ExplorerHandle | undefined;
  private selected: string | undefined;
  private disposed = false;

  private readonly engineEventEmitter = new vscode.EventEmitter<EngineEvent>();
  private readonly resetEmitter = new vscode.EventEmitter<void>();
  private readonly settingsEmitter = new vscode.EventEmitter<ExtensionSettings>();
  private readonly diskEmitter = new vscode.EventEmitter<void>();
  private readonly selectEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly storeOpenedEmitter = new vscode.EventEmitter<void>();

  /** Every event of the current engine (survives rebuilds: subscribe once). */
  readonly onEngineEvent = this.engineEventEmitter.event;
  /** The engine was replaced (storage path, limits or default strategy changed): reload everything shown. */
  readonly onDidResetEngine = this.resetEmitter.event;
  /** Any `thoughtExplorer.*` setting changed; carries the new settings. */
  readonly onDidChangeSettings = this.settingsEmitter.event;
  /** Session files changed on disk behind the engine's back (another process, e.g. the stdio CLI, wrote them). */
  readonly onDidChangeStoreOnDisk = this.diskEmitter.event;
  /** A session was picked (Sessions tree selection, search, "Open in Explorer"); undefined clears the pick. */
  readonly onDidSelectSession = this.selectEmitter.event;
  /**
   * The engine was just built and its store opened (lazily, on first use). Fired from inside that first use:
   * listeners that read the store should defer the work rather than add to it.
   */
  readonly onDidOpenStore = this.storeOpenedEmitter.event;

  constructor(private readonly options: ServicesOptions) {
    this.log = options.log;
    this.extensionUri = options.extensionUri;
    this.extensionPath = options.extensionPath;
    this.extensionVersion = options.extensionVersion;
    this.currentSettings = this.read();
  }

  get settings(): ExtensionSettings {
    return this.currentSettings;
  }

  /** Whether the engine (and its store) has been built yet: lets status commands answer without opening the store. */
  get isEngineBuilt(): boolean {
    return this.built !== undefined;
  }

  /** The engine, built (and its store opened) on first use. */
  get engine(): ThinkingEngine {
    return this.ensureBuilt().engine;
  }

  /** The resolved storage directory (does not open the store). */
  get storageDirectory(): string {
    return this.built?.directory ?? this.resolveDirectory(this.currentSettings);
  }

  /** The journal file of a session, for "Reveal in File Explorer". */
  sessionFilePath(sessionId: string): string {
    return this.ensureBuilt().store.sessionFilePath(sessionId);
  }

  get selectedSessionId(): string | undefined {
    return this.selected;
  }

  selectSession(sessionId: string | undefined): void {
    if (this.selected === sessionId) return;
    this.selected = sessionId;
    this.selectEmitter.fire(sessionId);
  }

  /** The explorer, once its registration handed itself over. */
  get explorerHandle(): ExplorerHandle | undefined {
    return this.explorer;
  }

  /** Called by the explorer webview's registration so "Open in Explorer" can reach it. */
  setExplorer(handle: ExplorerHandle | undefined): void {
    this.explorer = handle;
  }

  /** Shows a session in the explorer view (and selects it for every other listener). */
  async showInExplorer(sessionId: string): Promise<void> {
    this.selectSession(sessionId);
    if (this.explorer) await this.explorer.showSession(sessionId);
    else await vscode.commands.executeCommand('thoughtExplorer.openExplorer');
  }

  /** Tells listeners that files changed on disk (the store watcher calls this, debounced). */
  notifyStoreChangedOnDisk(): void {
    this.diskEmitter.fire();
  }

  /** Re-reads the settings; rebuilds the engine lazily when a change requires it. Called on configuration change. */
  reloadSettings(): void {
    const before = this.currentSettings;
    const after = this.read();
    this.currentSettings = after;
    const directoryChanged = this.built !== undefined && this.built.directory !== this.resolveDirectory(after);
    if (engineSettingsChanged(before, after) || directoryChanged) {
      this.log.info(`Settings changed what the engine is: it will be rebuilt on ${this.resolveDirectory(after)}.`);
      this.teardown();
      this.resetEmitter.fire();
    }
    this.settingsEmitter.fire(after);
  }

  dispose(): void {
    this.disposed = true;
    this.teardown();
    for (const emitter of [
      this.engineEventEmitter,
      this.resetEmitter,
      this.settingsEmitter,
      this.diskEmitter,
      this.selectEmitter,
      this.storeOpenedEmitter,
    ]) {
      emitter.dispose();
    }
  }

  private read(): ExtensionSettings {
    const { settings, problems } = readSettings(this.options.configuration());
    for (const problem of problems) this.log.warn(problem);
    return settings;
  }

  private resolveDirectory(settings: ExtensionSettings): string {
    return resolveStoragePath(settings.storagePath, this.options.defaultStoragePath(), homedir(), this.options.workspaceFolder());
  }

  private ensureBuilt(): Built {
    if (this.disposed) throw new Error('Thought Explorer has been deactivated.');
    if (this.built) return this.built;
    const started = performance.now();
    const settings = this.currentSettings;
    const directory = this.resolveDirectory(settings);
    const log = (message: string) => this.log.warn(message);
    const store = this.options.openStore(directory, log);
    let engine: ThinkingEngine;
    try {
      engine = new ThinkingEngine({ store, limits: settings.limits, defaultStrategy: settings.defaultStrategy, log });
    } catch (error) {
      store.close();
      throw error;
    }
    const unsubscribe = engine.onEvent((event) => this.engineEventEmitter.fire(event));
    this.built = { engine, store, directory, unsubscribe };
    this.log.info(`Session store opened at ${directory} in ${(performance.now() - started).toFixed(1)} ms.`);
    const built = this.built;
    this.storeOpenedEmitter.fire();
    return built;
  }

  private teardown(): void {
    const built = this.built;
    this.built = undefined;
    if (!built) return;
    built.unsubscribe();
    try {
      built.store.close();
    } catch (error) {
      this.log.warn(`Closing the session store failed: ${errorMessage(error)}`);
    }
  }
}

/** Builds the services for the running extension and keeps them in step with the settings. */
export function createServices(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  openStore: StoreOpener,
  defaultStoragePath: () => string,
): ExtensionServices {
  const packageJson = context.extension.packageJSON as { version?: unknown };
  const services = new ExtensionServices({
    extensionUri: context.extensionUri,
    extensionPath: context.extensionPath,
    extensionVersion: typeof packageJson.version === 'string' ? packageJson.version : '0.0.0',
    log,
    configuration: () => vscode.workspace.getConfiguration(SETTINGS_SECTION),
    openStore,
    defaultStoragePath,
    workspaceFolder: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  });
  context.subscriptions.push(
    services,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTINGS_SECTION)) services.reloadSettings();
    }),
  );
  return services;
}
