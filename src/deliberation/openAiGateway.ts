// The model gateway for an OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM, any /v1/chat/completions
// server): for stdio CLI users whose MCP client cannot sample. Uses the `openai` client rather than hand-written HTTP.
// The client is loaded only when a gateway is made (an endpoint is configured): it is a third of the CLI bundle, and
// most runs never use it (start-up).
// Tools go out as native function tools and the model's tool_calls come back as ModelToolCalls.
import { randomUUID } from 'node:crypto';
// The ESM declarations, as the lazy import() below loads the ESM build (the CommonJS ones are a distinct class type).
import type OpenAI from 'openai' with { 'resolution-mode': 'import' };
import type { ChatCompletionMessageToolCall, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
  checkedUsage,
  type ModelCallOptions,
  type ModelCompletion,
  type ModelGateway,
  type ModelMessage,
  type ModelTool,
  type ModelToolCall,
} from '../engine/modelGateway';
import { boundedFetch } from './boundedFetch';

/** Longest model name, tool name or tool call id kept from a response. */
const MAX_MODEL_NAME = 200;

export interface OpenAiGatewayOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:11434/v1. */
  endpoint: string;
  model: string;
  /** Name of the environment variable holding the API key (the key itself never goes on a command line). */
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
}

export function createOpenAiGateway(options: OpenAiGatewayOptions): ModelGateway {
  const env = options.env ?? process.env;
  const apiKey = options.apiKeyEnv ? env[options.apiKeyEnv] : undefined;
  if (options.apiKeyEnv && !apiKey)
    throw new Error(`The environment variable ${options.apiKeyEnv} (the model endpoint's API key) is not set.`);
  // Local servers ignore the key, but the client insists on one.
  // Responses are read against a byte limit as well as the runner's time-out (see boundedFetch.ts).
  const connect = async (): Promise<OpenAI> => {
    const { OpenAI: OpenAIClient } = await import('openai');
    return new OpenAIClient({
      baseURL: options.endpoint,
      apiKey: apiKey ?? 'no-key',
      maxRetries: 0,
      timeout: 30 * 60_000,
      fetch: boundedFetch(),
    });
  };
  // Loaded in the background from now on, not at the first call: that call's time-out would pay for the load.
  const client = connect();
  client.catch(() => undefined); // a failed load is reported by the call that awaits it
  return {
    description: `${options.model} at ${options.endpoint}`,
    toolCalling: true,
    async complete(messages: readonly ModelMessage[], call: ModelCallOptions): Promise<ModelCompletion> {
      const response = await (
        await client
      ).chat.completions.create(
        {
          model: options.model,
          messages: messages.map((message) => ({ role: message.role, content: message.text })),
          max_tokens: call.maxTokens,
          ...(call.tools && call.tools.length > 0 ? { tools: call.tools.map(functionTool) } : {}),
        },
        { signal: call.signal },
      );
      const choice = response.choices[0];
      // Whatever the endpoint sent: only a string is an answer.
      const content: unknown = choice?.message?.content;
      const text = typeof content === 'string' ? content : '';
      // Counts are checked: an endpoint may send {}, floats, strings or negatives.
      const usage = checkedUsage(
        response.usage ? { input: response.usage.prompt_tokens, output: response.usage.completion_tokens } : undefined,
        messages,
        text,
      );
      const toolCalls = (choice?.message?.tool_calls ?? []).flatMap(toolCallOf);
      return {
        text,
        usage,
        model: typeof response.model === 'string' && response.model !== '' ? response.model.slice(0, MAX_MODEL_NAME) : options.model,
        truncated: choice?.finish_reason === 'length',
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      };
    },
  };
}

function functionTool(tool: ModelTool): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { type: 'object', ...tool.inputSchema } },
  };
}

function toolCallOf(call: ChatCompletionMessageToolCall): ModelToolCall[] {
  if (call.type !== 'function') return [];
  let input: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
  } catch {
    // Arguments that are not a JSON object: the tool gets none and its answer tells the model what it needs.
  }
  const id = typeof call.id === 'string' && call.id !== '' ? call.id.slice(0, MAX_MODEL_NAME) : randomUUID();
  return [{ id, name: String(call.function.name).slice(0, MAX_MODEL_NAME), input }];
}
