// `--http --stateless`: Streamable HTTP without MCP sessions (no Mcp-Session-Id), each request served on its own.
// A thought without sessionId: thought 1 opens a session; a later number continues the one session waiting for it;
// none or several waiting is a clear error naming sessionId, with nothing recorded. Two clients think at once without
// their thoughts crossing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { ensureBuiltCli, jsonOf, sessions, tempDir, textOf, think } from './support/clients';
import { startHttpCli, type HttpCli } from '../support/httpCli';

describe('--http --stateless', () => {
  let server: HttpCli;
  const open: Client[] = [];

  before(async () => {
    ensureBuiltCli();
    server = await startHttpCli(tempDir(), ['--stateless']);
  });
  after(async () => {
    await Promise.allSettled(open.map((client) => client.close()));
    await server.stop();
  });

  async function connect(name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    return { client, transport };
  }

  const thought = (label: string, thoughtNumber: number, extra: Record<string, unknown> = {}) => ({
    thought: `${label} ${thoughtNumber}`,
    thoughtNumber,
    totalThoughts: 5,
    nextThoughtNeeded: true,
    ...extra,
  });

  it('says so at start and gives no Mcp-Session-Id; GET (a standalone stream) is refused', async () => {
    assert.match(server.stderr(), /stateless/);
    const { transport } = await connect('no-session');
    assert.equal(transport.sessionId, undefined);
    const get = await fetch(server.url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  it('continues a session without sessionId only when one session waits for that number', async () => {
    const a = (await connect('a')).client;
    const b = (await connect('b')).client;
    const a1 = jsonOf(await think(a, thought('a', 1)));
    const a2 = jsonOf(await think(a, thought('a', 2)));
    assert.equal(a2.sessionId, a1.sessionId, 'the only session waiting for thought 2');
    const b1 = jsonOf(await think(b, thought('b', 1)));
    assert.notEqual(b1.sessionId, a1.sessionId, 'thought 1 opens a new session');
    // a waits for 3, b for 2: each number has one session waiting.
    assert.equal(jsonOf(await think(a, thought('a', 3))).sessionId, a1.sessionId);
    assert.equal(jsonOf(await think(b, thought('b', 2))).sessionId, b1.sessionId);

    const c1 = jsonOf(await think(a, thought('c', 1)));
    const d1 = jsonOf(await think(b, thought('d', 1)));
    // c and d both wait for thought 2: ambiguous.
    const ambiguous = (await think(a, thought('c', 2))) as CallToolResult;
    assert.equal(ambiguous.isError, true);
    assert.match(textOf(ambiguous), /sessionId/);
    assert.match(textOf(ambiguous), /2 sessions wait for thought 2/);
    assert.ok(textOf(ambiguous).includes(String(c1.sessionId)) && textOf(ambiguous).includes(String(d1.sessionId)), textOf(ambiguous));
    assert.match(textOf(ambiguous), /Nothing was recorded/);
    // No session waits for thought 9.
    const none = (await think(a, thought('x', 9))) as CallToolResult;
    assert.equal(none.isError, true);
    assert.match(textOf(none), /no session of this server waits for thought 9/);
    const c = jsonOf<{ thoughts: unknown[] }>(await sessions(a, { action: 'get', sessionId: c1.sessionId, detail: 'full' }));
    assert.equal(c.thoughts.length, 1, 'nothing recorded by the refused thoughts');
  });

  it('two clients think at once, each in its own session by sessionId, without crossing', async () => {
    const clients = await Promise.all([connect('left'), connect('right')]);
    const labels = ['left', 'right'];
    const firsts = await Promise.all(clients.map(({ client }, index) => think(client, thought(labels[index], 1))));
    const ids = firsts.map((result) => jsonOf(result).sessionId as string);
    assert.notEqual(ids[0], ids[1]);
    for (let number = 2; number <= 6; number++) {
      const replies = await Promise.all(
        clients.map(({ client }, index) =>
          think(client, thought(labels[index], number, { sessionId: ids[index], nextThoughtNeeded: number < 6 })),
        ),
      );
      replies.forEach((reply, index) => assert.equal(jsonOf(reply).sessionId, ids[index]));
    }
    for (const [index, { client }] of clients.entries()) {
      const got = jsonOf<{ thoughts: { thought: string }[] }>(
        await sessions(client, { action: 'get', sessionId: ids[index], detail: 'full' }),
      );
      assert.deepEqual(
        got.thoughts.map((entry) => entry.thought),
        [1, 2, 3, 4, 5, 6].map((number) => `${labels[index]} ${number}`),
      );
    }
  });
});
