// `--http --stateless`: Streamable HTTP without MCP sessions (no Mcp-Session-Id), each request served on its own.
// A thought without sessionId: thought 1 opens a session; a later one continues its own conversation's session
// (`_meta["vscode.conversationId"]`), and without a conversation it is a clear error naming sessionId, with nothing
// recorded. Two clients think at once without their thoughts crossing. In-process (to see the engine and its store):
// the three ways thoughts used to cross clients are refused or kept apart, and finding a conversation's session loads
// no session, with 40 waiting 5 MB sessions as with none.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { ensureBuiltCli, jsonOf, sessions, tempDir, textOf, think } from './support/clients';
import { startHttpCli, type HttpCli } from '../support/httpCli';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import type { SessionSnapshot } from '../../src/engine/model';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp/httpServer';

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

  it('continues a thought without sessionId only in its own conversation’s session; without a conversation, asks for sessionId', async () => {
    const a = (await connect('a')).client;
    const b = (await connect('b')).client;
    const inChat = (client: Client, conversation: string, args: Record<string, unknown>) =>
      client.callTool({
        name: 'sequentialthinking',
        arguments: args,
        _meta: { 'vscode.conversationId': conversation },
      }) as Promise<CallToolResult>;
    const a1 = jsonOf(await inChat(a, 'chat-a', thought('a', 1)));
    const b1 = jsonOf(await inChat(b, 'chat-b', thought('b', 1)));
    assert.notEqual(b1.sessionId, a1.sessionId);
    // Interleaved, each conversation continues its own session (and was told its id once).
    const a2 = jsonOf(await inChat(a, 'chat-a', thought('a', 2)));
    const b2 = jsonOf(await inChat(b, 'chat-b', thought('b', 2)));
    assert.equal(a2.sessionId, undefined);
    assert.equal(b2.sessionId, undefined);
    const got = async (id: unknown) =>
      jsonOf<{ thoughts: { thought: string }[] }>(await sessions(a, { action: 'get', sessionId: id, detail: 'full' })).thoughts.map(
        (entry) => entry.thought,
      );
    assert.deepEqual(await got(a1.sessionId), ['a 1', 'a 2']);
    assert.deepEqual(await got(b1.sessionId), ['b 1', 'b 2']);

    // No conversation named: nothing tells this client from another, so a later thought must name its session.
    const c1 = jsonOf(await think(a, thought('c', 1)));
    const refused = (await think(a, thought('c', 2))) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /the call names no conversation/);
    assert.match(textOf(refused), /Send "sessionId" with the value from thought 1's reply/);
    assert.match(textOf(refused), /Nothing was recorded/);
    assert.equal(jsonOf(await think(a, thought('c', 2, { sessionId: c1.sessionId }))).thoughtHistoryLength, 2);
    assert.deepEqual(await got(a1.sessionId), ['a 1', 'a 2'], 'the other sessions are untouched');
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

/** A store that counts whole-session reads. */
class CountingStore extends FileSessionStore {
  loads = 0;
  override loadSession(id: string): SessionSnapshot | undefined {
    this.loads++;
    return super.loadSession(id);
  }
}

describe('--stateless never crosses clients (in-process)', () => {
  const TOKEN = 'stateless-crossover-token-0123456789abcdef';
  let dir: string;
  let store: CountingStore;
  let engine: ThinkingEngine;
  let http: RunningHttpServer;
  let client: Client;

  before(async () => {
    dir = tempDir();
    store = new CountingStore(dir, { log: () => {} });
    engine = new ThinkingEngine({ store, log: () => {} });
    http = await startHttpServer({ engine, token: TOKEN, port: 0, stateless: true, log: () => {} });
    client = new Client({ name: 'stateless-in-process', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
  });
  after(async () => {
    await client.close();
    await http.close();
  });

  const call = (conversation: string | undefined, args: Record<string, unknown>) =>
    client.callTool({
      name: 'sequentialthinking',
      arguments: { totalThoughts: 5, nextThoughtNeeded: true, ...args },
      ...(conversation === undefined ? {} : { _meta: { 'vscode.conversationId': conversation } }),
    }) as Promise<CallToolResult>;
  const texts = (id: string) => engine.getSession(id)?.thoughts.map((entry) => entry.thought);

  it('a client whose thought 1 was refused has its thought 2 refused, not recorded in the waiting session', async () => {
    const a1 = jsonOf(await call('chat-a', { thought: 'A1', thoughtNumber: 1 }));
    const b1 = await call('chat-b', { thought: 'B1', thoughtNumber: 1, strategy: 'no-such-strategy' });
    assert.equal(b1.isError, true);
    const b2 = await call('chat-b', { thought: 'B2', thoughtNumber: 2 });
    assert.equal(b2.isError, true);
    assert.match(textOf(b2), /this conversation has no live session here/);
    assert.match(textOf(b2), /sessionId/);
    assert.deepEqual(texts(a1.sessionId as string), ['A1']);
    // The same without any conversation: refused too.
    const anonymous = await call(undefined, { thought: 'X2', thoughtNumber: 2 });
    assert.equal(anonymous.isError, true);
    assert.deepEqual(texts(a1.sessionId as string), ['A1']);
  });

  it("a branch from “its” thought 1 does not attach to another client's thought 1", async () => {
    const a1 = jsonOf(await call('chat-c', { thought: 'C1', thoughtNumber: 1 }));
    const branch = await call('chat-d', { thought: 'D branch', thoughtNumber: 2, branchFromThought: 1, branchId: 'd-alt' });
    assert.equal(branch.isError, true);
    assert.deepEqual(engine.getSession(a1.sessionId as string)?.meta.branchIds, []);
    assert.deepEqual(texts(a1.sessionId as string), ['C1']);
  });

  it('a note the person wrote for one agent reaches that agent only', async () => {
    const e1 = jsonOf(await call('chat-e', { thought: 'E1', thoughtNumber: 1 }));
    const id = e1.sessionId as string;
    assert.equal(engine.addFeedback(id, { kind: 'note', text: 'For agent E only.' }).ok, true);
    const other = await call('chat-f', { thought: 'F2', thoughtNumber: 2 });
    assert.equal(other.isError, true);
    assert.doesNotMatch(textOf(other), /agent E/);
    const e2 = jsonOf(await call('chat-e', { thought: 'E2', thoughtNumber: 2 }));
    assert.match(JSON.stringify(e2.userFeedback), /For agent E only/);
    assert.deepEqual(texts(id), ['E1', 'E2']);
  });

  it('finding a conversation’s session loads no session: the same with 40 waiting 5 MB sessions as with none', async () => {
    const continueThree = async (conversation: string) => {
      const before = store.loads;
      for (let number = 1; number <= 3; number++)
        assert.notEqual((await call(conversation, { thought: `${conversation} ${number}`, thoughtNumber: number })).isError, true);
      // A conversation this server never saw continues nothing, and is refused from the index alone.
      assert.equal((await call(`${conversation}-unknown`, { thought: 'lost', thoughtNumber: 2 })).isError, true);
      return store.loads - before;
    };
    const withNone = await continueThree('chat-g');

    // Another process on the same store leaves 40 live sessions waiting for their next thought, 5 MB each.
    const writer = new ThinkingEngine({
      store: new FileSessionStore(dir, { log: () => {} }),
      log: () => {},
      limits: { maxThoughtLength: 1_100_000 },
    });
    const mb = 'x'.repeat(1_000_000);
    for (let index = 0; index < 40; index++) {
      for (let number = 1; number <= 5; number++) {
        const outcome = writer.recordThought(
          `writer-${index}`,
          { thought: mb, thoughtNumber: number, totalThoughts: 9, nextThoughtNeeded: true },
          { conversationId: `other-${index}` },
        );
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      }
    }
    const withForty = await continueThree('chat-h');
    assert.equal(withForty, withNone);
    assert.equal(withForty, 0, 'no whole session was read to find where a thought goes');
  });
});
