// A small stand-in for the `vscode` module, enough for the extension's providers to run in plain Node tests. It keeps
// what the code under test registered or showed in `stub`, so tests can look at it and drive it. Only the pieces the
// extension uses exist; anything else is missing on purpose, so a new dependency on the API shows up as a failure.

import { readFile, stat, writeFile } from 'node:fs/promises';

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly callOnDispose: () => unknown) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callOnDispose();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  supportThemeIcons = false;
  constructor(public value = '') {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
  ) {}
  static parse(value: string): Uri {
    const url = new URL(value);
    return new Uri(url.protocol.replace(/:$/, ''), url.host, url.pathname);
  }
  static file(path: string): Uri {
    return new Uri('file', '', path);
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, [base.path.replace(/\/$/, ''), ...segments].join('/'));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${this.path}` : `${this.scheme}://${this.authority}${this.path}`;
  }
}

export class McpHttpServerDefinition {
  constructor(
    readonly label: string,
    public uri: Uri,
    public headers: Record<string, string> = {},
    public version?: string,
  ) {}
}

export interface StubStatusBarItem {
  id: string;
  text: string;
  tooltip?: string;
  name?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export interface StubLogChannel {
  name: string;
  lines: string[];
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  appendLine(message: string): void;
  show(): void;
  dispose(): void;
}

export interface McpProviderRegistration {
  id: string;
  provider: {
    onDidChangeMcpServerDefinitions?: (listener: () => void) => Disposable;
    provideMcpServerDefinitions(token?: unknown): unknown;
    resolveMcpServerDefinition?(definition: unknown, token?: unknown): unknown;
  };
}

/** Everything the code under test registered or showed. `resetStub()` empties it between tests. */
export const stub = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as { command: string; args: unknown[] }[],
  statusBarItems: [] as StubStatusBarItem[],
  logChannels: [] as StubLogChannel[],
  messages: [] as { kind: 'info' | 'warning' | 'error'; message: string }[],
  /** Answers the next modal/choice messages pop, in order (undefined = dismissed). */
  messageAnswers: [] as (string | undefined)[],
  inputBoxAnswers: [] as (string | undefined)[],
  /** The options of every input box shown (prefilled value, validation). */
  inputBoxes: [] as { value?: string; validateInput?: (value: string) => string | undefined }[],
  statusMessages: [] as string[],
  /** Indexes of the items the next showQuickPick calls pick (undefined = dismissed); what each call offered. */
  quickPickChoices: [] as (number | undefined)[],
  quickPicksShown: [] as { items: { label: string; detail?: string }[]; options: unknown }[],
  clipboard: '',
  configuration: new Map<string, unknown>(),
  configurationListeners: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  mcpProviders: [] as McpProviderRegistration[],
  treeViews: [] as { id: string; message?: string; options: unknown; selection: unknown[] }[],
  /** Every TreeView.reveal call: the node and its options. */
  reveals: [] as { node: unknown; options: unknown }[],
  webviewViewProviders: [] as string[],
  /** The webview view providers themselves, by view id (a test resolves a view as VS Code would). */
  webviewViewProviderObjects: new Map<string, unknown>(),
  /** Webview panel serializers by view type (window.registerWebviewPanelSerializer). */
  webviewPanelSerializers: new Map<string, unknown>(),
  quickPicks: [] as {
    title?: string;
    items: { label: string; alwaysShow?: boolean; detail?: string }[];
    shown: boolean;
    disposed: boolean;
    type(value: string): void;
    acceptItem(index: number): void;
    hide(): void;
  }[],
  globalState: new Map<string, unknown>(),
  workspaceState: new Map<string, unknown>(),
  /** Settings of other sections than thoughtExplorer, by full key (e.g. `chat.agentHost.enabled`). */
  otherConfiguration: new Map<string, unknown>(),
  /** Documents window.showTextDocument was asked to open. */
  shownDocuments: [] as string[],
  chatParticipants: [] as { id: string; handler: (...args: unknown[]) => unknown; participant: Record<string, unknown> }[],
  /** Models vscode.lm.selectChatModels answers with (filtered by the selector's vendor, family and id). */
  chatModels: [] as { vendor: string; family: string; id: string; name: string }[],
};

