// "Copy MCP Configuration for Other Clients": asks which form of the stdio server the other client should run — the
// npm package through `npx` or the CLI inside this extension — and puts that client configuration on the clipboard.
import * as vscode from 'vscode';
import { stdioClientConfiguration } from './mcpConfig';
import { isStdioServerForm, pickStdioServerForm } from './stdioServerForm';
import type { ExtensionServices } from './services';

/** Copies the configuration in the given form (asked when none or an unknown one is given); returns the text copied. */
export async function copyMcpConfiguration(services: ExtensionServices, requested?: unknown): Promise<string | undefined> {
  const form = isStdioServerForm(requested)
    ? requested
    : await pickStdioServerForm(
        vscode.l10n.t('Copy MCP Configuration for Other Clients'),
        vscode.l10n.t('How should Claude Desktop, Cursor or another MCP client start the server?'),
      );
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
