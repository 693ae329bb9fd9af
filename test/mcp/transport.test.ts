// The stdio server (the SDK's StdioServerTransport with our line checks) on in-memory streams, spoken to line by line:
// framing (chunks, CRLF, multi-byte characters), an answer for every line it cannot take (not JSON, not JSON-RPC, an
// id beyond 2^53-1, a line over the limit), deep nesting, and closing on EOF and EPIPE.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ThinkingEngine } from '../../src/engine/engine';
import { DEFAULT_MAX_LINE_BYTES, idOfDiscardedLine, serveStdio } from '../../src/mcp/stdio';

type Reply = { jsonrpc: string; id: string | number | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

async function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const engine = new ThinkingEngine({ log: () => {} });
  const running = await serveStdio({ engine, input, output, maxLineBytes });
  const replies: Reply[] = [];
  let waiters: (() => void)[] = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      replies.push(JSON.parse(buffered.slice(0, newline)) as Reply);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
    const current = waiters;
    waiters = [];
    for (const wake of current) wake();
  });
  /** The next `count` replies, in the order they were written. */
  const next = async (count = 1): Promise<Reply[]> => {
    while (replies.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return replies.splice(0, count);
  };
  return { input, output, running, next, engine };
}

const ping = (id: number | string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
const think = (id: number, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sequentialthinking', arguments: args } });

describe('the stdio transport', () => {
  it('reassembles messages split across chunks (inside a multi-byte character), with LF or CRLF, several per chunk', async () => {
    const { input, running, next } = await harness();
    const bytes = Buffer.from(
      `${think(1, { thought: 'ünïcode ✓', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true })}\r\n${ping(2)}`,
      'utf8',
    );
    const cut = bytes.indexOf(Buffer.from('ü')) + 1;
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut));
    const replies = (await next(2)).sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(replies[1], { jsonrpc: '2.0', id: 2, result: {} });
    assert.equal((replies[0].result?.structuredContent as { thoughtNumber: number }).thoughtNumber, 1);
    await running.close();
  });

  it('answers a line that is not JSON with -32700 and a message without the JSON-RPC envelope with -32600, then goes on', async () => {
    const { input, running, next } = await harness();
    input.write(`nope\n{"id":7,"method":"ping"}\n\n{"jsonrpc":"2.0","id":"s","method":5}\n${ping(8)}`);
    const [notJson, noEnvelope, badMethod, pong] = await next(4);
    assert.deepEqual([notJson.id, notJson.error?.code], [null, -32700]);
    assert.match(notJson.error?.message ?? '', /^Parse error: /);
    assert.deepEqual(
      [noEnvelope.id, noEnvelope.error?.code, noEnvelope.error?.message],
      [7, -32600, 'Invalid Request: jsonrpc must be "2.0"'],
    );
    assert.deepEqual(
      [badMethod.id, badMethod.error?.code, badMethod.error?.message],
      ['s', -32600, 'Invalid Request: method must be a string'],
    );
    assert.deepEqual(pong, { jsonrpc: '2.0', id: 8, result: {} });
    await running.close();
  });

  it('answers a request id beyond 2^53-1 with -32600 and the reason, instead of an answer to another id', async () => {
    const { input, running, next } = await harness();
    input.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n{"jsonrpc":"2.0","method":"ping","id":1e400}\n');
    input.write(ping(9007199254740991));
    const [big, huge, largestSafe] = await next(3);
    assert.deepEqual([big.id, big.error?.code], [null, -32600]);
    assert.match(big.error?.message ?? '', /id 9007199254740993 is beyond 9007199254740991 \(2\^53-1\)/);
    assert.deepEqual([huge.id, huge.error?.code], [null, -32600]);
    assert.match(huge.error?.message ?? '', /id 1e400 is beyond/);
    assert.deepEqual(largestSafe, { jsonrpc: '2.0', id: 9007199254740991, result: {} });
    await running.close();
  });

  it('answers a line over the limit with -32600 under its id (first or last member), and reads the next line', async () => {
    const { input, running, next } = await harness(1024);
    const filler = 'x'.repeat(600);
    // The SDK's Client writes the id last; others first. The line arrives in pieces, as from a pipe.
    const idLast = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"sequentialthinking","arguments":{"thought":"${filler}${filler}"}},"id":41}\n`;
    for (let at = 0; at < idLast.length; at += 100) input.write(idLast.slice(at, at + 100));
    input.write(`{"id":"first","jsonrpc":"2.0","method":"ping","params":{"pad":"${filler}${filler}"}}\n${ping(43)}`);
    input.write(`{"jsonrpc":"2.0","method":"ping","params":{"pad":"${filler}${filler}","nested":{"id":44}}}\n`);
    // Refusals are written at once, in order; the ping's answer comes from the server when it has run.
    const replies = await next(4);
    const [last, first, nested] = replies.filter((reply) => reply.error !== undefined);
    const pong = replies.find((reply) => reply.result !== undefined);
    assert.deepEqual([last.id, last.error?.code], [41, -32600]);
    assert.match(last.error?.message ?? '', /longer than 1024 bytes/);
    assert.deepEqual([first.id, first.error?.code], ['first', -32600]);
    assert.deepEqual(pong, { jsonrpc: '2.0', id: 43, result: {} });
    assert.deepEqual([nested.id, nested.error?.code], [null, -32600], 'a nested id is not taken for the request id');
    await running.close();
  });

  it('answers a line over the default 10 MB limit too', async () => {
    const { input, running, next } = await harness();
    const thought = 'y'.repeat(DEFAULT_MAX_LINE_BYTES);
    input.write(`${think(5, { thought, thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true })}\n${ping(6)}`);
    const [refused, pong] = await next(2);
    assert.deepEqual([refused.id, refused.error?.code], [5, -32600]);
    assert.match(refused.error?.message ?? '', new RegExp(`longer than ${DEFAULT_MAX_LINE_BYTES} bytes`));
    assert.deepEqual(pong, { jsonrpc: '2.0', id: 6, result: {} });
    await running.close();
  });

  it('answers 100,000-deep arrays in thought, branchId and sessionId with an error naming the field', async () => {
    const { input, running, next } = await harness(20 * 1024 * 1024);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const base = '"thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":true';
    const call = (id: number, fields: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"sequentialthinking","arguments":{${fields}}}}\n`;
    input.write(call(1, `"thought":${deep},${base}`));
    input.write(call(2, `"thought":"t",${base},"branchFromThought":1,"branchId":${deep}`));
    input.write(call(3, `"thought":"t",${base},"sessionId":${deep}`));
    const replies = (await next(3)).sort((a, b) => Number(a.id) - Number(b.id));
    const texts = replies.map((reply) => (reply.result as { isError?: boolean; content: { text: string }[] }).content[0].text);
    assert.ok(replies.every((reply) => (reply.result as { isError?: boolean }).isError === true));
    assert.match(texts[0], /^Invalid thought: got \[\[\[\[.*\.\.\.; expected a non-empty string/);
    assert.match(texts[1], /^Invalid branchId: got \[\[\[\[.*\.\.\.; expected 1-64 letters/);
    assert.match(texts[2], /^Invalid sessionId: got \[\[\[\[.*\.\.\.; expected 1-64 letters/);
    for (const text of texts) assert.ok(text.length < 250 && !/call stack/.test(text), text);
    await running.close();
  });

  it('closes, without crashing, when the output fails (the client went away)', async () => {
    const { output, running } = await harness();
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await running.closed;
  });

  it('answers every request read before its input ended, then closes', async () => {
    const { input, output, running } = await harness();
    const written: string[] = [];
    output.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const calls = Array.from({ length: 50 }, (_, index) =>
      think(index + 1, { thought: `t${index}`, thoughtNumber: index + 1, totalThoughts: 50, nextThoughtNeeded: index < 49 }),
    );
    input.end(`${calls.join('\n')}\n`);
    await running.closed;
    const ids = written
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as Reply).id);
    assert.deepEqual(
      [...ids].sort((a, b) => Number(a) - Number(b)),
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
  });

  it('closes when its input ends, once', async () => {
    const { input, running, engine } = await harness();
    // The connection's end is counted where the server ends it: the engine forgets the connection.
    const closedConnections: string[] = [];
    const closeConnection = engine.closeConnection.bind(engine);
    engine.closeConnection = (id) => {
      closedConnections.push(id);
      closeConnection(id);
    };
    input.end();
    await running.closed;
    assert.deepEqual(closedConnections, ['stdio']);
    await running.close();
    assert.deepEqual(closedConnections, ['stdio'], 'closing again ends nothing more');
  });
});

describe('idOfDiscardedLine', () => {
  it('finds only the top-level id: the first member (or second after jsonrpc) or the last one', () => {
    assert.equal(idOfDiscardedLine('{"id":3,"method":"x"', ''), 3);
    assert.equal(idOfDiscardedLine(' { "jsonrpc" : "2.0" , "id" : "a\\"b"', ''), 'a"b');
    assert.equal(idOfDiscardedLine('{"method":"x"', '"params":{}, "id": 12 }\r'), 12);
    assert.equal(idOfDiscardedLine('{"method":"x"', '"params":{"id":12}}'), null);
    assert.equal(idOfDiscardedLine('{"method":"x"', '"id":99999999999999999999}'), null);
    assert.equal(idOfDiscardedLine('{"method":"x","id":1', 'nothing'), null);
  });
});