export function resetStub(): void {
  stub.commands.clear();
  stub.executed.length = 0;
  stub.statusBarItems.length = 0;
  stub.logChannels.length = 0;
  stub.messages.length = 0;
  stub.messageAnswers.length = 0;
  stub.inputBoxAnswers.length = 0;
  stub.inputBoxes.length = 0;
  stub.statusMessages.length = 0;
  stub.quickPickChoices.length = 0;
  stub.quickPicksShown.length = 0;
  stub.clipboard = '';
  stub.configuration.clear();
  stub.mcpProviders.length = 0;
  stub.treeViews.length = 0;
  stub.reveals.length = 0;
  stub.webviewViewProviders.length = 0;
  stub.webviewViewProviderObjects.clear();
  stub.webviewPanelSerializers.clear();
  stub.quickPicks.length = 0;
  stub.globalState.clear();
  stub.workspaceState.clear();
  stub.otherConfiguration.clear();
  stub.shownDocuments.length = 0;
  stub.chatParticipants.length = 0;
  stub.chatModels.length = 0;
  l10nBundle = {};
}

/** Changes a `thoughtExplorer.*` setting and tells listeners, as VS Code does. */
export function setConfiguration(key: string, value: unknown): void {
  if (value === undefined) stub.configuration.delete(key);
  else stub.configuration.set(key, value);
  stub.configurationListeners.fire({ affectsConfiguration: (section: string) => `thoughtExplorer.${key}`.startsWith(section) });
}

function logChannel(name: string): StubLogChannel {
  const lines: string[] = [];
  const channel: StubLogChannel = {
    name,
    lines,
    trace: (message) => lines.push(`trace ${message}`),
    debug: (message) => lines.push(`debug ${message}`),
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
    appendLine: (message) => lines.push(message),
    show: () => undefined,
    dispose: () => undefined,
  };
  stub.logChannels.push(channel);
  return channel;
}

function message(kind: 'info' | 'warning' | 'error') {
  return (text: string, ..._items: unknown[]): Promise<string | undefined> => {
    stub.messages.push({ kind, message: text });
    return Promise.resolve(stub.messageAnswers.shift());
  };
}

