// What comes back from models and clients is bounded before it is held (issue 24, rows 1, 2, 4, 5, 6, 10, 11): a local
// OpenAI-compatible server on 127.0.0.1 answers with endless bodies, huge answers, broken usage and huge errors; a real
// MCP Client answers sampling/createMessage with more than the stdio line limit and elicitation with a huge error.
// Each runs against the built CLI (`node dist/cli.js`), whose RSS is read from /proc/<pid>/status.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CallToolResult } from '@modelcontextprotocol/client';
import { CLI, RawStdioServer, requireBuiltCli, tempStore } from './support';

const MB = 1024 * 1024;

interface ChatBody {
  model: string;
  max_tokens: unknown;
  messages: { role: string; content: string }[];
}

type Answer = (body: ChatBody, request: IncomingMessage, response: ServerResponse) => void;

/** A /v1/chat/completions server on 127.0.0.1 whose answer the current test sets. */
async function startChatServer(): Promise<{ endpoint: string; seen: ChatBody[]; answer: Answer; close(): Promise<void> }> {
  const state = {
    seen: [] as ChatBody[],
    answer: ((_body, _request, response) => response.writeHead(500).end()) as Answer,
  };
  const server: Server = createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const body = JSON.parse(raw) as ChatBody;
    state.seen.push(body);
    state.answer(body, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get seen() {
      return state.seen;
    },
    get answer() {
      return state.answer;
    },
    set answer(answer: Answer) {
      state.answer = answer;
      state.seen = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function completion(body: ChatBody, content: string, usage?: unknown): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage !== undefined ? { usage } : {}),
  });
}

/** Writes `bytes` of "a" as the answer's content, in 1 MB pieces that wait for the socket (no 100 MB string here). */
async function writeHugeAnswer(body: ChatBody, response: ServerResponse, bytes: number): Promise<void> {
  const [head, tail] = completion(body, '\u0000').split('\\u0000');
  response.writeHead(200, { 'content-type': 'application/json' });
  const piece = 'a'.repeat(MB);
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      if (response.write(text)) resolve();
      else response.once('drain', resolve);
    });
  await write(head);
  for (let sent = 0; sent < bytes && !response.destroyed; sent += MB) await write(piece);
  response.end(tail);
}

/** The highest VmRSS of a process while `work` runs; kills the process (and fails) once it passes `ceiling`. */
async function peakRss<T>(pid: number, ceiling: number, work: Promise<T>): Promise<{ value: T | undefined; peak: number }> {
  let peak = 0;
  let passed = false;
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
      if (peak > ceiling && !passed) {
        passed = true;
        process.kill(pid, 'SIGKILL');
      }
    } catch {
      // The process is gone.
    }
  }, 50);
  try {
    return { value: await work.catch(() => undefined), peak };
  } finally {
    clearInterval(timer);
  }
}

function deliberateRequest(args: Record<string, unknown>) {
  return { name: 'deliberate', arguments: args };
}

