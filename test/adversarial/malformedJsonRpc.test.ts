// Malformed JSON-RPC against the built CLI, on stdio and on --http: garbage lines, invalid envelopes, ids the protocol
// does not allow or JavaScript cannot represent, wrong types, oversized lines. Every request must get a JSON-RPC error
// reply (never silence, never a crash), and the server must answer the next valid call.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { raw, type RawResponse } from '../mcp/support/rawHttp';
import { waitFor } from '../support/waitFor';
import { PROTOCOL_VERSION, RawStdioServer, requireBuiltCli, startHttpCli, tempStore, type HttpCli, type JsonRpcReply } from './support';

interface MalformedCase {
  name: string;
  line: string;
  /** The error code the reply must carry (any JSON-RPC error when undefined). */
  code?: number;
  /** A tool-level refusal (isError result) is also a fine answer for well-formed calls with bad arguments. */
  toolError?: boolean;
  /** HTTP still speaks the 2025-03-26 batches: a batch's requests answered one by one is a fine reply there. */
  httpBatch?: boolean;
}

const call = (id: unknown, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

const CASES: MalformedCase[] = [
  { name: 'a garbage line', line: 'garbage', code: -32700 },
  { name: 'a truncated object', line: '{"jsonrpc":"2.0","id":1,"method":"pi', code: -32700 },
  { name: 'binary noise', line: '\u0000\u0001\u00ff\ufffd{[', code: -32700 },
  { name: 'an empty array (batch)', line: '[]', code: -32600, httpBatch: true },
  { name: 'a batch of one', line: '[{"jsonrpc":"2.0","id":5,"method":"ping"}]', code: -32600, httpBatch: true },
  { name: 'a bare number', line: '42', code: -32600 },
  { name: 'a string', line: '"ping"', code: -32600 },
  { name: 'null', line: 'null', code: -32600 },
  { name: 'jsonrpc 1.0', line: '{"jsonrpc":"1.0","id":3,"method":"ping"}', code: -32600 },
  { name: 'no jsonrpc member', line: '{"id":4,"method":"ping"}', code: -32600 },
  { name: 'an id with neither method nor result', line: '{"jsonrpc":"2.0","id":2}', code: -32600 },
  { name: 'an object id', line: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', code: -32600 },
  { name: 'an array id', line: '{"jsonrpc":"2.0","id":[1],"method":"ping"}', code: -32600 },
  { name: 'a fractional id', line: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', code: -32600 },
  { name: 'a method that is a number', line: '{"jsonrpc":"2.0","id":11,"method":42}', code: -32600 },
  { name: 'params that are a string', line: '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"x"}' },
  { name: 'an unknown method', line: '{"jsonrpc":"2.0","id":8,"method":"nope/nope"}', code: -32601 },
  // The SDK's McpServer answers an unknown tool with an isError result naming it ("Tool no_such_tool not found").
  { name: 'tools/call of an unknown tool', line: call(12, 'no_such_tool', {}), toolError: true },
  { name: 'tool arguments that are an array', line: call(13, 'sequentialthinking', [1]), toolError: true },
  {
    name: 'tool arguments of wrong types',
    line: call(14, 'sequentialthinking', { thought: 42, thoughtNumber: 'one', totalThoughts: null, nextThoughtNeeded: 'maybe' }),
    toolError: true,
  },
  { name: 'a huge negative id', line: '{"jsonrpc":"2.0","id":-1e308,"method":"ping"}', code: -32600 },
  { name: 'an id above 2^53-1', line: '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', code: -32600 },
  { name: 'an id of 1e400 (Infinity)', line: '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', code: -32600 },
  {
    name: 'deeply nested arguments',
    line: `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"sequentialthinking","arguments":{"thought":${'['.repeat(100_000)}${']'.repeat(100_000)},"thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":false}}}`,
    toolError: true,
  },
  {
    name: 'a deeply nested sessionId',
    line: `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"thinking_sessions","arguments":{"action":"get","sessionId":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}}`,
    toolError: true,
  },
];

/** The id a reply to the line must carry: its own id when it is a valid one, else null. */
function expectedId(line: string): unknown {
  try {
    const parsed = JSON.parse(line) as { id?: unknown };
    const id = parsed?.id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  } catch {
    // Not JSON: the reply's id is null.
  }
  return null;
}

function assertErrorReply(reply: JsonRpcReply, testCase: MalformedCase): void {
  if (testCase.toolError && reply.result) {
    assert.equal(reply.result.isError, true, `expected a refusal: ${JSON.stringify(reply).slice(0, 300)}`);
    return;
  }
  assert.ok(reply.error, `expected a JSON-RPC error: ${JSON.stringify(reply).slice(0, 300)}`);
  assert.equal(typeof reply.error.message, 'string');
  assert.ok(reply.error.message.length > 0, 'the error says why');
  if (testCase.code !== undefined) assert.equal(reply.error.code, testCase.code, reply.error.message);
}

describe('malformed JSON-RPC on stdio', () => {
  const store = tempStore('te-jsonrpc-stdio-');
  let server: RawStdioServer;
  let pings = 0;
  before(async () => {
    requireBuiltCli();
    server = RawStdioServer.start(store.dir);
    await server.initialize();
  });
  after(async () => {
    await server.stop();
    store.remove();
  });

  /** The server is alive and answers a valid request. */
  const assertServing = async () => {
    const id = `ping-${++pings}`;
    const reply = await server.request(id, 'ping', undefined, 5000);
    assert.deepEqual(reply.result, {}, `ping after a malformed message: ${JSON.stringify(reply)}`);
  };

  for (const testCase of CASES) {
    it(`answers ${testCase.name} with an error and keeps serving`, async () => {
      const from = server.replies.length;
      const id = expectedId(testCase.line);
      server.writeLine(testCase.line);
      const reply = await server.waitFor(
        (candidate) => candidate.id === id && (candidate.error !== undefined || candidate.result !== undefined),
        2000,
        from,
      );
      assertErrorReply(reply, testCase);
      await assertServing();
      assert.deepEqual(server.badStdoutLines, [], 'stdout carries only JSON-RPC');
    });
  }

  it('answers a line over 10 MB with an error and keeps serving', async () => {
    const from = server.replies.length;
    server.writeLine(
      call(99, 'sequentialthinking', {
        thought: 'x'.repeat(11 * 1024 * 1024),
        thoughtNumber: 1,
        totalThoughts: 1,
        nextThoughtNeeded: false,
      }),
    );
    const reply = await server.waitFor(
      (candidate) => candidate.error !== undefined && (candidate.id === 99 || candidate.id === null),
      10_000,
      from,
    );
    assert.ok(reply.error && [-32600, -32700].includes(reply.error.code), JSON.stringify(reply));
    await assertServing();
  });

  it('survives a burst of 5,000 pings with every one answered', async () => {
    const from = server.replies.length;
    for (let index = 0; index < 5000; index++) server.send({ jsonrpc: '2.0', id: `burst-${index}`, method: 'ping' });
    await server.waitFor((reply) => reply.id === 'burst-4999', 20_000, from);
    const answered = new Set(server.replies.slice(from).map((reply) => reply.id));
    assert.equal([...answered].filter((id) => typeof id === 'string' && id.startsWith('burst-')).length, 5000);
    assert.ok(server.alive);
  });
});

/** A raw POST to the CLI's endpoint with its bearer token (and any other headers), so the body can be anything. */
function post(server: HttpCli, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(server.url);
  return raw(Number(url.port), { path: url.pathname, headers: { authorization: `Bearer ${server.token}`, ...headers }, body });
}

/** JSON-RPC messages in a response body, plain JSON or server-sent events. */
function messagesIn(body: string): JsonRpcReply[] {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as JsonRpcReply | JsonRpcReply[];
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as JsonRpcReply);
}

describe('malformed JSON-RPC over HTTP', () => {
  const store = tempStore('te-jsonrpc-http-');
  let server: HttpCli;
  let sessionId = '';
  before(async () => {
    requireBuiltCli();
    server = await startHttpCli(store.dir);
    // Initialize by hand to learn the MCP session id the later requests carry.
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const initialized = await post(server, initialize);
    const response = { session: String(initialized.headers['mcp-session-id'] ?? ''), body: initialized.body };
    sessionId = response.session;
    assert.ok(sessionId, `no mcp-session-id: ${response.body}`);
    await post(server, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': PROTOCOL_VERSION,
    });
  });
  after(async () => {
    await server.stop();
    store.remove();
  });

  const headers = () => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION });
  let pings = 0;
  const assertServing = async () => {
    const id = `ping-${++pings}`;
    const response = await post(server, JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }), headers());
    assert.equal(response.status, 200, response.body);
    assert.deepEqual(messagesIn(response.body).find((message) => message.id === id)?.result, {}, response.body);
  };

  for (const testCase of CASES) {
    // The HTTP layer refuses a whole body with a status; what matters is an error reply and a server that goes on.
    it(`answers ${testCase.name} with an error and keeps serving`, async () => {
      const response = await post(server, testCase.line, headers());
      if (testCase.httpBatch) {
        // Nothing to answer for an empty batch; a batch's requests answered or refused as a whole.
        assert.ok([200, 202, 400].includes(response.status), `status ${response.status}: ${response.body}`);
        await assertServing();
        return;
      }
      assert.ok(response.status < 500, `status ${response.status}: ${response.body.slice(0, 300)}`);
      const replies = response.body.trim() === '' ? [] : messagesIn(response.body);
      const errors = replies.filter((reply) => reply.error !== undefined || reply.result?.isError === true);
      assert.ok(
        errors.length > 0 || (response.status >= 400 && replies.length > 0),
        `no JSON-RPC error in ${response.status} ${response.body.slice(0, 300)}`,
      );
      if (response.status === 200 || response.status === 202)
        assert.ok(errors.length > 0, `a ${response.status} without an error reply: ${response.body.slice(0, 300)}`);
      await assertServing();
    });
  }
});

