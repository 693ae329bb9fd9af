// Registers Thought Explorer as an MCP server definition provider: VS Code (Copilot agent mode) finds the
// `sequentialthinking` tool with no settings.json editing. The Streamable HTTP server runs inside the extension host on
// the engine the views read, started only when VS Code resolves the definition (so the MCP SDK is loaded only then),
// on 127.0.0.1 at a free port, behind a crypto-random bearer secret. It closes with the extension.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ThinkingEngine } from '../engine/engine';
import type { ModelGateway } from '../engine/modelGateway';
import { VsCodeToolGateway } from './lmToolGateway';
import type { HttpServerOptions, RunningHttpServer } from '../mcp/httpServer';
import type { ExtensionServices } from './services';
import { editorToolsProvider } from './editorTools';
import { decisionPointOptions } from './decisionPointSettings';
import { advertisedTools } from './toolSettings';
import { replyDetailOption } from './replyDetailSetting';
import { SETTINGS_SECTION } from './settings';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import type { ToolCallTelemetry } from '../mcp/toolCallTelemetry';

export const MCP_PROVIDER_ID = 'thoughtExplorer.mcp';
export const MCP_SERVER_LABEL = 'Thought Explorer';
/** Where the production build puts the HTTP server and the MCP SDK: a bundle of its own, so activation never parses it. */
export const MCP_SERVER_BUNDLE = join('dist', 'mcpServer.js');

export interface HttpServerModule {
  startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer>;
}

export type HttpServerLoader = () => Promise<HttpServerModule>;

/** Loads the separately built server bundle at run time (a plain `require` of a computed path: esbuild leaves it). */
export function bundledServerLoader(extensionPath: string): HttpServerLoader {
  return async () => {
    const path = join(extensionPath, MCP_SERVER_BUNDLE);
    const loaded: unknown = require(path);
    if (typeof loaded !== 'object' || loaded === null || typeof (loaded as Partial<HttpServerModule>).startHttpServer !== 'function') {
      throw new Error(`${path} does not export startHttpServer; rebuild the extension (npm run build).`);
    }
    return loaded as HttpServerModule;
  };
}

export interface McpServerStatus {
  enabled: boolean;
  running: boolean;
  url?: string;
  startedAt?: number;
  /** MCP sessions (clients) that initialized since the server started, and how many are open now. */
  clientsInitialized: number;
  clientsOpen: number;
  /** JSON-RPC methods received since the server started, by name (`initialize`, `tools/list`, `tools/call`, …). */
  requests: Record<string, number>;
  /** How often VS Code asked the provider for definitions, and to resolve one (i.e. to start the server). */
  definitionsProvided: number;
  definitionsResolved: number;
  lastError?: string;
}

interface Running {
  server: RunningHttpServer;
  token: string;
  startedAt: number;
  maxBodyBytes: number;
}

/** A thought's JSON may take up to 6 bytes per character (\uXXXX escapes) plus the envelope. */
export function bodyLimitFor(maxThoughtLength: number): number {
  return Math.max(1024 * 1024, maxThoughtLength * 6 + 64 * 1024);
}

/**
 * The engine as the server sees it: every access goes to the services' current engine. A setting that rebuilds the
 * engine (storage path, limits, default strategy) then takes effect without restarting the server, so an agent's MCP
 * connection survives it; its next thought simply lands in the new engine (and store).
 */
export function currentEngine(services: Pick<ExtensionServices, 'engine'>): ThinkingEngine {
  return new Proxy(services.engine, {
    get(_target, property) {
      const engine = services.engine;
      const value: unknown = Reflect.get(engine, property, engine);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(engine) : value;
    },
  });
}

/**
 * Owns the in-process HTTP server: starts it once on demand (concurrent callers share the start), stops it when the
 * engine is replaced or the extension deactivates, and counts what clients asked for (status command, tests).
 */
export class McpServerHost implements vscode.Disposable {
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  /** Bumped on every stop, so a start that finishes after a stop closes what it started instead of keeping it. */
  private generation = 0;
  // Keyed by the methods clients send: no prototype, so "__proto__" or "constructor" is counted like any method.
  private requests = Object.create(null) as Record<string, number>;
  private initialized = 0;
  private lastError: string | undefined;
  /** Counted by the provider: evidence that VS Code lists and starts this server. */
  definitionsProvided = 0;
  definitionsResolved = 0;
  private readonly startedEmitter = new vscode.EventEmitter<string>();
  /** Fires with the URL each time the server starts listening (the walkthrough's first step listens). */
  readonly onDidStart = this.startedEmitter.event;

