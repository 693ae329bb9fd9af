// What every tool of one MCP connection is registered with: one object, so each tool registers the same way,
// `registerDefinedTool(server, context, tool)` (toolDefinition.ts), and its `run` takes what it needs from it.
// createServer's options are this context less what it makes per connection (server.ts CreateServerOptions).
import type { ThinkingEngine } from '../engine/engine';
import type { ReplyDetail } from '../engine/fieldRules';
import type { ModelGateway } from '../engine/modelGateway';
import type { ToolInfo } from '../engine/qaInput';
import type { ToolGateway } from '../engine/toolGateway';
import type { ConnectionLog } from './connectionLog';
import type { ConversationOwners } from './conversations';
import type { DecisionPointAsker } from './decisionPoints';
import type { StatelessContinuation } from './statelessContinuation';
import type { ToolCallTelemetry } from './toolCallTelemetry';

/** Opens the editor's explorer on a session; given by the host that can (the extension), absent elsewhere. */
export type OpenExplorer = (sessionId: string) => Promise<void> | void;

export interface ToolContext {
  engine: ThinkingEngine;
  /** This connection's id in the engine (its own current session, for calls that name no conversation). */
  connectionId: string;
  /** Who owns a call's current session: the conversation its `_meta` names, else the connection. */
  owners: ConversationOwners;
  /** Logging to this connection's client. */
  log: ConnectionLog;
  /**
   * The tools of the editor this server runs in (VS Code: vscode.lm.tools minus ours), for tool recommendations when a
   * call sends no available-tools list. Called per recommendation; return the same array while nothing changed.
   */
  availableTools?: () => readonly ToolInfo[] | undefined;
  /** Asks the person at decision points (opt-in). */
  decisionPoints?: DecisionPointAsker;
  /**
   * How much a `sequentialthinking` reply says in sessions without their own level (default compact); a function, so
   * a changed setting applies to open connections.
   */
  replyDetail?: ReplyDetail | (() => ReplyDetail);
  /** The host's model for `deliberate` (an OpenAI-compatible endpoint, VS Code's models); else MCP sampling. */
  modelGateway?: ModelGateway;
  /** Tools that deliberate's task steps may call (VS Code's tools); none: task steps run without tools. */
  toolGateway?: ToolGateway;
  /** Opens the editor's explorer on a session, for the inline thought graph's button (VS Code); absent in the CLI. */
  openExplorer?: OpenExplorer;
  /** Serving without protocol sessions: how a thought without sessionId finds its session. */
  continuation?: StatelessContinuation;
  /** Live trace streaming, when on: trace context from calls' `_meta`, its counters in `thinking_sessions stats`. */
  telemetry?: ToolCallTelemetry;
}
