// What the server tells a client without being asked: log messages about its connection (the `logging` capability,
// at the level it set) and session resource subscriptions (`notifications/resources/updated` when a subscribed session
// changes — here, from another client and from another process on the same store — and `list_changed` when sessions
// appear). Real SDK Clients over the in-memory transport and over Streamable HTTP.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionStore } from '../../src/engine/model';
import { startHttpServer } from '../../src/mcp/httpServer';
import { serveStdio } from '../../src/mcp/stdio';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { connectInMemory, jsonOf, tempDir, think, type ConnectedClient } from './support/clients';
import { waitFor } from './support/waitFor';

const TOKEN = 'test-token-0123456789abcdef0123456789';
const BAD_THOUGHT = { thought: 'numbered wrong', thoughtNumber: 0, totalThoughts: 1, nextThoughtNeeded: false };

/** Collects one kind of notification a client receives. */
function collect<T>(
  client: Client,
  method: 'notifications/message' | 'notifications/resources/updated' | 'notifications/resources/list_changed',
): T[] {
  const received: T[] = [];
  client.setNotificationHandler(method, (notification) => {
    received.push(notification as T);
  });
  return received;
}

/** Lets every notification already sent arrive: a ping's answer comes after them on the same connection. */
async function settle(client: Client): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await client.ping();
}

const uriOf = (id: string) => `thinking://sessions/${encodeURIComponent(id)}`;