  constructor(
    private readonly services: ExtensionServices,
    private readonly load: HttpServerLoader,
    /** The model `deliberate` runs on when VS Code's agent calls it: VS Code's own models, no sampling round trip. */
    private readonly modelGateway?: ModelGateway,
    /** Live trace streaming, reached on every call (the setting may turn it on or off while the server runs). */
    private readonly telemetry?: ToolCallTelemetry,
  ) {}

  get url(): string | undefined {
    return this.running?.server.url;
  }

  /** The header VS Code must send, once the server runs. */
  get authorizationHeader(): string | undefined {
    return this.running ? `Bearer ${this.running.token}` : undefined;
  }

  async start(): Promise<{ url: string; authorization: string }> {
    const running = this.running ?? (await (this.starting ??= this.launch()));
    return { url: running.server.url, authorization: `Bearer ${running.token}` };
  }

  async stop(reason: string): Promise<void> {
    this.generation += 1;
    this.starting = undefined;
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    this.services.log.info(`MCP server at ${running.server.url} stopping: ${reason}.`);
    try {
      await running.server.close();
    } catch (error) {
      this.services.log.warn(`MCP server did not close cleanly: ${errorMessage(error)}`);
    }
  }

  status(): McpServerStatus {
    const status: McpServerStatus = {
      enabled: this.services.settings.mcpServerEnabled,
      running: this.running !== undefined,
      clientsInitialized: this.initialized,
      clientsOpen: this.running?.server.openSessions?.() ?? 0,
      requests: { ...this.requests },
      definitionsProvided: this.definitionsProvided,
      definitionsResolved: this.definitionsResolved,
    };
    if (this.running) {
      status.url = this.running.server.url;
      status.startedAt = this.running.startedAt;
    }
    if (this.lastError !== undefined) status.lastError = this.lastError;
    return status;
  }

  /**
   * After the engine was rebuilt: the server keeps running on the new engine unless its body limit is now too small
   * for the longest thought allowed. Returns whether it was stopped (VS Code restarts it on next use).
   */
  async engineReplaced(): Promise<boolean> {
    const running = this.running;
    if (!running) return false;
    if (bodyLimitFor(this.services.settings.limits.maxThoughtLength) <= running.maxBodyBytes) return false;
    await this.stop('maxThoughtLength grew beyond the request body limit');
    return true;
  }

  dispose(): void {
    void this.stop('the extension is deactivating');
    this.startedEmitter.dispose();
  }

  private async launch(): Promise<Running> {
    const generation = this.generation;
    const started = performance.now();
    try {
      const module = await this.load();
      const engine = currentEngine(this.services);
      // 32 bytes from the OS CSPRNG: the only thing between other local processes and the tool.
      const token = randomBytes(32).toString('base64url');
      const maxBodyBytes = bodyLimitFor(engine.limits.maxThoughtLength);
      this.requests = Object.create(null) as Record<string, number>;
      this.initialized = 0;
      const server = await module.startHttpServer({
        engine,
        port: 0,
        token,
        maxBodyBytes,
        name: 'thought-explorer',
        version: this.services.extensionVersion,
        log: (message) => this.services.log.warn(`[mcp] ${message}`),
        onMessage: (method) => this.count(method),
        availableTools: editorToolsProvider(),
        // thoughtExplorer.steering.*: read at each decision point, so a change applies to open connections.
        decisionPoints: decisionPointOptions(() => vscode.workspace.getConfiguration(SETTINGS_SECTION)),
        // thoughtExplorer.tools: read for each new MCP session.
        tools: () => advertisedTools(vscode.workspace.getConfiguration(SETTINGS_SECTION), (problem) => this.services.log.warn(problem)),
        // thoughtExplorer.replyDetail: read at each reply, like the steering settings.
        replyDetail: replyDetailOption(() => vscode.workspace.getConfiguration(SETTINGS_SECTION)),
        // The inline thought graph's "Open in explorer" button (VS Code's MCP Apps host opens only http(s) links).
        openExplorer: async (sessionId) => {
          await vscode.commands.executeCommand('thoughtExplorer.openInExplorer', sessionId);
        },
        // VS Code's agent calling `deliberate`: its roles run on VS Code's models and its task steps on VS Code's tools.
        ...(this.modelGateway ? { modelGateway: this.modelGateway, toolGateway: new VsCodeToolGateway() } : {}),
        // Live trace streaming (thoughtExplorer.telemetry.*): trace context from calls' _meta, counters in stats.
        ...(this.telemetry ? { telemetry: this.telemetry } : {}),
      });
      if (generation !== this.generation) {
        await server.close();
        throw new Error('The MCP server was stopped while it was starting.');
      }
      const running = { server, token, startedAt: Date.now(), maxBodyBytes };
      this.running = running;
      this.starting = undefined;
      this.lastError = undefined;
      this.services.log.info(`MCP server listening at ${server.url} (started in ${(performance.now() - started).toFixed(0)} ms).`);
      this.startedEmitter.fire(server.url);
      return running;
    } catch (error) {
      if (generation === this.generation) this.starting = undefined;
      this.lastError = errorMessage(error);
      this.services.log.error(`MCP server could not start: ${this.lastError}`);
      throw error;
    }
  }

