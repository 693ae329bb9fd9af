// createServer: one McpServer per MCP connection (stdio process or HTTP session) over one shared engine, with the
// tools, resources and prompts registered on it, logging to its client and session subscriptions.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import type { ThinkingEngine } from '../engine/engine';
import type { ToolInfo } from '../engine/qaInput';
import type { ModelGateway } from '../engine/modelGateway';
import type { ReplyDetail } from '../engine/fieldRules';
import type { ToolGateway } from '../engine/toolGateway';
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
import type { OpenExplorer } from './app/openExplorerTool';
import { registerThoughtGraphApp } from './app/thoughtGraphApp';
import { deliberateTool } from './tools/deliberate';
import { advertiseForClient } from './clientAdvertising';
import { sequentialThinkingTool } from './tools/sequentialThinking';
import { thinkingSessionsTool } from './tools/thinkingSessions';
import { registerDefinedTool } from './toolDefinition';
import type { StatelessContinuation } from './statelessContinuation';
import type { ToolContext } from './toolContext';
import { MODEL_TOOLS, THOUGHT_GRAPH_SERVES, type ModelToolName } from './toolSelection';
import type { ToolCallTelemetry } from './toolCallTelemetry';

export const SERVER_NAME = 'thought-explorer';

export interface CreateServerOptions {
  engine: ThinkingEngine;
  /** Identifies this connection to the engine (its own current session). Defaults to a crypto-random id. */
  connectionId?: string;
  name?: string;
  version?: string;
  /**
   * The tools of the editor this server runs in (VS Code: vscode.lm.tools minus ours), for tool recommendations when a
   * call sends no available-tools list. Called per recommendation; return the same array while nothing changed.
   */
  availableTools?: () => readonly ToolInfo[] | undefined;
  /** The host's model for `deliberate` (an OpenAI-compatible endpoint, VS Code's models); else MCP sampling. */
  modelGateway?: ModelGateway;
  /** Tools that deliberate's task steps may call (VS Code's tools); none: task steps run without tools. */
  toolGateway?: ToolGateway;
  /** Ask the person at decision points through MCP elicitation (opt-in; clients without elicitation are never asked). */
  decisionPoints?: DecisionPointOptions;
  /**
   * How much a `sequentialthinking` reply says in sessions without their own level (default compact); a function, so
   * a changed setting applies to open connections.
   */
  replyDetail?: ReplyDetail | (() => ReplyDetail);
  /** Opens the editor's explorer on a session, for the inline thought graph's button (VS Code); absent in the CLI. */
  openExplorer?: OpenExplorer;
  /** The tools to advertise (`--tools`, `thoughtExplorer.tools`); default all. */
  tools?: readonly ModelToolName[];
  /** Serving without protocol sessions (one connection per request): how a thought without sessionId finds its session. */
  continuation?: StatelessContinuation;
  /** Live trace streaming, when on: trace context from calls' `_meta`, and its counters in `thinking_sessions stats`. */
  telemetry?: ToolCallTelemetry;
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
  const context: ToolContext = {
    engine,
    connectionId,
    owners,
    log,
    availableTools: options.availableTools,
    decisionPoints: options.decisionPoints && createDecisionPointAsker(server, engine, options.decisionPoints, log),
    replyDetail: options.replyDetail,
    modelGateway: options.modelGateway,
    toolGateway: options.toolGateway,
    openExplorer: options.openExplorer,
    continuation: options.continuation,
    telemetry: options.telemetry,
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
