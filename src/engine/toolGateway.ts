// The tool gateway: how a deliberation's task steps reach real tools. Implementations live outside the engine (VS Code's
// `vscode.lm.tools` in src/extension); with none, a task step runs without tools and says so.
import type { ModelTool, ModelToolCall } from './modelGateway';

/** Thought Explorer's own MCP tools: never offered to a deliberation (it would recurse) nor recommended to an agent. */
const OWN_TOOL_NAMES = ['sequentialthinking', 'thinking_sessions', 'deliberate'];

/** Whether `name` is one of our tools, as we register it or as VS Code lists MCP tools (`mcp_<server>_<tool>`). */
export function isOwnToolName(name: string): boolean {
  return OWN_TOOL_NAMES.some((own) => name === own || (name.startsWith('mcp_') && name.endsWith(`_${own}`)));
}

export interface ToolCallOutcome {
  /** The tool's answer as text (a summary of it is recorded as a thought). */
  text: string;
  isError: boolean;
}

export interface ToolGateway {
  /** A short name for replies and errors, e.g. "VS Code tools". */
  readonly description: string;
  /** The tools a plan may name: exact names, never our own tools (no recursion). */
  tools(): readonly ModelTool[];
  /** Calls one tool. Rejects only when aborted; a tool's own failure is an outcome with isError. */
  invoke(call: ModelToolCall, options: { signal?: AbortSignal }): Promise<ToolCallOutcome>;
}
