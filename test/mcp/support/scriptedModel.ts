// Test support for deliberation: a scripted model answering MCP sampling requests from a real SDK Client, and a server
// with the deliberate tool connected to it over the in-memory transport. The script decides per call (by role, by
// the call's order) what the "model" says, how long it takes, whether it fails or never answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, type CallToolResult, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { ThinkingEngine } from '../../../src/engine/engine';
import type { ModelGateway } from '../../../src/engine/modelGateway';
import { registerDeliberateTool } from '../../../src/mcp/tools/deliberate';

export interface ScriptedCall {
  role: string;
  /** 0-based index of this call among all calls. */
  index: number;
  /** 0-based index among this role's calls. */
  roleIndex: number;
  maxTokens: number;
  system: string;
  user: string;
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
  deliberate(args: Record<string, unknown>, options?: { signal?: AbortSignal; onprogress?: (progress: { progress: number; total?: number; message?: string }) => void }): Promise<CallToolResult>;
  close(): Promise<void>;
}

const quiet = () => {};

export async function connectDeliberation(
  script: Script,
  options: { sampling?: boolean; engine?: ThinkingEngine; gateway?: ModelGateway; connectionId?: string } = {},
): Promise<DeliberationHarness> {
  const engine = options.engine ?? new ThinkingEngine({ log: quiet });
  const server = new McpServer({ name: 'deliberation-test', version: '0.0.0' });
  registerDeliberateTool(server, { engine, connectionId: options.connectionId ?? 'test-connection', gateway: options.gateway });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'scripted-model', version: '1.0.0' }, { capabilities: options.sampling === false ? {} : { sampling: {} } });
  const log: ScriptedModelLog = { calls: [], cancelled: [], inFlight: 0, maxInFlight: 0 };
  const perRole = new Map<string, number>();
  if (options.sampling !== false) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request: CreateMessageRequest, extra): Promise<CreateMessageResult> => {
      const system = request.params.systemPrompt ?? '';
      const role = roleOf(system);
      const content = request.params.messages[0]?.content as { type: string; text?: string };
      const call: ScriptedCall = {
        role,
        index: log.calls.length,
        roleIndex: perRole.get(role) ?? 0,
        maxTokens: request.params.maxTokens,
        system,
        user: content?.text ?? '',
      };
      perRole.set(role, call.roleIndex + 1);
      log.calls.push(call);
      const reply = script(call);
      log.inFlight++;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      try {
        await wait(reply.hang ? Number.POSITIVE_INFINITY : (reply.delayMs ?? 0), extra.signal, () => log.cancelled.push(call));
        if (reply.fail !== undefined) throw new Error(reply.fail);
        const text = reply.text ?? `${role} says something about it.`;
        return {
          role: 'assistant',
          model: 'scripted-1',
          content: { type: 'text', text },
          stopReason: reply.stopReason ?? 'endTurn',
          ...(reply.usage ? { _meta: { usage: reply.usage } } : {}),
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
      client.callTool({ name: 'deliberate', arguments: args }, undefined, {
        signal: callOptions.signal,
        timeout: 120_000,
        ...(callOptions.onprogress ? { onprogress: callOptions.onprogress } : {}),
      }) as Promise<CallToolResult>,
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

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
