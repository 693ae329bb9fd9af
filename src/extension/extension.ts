// The extension's composition root: activate() only wires the registerX modules to the shared services. Nothing heavy
// happens here: the store opens when the Sessions tree is first drawn, and the MCP SDK and HTTP server load only when
// VS Code resolves the MCP server definition. The returned object is a small API for the in-editor tests.
import * as vscode from 'vscode';
import type { ThinkingEngine } from '../engine/engine';
import { FileSessionStore } from '../storage/fileSessionStore';
import { defaultStoragePath } from '../storage/storageLocation';
import { registerAgentHostNotice } from './agentHostNotice';
import { registerChatParticipant, type ChatRequestRecord } from './chatParticipant';
import { registerCommands } from './commands';
import { registerDecisionPointCommands } from './decisionPointCommands';
import { readDeliberationSettings } from './deliberationSettings';
import { registerExportCommand } from './exportCommand';
import { registerFeedbackCommands } from './feedbackCommands';
import { registerExplorer, type ExplorerApi } from './explorer/registerExplorer';
import { VsCodeModelGateway } from './lmGateway';
import { trackModelAvailability } from './modelAvailability';
import { bundledServerLoader, registerMcpProvider, type McpServerHost, type McpServerStatus } from './mcpProvider';
import { createServices, type ExtensionServices, type OpenedStore } from './services';
import { registerSessionsTree, type SessionsTreeProvider } from './sessionsTree';
import { SETTINGS_SECTION } from './settings';
import { registerStatusBar } from './statusBar';
import { registerStoreWatcher, type StoreWatcher } from './storeWatcher';
import { registerTraceStreaming } from './traceStreaming';
import {
  EXPLORER_OPENED_CONTEXT,
  MCP_CONFIGURATION_COPIED_CONTEXT,
  SESSION_EXPORTED_CONTEXT,
  SESSION_REPLAYED_CONTEXT,
  registerWalkthroughProgress,
} from './walkthroughProgress';

/** What activate() returns: used by the in-editor tests, harmless to anyone else. */
export interface ThoughtExplorerApi {
  /** Milliseconds activate() took (measured with performance.now()). */
  readonly activationMs: number;
  readonly services: ExtensionServices;
  readonly sessionsTree: SessionsTreeProvider;
  readonly storeWatcher: StoreWatcher;
  /** The explorer webviews (sidebar view, panels): what each was sent, and their rendered SVGs. */
  readonly explorer: ExplorerApi;
  /** The engine the views and the MCP server share (builds it on first use). */
  engine(): ThinkingEngine;
  /** The running MCP server's URL, or undefined before VS Code started it. */
  mcpServerUrl(): string | undefined;
  mcpStatus(): McpServerStatus;
  /** Requests @thinking answered in this window, most recent last. */
  chatRequests(): readonly ChatRequestRecord[];
  /** Selects (and expands) a session in the Sessions view, as a click would. */
  revealSession(sessionId: string): Promise<void>;
}

let mcpHost: McpServerHost | undefined;

export function activate(context: vscode.ExtensionContext): ThoughtExplorerApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Thought Explorer', { log: true });
  context.subscriptions.push(log);
  const openStore = (directory: string, storeLog: (message: string) => void): OpenedStore =>
    new FileSessionStore(directory, { log: storeLog });
  const services = createServices(context, log, openStore, defaultStoragePath);

  const storeWatcher = registerStoreWatcher(context, services);
  const { provider: sessionsTree, view: sessionsView } = registerSessionsTree(context, services, {
    onFirstRender: () => storeWatcher.start(),
  });
  // `deliberate` called by VS Code's agent runs on VS Code's models directly (the setting picks which, per call).
  const deliberationModel = new VsCodeModelGateway(
    () => readDeliberationSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION)).settings.model,
    { rechoose: true, availability: trackModelAvailability(context) },
  );
  const traceStreaming = registerTraceStreaming(context, services);
  mcpHost = registerMcpProvider(context, services, bundledServerLoader(services.extensionPath), deliberationModel, traceStreaming);
  registerStatusBar(context, services, traceStreaming);
  const walkthrough = registerWalkthroughProgress(context, services, mcpHost);
  registerCommands(context, {
    services,
    tree: sessionsTree,
    treeView: sessionsView,
    mcpHost,
    onConfigurationCopied: () => walkthrough.reached(MCP_CONFIGURATION_COPIED_CONTEXT),
  });
  registerExportCommand(context, services, () => walkthrough.reached(SESSION_EXPORTED_CONTEXT));
  registerFeedbackCommands(context, services);
  registerDecisionPointCommands(context, services);
  // The explorer hands itself to services.setExplorer, so "Open in Explorer" and the status bar reach it.
  const explorer = registerExplorer(context, services);
  context.subscriptions.push(
    explorer.onDidOpen((what) => walkthrough.reached(what === 'replay' ? SESSION_REPLAYED_CONTEXT : EXPLORER_OPENED_CONTEXT)),
  );
  const chatRequests = registerChatParticipant(context, services, services.deliberations);
  registerAgentHostNotice(context, services);

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms (store and MCP server not loaded yet).`);
  const host = mcpHost;
  return {
    activationMs,
    services,
    sessionsTree,
    storeWatcher,
    explorer,
    engine: () => services.engine,
    mcpServerUrl: () => host.url,
    mcpStatus: () => host.status(),
    chatRequests: () => chatRequests,
    revealSession: async (sessionId) => {
      const node = sessionsTree.nodeToReveal(sessionId);
      if (!node) throw new Error(`Session ${sessionId} is not in the Sessions view.`);
      await sessionsView.reveal(node, { select: true, focus: true, expand: 2 });
    },
  };
}

/** Closes the MCP server before the extension host goes away (context disposables also stop it, without waiting). */
export async function deactivate(): Promise<void> {
  const host = mcpHost;
  mcpHost = undefined;
  await host?.stop('the extension is deactivating');
}