describe('bounded model answers (OpenAI-compatible endpoint)', () => {
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  before(async () => {
    requireBuiltCli();
    chat = await startChatServer();
  });
  after(() => chat.close());

  function startCli(): { server: RawStdioServer; remove(): void } {
    const store = tempStore();
    const server = RawStdioServer.start(store.dir, ['--model-endpoint', chat.endpoint, '--model', 'attack']);
    return { server, remove: store.remove };
  }

  it('row 1: headers then body bytes forever — the role fails at the byte limit and the server stays under 512 MB', async () => {
    chat.answer = (_body, _request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const piece = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(piece));
        if (!response.destroyed) response.once('drain', pump);
      };
      response.write('{"id":"x","choices":[{"message":{"content":"');
      pump();
    };
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const { value: reply, peak } = await peakRss(
        server.child.pid!,
        512 * MB,
        server.request(
          1,
          'tools/call',
          deliberateRequest({ problem: 'p', plan: 'direct', roles: ['factual'], budgets: { timeoutMs: 20_000 } }),
          40_000,
        ),
      );
      console.log(`# endless body: peak RSS ${(peak / MB).toFixed(0)} MB`);
      assert.ok(peak < 512 * MB, `the server reached ${(peak / MB).toFixed(0)} MB`);
      assert.ok(reply?.result, `no reply: ${JSON.stringify(reply)}`);
      const result = reply.result as unknown as CallToolResult;
      const roles = (result.structuredContent as { roles: { status: string; error?: string }[] }).roles;
      assert.equal(roles[0].status, 'failed');
      assert.match(roles[0].error ?? '', /more than \d+ bytes/);
    } finally {
      server.kill();
      remove();
    }
  });

  it('row 2: 3 × 100 MB answers in a concat plan — a reply under 2 MB within 60 s, stored thoughts bounded', async () => {
    chat.answer = (body, _request, response) => void writeHugeAnswer(body, response, 100 * MB);
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const started = Date.now();
      const reply = await server.request(
        2,
        'tools/call',
        deliberateRequest({
          problem: 'p',
          plan: 'sequential',
          roles: ['factual', 'critical', 'optimistic'],
          resultStrategy: 'concat',
          budgets: { timeoutMs: 50_000 },
        }),
        60_000,
      );
      const size = Buffer.byteLength(JSON.stringify(reply));
      console.log(`# 3 x 100 MB answers: reply ${size} bytes after ${Date.now() - started} ms`);
      assert.ok(size < 2 * MB, `reply of ${size} bytes`);
      assert.ok(reply.result && (reply.result as { isError?: boolean }).isError !== true, JSON.stringify(reply).slice(0, 500));
    } finally {
      server.kill();
      remove();
    }
  });

  it('row 2: answers within the byte limit are cut in the reply (a few KB per role, with where the whole text is)', async () => {
    chat.answer = (body, _request, response) => void writeHugeAnswer(body, response, 3 * MB);
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const reply = await server.request(
        3,
        'tools/call',
        deliberateRequest({ problem: 'p', plan: 'sequential', roles: ['factual', 'critical'], resultStrategy: 'concat' }),
        60_000,
      );
      const size = Buffer.byteLength(JSON.stringify(reply));
      assert.ok(size < 100_000, `reply of ${size} bytes`);
      const result = reply.result as unknown as CallToolResult & { structuredContent: { result: string; sessionId: string } };
      assert.match(result.structuredContent.result, /thinking:\/\/sessions\//);
      const full = await server.request(4, 'tools/call', {
        name: 'thinking_sessions',
        arguments: { action: 'get', sessionId: result.structuredContent.sessionId, detail: 'full' },
      });
      const thoughts = (full.result as { structuredContent: { thoughts: { thought: string }[] } }).structuredContent.thoughts;
      for (const thought of thoughts) assert.ok(thought.thought.length <= 20_000, `a stored thought of ${thought.thought.length}`);
    } finally {
      server.kill();
      remove();
    }
  });

  it('row 4: usage {} or float/string counts — max_tokens stays a number, the reply is no output-validation error', async () => {
    let call = 0;
    chat.answer = (body, _request, response) => {
      call++;
      const usage = call % 2 === 1 ? {} : { prompt_tokens: 1.5, completion_tokens: '7' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(completion(body, 'an answer', usage));
    };
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const reply = await server.request(
        5,
        'tools/call',
        deliberateRequest({ problem: 'p', plan: 'sequential', roles: ['factual', 'critical', 'optimistic'] }),
        30_000,
      );
      assert.equal(reply.error, undefined, JSON.stringify(reply.error));
      const result = reply.result as unknown as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      for (const body of chat.seen) assert.equal(typeof body.max_tokens, 'number', `max_tokens sent as ${JSON.stringify(body.max_tokens)}`);
      const structured = result.structuredContent as {
        roles: { outputTokens: number; tokensNote?: string }[];
        usage: { outputTokens: number };
      };
      assert.ok(Number.isSafeInteger(structured.usage.outputTokens) && structured.usage.outputTokens >= 0);
      assert.ok(
        structured.roles.every((role) => /unknown/.test(role.tokensNote ?? '')),
        JSON.stringify(structured.roles),
      );
    } finally {
      server.kill();
      remove();
    }
  });

  it('row 6: negative token counts are not credited back to the budget', async () => {
    chat.answer = (body, _request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(completion(body, 'x'.repeat(60), { prompt_tokens: -5, completion_tokens: -1_000_000 }));
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const reply = await server.request(
        6,
        'tools/call',
        deliberateRequest({
          problem: 'p',
          plan: 'sequential',
          roles: ['factual', 'critical', 'optimistic', 'creative'],
          budgets: { maxTotalTokens: 10 },
        }),
        30_000,
      );
      const structured = (reply.result as unknown as CallToolResult).structuredContent as {
        usage: { calls: number; outputTokens: number };
      };
      assert.ok(structured.usage.outputTokens >= 0, `output tokens ${structured.usage.outputTokens}`);
      assert.equal(structured.usage.calls, 1, 'the first call spent the 10-token budget');
      assert.equal(chat.seen.length, 1);
    } finally {
      server.kill();
      remove();
    }
  });

  it('row 5: an endpoint 500 with a 5 MB message — the stored error and the reply stay small', async () => {
    chat.answer = (_body, _request, response) =>
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `broken ${'e'.repeat(5 * MB)}` } }));
    const { server, remove } = startCli();
    try {
      await server.initialize();
      const reply = await server.request(7, 'tools/call', deliberateRequest({ problem: 'p', plan: 'direct', roles: ['factual'] }), 30_000);
      const size = Buffer.byteLength(JSON.stringify(reply));
      assert.ok(size < 50_000, `reply of ${size} bytes`);
      const structured = (reply.result as unknown as CallToolResult).structuredContent as { sessionId: string };
      const full = await server.request(8, 'tools/call', {
        name: 'thinking_sessions',
        arguments: { action: 'get', sessionId: structured.sessionId, detail: 'full' },
      });
      const stored = JSON.stringify(full);
      assert.ok(stored.length < 50_000, `the session holds ${stored.length} characters`);
      assert.match(stored, /broken e+/);
    } finally {
      server.kill();
      remove();
    }
  });
});

