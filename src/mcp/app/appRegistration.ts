// ext-apps' server helpers, registerAppTool and registerAppResource, for our McpServer: they write the MCP App keys
// (`ui.resourceUri` with the legacy flat key beside it; the resource's MIME type) so we do not. The package is ESM and
// sees the server package's ESM typings while our CommonJS side sees its CommonJS ones: the same McpServer at run time
// (ext-apps only calls registerTool/registerResource on it), two class types to the compiler, hence the casts here.
import { getUiCapability, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { MCP_APP_MIME_TYPE } from './thoughtGraphUri';
import type { McpServer } from '@modelcontextprotocol/server';

type AppTool = typeof registerAppTool;
type AppResource = typeof registerAppResource;

/** `server`'s registerTool and registerResource, each through ext-apps' helper; typed as McpServer's own. */
export function mcpApp(server: McpServer): Pick<McpServer, 'registerTool' | 'registerResource'> {
  const tool = (name: string, config: Parameters<AppTool>[2], callback: Parameters<AppTool>[3]) =>
    registerAppTool(server as unknown as Parameters<AppTool>[0], name, config, callback);
  const resource = (name: string, uri: string, config: Parameters<AppResource>[3], read: Parameters<AppResource>[4]) =>
    registerAppResource(server as unknown as Parameters<AppResource>[0], name, uri, config, read);
  return {
    registerTool: tool as unknown as McpServer['registerTool'],
    registerResource: resource as unknown as McpServer['registerResource'],
  };
}

/** Whether the client declared MCP Apps support (the ext-apps extension in its initialize capabilities) for our views. */
export function clientRendersApps(server: McpServer): boolean {
  const capabilities = server.server.getClientCapabilities() as Parameters<typeof getUiCapability>[0];
  return getUiCapability(capabilities)?.mimeTypes?.includes(MCP_APP_MIME_TYPE) === true;
}
