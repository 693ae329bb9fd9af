// The Sessions commands: open in explorer, rename, delete, reveal the journal, import, search, filter, refresh, MCP
// status and the stdio configuration for other clients. Each accepts a session id or a tree node, or asks.
import { readSessionFile } from '../storage/sessionFileReader';
import * as vscode from 'vscode';
import { parseSessionFile } from '../telemetry/otlpImport';
import { addToWorkspaceMcpJson, type AddToWorkspaceMcpJsonOptions } from './addToWorkspaceMcpJson';
import { copyMcpConfiguration } from './copyMcpConfiguration';
import type { McpServerHost, McpServerStatus } from './mcpProvider';
import { pickSessionBySearch, resolveSessionArgument } from './sessionPicker';
import type { ExtensionServices } from './services';
import type { SessionsTreeNode, SessionsTreeProvider } from './sessionsTree';
import { sessionTitle } from './sessionTreeModel';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export interface CommandContext {
  services: ExtensionServices;
  tree: SessionsTreeProvider;
  treeView: vscode.TreeView<SessionsTreeNode>;
  mcpHost: McpServerHost;
  /** Told when the configuration for other clients was copied, however the command was run (walkthrough progress). */
  onConfigurationCopied?: () => void;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandContext): void {
  const { services, tree } = deps;
  const register = (id: string, handler: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          const message = errorMessage(error);
          services.log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: {0}', message));
          return undefined;
        }
      }),
    );

  register('thoughtExplorer.openInExplorer', async (argument) => {
    const id = await resolveSessionArgument(services, argument, vscode.l10n.t('Open which session in the explorer?'));
    if (id !== undefined) await services.showInExplorer(id);
  });

  register('thoughtExplorer.renameSession', async (argument) => {
    const id = await resolveSessionArgument(services, argument, vscode.l10n.t('Rename which session?'));
    if (id === undefined) return;
    const meta = services.engine.getSession(id)?.meta;
    if (!meta) throw new Error(vscode.l10n.t('Session {0} no longer exists.', id));
    const title = await vscode.window.showInputBox({
      title: vscode.l10n.t('Rename session'),
      prompt: vscode.l10n.t('A name for this session (empty to use its first thought again)'),
      value: meta.title ?? sessionTitle(meta),
      validateInput: (value) => (value.length > 200 ? vscode.l10n.t('At most 200 characters') : undefined),
    });
    if (title === undefined) return;
    services.engine.renameSession(id, title);
  });

  register('thoughtExplorer.deleteSession', async (argument) => {
    const id = await resolveSessionArgument(services, argument, vscode.l10n.t('Delete which session?'));
    if (id === undefined) return;
    const meta = services.engine.getSession(id)?.meta;
    const name = meta ? sessionTitle(meta) : id;
    const deleteLabel = vscode.l10n.t('Delete');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the session “{0}”?', name),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its {0} thoughts and its file in {1} are removed. This cannot be undone.',
          meta?.thoughtCount ?? 0,
          services.storageDirectory,
        ),
      },
      deleteLabel,
    );
    if (choice !== deleteLabel) return;
    if (!services.engine.deleteSession(id)) void vscode.window.showWarningMessage(vscode.l10n.t('Session {0} was already gone.', id));
    if (services.selectedSessionId === id) services.selectSession(undefined);
  });

  register('thoughtExplorer.revealSessionFile', async (argument) => {
    const id = await resolveSessionArgument(services, argument, vscode.l10n.t('Reveal which session’s file?'));
    if (id === undefined) return;
    const file = vscode.Uri.file(services.sessionFilePath(id));
    // The OS file manager is out of reach from a browser or a remote window: show the journal in an editor there.
    if (vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined)
      await vscode.commands.executeCommand('vscode.open', file);
    else await vscode.commands.executeCommand('revealFileInOS', file);
  });

  register('thoughtExplorer.importSession', async () => {
    const uris = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Import Thought Explorer sessions'),
      canSelectMany: true,
      openLabel: vscode.l10n.t('Import'),
      // Our JSON, the sequentialthinking-plus shape and OTLP/JSON traces (.otlp.json) all end in .json.
      filters: { [vscode.l10n.t('Session JSON')]: ['json'], [vscode.l10n.t('All files')]: ['*'] },
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
      title: vscode.l10n.t('Filter sessions'),
      prompt: vscode.l10n.t('Show sessions whose title, first thought or id contains this text (empty clears the filter)'),
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

  register('thoughtExplorer.copyMcpConfiguration', async (form?: unknown) => {
    const copied = await copyMcpConfiguration(services, form);
    if (copied !== undefined) deps.onConfigurationCopied?.();
    return copied;
  });
  // Options only from code (tests, the agent-host notice); from the palette or a menu VS Code passes none or a Uri.
  register('thoughtExplorer.addToWorkspaceMcpJson', (options?: unknown) =>
    addToWorkspaceMcpJson(
      services,
      typeof options === 'object' && options !== null && !(options instanceof vscode.Uri) ? (options as AddToWorkspaceMcpJsonOptions) : {},
    ),
  );
}

/** Reads, parses and imports one session file; returns the imported id. Errors name the file and what is wrong. */
export async function importSessionFile(services: ExtensionServices, path: string): Promise<string> {
  let text: string;
  try {
    text = await readSessionFile(path);
  } catch (error) {
    throw new Error(vscode.l10n.t('Cannot read {0}: {1}', path, errorMessage(error)), { cause: error });
  }
  let parsed;
  try {
    parsed = parseSessionFile(text, { limits: services.engine.limits });
  } catch (error) {
    throw new Error(vscode.l10n.t('{0} is not a session file: {1}', path, errorMessage(error)), {
      cause: error,
    });
  }
  const id = parsed.snapshot.meta.id;
  if (services.engine.getSession(id)) {
    const replaceLabel = vscode.l10n.t('Replace');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('A session with id {0} already exists.', id),
      { modal: true },
      replaceLabel,
    );
    if (choice !== replaceLabel) throw new Error(vscode.l10n.t('Import of {0} cancelled: session {1} already exists.', path, id));
  }
  services.engine.importSession(parsed.snapshot);
  for (const warning of parsed.warnings) services.log.warn(`Import of ${path}: ${warning}`);
  services.log.info(`Imported ${parsed.format} session ${id} (${parsed.snapshot.thoughts.length} thoughts) from ${path}.`);
  const title = sessionTitle(parsed.snapshot.meta);
  const count = parsed.snapshot.thoughts.length;
  void vscode.window.showInformationMessage(
    parsed.warnings.length > 0
      ? vscode.l10n.t('Imported “{0}” ({1} thoughts) with {2} warning(s); see the log.', title, count, parsed.warnings.length)
      : vscode.l10n.t('Imported “{0}” ({1} thoughts).', title, count),
  );
  return id;
}

