// Test support for deliberation: a scripted model answering MCP sampling requests from a real SDK Client, and our
// server (createServer, as the CLI and the extension build it) connected to it over the in-memory transport. The
// script decides per call (by role, by the call's order) what the "model" says, how long it takes, whether it fails,
// never answers or asks for tools; a scripted ToolGateway answers the tool calls.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { type CallToolResult, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../../src/engine/engine';
import type { ModelGateway, ModelTool, ModelToolCall } from '../../../src/engine/modelGateway';
import type { ToolCallOutcome, ToolGateway } from '../../../src/engine/toolGateway';
import { createServer } from '../../../src/mcp/server';
import type { ToolCallTelemetry } from '../../../src/mcp/toolCallTelemetry';

export interface ScriptedCall {
  role: string;
  /** 0-based index of this call among all calls. */
  index: number;
  /** 0-based index among this role's calls. */
  roleIndex: number;
  maxTokens: number;
  system: string;
  user: string;
  /** Every non-system message's text, in order (tool results come as a message of their own). */
  messages: string[];
  /** Names of the tools offered with this call. */
  tools: string[];
}

export interface ScriptedReply {
  text?: string;
  delayMs?: number;
  /** Reject with this message. */
  fail?: string;
  /** Never answer (until cancelled). */
  hang?: boolean;
  usage?: { inputTokens: number; outputTokens: number };
  stopReason?: string;
  /** Ask for these tools (answered as tool_use content; only sent when the client declared sampling.tools). */
  toolCalls?: { name: string; input?: Record<string, unknown> }[];
}

export type Script = (call: ScriptedCall) => ScriptedReply;

export function roleOf(system: string): string {
  return /Your role: (?:the )?"?([A-Za-z][\w-]*)/.exec(system)?.[1] ?? 'unknown';
}

export interface ScriptedModelLog {
  calls: ScriptedCall[];
  /** Calls the client saw cancelled (notifications/cancelled aborted its handler). */
  cancelled: ScriptedCall[];
  /** Calls in flight right now, and the most at once. */
  inFlight: number;
  maxInFlight: number;
}

export interface DeliberationHarness {
  client: Client;
  engine: ThinkingEngine;
  log: ScriptedModelLog;
  deliberate(
    args: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
      /** The request's `_meta` (W3C trace context, say). */
      meta?: Record<string, unknown>;
    },
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

const quiet = () => {};

export async function connectDeliberation(
  script: Script,
  options: {
    sampling?: boolean;
    samplingTools?: boolean;
    engine?: ThinkingEngine;
    gateway?: ModelGateway;
    toolGateway?: ToolGateway;
    connectionId?: string;
    telemetry?: ToolCallTelemetry;
  } = {},
): Promise<DeliberationHarness> {
  const engine = options.engine ?? new ThinkingEngine({ log: quiet });
  const { server } = createServer({
    engine,
    connectionId: options.connectionId ?? 'test-connection',
    modelGateway: options.gateway,
    toolGateway: options.toolGateway,
    telemetry: options.telemetry,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const capabilities = options.sampling === false ? {} : { sampling: options.samplingTools ? { tools: {} } : {} };
  const client = new Client({ name: 'scripted-model', version: '1.0.0' }, { capabilities });
  const log: ScriptedModelLog = { calls: [], cancelled: [], inFlight: 0, maxInFlight: 0 };
  const perRole = new Map<string, number>();
  if (options.sampling !== false) {
    client.setRequestHandler('sampling/createMessage', async (request: CreateMessageRequest, extra): Promise<CreateMessageResult> => {
      const system = request.params.systemPrompt ?? '';
      const role = roleOf(system);
      const texts = request.params.messages.map((message) => (message.content as { type: string; text?: string }).text ?? '');
      const call: ScriptedCall = {
        role,
        index: log.calls.length,
        roleIndex: perRole.get(role) ?? 0,
        maxTokens: request.params.maxTokens,
        system,
        user: texts[0] ?? '',
        messages: texts,
        tools: (request.params.tools ?? []).map((tool) => tool.name),
      };
      perRole.set(role, call.roleIndex + 1);
      log.calls.push(call);
      const reply = script(call);
      log.inFlight++;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      try {
        await wait(reply.hang ? Number.POSITIVE_INFINITY : (reply.delayMs ?? 0), extra.mcpReq.signal, () => log.cancelled.push(call));
        if (reply.fail !== undefined) throw new Error(reply.fail);
        const text = reply.text ?? `${role} says something about it.`;
        const meta = reply.usage ? { _meta: { usage: reply.usage } } : {};
        if (reply.toolCalls && request.params.tools) {
          const uses = reply.toolCalls.map((use, index) => ({
            type: 'tool_use' as const,
            id: `use-${call.index}-${index}`,
            name: use.name,
            input: use.input ?? {},
          }));
          return {
            role: 'assistant',
            model: 'scripted-1',
            content: [...(text ? [{ type: 'text' as const, text }] : []), ...uses],
            stopReason: 'toolUse',
            ...meta,
          } as unknown as CreateMessageResult;
        }
        return {
          role: 'assistant',
          model: 'scripted-1',
          content: { type: 'text', text },
          stopReason: reply.stopReason ?? 'endTurn',
          ...meta,
        };
      } finally {
        log.inFlight--;
      }
    });
  }
  await client.connect(clientTransport);
  return {
    client,
    engine,
    log,
    deliberate: (args, callOptions = {}) =>
      client.callTool(
        { name: 'deliberate', arguments: args, ...(callOptions.meta ? { _meta: callOptions.meta } : {}) },
        {
          signal: callOptions.signal,
          timeout: 120_000,
          ...(callOptions.onprogress ? { onprogress: callOptions.onprogress } : {}),
        },
      ) as Promise<CallToolResult>,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function wait(ms: number, signal: AbortSignal, onCancel: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        onCancel();
        reject(new Error('cancelled'));
      },
      { once: true },
    );
  });
}

/** A ToolGateway over scripted tools: each answers from its function (or hangs until aborted), and every call is logged. */
export class ScriptedToolGateway implements ToolGateway {
  readonly description = 'scripted tools';
  readonly calls: ModelToolCall[] = [];
  readonly aborted: ModelToolCall[] = [];

  constructor(
    private readonly answers: Record<
      string,
      { tool?: Partial<ModelTool>; answer: (input: Record<string, unknown>) => ToolCallOutcome | 'hang' }
    >,
  ) {}

  tools(): readonly ModelTool[] {
    return Object.entries(this.answers).map(([name, entry]) => ({ name, description: `The ${name} tool.`, ...entry.tool }));
  }

  async invoke(call: ModelToolCall, options: { signal?: AbortSignal }): Promise<ToolCallOutcome> {
    this.calls.push(call);
    const answer = this.answers[call.name]?.answer(call.input) ?? { text: `no tool ${call.name}`, isError: true };
    if (answer !== 'hang') return answer;
    return new Promise((_, reject) => {
      options.signal?.addEventListener('abort', () => {
        this.aborted.push(call);
        reject(options.signal?.reason);
      });
    });
  }
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
