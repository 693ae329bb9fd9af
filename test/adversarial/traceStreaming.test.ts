// Live trace streaming against hostile collector set-ups: credentials in the endpoint are never shown (stats, stderr),
// and a collector that trickles its answer costs each export at most its time limit — the socket is closed and the
// spans are counted as dropped, where each export used to leave a socket open for ever and its spans uncounted.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RawStdioServer, requireBuiltCli, tempStore, toolText } from './support';
import { waitFor } from '../support/waitFor';

const SECRETS = ['s3cret-pass', 'SECRETKEY42', 'tok-abc'];

/** CPU clock ticks (user + system) of each thread of a process, by thread name (Linux /proc). */
function threadTicks(pid: number): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
      const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command name.
      ticks.set(name, (ticks.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ticks;
}

/** A collector that answers at once and counts the bytes it was sent. */
async function countingCollector(): Promise<{ url: string; bytes(): number; close(): Promise<void> }> {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise((resolvePromise) => server.close(() => resolvePromise())),
  };
}

interface SlowCollector {
  url: string;
  requests: number;
  open: number;
  close(): Promise<void>;
}

/** A collector that answers 200 and then one byte every 100 ms, never ending the body. */
async function slowCollector(): Promise<SlowCollector> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state = { requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests++;
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => response.write(' '), 100);
    timers.add(timer);
    response.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get open() {
      return sockets.size;
    },
    close: async () => {
      timers.forEach(clearInterval);
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolvePromise) => server.close(resolvePromise));
    },
  };
}

async function think(server: RawStdioServer, id: string, number: number, sessionId?: string): Promise<string> {
  const reply = await server.request(id, 'tools/call', {
    name: 'sequentialthinking',
    arguments: {
      thought: `Step ${number}`,
      thoughtNumber: number,
      totalThoughts: 10,
      nextThoughtNeeded: true,
      ...(sessionId ? { sessionId } : {}),
    },
  });
  const { ok, text } = toolText(reply);
  assert.ok(ok, text);
  return (JSON.parse(text) as { sessionId: string }).sessionId;
}

async function traceStats(server: RawStdioServer, id: string): Promise<{ text: string; stream: Record<string, unknown> }> {
  const { ok, text } = toolText(await server.request(id, 'tools/call', { name: 'thinking_sessions', arguments: { action: 'stats' } }));
  assert.ok(ok, text);
  return { text, stream: (JSON.parse(text) as { traceStream: Record<string, unknown> }).traceStream };
}

