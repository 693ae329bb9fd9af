// createServer: one McpServer per MCP connection (stdio process or HTTP session) over one shared engine. Tools are
// served through the low-level request path (see toolRegistry.ts for why); resources and prompts use McpServer.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, McpError, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ThinkingEngine } from '../engine/engine';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerStrategyPrompts } from './strategyPrompts';
import { registerStrategyResources } from './strategyResources';
import { METHOD_NOT_FOUND, ToolProtocolError, ToolRegistry } from './toolRegistry';
import { registerSequentialThinkingTool } from './tools/sequentialThinking';
import { registerThinkingSessionsTool } from './tools/thinkingSessions';

export const SERVER_NAME = 'thought-explorer';

export interface CreateServerOptions {
  engine: ThinkingEngine;
  /** Identifies this connection to the engine (its own current session). Defaults to a crypto-random id. */
  connectionId?: string;
  name?: string;
  version?: string;
}

export interface CreatedServer {
  server: McpServer;
  connectionId: string;
  tools: ToolRegistry;
  /** Forgets this connection's current-session pointer in the engine. Safe to call more than once. */
  cleanup: () => void;
}

const INSTRUCTIONS =
  'Record step-by-step reasoning with the sequentialthinking tool (one thought per call; revise with isRevision/revisesThought, ' +
  'branch with branchFromThought/branchId). Find, read and resume saved sessions with thinking_sessions. Read thinking://documentation for details.';

export function createServer(options: CreateServerOptions): CreatedServer {
  const { engine } = options;
  const connectionId = options.connectionId ?? randomUUID();
  const server = new McpServer(
    { name: options.name ?? SERVER_NAME, version: options.version ?? '0.0.0' },
    // No `tools` capability here: McpServer would install its own zod-validated tool handlers for it.
    { instructions: INSTRUCTIONS },
  );

  const tools = new ToolRegistry();
  registerSequentialThinkingTool(tools, engine, connectionId);
  registerThinkingSessionsTool(tools, engine, connectionId);
  installTools(server, tools);

  registerResources(server, engine);
  registerPrompts(server);
  registerStrategyResources(server);
  registerStrategyPrompts(server);

  let cleanedUp = false;
  const cleanup = () => {
    if (cleanedUp) return;
    cleanedUp = true;
    engine.closeConnection(connectionId);
  };
  server.server.onclose = cleanup;
  return { server, connectionId, tools, cleanup };
}

/**
 * tools/list goes through the SDK's ordinary handler (once per connection, cost irrelevant). tools/call is served by
 * the fallback handler, which receives the raw request: Server.setRequestHandler would zod-parse every call's request
 * twice and its result once, which is most of the per-call cost. Nothing may call McpServer.registerTool on this
 * server: its handlers would shadow these.
 */
function installTools(server: McpServer, tools: ToolRegistry): void {
  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => tools.list());
  server.server.fallbackRequestHandler = async (request: JSONRPCRequest) => {
    if (request.method !== 'tools/call') throw new McpError(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
    try {
      return await tools.call(request);
    } catch (error) {
      if (error instanceof ToolProtocolError) throw new McpError(error.code, error.message);
      throw error;
    }
  };
}
