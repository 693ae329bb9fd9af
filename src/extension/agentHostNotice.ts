// When VS Code runs its agents in the agent host (`chat.agentHost.enabled`), servers an extension contributes are only
// partly reachable there (vscode#332782; an extension's HTTP server was reported missing from the Agents window,
// vscode#317460), while a workspace's `.mcp.json` is read. So once per workspace, if the agent host is on and the
// workspace's `.mcp.json` has no Thought Explorer server, offer the command that adds it.
import * as vscode from 'vscode';
import { addToWorkspaceMcpJson } from './addToWorkspaceMcpJson';
import { STDIO_SERVER_KEY } from './mcpConfig';
import type { ExtensionServices } from './services';
import { MAX_MCP_JSON_BYTES, WORKSPACE_MCP_JSON, hasServerEntry } from './workspaceMcpJson';

/** workspaceState key: the notice was shown in this workspace (it is not shown again). */
export const AGENT_HOST_NOTICE_SHOWN_KEY = 'thoughtExplorer.agentHostNoticeShown';

async function workspaceHasEntry(folder: vscode.Uri): Promise<boolean> {
  const uri = vscode.Uri.joinPath(folder, WORKSPACE_MCP_JSON);
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_MCP_JSON_BYTES) return false;
    return hasServerEntry(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), STDIO_SERVER_KEY);
  } catch {
    return false; // no file yet (or none readable): the command says what is wrong if the person accepts
  }
}

/** Shows the notice if it is wanted; resolves to whether it was shown. */
export async function offerWorkspaceMcpJson(
  context: Pick<vscode.ExtensionContext, 'workspaceState'>,
  services: ExtensionServices,
): Promise<boolean> {
  const agentHost = vscode.workspace.getConfiguration('chat').get<boolean>('agentHost.enabled') === true;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!agentHost || folder === undefined || context.workspaceState.get<boolean>(AGENT_HOST_NOTICE_SHOWN_KEY) === true) return false;
  if (await workspaceHasEntry(folder)) return false;
  await context.workspaceState.update(AGENT_HOST_NOTICE_SHOWN_KEY, true);
  const add = vscode.l10n.t('Add to .mcp.json');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Agents in VS Code’s agent host may not reach the Thought Explorer server this extension runs. Add it to this workspace’s .mcp.json, which they read? Their sessions then appear in the Sessions view.',
    ),
    add,
  );
  if (choice === add) await addToWorkspaceMcpJson(services, { folder });
  return true;
}

export function registerAgentHostNotice(context: vscode.ExtensionContext, services: ExtensionServices): void {
  // Off the activation path: reading .mcp.json waits on the file system.
  void offerWorkspaceMcpJson(context, services).catch((error: unknown) =>
    services.log.warn(`Agent host notice: ${error instanceof Error ? error.message : String(error)}`),
  );
}
