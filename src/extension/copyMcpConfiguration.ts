// "Copy MCP Configuration for Other Clients": asks which form of the stdio server the other client should run — the
// npm package through `npx` or the CLI inside this extension — and puts that client configuration on the clipboard.
import * as vscode from 'vscode';
import { NPM_PACKAGE_NAME, stdioClientConfiguration, type StdioServerForm } from './mcpConfig';
import type { ExtensionServices } from './services';

interface FormItem extends vscode.QuickPickItem {
  form: StdioServerForm;
}

function isForm(value: unknown): value is StdioServerForm {
  return value === 'npx' || value === 'local';
}

async function pickForm(): Promise<StdioServerForm | undefined> {
  const items: FormItem[] = [
    {
      form: 'npx',
      label: vscode.l10n.t('npx -y {0}', NPM_PACKAGE_NAME),
      detail: vscode.l10n.t('Runs the server from npm (Node.js 20 or newer); works wherever the client runs, and updates by itself.'),
    },
    {
      form: 'local',
      label: vscode.l10n.t('node …/dist/cli.js (this extension’s copy)'),
      detail: vscode.l10n.t('Runs the CLI installed with this extension: no download, but the path changes when the extension updates.'),
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Copy MCP Configuration for Other Clients'),
    placeHolder: vscode.l10n.t('How should Claude Desktop, Cursor or another MCP client start the server?'),
  });
  return picked?.form;
}

/** Copies the configuration in the given form (asked when none or an unknown one is given); returns the text copied. */
export async function copyMcpConfiguration(services: ExtensionServices, requested?: unknown): Promise<string | undefined> {
  const form = isForm(requested) ? requested : await pickForm();
  if (form === undefined) return undefined;
  const text = stdioClientConfiguration(services.extensionPath, services.storageDirectory, form);
  await vscode.env.clipboard.writeText(text);
  services.log.info(`Stdio MCP configuration (${form}) copied:\n${text}`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Copied the stdio MCP server entry (for Claude Desktop, Cursor and other clients). Its sessions share this store and appear in the Sessions view.',
    ),
  );
  return text;
}
