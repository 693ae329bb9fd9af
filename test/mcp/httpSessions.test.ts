// startHttpServer's MCP session lifetime and browser origins: sessions a client never closed are reclaimed (after an
// idle time, and the least recently used idle one when the limit is reached), a session with a request in flight is
// never reclaimed, a 503 says when to retry, and an allowed browser Origin gets CORS answers while others stay refused.
import { afterEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { raw, type RawResponse } from './support/rawHttp';
import { waitFor } from './support/waitFor';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../../src/mcp/httpServer';

const TOKEN = 'test-token-0123456789abcdef0123456789';
const PROTOCOL = '2025-06-18';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** Initializes a session by hand (no DELETE ever follows) and returns its id. */
async function initialize(port: number): Promise<string> {
  const response = await raw(port, { headers: AUTH, body: INITIALIZE });
  assert.equal(response.status, 200, response.body);
  const id = response.headers['mcp-session-id'];
  assert.equal(typeof id, 'string');
  await raw(port, {
    headers: { ...AUTH, 'mcp-session-id': id as string, 'mcp-protocol-version': PROTOCOL },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return id as string;
}

function ping(port: number, sessionId: string): Promise<RawResponse> {
  return raw(port, {
    headers: { ...AUTH, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }),
  });
}

/** Opens the session's standalone SSE stream (GET) and keeps it open: a request in flight until aborted. */
function openStream(port: number, sessionId: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'GET',
        path: '/mcp',
        headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL },
      },
      (response) => {
        assert.equal(response.statusCode, 200);
        response.resume();
        resolve(request);
      },
    );
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end();
  });
}

describe('HTTP session lifetime', () => {
  let server: RunningHttpServer | undefined;
  const logs: string[] = [];
  const start = async (options: Partial<HttpServerOptions>) => {
    server = await startHttpServer({
      engine: new ThinkingEngine({ log: () => {} }),
      token: TOKEN,
      log: (message) => logs.push(message),
      ...options,
    });
    return server;
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
    logs.length = 0;
  });

  it('closes a session after the idle time; its client then gets 404', async () => {
    const running = await start({ sessionIdleMs: 150 });
    const id = await initialize(running.port);
    assert.equal((await ping(running.port, id)).status, 200);
    assert.equal(running.openSessions(), 1);
    await waitFor(() => running.openSessions() === 0, 'the idle session to be reclaimed');
    assert.ok(
      logs.some((line) => line.includes(id) && /idle/.test(line)),
      logs.join('\n'),
    );
    assert.equal((await ping(running.port, id)).status, 404);
  });

  it('keeps a real client with its SSE stream open past the idle time', async () => {
    // The server's idle timers run on node:test's mock clock: "past the idle time" is time the test moves on.
    mock.timers.enable({ apis: ['setTimeout'] });
    const running = await start({ sessionIdleMs: 150 });
    const client = new Client({ name: 'listening', version: '1' });
    // The client opens its SSE stream (a GET) on its own after connecting: known open once the server answered it.
    let streamOpened: () => void = () => undefined;
    const streamOpen = new Promise<void>((resolve) => (streamOpened = resolve));
    const fetchSeeingTheStream: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.ok) streamOpened();
      return response;
    };
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: AUTH }, fetch: fetchSeeingTheStream }),
      );
      await streamOpen;
      mock.timers.tick(500);
      assert.equal(running.openSessions(), 1);
      mock.timers.reset();
      assert.ok((await client.listTools()).tools.length > 0);
    } finally {
      mock.timers.reset();
      await client.close();
    }
  });

  it('admits a new client past the limit by closing the least recently used idle session', async () => {
    const running = await start({ maxSessions: 3 });
    const first = await initialize(running.port);
    const second = await initialize(running.port);
    const third = await initialize(running.port);
    // Use the first again: the second is now the least recently used.
    assert.equal((await ping(running.port, first)).status, 200);
    const fourth = await initialize(running.port);
    assert.equal(running.openSessions(), 3);
    assert.equal((await ping(running.port, second)).status, 404, 'the least recently used session was closed');
    for (const id of [first, third, fourth]) assert.equal((await ping(running.port, id)).status, 200, id);
    for (let index = 0; index < 10; index++) await initialize(running.port);
    assert.equal(running.openSessions(), 3);
  });

  it('never closes a session with a request in flight, and says when to retry when all are busy', async () => {
    // The idle timers armed until the streams are open run on node:test's mock clock, moved on by the test.
    mock.timers.enable({ apis: ['setTimeout'] });
    const running = await start({ maxSessions: 2, sessionIdleMs: 100 });
    const streams: ClientRequest[] = [];
    try {
      const one = await initialize(running.port);
      const two = await initialize(running.port);
      streams.push(await openStream(running.port, one), await openStream(running.port, two));
      // Longer than the idle time: open streams are requests in flight, not idleness.
      mock.timers.tick(400);
      assert.equal(running.openSessions(), 2);
      // Real timers again: the dropped stream below is reclaimed after the real idle time.
      mock.timers.reset();
      const refused = await raw(running.port, { headers: AUTH, body: INITIALIZE });
      assert.equal(refused.status, 503, refused.body);
      assert.match(String(refused.headers['retry-after']), /^\d+$/);
      assert.match(refused.body, /retry in \d+ seconds/);
      assert.equal((await ping(running.port, one)).status, 200);
      // A dropped stream makes its session idle again: the next client takes its place.
      streams[0].destroy();
      await waitFor(() => running.openSessions() < 2, "the dropped stream's session to be reclaimed", 3000);
      await initialize(running.port);
      assert.equal((await ping(running.port, two)).status, 200, 'the busy session is untouched');
    } finally {
      mock.timers.reset();
      for (const stream of streams) stream.destroy();
    }
  });

  it('refuses an idle time setTimeout cannot hold', async () => {
    await assert.rejects(start({ sessionIdleMs: 0 }), /sessionIdleMs/);
    await assert.rejects(start({ sessionIdleMs: 2 ** 31 }), /sessionIdleMs/);
  });
});