describe('live trace streaming to a hostile collector', () => {
  const store = tempStore('te-otlp-attack-');
  let collector: SlowCollector | undefined;
  const servers: RawStdioServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop();
    await collector?.close();
    store.remove();
  });

  it('never shows the credentials of the endpoint (option or variable) in stats or on stderr', { timeout: 30_000 }, async () => {
    requireBuiltCli();
    const fromOption = RawStdioServer.start(store.dir, [
      '--otlp-endpoint',
      'http://alice:s3cret-pass@127.0.0.1:9/?api_key=SECRETKEY42&x=tok-abc',
    ]);
    const fromVariable = RawStdioServer.start(store.dir, [], {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://bob:s3cret-pass@127.0.0.1:9/otlp?api_key=SECRETKEY42',
    });
    const badVariable = RawStdioServer.start(store.dir, [], {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://carol:s3cret-pass@host/?k=tok-abc',
    });
    servers.push(fromOption, fromVariable, badVariable);
    for (const [index, server] of [fromOption, fromVariable].entries()) {
      await server.initialize();
      await think(server, `t-${index}`, 1);
      const { text, stream } = await traceStats(server, `s-${index}`);
      assert.match(String(stream.endpoint), /127\.0\.0\.1:9/, 'the endpoint is still shown');
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `stats shows "${secret}": ${String(stream.endpoint)}`);
    }
    await badVariable.initialize();
    await waitFor(() => /trace streaming is off/.test(badVariable.stderr), 'the refusal of the bad variable', 10_000);
    for (const server of [fromOption, fromVariable, badVariable]) {
      await waitFor(() => /streaming session traces to|trace streaming is off/.test(server.stderr), 'the streaming line on stderr', 10_000);
      for (const secret of SECRETS) assert.ok(!server.stderr.includes(secret), `stderr shows "${secret}": ${server.stderr}`);
    }
  });

  it('closes the socket of an export the collector answers too slowly, and counts its spans as dropped', { timeout: 40_000 }, async () => {
    collector = await slowCollector();
    const slow = collector;
    const server = RawStdioServer.start(store.dir, ['--otlp-endpoint', slow.url], {
      ...process.env,
      OTEL_EXPORTER_OTLP_TIMEOUT: '600',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    servers.push(server);
    await server.initialize();
    // Three exports, one thought each: each waits until the collector has seen the one before.
    let sessionId: string | undefined;
    const exports = 3;
    for (let number = 1; number <= exports; number++) {
      sessionId = await think(server, `slow-${number}`, number, sessionId);
      await waitFor(() => slow.requests >= number, `export ${number} at the collector (seen ${slow.requests})`, 10_000);
    }
    await waitFor(() => slow.open === 0, `every export's socket closed (open: ${slow.open})`, 8000);
    let stream: Record<string, unknown> = {};
    await waitFor(
      async () => {
        stream = (await traceStats(server, `stats-${Date.now()}`)).stream;
        return stream.dropped === exports;
      },
      `the ${exports} spans counted as dropped`,
      8000,
    );
    assert.equal(stream.exported, 0);
    assert.equal(stream.queued, 0);
    assert.match(String(stream.lastError), /did not answer within 600 ms|longer than 600 ms/);
  });

  it(
    'encodes and sends the spans of long thoughts on a thread of its own, not the one that answers tool calls',
    { timeout: 60_000, skip: !existsSync('/proc/self/task') && 'no /proc' },
    async () => {
      const sink = await countingCollector();
      const server = RawStdioServer.start(store.dir, ['--otlp-endpoint', sink.url, '--otlp-include-text']);
      servers.push(server);
      try {
        await server.initialize();
        const pid = server.child.pid as number;
        const before = threadTicks(pid);
        const thoughts = 400;
        let sessionId: string | undefined;
        let worst = 0;
        for (let number = 1; number <= thoughts; number++) {
          const started = performance.now();
          const reply = await server.request(`big-${number}`, 'tools/call', {
            name: 'sequentialthinking',
            arguments: {
              thought: `${number} ${'x'.repeat(19_990)}`,
              thoughtNumber: number,
              totalThoughts: thoughts,
              nextThoughtNeeded: true,
              ...(sessionId ? { sessionId } : {}),
            },
          });
          worst = Math.max(worst, performance.now() - started);
          const { ok, text } = toolText(reply);
          assert.ok(ok, text.slice(0, 200));
          sessionId = (JSON.parse(text) as { sessionId?: string }).sessionId ?? sessionId;
        }
        // Every thought's text reaches the collector (400 x 20 KB).
        await waitFor(() => sink.bytes() >= thoughts * 19_990, `${thoughts * 20} KB at the collector (got ${sink.bytes()})`, 20_000);
        const after = threadTicks(pid);
        const spent = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
        console.log(
          `# worst reply ${worst.toFixed(1)} ms; CPU ticks: main thread ${spent('MainThread')}, export worker ${spent('WorkerThread')}`,
        );
        assert.ok(after.has('WorkerThread'), `no export worker thread: ${[...after.keys()].join(', ')}`);
        assert.ok(spent('WorkerThread') >= 5, `the worker spent ${spent('WorkerThread')} ticks encoding 8 MB of spans`);
      } finally {
        await server.stop();
        await sink.close();
      }
    },
  );
});
