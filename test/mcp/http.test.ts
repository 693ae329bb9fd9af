// startHttpServer: Streamable HTTP on 127.0.0.1 behind a bearer token, as the CLI's --http and the VS Code extension
// use it. A real SDK Client with the token works; requests without it, from a foreign Host or Origin, or with an
// oversized body are refused before they reach MCP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { raw } from './support/rawHttp';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp/httpServer';
import { jsonOf, think } from './support/clients';

const TOKEN = 'test-token-0123456789abcdef0123456789';
const MAX_BODY = 64 * 1024;
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function connect(url: string, token = TOKEN): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('startHttpServer', () => {
  let server: RunningHttpServer;
  const methods: string[] = [];

  before(async () => {
    server = await startHttpServer({
      engine: new ThinkingEngine({ log: () => {} }),
      port: 0,
      token: TOKEN,
      maxBodyBytes: MAX_BODY,
      allowedOrigins: ['vscode-file://vscode-app'],
      log: () => {},
      onMessage: (method) => methods.push(method),
    });
  });
  after(() => server.close());

  it('listens on 127.0.0.1 at a free port and serves MCP to a client with the token', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(server.port > 0);
    const { client } = await connect(server.url);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === 'sequentialthinking'));
      const reply = jsonOf(
        await think(client, { thought: 'Over HTTP.', thoughtNumber: '1', total_thoughts: 2, nextThoughtNeeded: 'true' }),
      );
      assert.equal(reply.thoughtHistoryLength, 1);
      assert.ok(methods.includes('initialize') && methods.includes('tools/call'));
    } finally {
      await client.close();
    }
  });

  it('gives each MCP session its own McpServer and current session', async () => {
    const one = await connect(server.url);
    const two = await connect(server.url);
    try {
      assert.equal(server.openSessions() >= 2, true);
      const a = jsonOf(await think(one.client, { thought: 'A1', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }));
      const b = jsonOf(await think(two.client, { thought: 'B1', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }));
      const a2 = jsonOf(await think(one.client, { thought: 'A2', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true }));
      assert.notEqual(a.sessionId, b.sessionId);
      // A2 went to A's session (B's holds one thought); compact replies name the session only on its first reply.
      assert.equal(a2.thoughtHistoryLength, 2);
      assert.equal(a2.sessionId, undefined);
    } finally {
      await one.client.close();
      await two.client.close();
    }
  });

  it('closes a session on DELETE', async () => {
    const { client, transport } = await connect(server.url);
    const before = server.openSessions();
    await transport.terminateSession();
    assert.equal(server.openSessions(), before - 1);
    await client.close();
  });

  it('answers 401 without a token and with a wrong one', async () => {
    const none = await raw(server.port, { body: INITIALIZE });
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await raw(server.port, { body: INITIALIZE, headers: { authorization: 'Bearer not-the-token' } });
    assert.equal(wrong.status, 401);
    await assert.rejects(connect(server.url, 'wrong-token-wrong-token'), /401|Unauthorized/);
  });

  it('answers 403 to a foreign Host (DNS rebinding) and to an Origin not allowed', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await raw(server.port, { body: INITIALIZE, headers: { ...auth, host: `evil.example:${server.port}` } })).status, 403);
    assert.equal((await raw(server.port, { body: INITIALIZE, headers: { ...auth, host: `127.0.0.1:${server.port + 1}` } })).status, 403);
    assert.equal((await raw(server.port, { body: INITIALIZE, headers: { ...auth, origin: 'https://evil.example' } })).status, 403);
    const allowed = await raw(server.port, {
      body: INITIALIZE,
      headers: { ...auth, origin: 'vscode-file://vscode-app', host: `localhost:${server.port}` },
    });
    assert.equal(allowed.status, 200);
  });

  it('answers 413 to a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(MAX_BODY) } });
    const declared = await raw(server.port, { body: big, headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(declared.status, 413);
    const streamed = await raw(server.port, { body: big, headers: { authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' } });
    assert.equal(streamed.status, 413);
  });

  it('refuses requests outside the MCP endpoint and unknown sessions', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await raw(server.port, { path: '/other', body: INITIALIZE, headers: auth })).status, 404);
    assert.equal(
      (await raw(server.port, { body: '{"jsonrpc":"2.0","id":2,"method":"ping"}', headers: { ...auth, 'mcp-session-id': 'no-such' } }))
        .status,
      404,
    );
    assert.equal((await raw(server.port, { body: '{"jsonrpc":"2.0","id":2,"method":"ping"}', headers: auth })).status, 400);
    assert.equal((await raw(server.port, { body: 'not json', headers: auth })).status, 400);
    assert.equal((await raw(server.port, { method: 'PUT', body: INITIALIZE, headers: auth })).status, 405);
  });

  it('refuses a short token and closes every session on close()', async () => {
    await assert.rejects(startHttpServer({ engine: new ThinkingEngine({ log: () => {} }), token: 'short' }), /token/);
    const other = await startHttpServer({ engine: new ThinkingEngine({ log: () => {} }), token: TOKEN, log: () => {} });
    const { client } = await connect(other.url);
    assert.equal(other.openSessions(), 1);
    await other.close();
    assert.equal(other.openSessions(), 0);
    await assert.rejects(raw(other.port, { body: INITIALIZE }));
    await client.close().catch(() => {});
  });
});