export const window = {
  createOutputChannel: (name: string) => logChannel(name),
  createStatusBarItem: (id: string): StubStatusBarItem => {
    const item: StubStatusBarItem = {
      id,
      text: '',
      visible: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.visible = false;
      },
    };
    stub.statusBarItems.push(item);
    return item;
  },
  createTreeView: (id: string, options: unknown) => {
    const view = {
      id,
      options,
      message: undefined as string | undefined,
      selection: [] as unknown[],
      onDidChangeSelection: new EventEmitter<unknown>().event,
      reveal: (node: unknown, revealOptions: unknown) => {
        stub.reveals.push({ node, options: revealOptions });
        return Promise.resolve();
      },
      dispose: () => undefined,
    };
    stub.treeViews.push(view);
    return view;
  },
  registerWebviewViewProvider: (id: string, provider: unknown) => {
    stub.webviewViewProviders.push(id);
    stub.webviewViewProviderObjects.set(id, provider);
    return new Disposable(() => undefined);
  },
  registerWebviewPanelSerializer: (viewType: string, serializer: unknown) => {
    stub.webviewPanelSerializers.set(viewType, serializer);
    return new Disposable(() => stub.webviewPanelSerializers.delete(viewType));
  },
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  showInputBox: (options?: { value?: string }) => {
    stub.inputBoxes.push(options ?? {});
    return Promise.resolve(stub.inputBoxAnswers.shift());
  },
  setStatusBarMessage: (text: string) => {
    stub.statusMessages.push(text);
    return new Disposable(() => undefined);
  },
  showWorkspaceFolderPick: () => {
    const index = stub.quickPickChoices.shift();
    return Promise.resolve(index === undefined ? undefined : workspace.workspaceFolders?.[index]);
  },
  showTextDocument: (uri: Uri) => {
    stub.shownDocuments.push(uri.fsPath);
    return Promise.resolve(undefined);
  },
  showQuickPick: <T extends { label: string; detail?: string }>(items: T[], options?: unknown): Promise<T | undefined> => {
    stub.quickPicksShown.push({ items, options });
    const index = stub.quickPickChoices.shift();
    return Promise.resolve(index === undefined ? undefined : items[index]);
  },
  createQuickPick: () => {
    const changeValue = new EventEmitter<string>();
    const accept = new EventEmitter<void>();
    const hide = new EventEmitter<void>();
    const quickPick = {
      title: undefined as string | undefined,
      placeholder: undefined as string | undefined,
      matchOnDescription: false,
      matchOnDetail: false,
      busy: false,
      items: [] as { label: string; alwaysShow?: boolean }[],
      selectedItems: [] as { label: string }[],
      value: '',
      shown: false,
      disposed: false,
      onDidChangeValue: changeValue.event,
      onDidAccept: accept.event,
      onDidHide: hide.event,
      show() {
        quickPick.shown = true;
      },
      hide() {
        hide.fire();
      },
      dispose() {
        quickPick.disposed = true;
      },
      /** Test helpers: type into the box, accept the item at `index`. */
      type(value: string) {
        quickPick.value = value;
        changeValue.fire(value);
      },
      acceptItem(index: number) {
        quickPick.selectedItems = [quickPick.items[index]];
        accept.fire();
      },
    };
    stub.quickPicks.push(quickPick);
    return quickPick;
  },
};

/** The translations vscode.l10n.t looks messages up in (a locale's bundle.l10n.<locale>.json); none by default. */
let l10nBundle: Record<string, string> = {};

/** Loads `bundle` as the display language's translations (until resetStub), as VS Code does for a non-English locale. */
export function useL10nBundle(bundle: Record<string, string>): void {
  l10nBundle = bundle;
}

/** vscode.l10n: the message (its translation when the bundle has one) with `{0}`/`{name}` placeholders filled. */
export const l10n = {
  t: (source: string, ...args: unknown[]): string => {
    const message = l10nBundle[source] ?? source;
    const named = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? (args[0] as Record<string, unknown>) : undefined;
    return message.replace(/\{([^}]+)\}/g, (whole, key: string) => {
      const value = named ? named[key] : args[Number(key)];
      return value === undefined ? whole : String(value);
    });
  },
};

export const commands = {
  registerCommand: (id: string, handler: (...args: unknown[]) => unknown): Disposable => {
    if (stub.commands.has(id)) throw new Error(`command '${id}' already exists`);
    stub.commands.set(id, handler);
    return new Disposable(() => stub.commands.delete(id));
  },
  executeCommand: (command: string, ...args: unknown[]): Promise<unknown> => {
    stub.executed.push({ command, args });
    const handler = stub.commands.get(command);
    return Promise.resolve(handler ? handler(...args) : undefined);
  },
};

/** VS Code's FileSystemError, with the codes the code under test reads. */
export class FileSystemError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  static FileNotFound(uri: Uri): FileSystemError {
    return new FileSystemError(`${uri.fsPath} not found`, 'FileNotFound');
  }
}