describe('bounded answers from the MCP client (sampling, elicitation)', () => {
  before(() => requireBuiltCli());

  it('row 11: a sampling answer over the stdio line limit fails its role at once, with a clear message', async () => {
    const store = tempStore();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--storage-path', store.dir], stderr: 'pipe' });
    const client = new Client({ name: 'bounds', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant',
      model: 'huge',
      content: { type: 'text', text: 'b'.repeat(11 * MB) },
    }));
    await client.connect(transport);
    try {
      const result = (await client.callTool(
        { name: 'deliberate', arguments: { problem: 'p', plan: 'direct', roles: ['factual'], budgets: { timeoutMs: 30_000 } } },
        { timeout: 60_000 },
      )) as CallToolResult;
      const roles = (result.structuredContent as { roles: { status: string; error?: string }[] }).roles;
      assert.equal(roles[0].status, 'failed');
      assert.match(roles[0].error ?? '', /longer than \d+ bytes/);
    } finally {
      await client.close();
      store.remove();
    }
  });

  it('row 10: an elicitation client fails with a 100 KB error — the reply carries a short note', async () => {
    const store = tempStore();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--storage-path', store.dir, '--ask-at-decision-points', '--decision-timeout', '10'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bounds', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let answers = 0;
    client.setRequestHandler('elicitation/create', () => {
      answers++;
      if (answers === 1) throw new Error(`client broke ${'z'.repeat(100_000)}`);
      // Not a valid elicitation result: the warning must say so in words, not as a raw validation dump.
      return { action: 'maybe', content: 42 } as never;
    });
    await client.connect(transport);
    try {
      const think = (args: Record<string, unknown>) =>
        client.callTool({ name: 'sequentialthinking', arguments: args }) as Promise<CallToolResult>;
      await think({ thought: 'start', thoughtNumber: 1, totalThoughts: 6, nextThoughtNeeded: true });
      const first = await think({ thought: 'done', thoughtNumber: 2, totalThoughts: 6, nextThoughtNeeded: false });
      const firstText = JSON.stringify(first);
      assert.ok(firstText.length < 20_000, `reply of ${firstText.length} characters`);
      assert.match(firstText, /could not be asked/);
      await think({ thought: 'again', thoughtNumber: 1, totalThoughts: 6, nextThoughtNeeded: true, sessionId: 'second-session' });
      const second = await think({
        thought: 'done',
        thoughtNumber: 2,
        totalThoughts: 6,
        nextThoughtNeeded: false,
        sessionId: 'second-session',
      });
      const secondText = JSON.stringify(second);
      assert.equal(answers, 2);
      assert.ok(secondText.length < 5_000, `reply of ${secondText.length} characters`);
      assert.doesNotMatch(secondText, /"code":\s*"invalid/);
      assert.match(secondText, /not a valid answer/);
    } finally {
      await client.close();
      store.remove();
    }
  });
});
