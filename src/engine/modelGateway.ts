// The model gateway: the one interface the deliberation layer needs from a language model. Implementations live
// outside the engine (MCP sampling in src/mcp, an OpenAI-compatible endpoint in src/deliberation, VS Code's models in
// src/extension) so the engine stays plain Node with no transport of its own.
import { describeValue } from './fieldRules';

export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

export interface ModelCallOptions {
  /** Most output tokens the model may produce for this call. */
  maxTokens: number;
  /** Aborted on cancellation or time-out: the gateway must stop waiting and reject. */
  signal?: AbortSignal;
  /** Tools the model may ask for in this call (task steps only). A gateway without native tool calling ignores them. */
  tools?: readonly ModelTool[];
}

/** A tool as offered to a model: what a task step's `tools` names are matched against. */
export interface ModelTool {
  name: string;
  description: string;
  /** JSON Schema of the tool's input, when the tool has one. */
  inputSchema?: Record<string, unknown>;
}

/** A model's request to call a tool, answered by a ToolGateway. */
export interface ModelToolCall {
  /** The model's id for the call (its answer is matched by it); generated when the model gives none. */
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** True when the model did not report usage and the numbers are our estimate (about 4 characters a token). */
  estimated: boolean;
  /** Why the counts are estimates although the model reported some: what it sent was not a count. */
  note?: string;
}

export interface ModelCompletion {
  text: string;
  usage: ModelUsage;
  /** The model that answered, as it named itself (or as configured). */
  model: string;
  /** True when the answer stopped at maxTokens. */
  truncated?: boolean;
  /** Tools the model asked to call (only when tools were offered). */
  toolCalls?: readonly ModelToolCall[];
}

export interface ModelAvailability {
  available(): boolean;
  /** Calls `listener` when available() may have changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export interface ModelGateway {
  /** A short name for replies and errors, e.g. "MCP sampling" or "http://127.0.0.1:11434/v1". */
  readonly description: string;
  /** True when the gateway passes ModelCallOptions.tools to the model natively; otherwise task steps run without tools. */
  readonly toolCalling?: boolean;
  /**
   * Optional: resolves once a model is ready to answer (e.g. VS Code picked one, the person answered a quick pick);
   * rejects with a message that says what the person can do. Called before anything is recorded.
   */
  ready?(signal?: AbortSignal): Promise<void>;
  /** Optional: whether a model can answer now, and when that changes (VS Code's models come and go); absent: always. */
  readonly availability?: ModelAvailability;
  complete(messages: readonly ModelMessage[], options: ModelCallOptions): Promise<ModelCompletion>;
}

/** Rough token count for text whose usage the model did not report: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimatedUsage(messages: readonly ModelMessage[], output: string): ModelUsage {
  const input = messages.reduce((sum, message) => sum + estimateTokens(message.text), 0);
  return { inputTokens: input, outputTokens: estimateTokens(output), estimated: true };
}

/** A token count from outside: a whole number from 0 to 2^53-1, otherwise unknown (undefined). */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The usage a model reported, when both counts are counts; otherwise our estimate, with a note saying the reported
 * counts were unknown (a NaN, a negative or a string must never reach a budget or a reply).
 */
export function checkedUsage(
  reported: { input: unknown; output: unknown } | undefined,
  messages: readonly ModelMessage[],
  output: string,
): ModelUsage {
  if (reported === undefined) return estimatedUsage(messages, output);
  const inputTokens = tokenCount(reported.input);
  const outputTokens = tokenCount(reported.output);
  if (inputTokens !== undefined && outputTokens !== undefined) return { inputTokens, outputTokens, estimated: false };
  return {
    ...estimatedUsage(messages, output),
    note: `token counts unknown (the model reported input ${describeValue(reported.input)}, output ${describeValue(reported.output)}); estimated`,
  };
}
