// The stdio CLI entry other MCP clients (Claude Desktop, Cursor, Windsurf, …) put in their configuration, pointing at
// the CLI bundled with this extension and at the same store, so their sessions show up in the Sessions tree.
import { join } from 'node:path';

export const STDIO_SERVER_KEY = 'thought-explorer';

export interface StdioServerEntry {
  command: string;
  args: string[];
}

export function stdioServerEntry(extensionPath: string, storageDirectory: string): StdioServerEntry {
  return { command: 'node', args: [join(extensionPath, 'dist', 'cli.js'), '--storage-path', storageDirectory] };
}

/** `{"mcpServers":{"thought-explorer":{…}}}`, pretty-printed, ready to paste. */
export function stdioClientConfiguration(extensionPath: string, storageDirectory: string): string {
  return `${JSON.stringify({ mcpServers: { [STDIO_SERVER_KEY]: stdioServerEntry(extensionPath, storageDirectory) } }, null, 2)}\n`;
}