describe('HTTP browser origins', () => {
  const ALLOWED = 'http://localhost:6274';
  let server: RunningHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("answers an allowed Origin's preflight and requests with CORS headers, and refuses every other Origin", async () => {
    server = await startHttpServer({
      engine: new ThinkingEngine({ log: () => {} }),
      token: TOKEN,
      allowedOrigins: [ALLOWED],
      log: () => {},
    });
    const preflight = await raw(server.port, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-session-id',
      },
    });
    assert.equal(preflight.status, 204, preflight.body);
    assert.equal(preflight.headers['access-control-allow-origin'], ALLOWED);
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /Mcp-Session-Id/);

    const initialized = await raw(server.port, { headers: { ...AUTH, origin: ALLOWED }, body: INITIALIZE });
    assert.equal(initialized.status, 200, initialized.body);
    assert.equal(initialized.headers['access-control-allow-origin'], ALLOWED);
    assert.match(String(initialized.headers['access-control-expose-headers']), /Mcp-Session-Id/);

    // The token is still required from an allowed origin.
    const noToken = await raw(server.port, { headers: { origin: ALLOWED }, body: INITIALIZE });
    assert.equal(noToken.status, 401);

    for (const origin of ['http://localhost:6275', 'https://localhost:6274', 'http://evil.example', 'null']) {
      const refusedPreflight = await raw(server.port, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      assert.equal(refusedPreflight.status, 403, origin);
      assert.equal(refusedPreflight.headers['access-control-allow-origin'], undefined, origin);
      const refused = await raw(server.port, { headers: { ...AUTH, origin }, body: INITIALIZE });
      assert.equal(refused.status, 403, origin);
      assert.equal(refused.headers['access-control-allow-origin'], undefined, origin);
    }
    // A preflight from an allowed origin still needs the right Host (DNS rebinding).
    const rebinding = await raw(server.port, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, host: `attacker.example:${server.port}`, 'access-control-request-method': 'POST' },
    });
    assert.equal(rebinding.status, 403);
  });
});
