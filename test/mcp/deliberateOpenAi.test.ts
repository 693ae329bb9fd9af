// The OpenAI-compatible gateway against a real local HTTP server on 127.0.0.1 that speaks /v1/chat/completions with
// scripted replies, driven through the deliberate tool (a client without sampling, as stdio CLI users have).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliberationReply } from '../../src/deliberation/deliberate';
import { createOpenAiGateway } from '../../src/deliberation/openAiGateway';
import { connectDeliberation, roleOf, textOf } from './support/scriptedModel';

interface SeenRequest {
  authorization?: string;
  body: { model: string; max_tokens: number; messages: { role: string; content: string }[] };
}

describe('deliberate through an OpenAI-compatible endpoint', () => {
  let server: Server;
  let endpoint: string;
  const seen: SeenRequest[] = [];
  before(async () => {
    server = createServer(async (request: IncomingMessage, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      const body = JSON.parse(raw) as SeenRequest['body'];
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
      const reply = {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: `${body.model}-served`,
        choices: [{ index: 0, message: { role: 'assistant', content: `${role} over http` }, finish_reason: role === 'critical' ? 'length' : 'stop' }],
        ...(role === 'synthesis' ? {} : { usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 } }),
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('runs every role over HTTP with the key from the named variable; usage as reported, else estimated; failures recorded', async () => {
    const gateway = createOpenAiGateway({ endpoint, model: 'local-model', apiKeyEnv: 'TEST_MODEL_KEY', env: { TEST_MODEL_KEY: 'secret-123' } });
    const harness = await connectDeliberation(() => ({}), { sampling: false, gateway });
    try {
      const result = await harness.deliberate({ problem: 'Is a cache worth it?', plan: 'hats', budgets: { timeoutMs: 400, maxTokens: 64 } });
      assert.notEqual(result.isError, true, textOf(result));
      const reply = result.structuredContent as unknown as DeliberationReply;
      assert.deepEqual(
        reply.roles.map((role) => [role.role, role.status]),
        [['factual', 'ok'], ['emotional', 'failed'], ['critical', 'ok'], ['optimistic', 'ok'], ['creative', 'failed'], ['synthesis', 'ok']],
      );
      assert.match(reply.roles[1].error ?? '', /500/);
      assert.equal(reply.roles[4].error, 'timed out after 400 ms');
      assert.deepEqual([reply.roles[0].inputTokens, reply.roles[0].outputTokens, reply.roles[0].estimatedTokens], [50, 9, false]);
      assert.equal(reply.roles[5].estimatedTokens, true);
      assert.equal(reply.roles[0].model, 'local-model-served');
      assert.equal(reply.gateway, `local-model at ${endpoint}`);
      assert.equal(reply.result, 'synthesis over http');
      assert.ok(seen.every((request) => request.authorization === 'Bearer secret-123' && request.body.model === 'local-model' && request.body.max_tokens === 64));
      assert.equal(seen[0].body.messages[0].role, 'system');
      const critical = harness.engine.getSession(reply.sessionId)?.thoughts.find((thought) => thought.stage === 'critical');
      assert.equal(critical?.extra?.truncated, true);
    } finally {
      await harness.close();
    }
  });

  it('refuses to start without the key variable it was told to read', () => {
    assert.throws(() => createOpenAiGateway({ endpoint, model: 'm', apiKeyEnv: 'MISSING_KEY', env: {} }), /MISSING_KEY .* is not set/);
  });
});
