// The Sessions commands: open in explorer, rename, delete, reveal the journal, import, search, filter, refresh, MCP
// status and the stdio configuration for other clients. Each accepts a session id or a tree node, or asks.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { parseSessionJson } from '../storage/sessionJsonFormats';
import { copyMcpConfiguration } from './copyMcpConfiguration';
import type { McpServerHost, McpServerStatus } from './mcpProvider';
import { pickSessionBySearch, resolveSessionArgument } from './sessionPicker';
import type { ExtensionServices } from './services';
import type { SessionsTreeNode, SessionsTreeProvider } from './sessionsTree';
import { sessionTitle } from './sessionTreeModel';

export interface CommandContext {
  services: ExtensionServices;
  tree: SessionsTreeProvider;
  treeView: vscode.TreeView<SessionsTreeNode>;
  mcpHost: McpServerHost;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandContext): void {
  const { services, tree } = deps;
  const register = (id: string, handler: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          services.log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(`Thought Explorer: ${message}`);
          return undefined;
        }
      }),
    );

  register('thoughtExplorer.openInExplorer', async (argument) => {
    const id = await resolveSessionArgument(services, argument, 'Open which session in the explorer?');
    if (id !== undefined) await services.showInExplorer(id);
  });

  register('thoughtExplorer.renameSession', async (argument) => {
    const id = await resolveSessionArgument(services, argument, 'Rename which session?');
    if (id === undefined) return;
    const meta = services.engine.getSession(id)?.meta;
    if (!meta) throw new Error(`Session ${id} no longer exists.`);
    const title = await vscode.window.showInputBox({
      title: 'Rename session',
      prompt: 'A name for this session (empty to use its first thought again)',
      value: meta.title ?? sessionTitle(meta),
      validateInput: (value) => (value.length > 200 ? 'At most 200 characters' : undefined),
    });
    if (title === undefined) return;
    services.engine.renameSession(id, title);
  });

  register('thoughtExplorer.deleteSession', async (argument) => {
    const id = await resolveSessionArgument(services, argument, 'Delete which session?');
    if (id === undefined) return;
    const meta = services.engine.getSession(id)?.meta;
    const name = meta ? sessionTitle(meta) : id;
    const choice = await vscode.window.showWarningMessage(
      `Delete the session “${name}”?`,
      {
        modal: true,
        detail: `Its ${meta?.thoughtCount ?? 0} thoughts and its file in ${services.storageDirectory} are removed. This cannot be undone.`,
      },
      'Delete',
    );
    if (choice !== 'Delete') return;
    if (!services.engine.deleteSession(id)) void vscode.window.showWarningMessage(`Session ${id} was already gone.`);
    if (services.selectedSessionId === id) services.selectSession(undefined);
  });

  register('thoughtExplorer.revealSessionFile', async (argument) => {
    const id = await resolveSessionArgument(services, argument, 'Reveal which session’s file?');
    if (id === undefined) return;
    const file = vscode.Uri.file(services.sessionFilePath(id));
    // The OS file manager is out of reach from a browser or a remote window: show the journal in an editor there.
    if (vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined)
      await vscode.commands.executeCommand('vscode.open', file);
    else await vscode.commands.executeCommand('revealFileInOS', file);
  });

  register('thoughtExplorer.importSession', async () => {
    const uris = await vscode.window.showOpenDialog({
      title: 'Import Thought Explorer sessions',
      canSelectMany: true,
      openLabel: 'Import',
      filters: { 'Session JSON': ['json'], 'All files': ['*'] },
    });
    if (!uris || uris.length === 0) return [];
    const imported: string[] = [];
    for (const uri of uris) imported.push(await importSessionFile(services, uri.fsPath));
    tree.refresh();
    return imported;
  });

  register('thoughtExplorer.searchSessions', async () => {
    const id = await pickSessionBySearch(services);
    if (id === undefined) return;
    await services.showInExplorer(id);
    await revealSession(deps, id);
  });

  register('thoughtExplorer.filterSessions', async () => {
    const text = await vscode.window.showInputBox({
      title: 'Filter sessions',
      prompt: 'Show sessions whose title, first thought or id contains this text (empty clears the filter)',
      value: tree.filter ?? '',
    });
    if (text !== undefined) tree.setFilter(text);
  });
  register('thoughtExplorer.clearSessionsFilter', () => tree.setFilter(undefined));
  register('thoughtExplorer.refreshSessions', () => {
    // Re-read held sessions another process wrote to (needed when the store watcher could not run).
    if (services.isEngineBuilt) services.engine.refreshHeldSessions();
    tree.refresh();
  });

  register('thoughtExplorer.showMcpStatus', () => showMcpStatus(deps));

  register('thoughtExplorer.copyMcpConfiguration', (form?: unknown) => copyMcpConfiguration(services, form));
}