describe('server notifications', () => {
  const open: ConnectedClient[] = [];
  const cleanups: (() => unknown)[] = [];
  const connect = async (engine: ThinkingEngine) => {
    const connected = await connectInMemory(engine);
    open.push(connected);
    return connected.client;
  };
  afterEach(async () => {
    for (const connected of open.splice(0)) await connected.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('declares logging and resource subscriptions with list changes', async () => {
    const client = await connect(new ThinkingEngine({ log: () => {} }));
    const capabilities = client.getServerCapabilities();
    assert.deepEqual(capabilities?.logging, {});
    assert.equal(capabilities?.resources?.subscribe, true);
    assert.equal(capabilities?.resources?.listChanged, true);
  });

  it('logs a refused thought to its client once it set a level, at that level, and to no other client', async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const client = await connect(engine);
    const other = await connect(engine);
    const messages = collect<LoggingMessageNotification>(client, 'notifications/message');
    const othersMessages = collect<LoggingMessageNotification>(other, 'notifications/message');

    // Nothing before the client asks: a client reading one reply per request sees no extra lines.
    assert.equal((await think(client, BAD_THOUGHT)).isError, true);
    await settle(client);
    assert.ok(messages.length === 0, JSON.stringify(messages));

    await client.setLoggingLevel('warning');
    const refused = await think(client, BAD_THOUGHT);
    assert.equal(refused.isError, true);
    await settle(client);
    assert.equal(messages.length, 1, JSON.stringify(messages));
    assert.equal(messages[0].params.level, 'warning');
    assert.equal(messages[0].params.logger, 'thought-explorer');
    assert.match(String(messages[0].params.data), /thought refused: .*thoughtNumber/);

    await client.setLoggingLevel('error');
    await think(client, BAD_THOUGHT);
    await settle(client);
    assert.equal(messages.length, 1, 'a warning is below the level the client asked for');

    await client.setLoggingLevel('debug');
    await think(client, BAD_THOUGHT);
    await settle(client);
    assert.equal(messages.length, 2);
    await settle(other);
    assert.deepEqual(othersMessages, [], 'another connection hears nothing of it');
  });

  it('logs a thought the store could not save as an error', async () => {
    const dir = tempDir('te-notify-store-');
    const store = new FileSessionStore(dir, { log: () => {} });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let failNext = false;
    // The real store, with one append made to fail as a full disk would.
    const failing: SessionStore = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'appendThought' && failNext) {
          return () => {
            failNext = false;
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const stderr: string[] = [];
    const engine = new ThinkingEngine({ store: failing, log: (message) => stderr.push(message) });
    const client = await connect(engine);
    const messages = collect<LoggingMessageNotification>(client, 'notifications/message');
    await client.setLoggingLevel('error');
    jsonOf(await think(client, { thought: 'saved', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }));
    failNext = true;
    const failed = await think(client, { thought: 'not saved', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false });
    assert.equal(failed.isError, true);
    await settle(client);
    assert.equal(messages.length, 1, JSON.stringify(messages));
    assert.equal(messages[0].params.level, 'error');
    assert.match(String(messages[0].params.data), /thought not saved: .*ENOSPC/);
    assert.ok(
      stderr.some((line) => /ENOSPC/.test(line)),
      'the stderr log stays',
    );
    store.close();
  });

  it('sends resources/updated to a subscriber when another client records into the session, and list_changed for new sessions', async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const writer = await connect(engine);
    const watcher = await connect(engine);
    const updated = collect<{ params: { uri: string } }>(watcher, 'notifications/resources/updated');
    const listChanged = collect<unknown>(watcher, 'notifications/resources/list_changed');

    // list_changed goes to a client that has looked at the resource list; a client that never did hears nothing.
    jsonOf(await think(writer, { thought: 'unseen', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }));
    await settle(watcher);
    assert.deepEqual(listChanged, []);
    await watcher.listResources();
    const first = jsonOf<{ sessionId: string }>(
      await think(writer, { thought: 'one', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }),
    );
    await waitFor(() => listChanged.length > 0, 'list_changed for the new session');
    const uri = uriOf(first.sessionId);
    await watcher.subscribeResource({ uri });
    await watcher.subscribeResource({ uri: `${uri}/markdown` });
    assert.ok(updated.length === 0, JSON.stringify(updated));

    jsonOf(await think(writer, { thought: 'two', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true }));
    await waitFor(() => updated.length >= 2, 'resources/updated for both forms');
    assert.deepEqual(updated.map((notification) => notification.params.uri).sort(), [uri, `${uri}/markdown`]);
    const read = await watcher.readResource({ uri });
    assert.equal((JSON.parse((read.contents[0] as { text: string }).text) as { thoughts: unknown[] }).thoughts.length, 2);

    // Another session's thoughts are not this subscription's business.
    await think(watcher, { thought: 'elsewhere', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false });
    await settle(watcher);
    assert.equal(updated.length, 2);

    await watcher.unsubscribeResource({ uri });
    await watcher.unsubscribeResource({ uri: `${uri}/markdown` });
    jsonOf(await think(writer, { thought: 'three', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: false }));
    await settle(watcher);
    assert.equal(updated.length, 2, 'nothing after unsubscribing');
  });

  it('refuses to subscribe to what is not a session, naming the URI', async () => {
    const client = await connect(new ThinkingEngine({ log: () => {} }));
    await assert.rejects(client.subscribeResource({ uri: 'thinking://documentation' }), /thinking:\/\/documentation.*only sessions/);
    await assert.rejects(client.subscribeResource({ uri: uriOf('no-such-session') }), /no session "no-such-session"/);
  });

  it('sends resources/updated when another process on the same store adds to the session (through refreshSession)', async () => {
    const dir = tempDir('te-notify-refresh-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const storeHere = new FileSessionStore(dir, { log: () => {} });
    const storeThere = new FileSessionStore(dir, { log: () => {} });
    cleanups.push(
      () => storeHere.close(),
      () => storeThere.close(),
    );
    const here = new ThinkingEngine({ store: storeHere, log: () => {} });
    // "There" is another process (the stdio CLI next to VS Code): its own engine and store on the same directory.
    const there = new ThinkingEngine({ store: storeThere, log: () => {} });
    const first = there.process('cli', { thought: 'from the CLI', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    assert.ok(first.ok);
    const sessionId = first.reply.sessionId;

    const watcher = await connect(here);
    const updated = collect<{ params: { uri: string } }>(watcher, 'notifications/resources/updated');
    await watcher.subscribeResource({ uri: uriOf(sessionId) });
    assert.ok(
      there.process('cli', { thought: 'more from the CLI', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false, sessionId }).ok,
    );
    // What the store watcher does when the journal changes on disk.
    assert.equal(here.refreshSession(sessionId), true);
    await waitFor(() => updated.length > 0, 'resources/updated after the refresh');
    assert.deepEqual(
      updated.map((notification) => notification.params.uri),
      [uriOf(sessionId)],
      'one notification for the burst',
    );
  });

  it('delivers logs and resource updates over Streamable HTTP', async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const server = await startHttpServer({ engine, token: TOKEN, log: () => {} });
    cleanups.push(() => server.close());
    // The standalone SSE stream (a GET the client opens by itself after connecting) carries updates not tied to a
    // request: `streamOpen` resolves once the server has answered it.
    let streamOpened: () => void = () => undefined;
    const streamOpen = new Promise<void>((resolve) => (streamOpened = resolve));
    const clientOver = async (watchStream = false) => {
      const client = new Client({ name: 'http-notify', version: '1' });
      const seeingTheStream: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (watchStream && init?.method === 'GET' && response.ok) streamOpened();
        return response;
      };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
          fetch: seeingTheStream,
        }),
      );
      cleanups.unshift(() => client.close());
      return client;
    };
    const writer = await clientOver();
    const watcher = await clientOver(true);
    const messages = collect<LoggingMessageNotification>(writer, 'notifications/message');
    const updated = collect<{ params: { uri: string } }>(watcher, 'notifications/resources/updated');

    await writer.setLoggingLevel('warning');
    assert.equal((await think(writer, BAD_THOUGHT)).isError, true);
    await waitFor(() => messages.length === 1, "the warning on the tool call's stream");
    await writer.setLoggingLevel('error');
    await think(writer, BAD_THOUGHT);
    await settle(writer);
    assert.equal(messages.length, 1, "the HTTP session's level holds");

    const first = jsonOf<{ sessionId: string }>(
      await think(writer, { thought: 'one', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }),
    );
    await watcher.subscribeResource({ uri: uriOf(first.sessionId) });
    await streamOpen;
    engine.setStatus(first.sessionId, 'abandoned');
    await waitFor(() => updated.length > 0, 'resources/updated over HTTP');
    assert.equal(updated[0].params.uri, uriOf(first.sessionId));
  });
});

describe('resources/list_changed to a client that shuts down', () => {
  it('one list_changed for a session that starts and ends at once, and none once the client’s input ended', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const engine = new ThinkingEngine({ log: () => {} });
    const running = await serveStdio({ engine, input, output });
    const lines: { id?: unknown; method?: string }[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, newline)) as { id?: unknown; method?: string });
        buffered = buffered.slice(newline + 1);
      }
    });
    const send = (message: Record<string, unknown>) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const listChanges = () => lines.filter((line) => line.method === 'notifications/resources/list_changed').length;
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cli', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'resources/list', params: {} });
    await waitFor(() => lines.some((line) => line.id === 2), 'the resource list');

    // Another client's session starts and ends in one go: the list changed twice, the client hears it once.
    assert.ok(engine.process('other', { thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }).ok);
    await waitFor(() => listChanges() === 1, 'one list_changed');
    // The client is leaving (stdin ends) right after another change: it is not told, so it does not re-list.
    assert.ok(engine.process('other', { thought: 'b', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }).ok);
    input.end();
    await running.closed;
    assert.equal(listChanges(), 1);
  });
});
