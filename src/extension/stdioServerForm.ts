// Which form of the stdio server another client should start, asked once per command: the npm package through `npx`
// (nothing tied to this extension's install folder, updates by itself) or the CLI bundled with this extension.
import * as vscode from 'vscode';
import { NPM_PACKAGE_NAME, type StdioServerForm } from './mcpConfig';

interface FormItem extends vscode.QuickPickItem {
  form: StdioServerForm;
}

export function isStdioServerForm(value: unknown): value is StdioServerForm {
  return value === 'npx' || value === 'local';
}

/** The person's pick, with both forms explained; undefined when dismissed. */
export async function pickStdioServerForm(title: string, placeHolder: string): Promise<StdioServerForm | undefined> {
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
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder });
  return picked?.form;
}
