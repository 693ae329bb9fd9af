// The tool gateway: how a deliberation's task steps reach real tools. Implementations live outside the engine (VS Code's
// `vscode.lm.tools` in src/extension); with none, a task step runs without tools and says so.
import type { ModelTool, ModelToolCall } from './modelGateway';

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
