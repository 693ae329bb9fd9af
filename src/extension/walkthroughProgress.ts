// The Get Started walkthrough's progress: context keys its steps complete on (`onContext:` completion events) — the
// MCP server has started, and a thinking session exists. The other steps complete on commands and views by
// themselves (see contributes.walkthroughs in package.json).
import * as vscode from 'vscode';
import type { McpServerHost } from './mcpProvider';
import type { ExtensionServices } from './services';

export const WALKTHROUGH_ID = 'thoughtExplorer.gettingStarted';
export const MCP_SERVER_STARTED_CONTEXT = 'thoughtExplorer.mcpServerStarted';
export const HAS_SESSIONS_CONTEXT = 'thoughtExplorer.hasSessions';

export function registerWalkthroughProgress(
  context: vscode.ExtensionContext,
  services: Pick<ExtensionServices, 'onEngineEvent'>,
  mcpHost: Pick<McpServerHost, 'onDidStart'>,
): void {
  const set = (key: string) => void vscode.commands.executeCommand('setContext', key, true);
  let serverSeen = false;
  let sessionSeen = false;
  context.subscriptions.push(
    mcpHost.onDidStart(() => {
      if (serverSeen) return;
      serverSeen = true;
      set(MCP_SERVER_STARTED_CONTEXT);
    }),
    services.onEngineEvent((event) => {
      if (sessionSeen || (event.type !== 'sessionStarted' && event.type !== 'thoughtAdded')) return;
      sessionSeen = true;
      set(HAS_SESSIONS_CONTEXT);
    }),
  );
}
