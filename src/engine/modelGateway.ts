// The model gateway: the one interface the deliberation layer needs from a language model. Implementations live
// outside the engine (MCP sampling in src/mcp, an OpenAI-compatible endpoint in src/deliberation, VS Code's models in
// src/extension) so the engine stays plain Node with no transport of its own.

export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

export interface ModelCallOptions {
  /** Most output tokens the model may produce for this call. */
  maxTokens: number;
  /** Aborted on cancellation or time-out: the gateway must stop waiting and reject. */
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** True when the model did not report usage and the numbers are our estimate (about 4 characters a token). */
  estimated: boolean;
}

export interface ModelCompletion {
  text: string;
  usage: ModelUsage;
  /** The model that answered, as it named itself (or as configured). */
  model: string;
  /** True when the answer stopped at maxTokens. */
  truncated?: boolean;
}

export interface ModelGateway {
  /** A short name for replies and errors, e.g. "MCP sampling" or "http://127.0.0.1:11434/v1". */
  readonly description: string;
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
