// Registers the inline thought graph (an MCP App, see mcp-app/): the `ui://` resource holding its HTML document and
// the two tools only the view calls. Which tools show it is said by their own `_meta` (THOUGHT_GRAPH_TOOL_META).
// Hosts without MCP Apps see a listed resource and no app-only tool (clientAdvertising.ts); tool replies are unchanged.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { mcpApp } from './appRegistration';
import { thoughtGraphAppHtml } from './appHtml';
import { openExplorerTool } from './openExplorerTool';
import { sessionPageTool } from './sessionPageTool';
import { registerDefinedTool } from '../toolDefinition';
import { MCP_APP_MIME_TYPE, THOUGHT_GRAPH_URI } from './thoughtGraphUri';
import type { ToolContext } from '../toolContext';

export const THOUGHT_GRAPH_RESOURCE_NAME = 'thought-graph';

/** Registers the view's resource and returns its app-only tools (advertised only to hosts that render MCP Apps). */
export function registerThoughtGraphApp(server: McpServer, context: ToolContext): RegisteredTool[] {
  mcpApp(server).registerResource(
    THOUGHT_GRAPH_RESOURCE_NAME,
    THOUGHT_GRAPH_URI,
    {
      title: 'Thought graph (inline view)',
      description:
        'An interactive view for MCP Apps hosts: the branch tree, stage, latest thought and counts of the current thinking session, ' +
        'updated with every sequentialthinking and deliberate result. Self-contained HTML; it loads nothing from the network.',
    },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: MCP_APP_MIME_TYPE,
          text: thoughtGraphAppHtml(),
          // No network at all: the view needs no connect, resource or frame domains.
          _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
        },
      ],
    }),
  );
  return [registerDefinedTool(server, context, sessionPageTool), registerDefinedTool(server, context, openExplorerTool)];
}
