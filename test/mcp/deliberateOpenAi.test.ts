// The OpenAI-compatible gateway against a real local HTTP server on 127.0.0.1 that speaks /v1/chat/completions with
// scripted replies, driven through the deliberate tool (a client without sampling, as stdio CLI users have): in
// process, through the CLI (a spawned `node dist/cli.js --model-endpoint ...` over stdio), and with native tool calls.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { DeliberationReply } from '../../src/deliberation/deliberate';
import { createOpenAiGateway } from '../../src/deliberation/openAiGateway';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { CLI, connectStdio, ensureBuiltCli, tempDir } from './support/clients';
import { connectDeliberation, roleOf, ScriptedToolGateway, textOf } from './support/scriptedModel';

interface SeenRequest {
  authorization?: string;
  body: {
    model: string;
    max_tokens: number;
    messages: { role: string; content: string }[];
    tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  };
}

/** A chat-completions server on 127.0.0.1 whose answers `answer` writes; the body arrives parsed. */
async function startChatServer(
  answer: (body: SeenRequest['body'], request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    answer(JSON.parse(raw) as SeenRequest['body'], request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('deliberate through an OpenAI-compatible endpoint', () => {
  let chat: { endpoint: string; close(): Promise<void> };
  let endpoint: string;
  const seen: SeenRequest[] = [];
  before(async () => {
    chat = await startChatServer((body, request, response) => {
      seen.push({ authorization: request.headers.authorization, body });
      const role = roleOf(body.messages[0].content);
      if (request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      if (role === 'emotional') {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed' } }));
        return;
      }
      if (role === 'creative') return; // never answers: the deliberation's time-out must cut it
      const askTools =
        body.tools !== undefined && !body.messages.some((message) => message.content.startsWith('Results of the tools you called'));
      if (role === 'optimistic' && askTools) {
        // A native tool call: no text, one function call with JSON arguments.
        const toolCall = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"cache hit rate"}' } };
        const reply = {
          id: 'chatcmpl-2',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish_reason: 'tool_calls' }],
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        return;
      }
      const reply = {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: `${body.model}-served`,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `${role} over http` },
            finish_reason: role === 'critical' ? 'length' : 'stop',
          },
        ],
        ...(role === 'synthesis' ? {} : { usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 } }),
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
    endpoint = chat.endpoint;
  });
  after(() => chat.close());

  it('runs every role over HTTP with the key from the named variable; usage as reported, else estimated; failures recorded', async () => {
    const gateway = createOpenAiGateway({
      endpoint,
      model: 'local-model',
      apiKeyEnv: 'TEST_MODEL_KEY',
      env: { TEST_MODEL_KEY: 'secret-123' },
    });
    const harness = await connectDeliberation(() => ({}), { sampling: false, gateway });
    try {
      const result = await harness.deliberate({
        problem: 'Is a cache worth it?',
        plan: 'hats',
        budgets: { timeoutMs: 1_500, maxTokens: 64 },
      });
      assert.notEqual(result.isError, true, textOf(result));
      const reply = result.structuredContent as unknown as DeliberationReply;
      assert.deepEqual(
        reply.roles.map((role) => [role.role, role.status]),
        [
          ['factual', 'ok'],
          ['emotional', 'failed'],
          ['critical', 'ok'],
          ['optimistic', 'ok'],
          ['creative', 'failed'],
          ['synthesis', 'ok'],
        ],
      );
      assert.match(reply.roles[1].error ?? '', /500/);
      assert.equal(reply.roles[4].error, 'timed out after 1500 ms');
      assert.deepEqual([reply.roles[0].inputTokens, reply.roles[0].outputTokens, reply.roles[0].estimatedTokens], [50, 9, false]);
      assert.equal(reply.roles[5].estimatedTokens, true);
      assert.equal(reply.roles[0].model, 'local-model-served');
      assert.equal(reply.gateway, `local-model at ${endpoint}`);
      assert.equal(reply.result, 'synthesis over http');
      assert.ok(
        seen.every(
          (request) =>
            request.authorization === 'Bearer secret-123' && request.body.model === 'local-model' && request.body.max_tokens === 64,
        ),
      );
      assert.equal(seen[0].body.messages[0].role, 'system');
      const critical = harness.engine.getSession(reply.sessionId)?.thoughts.find((thought) => thought.stage === 'critical');
      assert.equal(critical?.extra?.truncated, true);
    } finally {
      await harness.close();
    }
  });

  it('native tool calls: tools go out as function tools, tool_calls come back and run through the ToolGateway', async () => {
    const gateway = createOpenAiGateway({ endpoint, model: 'local-model' });
    const tools = new ScriptedToolGateway({
      search: {
        tool: { inputSchema: { type: 'object', properties: { query: { type: 'string' } } } },
        answer: (input) => ({ text: `hit rate is 93% (${String(input.query)})`, isError: false }),
      },
    });
    const harness = await connectDeliberation(() => ({}), { sampling: false, gateway, toolGateway: tools });
    const before = seen.length;
    try {
      const result = await harness.deliberate({
        problem: 'Keep the cache?',
        plan: { strategy: 'task', role: 'optimistic', tools: ['search'], resolution: { maxCycles: 3 } },
      });
      const reply = result.structuredContent as unknown as DeliberationReply;
      assert.notEqual(result.isError, true, textOf(result));
      const requests = seen.slice(before);
      assert.deepEqual(requests[0].body.tools, [
        {
          type: 'function',
          function: {
            name: 'search',
            description: 'The search tool.',
            parameters: { type: 'object', properties: { query: { type: 'string' } } },
          },
        },
      ]);
      assert.deepEqual(tools.calls, [{ id: 'call_1', name: 'search', input: { query: 'cache hit rate' } }]);
      assert.match(
        requests[1].body.messages.at(-1)?.content ?? '',
        /Results of the tools you called:[\s\S]*hit rate is 93% \(cache hit rate\)/,
      );
      assert.deepEqual(
        reply.roles.map((role) => [role.phase, role.tool ?? null]),
        [
          ['cycle', null],
          ['tool_call', 'search'],
          ['cycle', null],
        ],
      );
      assert.equal(reply.result, 'optimistic over http');
    } finally {
      await harness.close();
    }
  });

  it('refuses to start without the key variable it was told to read', () => {
    assert.throws(() => createOpenAiGateway({ endpoint, model: 'm', apiKeyEnv: 'MISSING_KEY', env: {} }), /MISSING_KEY .* is not set/);
  });
});

describe('deliberate through the CLI with --model-endpoint', () => {
  let chat: { endpoint: string; close(): Promise<void> };
  let endpoint: string;
  const authorizations: (string | undefined)[] = [];
  before(async () => {
    ensureBuiltCli();
    chat = await startChatServer((body, request, response) => {
      authorizations.push(request.headers.authorization);
      const role = roleOf(body.messages[0].content);
      const reply = {
        id: 'chatcmpl-cli',
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: `${role} from the endpoint` }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 40, completion_tokens: 5, total_tokens: 45 },
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
    endpoint = chat.endpoint;
  });
  after(() => chat.close());

  it('a stdio client without sampling deliberates on the endpoint; the session is saved in the store', async () => {
    const storage = tempDir();
    const cli = await connectStdio(
      process.execPath,
      [CLI, '--storage-path', storage, '--model-endpoint', endpoint, '--model', 'tiny', '--model-api-key-env', 'TE_TEST_KEY'],
      {
        TE_TEST_KEY: 'key-from-env',
      },
    );
    let reply: DeliberationReply;
    try {
      const result = (await cli.client.callTool(
        { name: 'deliberate', arguments: { problem: 'Cache or not?', plan: 'parallel-hats' } },
        { timeout: 60_000 },
      )) as CallToolResult;
      assert.notEqual(result.isError, true, textOf(result));
      reply = result.structuredContent as unknown as DeliberationReply;
    } finally {
      await cli.close();
    }
    assert.equal(reply.gateway, `tiny at ${endpoint}`);
    assert.equal(reply.status, 'complete');
    assert.deepEqual(reply.roles.map((role) => `${role.role}:${role.status}:${role.branch ?? '-'}`).sort(), [
      'creative:ok:creative',
      'critical:ok:critical',
      'emotional:ok:emotional',
      'factual:ok:factual',
      'optimistic:ok:optimistic',
      'synthesis:ok:-',
    ]);
    assert.equal(reply.roles.at(-1)?.role, 'synthesis');
    assert.equal(reply.result, 'synthesis from the endpoint');
    assert.ok(authorizations.length === 6 && authorizations.every((value) => value === 'Bearer key-from-env'));
    // Reopen the store the CLI wrote: the whole deliberation is there, one thought per role, parallel hats as branches.
    const store = new FileSessionStore(storage, { log: () => {} });
    try {
      const saved = store.loadSession(reply.sessionId);
      assert.ok(saved, 'saved session');
      assert.deepEqual(
        saved.thoughts.map((thought) => thought.stage).sort(),
        ['creative', 'critical', 'emotional', 'factual', 'framing', 'optimistic', 'synthesis'].sort(),
      );
      assert.deepEqual(
        saved.thoughts.filter((thought) => thought.branchId).map((thought) => thought.branchFromThought),
        [1, 1, 1, 1, 1],
      );
      assert.ok(
        saved.thoughts
          .filter((thought) => thought.extra?.role !== 'framing')
          .every((thought) => thought.extra?.model === 'tiny' && (thought.extra?.tokens as { output: number }).output === 5),
      );
    } finally {
      store.close();
    }
  });

  it('refuses a missing key variable, a key given as the variable name, and --model without --model-endpoint', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '' } }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    const missing = await run(['--model-endpoint', endpoint, '--model', 'tiny', '--model-api-key-env', 'TE_NOT_SET']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /TE_NOT_SET .*is not set/);
    const pasted = await run(['--model-endpoint', endpoint, '--model', 'tiny', '--model-api-key-env', 'sk-live-123/abc']);
    assert.equal(pasted.code, 2);
    assert.match(pasted.stderr, /NAME of an environment variable .*never the key itself/);
    assert.doesNotMatch(pasted.stderr, /sk-live-123/);
    const orphan = await run(['--model', 'tiny']);
    assert.equal(orphan.code, 2);
    assert.match(orphan.stderr, /--model and --model-api-key-env need --model-endpoint URL/);
  });
});