/** Reads, parses and imports one session file; returns the imported id. Errors name the file and what is wrong. */
export async function importSessionFile(services: ExtensionServices, path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let parsed;
  try {
    parsed = parseSessionJson(text, { limits: services.engine.limits });
  } catch (error) {
    throw new Error(`${path} is not a session file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const id = parsed.snapshot.meta.id;
  if (services.engine.getSession(id)) {
    const choice = await vscode.window.showWarningMessage(`A session with id ${id} already exists.`, { modal: true }, 'Replace');
    if (choice !== 'Replace') throw new Error(`Import of ${path} cancelled: session ${id} already exists.`);
  }
  services.engine.importSession(parsed.snapshot);
  for (const warning of parsed.warnings) services.log.warn(`Import of ${path}: ${warning}`);
  services.log.info(`Imported ${parsed.format} session ${id} (${parsed.snapshot.thoughts.length} thoughts) from ${path}.`);
  void vscode.window.showInformationMessage(
    `Imported “${sessionTitle(parsed.snapshot.meta)}” (${parsed.snapshot.thoughts.length} thoughts)${parsed.warnings.length > 0 ? ` with ${parsed.warnings.length} warning(s); see the log` : ''}.`,
  );
  return id;
}

async function revealSession(deps: CommandContext, id: string): Promise<void> {
  deps.tree.getChildren();
  const node = deps.tree.findSessionNode(id);
  if (node) await deps.treeView.reveal(node, { select: true, focus: false, expand: false });
}

/** Logs the server's state and shows a summary; returns it (for tests and other commands). */
function showMcpStatus(deps: CommandContext): McpServerStatus {
  const { services, mcpHost } = deps;
  const status = mcpHost.status();
  const sessions = services.isEngineBuilt ? services.engine.listSessions({ limit: 0 }).total : undefined;
  const lines = [
    `MCP server: ${!status.enabled ? 'disabled (thoughtExplorer.mcpServer.enabled)' : status.running ? `running at ${status.url}` : 'not started yet (VS Code starts it when the agent first needs it)'}`,
    status.startedAt !== undefined ? `Started: ${new Date(status.startedAt).toLocaleString()}` : undefined,
    `Clients: ${status.clientsOpen} connected, ${status.clientsInitialized} since start`,
    `Requests: ${
      Object.entries(status.requests)
        .map(([method, count]) => `${method} ×${count}`)
        .join(', ') || 'none'
    }`,
    `Store: ${services.storageDirectory}${sessions !== undefined ? ` (${sessions} sessions)` : ''}`,
    status.lastError !== undefined ? `Last error: ${status.lastError}` : undefined,
  ].filter((line): line is string => line !== undefined);
  services.log.info(`MCP server status:\n  ${lines.join('\n  ')}`);
  void vscode.window.showInformationMessage(lines[0], 'Show Details').then((choice) => {
    if (choice) services.log.show(true);
  });
  return status;
}