/** workspace.fs over the local disk (file: URIs only), throwing FileSystemError.FileNotFound as VS Code does. */
const fileSystem = {
  stat: async (uri: Uri) => {
    try {
      return { size: (await stat(uri.fsPath)).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw FileSystemError.FileNotFound(uri);
      throw error;
    }
  },
  readFile: async (uri: Uri) => new Uint8Array(await readFile(uri.fsPath)),
  writeFile: (uri: Uri, content: Uint8Array) => writeFile(uri.fsPath, content),
};

export const workspace = {
  getConfiguration: (section: string) => ({
    get: <T>(key: string): T | undefined =>
      (section === 'thoughtExplorer' ? stub.configuration.get(key) : stub.otherConfiguration.get(`${section}.${key}`)) as T | undefined,
  }),
  onDidChangeConfiguration: stub.configurationListeners.event,
  workspaceFolders: undefined as { uri: Uri; name?: string; index?: number }[] | undefined,
  getWorkspaceFolder: (uri: Uri) => workspace.workspaceFolders?.find((folder) => uri.path.startsWith(folder.uri.path)),
  fs: fileSystem,
};

export enum UIKind {
  Desktop = 1,
  Web = 2,
}

export const env = {
  uiKind: UIKind.Desktop,
  remoteName: undefined as string | undefined,
  clipboard: {
    writeText: (text: string) => {
      stub.clipboard = text;
      return Promise.resolve();
    },
  },
};

export const chat = {
  createChatParticipant(id: string, handler: (...args: unknown[]) => unknown) {
    const participant: Record<string, unknown> & { dispose(): void } = {
      id,
      dispose: () => {
        const index = stub.chatParticipants.findIndex((entry) => entry.participant === participant);
        if (index !== -1) stub.chatParticipants.splice(index, 1);
      },
    };
    stub.chatParticipants.push({ id, handler, participant });
    return participant;
  },
};

export class LanguageModelError extends Error {
  static NoPermissions(message?: string): LanguageModelError {
    return new LanguageModelError(message, 'NoPermissions');
  }
  static Blocked(message?: string): LanguageModelError {
    return new LanguageModelError(message, 'Blocked');
  }
  static NotFound(message?: string): LanguageModelError {
    return new LanguageModelError(message, 'NotFound');
  }
  constructor(
    message: string | undefined,
    readonly code: string,
  ) {
    super(message ?? '');
  }
}

export const lm = {
  tools: [] as { name: string; description: string; tags: string[]; inputSchema?: object }[],
  selectChatModels(selector: { vendor?: string; family?: string; id?: string } = {}) {
    return Promise.resolve(
      stub.chatModels.filter(
        (model) =>
          (!selector.vendor || model.vendor === selector.vendor) &&
          (!selector.family || model.family === selector.family) &&
          (!selector.id || model.id === selector.id),
      ),
    );
  },
  registerMcpServerDefinitionProvider(id: string, provider: McpProviderRegistration['provider']): Disposable {
    stub.mcpProviders.push({ id, provider });
    return new Disposable(() => {
      const index = stub.mcpProviders.findIndex((registration) => registration.id === id);
      if (index !== -1) stub.mcpProviders.splice(index, 1);
    });
  },
};

/** A minimal ExtensionContext: subscriptions, paths, globalState and the extension's manifest. */
export function extensionContext(extensionPath: string, version = '0.1.0') {
  const subscriptions: { dispose(): unknown }[] = [];
  return {
    subscriptions,
    extensionPath,
    extensionUri: Uri.file(extensionPath),
    extension: { packageJSON: { version } },
    globalState: {
      get: <T>(key: string): T | undefined => stub.globalState.get(key) as T | undefined,
      update: (key: string, value: unknown) => {
        stub.globalState.set(key, value);
        return Promise.resolve();
      },
    },
    workspaceState: {
      get: <T>(key: string): T | undefined => stub.workspaceState.get(key) as T | undefined,
      update: (key: string, value: unknown) => {
        stub.workspaceState.set(key, value);
        return Promise.resolve();
      },
    },
    disposeAll(): void {
      for (const disposable of subscriptions.splice(0).reverse()) disposable.dispose();
    },
  };
}
