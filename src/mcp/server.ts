// createServer: one McpServer per MCP connection (stdio process or HTTP session) over one shared engine, with the
// tools, resources and prompts registered on it.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ThinkingEngine } from '../engine/engine';
import type { ModelGateway } from '../engine/modelGateway';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerStrategyPrompts } from './strategyPrompts';
import { registerStrategyResources } from './strategyResources';
import { registerDeliberateTool } from './tools/deliberate';
import { registerSequentialThinkingTool } from './tools/sequentialThinking';
import { registerThinkingSessionsTool } from './tools/thinkingSessions';

export const SERVER_NAME = 'thought-explorer';

export interface CreateServerOptions {
  engine: ThinkingEngine;
  /** Identifies this connection to the engine (its own current session). Defaults to a crypto-random id. */
  connectionId?: string;
  name?: string;
  version?: string;
  /** The host's model for `deliberate` (VS Code's models in the extension host); without it, MCP sampling. */
  modelGateway?: ModelGateway;
}

export interface CreatedServer {
  server: McpServer;
  connectionId: string;
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
    { instructions: INSTRUCTIONS },
  );

  registerSequentialThinkingTool(server, engine, connectionId);
  registerThinkingSessionsTool(server, engine, connectionId);
  registerDeliberateTool(server, { engine, connectionId, gateway: options.modelGateway });

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
  return { server, connectionId, cleanup };
}