describe('HTTP clients that never say goodbye', () => {
  const store = tempStore('te-http-idle-');
  let server: HttpCli | undefined;
  after(async () => {
    await server?.stop();
    store.remove();
  });

  it('still admits a new client after 70 initializes without DELETE', { timeout: 60_000 }, async () => {
    requireBuiltCli();
    server = await startHttpCli(store.dir);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'leaky', version: '1' } },
    });
    const statuses: number[] = [];
    for (let index = 0; index < 70; index++) statuses.push((await post(server, initialize)).status);
    const refused = statuses.filter((status) => status !== 200).length;
    console.log(`# HTTP: 70 initializes without DELETE, ${refused} refused`);
    assert.deepEqual(
      statuses.filter((status) => status !== 200),
      [],
      'every new client is admitted (idle sessions are reclaimed)',
    );
  });
});

describe('HTTP browser origins on the CLI', () => {
  const store = tempStore('te-http-origin-');
  let server: HttpCli | undefined;
  after(async () => {
    await server?.stop();
    store.remove();
  });

  it('admits an Origin given with --allow-origin (with the token) and refuses every other one', { timeout: 30_000 }, async () => {
    requireBuiltCli();
    const allowed = 'http://localhost:6274';
    const started = await startHttpCli(store.dir, ['--allow-origin', allowed]);
    server = started;
    // The line comes after the token line the start waited for: wait for it rather than read at once.
    const announced = /browser origins allowed: http:\/\/localhost:6274/;
    await waitFor(() => announced.test(started.stderr()), 'the allowed origins line');
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
    });
    assert.equal((await post(server, initialize, { origin: allowed })).status, 200);
    for (const origin of ['http://localhost:6275', 'http://attacker.example', 'null'])
      assert.equal((await post(server, initialize, { origin })).status, 403, origin);
  });
});
