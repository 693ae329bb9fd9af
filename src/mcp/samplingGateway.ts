// The model gateway over MCP sampling: asks the client that called the tool to run the model
// (`sampling/createMessage`), tied to the tool call's request so HTTP transports route it on the right stream, and
// aborted with the call's signal (the SDK then sends notifications/cancelled to the client). Tools go to the model
// natively only when the client declared `sampling.tools` (MCP 2025-11-25); otherwise task steps run without tools.
import type { McpServer } from '@modelcontextprotocol/server';
import type { CreateMessageResult, CreateMessageResultWithTools, RequestId, Tool } from '@modelcontextprotocol/server';
import {
  checkedUsage,
  type ModelCallOptions,
  type ModelCompletion,
  type ModelGateway,
  type ModelMessage,
  type ModelTool,
  type ModelToolCall,
} from '../engine/modelGateway';

/** Our runner cuts calls at their own time-out; the SDK's default 60 s must not cut them first. */
const SDK_TIMEOUT_MS = 30 * 60_000;

export function clientSupportsSampling(server: McpServer): boolean {
  return server.server.getClientCapabilities()?.sampling !== undefined;
}

export function clientSupportsSamplingTools(server: McpServer): boolean {
  return server.server.getClientCapabilities()?.sampling?.tools !== undefined;
}

export function createSamplingGateway(server: McpServer, relatedRequestId?: RequestId): ModelGateway {
  const toolCalling = clientSupportsSamplingTools(server);
  return {
    description: 'MCP sampling (the calling client runs the model)',
    toolCalling,
    async complete(messages: readonly ModelMessage[], options: ModelCallOptions): Promise<ModelCompletion> {
      const system = messages
        .filter((message) => message.role === 'system')
        .map((message) => message.text)
        .join('\n\n');
      const tools = toolCalling && options.tools && options.tools.length > 0 ? options.tools.map(samplingTool) : undefined;
      const result: CreateMessageResult | CreateMessageResultWithTools = await server.server.createMessage(
        {
          messages: messages
            .filter((message) => message.role !== 'system')
            .map((message) => ({ role: message.role as 'user' | 'assistant', content: { type: 'text' as const, text: message.text } })),
          ...(system ? { systemPrompt: system } : {}),
          maxTokens: options.maxTokens,
          includeContext: 'none',
          ...(tools ? { tools, toolChoice: { mode: 'auto' as const } } : {}),
        },
        { signal: options.signal, timeout: SDK_TIMEOUT_MS, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
      );
      const text = textOf(result);
      const toolCalls = tools ? toolCallsOf(result) : [];
      return {
        text,
        usage: checkedUsage(reportedUsage(result), messages, text),
        model: typeof result.model === 'string' ? result.model.slice(0, 200) : 'unknown',
        truncated: result.stopReason === 'maxTokens',
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      };
    },
  };
}

function samplingTool(tool: ModelTool): Tool {
  const schema = tool.inputSchema ?? {};
  return { name: tool.name, description: tool.description, inputSchema: { ...schema, type: 'object' } as Tool['inputSchema'] };
}

function toolCallsOf(result: CreateMessageResult | CreateMessageResultWithTools): ModelToolCall[] {
  const content = result.content as unknown;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .filter(
      (block): block is { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> } =>
        (block as { type?: unknown } | null)?.type === 'tool_use',
    )
    .map((block) => ({ id: block.id, name: block.name, input: block.input }));
}

function textOf(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const content = result.content as unknown;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text',
    )
    .map((block) => block.text)
    .join('\n');
}

/** Sampling has no usage field; a client may still report one in `_meta.usage` (or `usage`). Checked by checkedUsage. */
function reportedUsage(result: CreateMessageResult | CreateMessageResultWithTools): { input: unknown; output: unknown } | undefined {
  const raw = (result._meta as Record<string, unknown> | undefined)?.usage ?? (result as Record<string, unknown>).usage;
  if (raw === null || typeof raw !== 'object') return undefined;
  const { inputTokens, outputTokens } = raw as Record<string, unknown>;
  return { input: inputTokens, output: outputTokens };
}