async function revealSession(deps: CommandContext, id: string): Promise<void> {
  const node = deps.tree.nodeToReveal(id);
  if (node) await deps.treeView.reveal(node, { select: true, focus: false, expand: false });
}

/** Logs the server's state and shows a summary; returns it (for tests and other commands). */
function showMcpStatus(deps: CommandContext): McpServerStatus {
  const { services, mcpHost } = deps;
  const status = mcpHost.status();
  const sessions = services.isEngineBuilt ? services.engine.listSessions({ limit: 0 }).total : undefined;
  const lines = [
    !status.enabled
      ? vscode.l10n.t('MCP server: disabled (thoughtExplorer.mcpServer.enabled)')
      : status.running
        ? vscode.l10n.t('MCP server: running at {0}', status.url ?? '')
        : vscode.l10n.t('MCP server: not started yet (VS Code starts it when the agent first needs it)'),
    status.startedAt !== undefined ? vscode.l10n.t('Started: {0}', new Date(status.startedAt).toLocaleString()) : undefined,
    vscode.l10n.t('Clients: {0} connected, {1} since start', status.clientsOpen, status.clientsInitialized),
    vscode.l10n.t(
      'Requests: {0}',
      Object.entries(status.requests)
        .map(([method, count]) => `${method} ×${count}`)
        .join(', ') || vscode.l10n.t('none'),
    ),
    sessions !== undefined
      ? vscode.l10n.t('Store: {0} ({1} sessions)', services.storageDirectory, sessions)
      : vscode.l10n.t('Store: {0}', services.storageDirectory),
    status.lastError !== undefined ? vscode.l10n.t('Last error: {0}', status.lastError) : undefined,
  ].filter((line): line is string => line !== undefined);
  services.log.info(`MCP server status:\n  ${lines.join('\n  ')}`);
  void vscode.window.showInformationMessage(lines[0], vscode.l10n.t('Show Details')).then((choice) => {
    if (choice) services.log.show(true);
  });
  return status;
}
