// createServer: one McpServer per MCP connection (stdio process or HTTP session) over one shared engine, with the
// tools, resources and prompts registered on it, logging to its client and session subscriptions.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import { createConnectionLog } from './connectionLog';
import { createConversationOwners } from './conversations';
import { createDecisionPointAsker, type DecisionPointOptions } from './decisionPoints';
import { registerDeliberationPrompt } from './deliberationPrompts';
import { registerDeliberationResource } from './deliberationResources';
import { registerPrompts } from './prompts';
import { registerResourceSubscriptions } from './resourceSubscriptions';
import { registerResources } from './resources';
import { registerStrategyPrompts } from './strategyPrompts';
import { registerStrategyResources } from './strategyResources';
import { registerThoughtGraphApp } from './app/thoughtGraphApp';
import { deliberateTool } from './tools/deliberate';
import { advertiseForClient } from './clientAdvertising';
import { sequentialThinkingTool } from './tools/sequentialThinking';
import { thinkingSessionsTool } from './tools/thinkingSessions';
import { registerDefinedTool } from './toolDefinition';
import type { ToolContext } from './toolContext';
import { MODEL_TOOLS, THOUGHT_GRAPH_SERVES, type ModelToolName } from './toolSelection';

export const SERVER_NAME = 'thought-explorer';

/** What a connection's tools are given as they are (ToolContext); the rest createServer makes per connection. */
type GivenToolContext = Omit<ToolContext, 'connectionId' | 'owners' | 'log' | 'decisionPoints'>;

export interface CreateServerOptions extends GivenToolContext {
  /** Identifies this connection to the engine (its own current session). Defaults to a crypto-random id. */
  connectionId?: string;
  name?: string;
  version?: string;
  /** Ask the person at decision points through MCP elicitation (opt-in; clients without elicitation are never asked). */
  decisionPoints?: DecisionPointOptions;
  /** The tools to advertise (`--tools`, `thoughtExplorer.tools`); default all. */
  tools?: readonly ModelToolName[];
}

export interface CreatedServer {
  server: McpServer;
  connectionId: string;
  /** Forgets this connection's (and its conversations') current-session pointers in the engine. Safe to call more than once. */
  cleanup: () => void;
  /** The connection began closing (its client said goodbye): no more notifications are sent on it. */
  closing: () => void;
}

const INSTRUCTIONS: Record<ModelToolName, string> = {
  sequentialthinking:
    'Record step-by-step reasoning with the sequentialthinking tool (one thought per call; revise with isRevision/revisesThought, ' +
    'branch with branchFromThought/branchId).',
  thinking_sessions: 'Find, read and resume saved sessions with thinking_sessions.',
  deliberate: 'Deliberate on a problem with roles (thinking hats) run on a model with deliberate.',
};
const READ_MORE = 'Read thinking://documentation and thinking://deliberation for details.';

export function createServer(options: CreateServerOptions): CreatedServer {
  const { engine } = options;
  const connectionId = options.connectionId ?? randomUUID();
  const tools = new Set(options.tools ?? MODEL_TOOLS);
  const instructions = [...MODEL_TOOLS.filter((name) => tools.has(name)).map((name) => INSTRUCTIONS[name]), READ_MORE].join(' ');
  const server = new McpServer(
    { name: options.name ?? SERVER_NAME, version: options.version ?? '0.0.0' },
    { instructions, capabilities: { logging: {} } },
  );
  const log = createConnectionLog(server);

  const owners = createConversationOwners(engine, connectionId);
  const { connectionId: _id, name: _name, version: _version, tools: _tools, decisionPoints, ...given } = options;
  const context: ToolContext = {
    ...given,
    connectionId,
    owners,
    log,
    decisionPoints: decisionPoints && createDecisionPointAsker(server, engine, decisionPoints, log),
  };
  if (tools.has('sequentialthinking')) registerDefinedTool(server, context, sequentialThinkingTool);
  if (tools.has('thinking_sessions')) registerDefinedTool(server, context, thinkingSessionsTool);
  const deliberate = tools.has('deliberate') ? registerDefinedTool(server, context, deliberateTool) : undefined;

  const subscriptions = registerResourceSubscriptions(server, engine);
  registerResources(server, engine, subscriptions.listed);
  registerPrompts(server);
  registerStrategyResources(server);
  registerStrategyPrompts(server);
  registerDeliberationResource(server);
  registerDeliberationPrompt(server);
  // The inline thought graph and its app-only tools go with the tools whose results it draws.
  const appTools = THOUGHT_GRAPH_SERVES.some((name) => tools.has(name)) ? registerThoughtGraphApp(server, context) : [];
  // Only what the client can use is listed: app-only tools to MCP Apps hosts, deliberate where a model can run it.
  const stopAdvertising = advertiseForClient(server, { appTools, deliberate }, options.modelGateway);

  let cleanedUp = false;
  const cleanup = () => {
    if (cleanedUp) return;
    cleanedUp = true;
    subscriptions.dispose();
    stopAdvertising();
    owners.closeAll();
  };
  server.server.onclose = cleanup;
  return { server, connectionId, cleanup, closing: subscriptions.closing };
}
