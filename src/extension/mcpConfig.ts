// The stdio server entries other MCP clients (Claude Desktop, Cursor, Windsurf, …) put in their configuration, on the
// same store as this extension so their sessions show up in the Sessions tree: either the npm package run by `npx`
// (nothing to keep in step with the extension's install folder) or the CLI bundled with this extension (no download).
import { join } from 'node:path';

export const STDIO_SERVER_KEY = 'thought-explorer';
/** The npm package of the standalone server (packages/mcp-server). */
export const NPM_PACKAGE_NAME = 'thought-explorer-mcp';

export type StdioServerForm = 'npx' | 'local';

export interface StdioServerEntry {
  command: string;
  args: string[];
}

export function stdioServerEntry(extensionPath: string, storageDirectory: string): StdioServerEntry {
  return { command: 'node', args: [join(extensionPath, 'dist', 'cli.js'), '--storage-path', storageDirectory] };
}

export function npxServerEntry(storageDirectory: string): StdioServerEntry {
  return { command: 'npx', args: ['-y', NPM_PACKAGE_NAME, '--storage-path', storageDirectory] };
}

/** The entry in the given form: the npm package through npx, or the CLI bundled with this extension. */
export function serverEntryFor(form: StdioServerForm, extensionPath: string, storageDirectory: string): StdioServerEntry {
  return form === 'npx' ? npxServerEntry(storageDirectory) : stdioServerEntry(extensionPath, storageDirectory);
}

/** `{"mcpServers":{"thought-explorer":{…}}}`, pretty-printed, ready to paste; the bundled CLI unless `form` is npx. */
export function stdioClientConfiguration(extensionPath: string, storageDirectory: string, form: StdioServerForm = 'local'): string {
  const entry = serverEntryFor(form, extensionPath, storageDirectory);
  return `${JSON.stringify({ mcpServers: { [STDIO_SERVER_KEY]: entry } }, null, 2)}\n`;
}
