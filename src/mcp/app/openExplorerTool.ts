// The app-only tool behind the thought graph's "Open in explorer" button. VS Code's MCP Apps host opens only http(s)
// links (ui/open-link), never vscode:// or command: links, so the button calls this tool instead: the server inside
// VS Code opens the full explorer on the session; a server without an editor (the stdio CLI) says how to get there.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { OPEN_EXPLORER_TOOL_NAME, type OpenExplorerReply } from '../../shared/thoughtGraph';
import { errorResult } from '../toolResults';
import { APP_ONLY_TOOL_META } from './thoughtGraphUri';
import { errorMessage } from '../../engine/browserSafe/errorMessage';
import { defineTool } from '../toolDefinition';
import { noSuchSession } from '../../engine/fieldRules';
import { NO_SESSION_YET } from './sessionPageTool';

export { OPEN_EXPLORER_TOOL_NAME };

export const NO_EDITOR_HINT =
  'This server runs outside VS Code. To see the whole session, open it in VS Code with the Thought Explorer extension on the same store ' +
  '(Sessions view, or "Thought Explorer: Open in Explorer").';

export const openExplorerTool = defineTool({
  name: OPEN_EXPLORER_TOOL_NAME,
  config: {
    title: 'Thought graph: open in explorer',
    description:
      'For the inline thought graph view only: opens the full Thought Explorer on a session when the server runs inside VS Code.',
    outputSchema: z.object({
      opened: z.boolean().describe('Whether the explorer was opened.'),
      sessionId: z.string().describe('The session.'),
      hint: z.string().optional().describe('When not opened: how to open it.'),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: APP_ONLY_TOOL_META,
  },
  input: z.object({ sessionId: z.string().optional().describe("The session to open; omitted: this connection's current session.") }),
  run: async (args, { context: { engine, owners, openExplorer }, extra }): Promise<CallToolResult> => {
    const sessionId = args.sessionId ?? engine.currentSessionId(owners.viewerOf(extra.mcpReq._meta));
    if (sessionId === undefined) return errorResult(NO_SESSION_YET);
    if (!engine.getSession(sessionId))
      return errorResult(`Invalid sessionId: ${noSuchSession(sessionId)}. Send the sessionId of a sequentialthinking reply.`);
    if (!openExplorer) {
      const reply: OpenExplorerReply = { opened: false, sessionId, hint: NO_EDITOR_HINT };
      return { content: [{ type: 'text', text: NO_EDITOR_HINT }], structuredContent: { ...reply } };
    }
    try {
      await openExplorer(sessionId);
    } catch (error) {
      return errorResult(`The explorer could not be opened: ${errorMessage(error)}`);
    }
    const reply: OpenExplorerReply = { opened: true, sessionId };
    return { content: [{ type: 'text', text: `Opened session ${sessionId} in the Thought Explorer.` }], structuredContent: { ...reply } };
  },
});
