// "Add Thought Explorer to This Workspace's .mcp.json": for agents that cannot reach the server this extension runs
// (VS Code's agent host and Agents window, Claude Code in the terminal), writes the stdio server entry into the
// workspace's `.mcp.json` — the same entry, on the same store, as "Copy MCP Configuration" — so their sessions appear
// live in the Sessions view. Other entries stay as they are; a file it cannot read safely is refused, unchanged.
import * as vscode from 'vscode';
import { STDIO_SERVER_KEY, serverEntryFor, type StdioServerForm } from './mcpConfig';
import { isStdioServerForm, pickStdioServerForm } from './stdioServerForm';
import { MAX_MCP_JSON_BYTES, WORKSPACE_MCP_JSON, mergeServerIntoMcpJson } from './workspaceMcpJson';
import type { ExtensionServices } from './services';

/** What a caller (a test, the agent-host notice) may settle beforehand instead of asking. */
export interface AddToWorkspaceMcpJsonOptions {
  form?: StdioServerForm;
  folder?: vscode.Uri;
  /** Replace a different "thought-explorer" entry without asking. */
  replace?: boolean;
}

export type AddToWorkspaceMcpJsonOutcome = 'created' | 'added' | 'replaced' | 'unchanged' | 'refused' | 'cancelled';

const TITLE = () => vscode.l10n.t('Add Thought Explorer to This Workspace’s .mcp.json');

async function pickFolder(requested: unknown): Promise<vscode.Uri | undefined> {
  if (requested instanceof vscode.Uri) return requested;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri;
  const folder = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which folder’s .mcp.json?') });
  return folder?.uri;
}

/** The file's text, undefined when there is none; refused (thrown) over the size bound. */
async function readIfPresent(uri: vscode.Uri): Promise<string | undefined> {
  let size: number;
  try {
    size = (await vscode.workspace.fs.stat(uri)).size;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
  if (size > MAX_MCP_JSON_BYTES) throw new Error(vscode.l10n.t('it is larger than {0} bytes', MAX_MCP_JSON_BYTES));
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

function refuse(uri: vscode.Uri, reason: string): AddToWorkspaceMcpJsonOutcome {
  const open = vscode.l10n.t('Open .mcp.json');
  void vscode.window
    .showErrorMessage(vscode.l10n.t('{0} was not changed: {1}. Fix it or remove it, then try again.', uri.fsPath, reason), open)
    .then((choice) => (choice === open ? vscode.window.showTextDocument(uri) : undefined));
  return 'refused';
}

export async function addToWorkspaceMcpJson(
  services: ExtensionServices,
  options: AddToWorkspaceMcpJsonOptions = {},
): Promise<AddToWorkspaceMcpJsonOutcome> {
  const folder = await pickFolder(options.folder);
  if (folder === undefined) {
    if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: the .mcp.json goes at the root of a workspace folder.'));
    }
    return 'cancelled';
  }
  const form = isStdioServerForm(options.form)
    ? options.form
    : await pickStdioServerForm(TITLE(), vscode.l10n.t('How should agents that read .mcp.json start the server?'));
  if (form === undefined) return 'cancelled';
  const uri = vscode.Uri.joinPath(folder, WORKSPACE_MCP_JSON);
  /** The folder as the person knows it, for messages (the path goes to the log). */
  const name = vscode.workspace.getWorkspaceFolder(folder)?.name ?? folder.path.split('/').pop() ?? folder.fsPath;
  const entry = { type: 'stdio', ...serverEntryFor(form, services.extensionPath, services.storageDirectory) };

  let existing: string | undefined;
  try {
    existing = await readIfPresent(uri);
  } catch (error) {
    return refuse(uri, error instanceof Error ? error.message : String(error));
  }
  const merge = mergeServerIntoMcpJson(existing, STDIO_SERVER_KEY, entry);
  if (merge.kind === 'refused') return refuse(uri, merge.reason);
  if (merge.kind === 'unchanged') {
    void vscode.window.showInformationMessage(vscode.l10n.t('The .mcp.json of {0} already starts Thought Explorer on this store.', name));
    return 'unchanged';
  }
  if (merge.kind === 'differs' && options.replace !== true) {
    const replace = vscode.l10n.t('Replace');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The .mcp.json of {0} already has a different "{1}" server. Replace it with this store’s entry?',
        name,
        STDIO_SERVER_KEY,
      ),
      replace,
    );
    if (choice !== replace) return 'cancelled';
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(merge.text));
  const outcome = merge.kind === 'differs' ? 'replaced' : merge.created ? 'created' : 'added';
  services.log.info(`${uri.fsPath}: Thought Explorer ${outcome} (${form}): ${JSON.stringify(entry)}`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Added Thought Explorer to the .mcp.json of {0}: agents that read it (VS Code’s agent host, Claude Code, …) start it on this store, and their sessions appear in the Sessions view.',
      name,
    ),
  );
  return outcome;
}