  private count(method: string): void {
    this.requests[method] = (this.requests[method] ?? 0) + 1;
    if (method === 'initialize') this.initialized += 1;
    this.services.log.trace(`[mcp] ${method}`);
  }
}

export class ThoughtExplorerMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changeEmitter.event;

  constructor(
    private readonly services: ExtensionServices,
    private readonly host: McpServerHost,
  ) {}

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    this.host.definitionsProvided += 1;
    if (!this.services.settings.mcpServerEnabled) return [];
    // Before the server runs there is no port yet: the URI is a placeholder that resolve replaces.
    const url = this.host.url ?? 'http://127.0.0.1/mcp';
    const authorization = this.host.authorizationHeader;
    return [
      new vscode.McpHttpServerDefinition(
        MCP_SERVER_LABEL,
        vscode.Uri.parse(url),
        authorization ? { Authorization: authorization } : {},
        this.services.extensionVersion,
      ),
    ];
  }

  async resolveMcpServerDefinition(definition: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition | undefined> {
    this.host.definitionsResolved += 1;
    if (!this.services.settings.mcpServerEnabled) return undefined;
    const { url, authorization } = await this.host.start();
    definition.uri = vscode.Uri.parse(url);
    definition.headers = { ...definition.headers, Authorization: authorization };
    return definition;
  }

  /** Tells VS Code to ask again (a setting changed what is served). */
  changed(): void {
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

/** Registers the provider (the manifest requires VS Code 1.101, where the MCP provider API is stable). */
export function registerMcpProvider(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  load: HttpServerLoader = bundledServerLoader(services.extensionPath),
  modelGateway?: ModelGateway,
  telemetry?: ToolCallTelemetry,
): McpServerHost {
  const host = new McpServerHost(services, load, modelGateway, telemetry);
  context.subscriptions.push(host);
  const provider = new ThoughtExplorerMcpProvider(services, host);
  let enabled = services.settings.mcpServerEnabled;
  context.subscriptions.push(
    provider,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    services.onDidResetEngine(() => {
      // The server reads the current engine, so it serves the new one at once. VS Code is told only when the server had
      // to restart (a larger body limit): a change event makes it reconnect, which cancels the agent's tool call in
      // flight — a setting changed during a chat must not abort the call (seen in code-server: "Canceled").
      void host.engineReplaced().then((restarted) => {
        if (restarted) provider.changed();
      });
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The tools advertised changed: VS Code asks again and its next connection lists them.
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.tools`)) provider.changed();
    }),
    services.onDidChangeSettings((settings) => {
      if (settings.mcpServerEnabled === enabled) return;
      enabled = settings.mcpServerEnabled;
      services.log.info(`MCP server ${enabled ? 'enabled' : 'disabled'} by thoughtExplorer.mcpServer.enabled.`);
      if (enabled) provider.changed();
      else void host.stop('disabled in settings').then(() => provider.changed());
    }),
  );
  return host;
}
