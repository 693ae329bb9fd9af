// LineDelimitedTransport on in-memory streams: framing (chunks, CRLF, multi-byte characters), the envelope check,
// the size limit, the direct request path and closing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineDelimitedTransport, envelopeProblem } from '../../src/mcp/stdio';

function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineDelimitedTransport(input, output, { maxLineBytes });
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const written: string[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  output.on('data', (chunk: Buffer) => written.push(...chunk.toString('utf8').split('\n').filter((line) => line !== '')));
  return { input, output, transport, received, errors, written };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LineDelimitedTransport', () => {
  it('delivers messages split across chunks and several per chunk, with LF or CRLF', async () => {
    const { input, transport, received } = harness();
    await transport.start();
    const text = Buffer.from('{"jsonrpc":"2.0","method":"a","params":{"s":"ünï"}}\r\n{"jsonrpc":"2.0","id":1,"result":{}}\n', 'utf8');
    const cut = text.indexOf(Buffer.from('ü')) + 1;
    input.write(text.subarray(0, cut));
    input.write(text.subarray(cut));
    await tick();
    assert.deepEqual(received, [
      { jsonrpc: '2.0', method: 'a', params: { s: 'ünï' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
  });

  it('answers bad JSON and bad envelopes with JSON-RPC errors and reports them', async () => {
    const { input, transport, received, errors, written } = harness();
    await transport.start();
    input.write('nope\n{"jsonrpc":"1.0","id":7,"method":"x"}\n\n');
    await tick();
    assert.deepEqual(received, []);
    assert.equal(errors.length, 2);
    assert.deepEqual(written.map((line) => JSON.parse(line) as { id: unknown; error: { code: number } }).map((reply) => [reply.id, reply.error.code]), [
      [null, -32700],
      [7, -32600],
    ]);
  });

  it('drops a line longer than the limit and recovers at the next one', async () => {
    const { input, transport, received, errors } = harness(64);
    await transport.start();
    input.write(`{"jsonrpc":"2.0","method":"${'x'.repeat(40)}`);
    input.write(`${'y'.repeat(40)}"}\n{"jsonrpc":"2.0","method":"ok"}\n`);
    await tick();
    assert.deepEqual(received, [{ jsonrpc: '2.0', method: 'ok' }]);
    assert.match(errors[0], /longer than 64 bytes/);
  });

  it('sends a request to the direct handler when it takes it, and to onmessage otherwise', async () => {
    const { input, transport, received, written } = harness();
    transport.directRequests = (request) => {
      if (request.method === 'fast') return { answered: request.params?.value };
      if (request.method === 'slow') return Promise.resolve({ later: true });
      if (request.method === 'broken') throw Object.assign(new Error('bad params'), { code: -32602 });
      return undefined;
    };
    await transport.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"fast","params":{"value":3}}\n{"jsonrpc":"2.0","id":2,"method":"other"}\n');
    input.write('{"jsonrpc":"2.0","id":3,"method":"slow"}\n{"jsonrpc":"2.0","id":4,"method":"broken"}\n{"jsonrpc":"2.0","method":"fast"}\n');
    await tick();
    assert.deepEqual(received, [{ jsonrpc: '2.0', id: 2, method: 'other' }, { jsonrpc: '2.0', method: 'fast' }]);
    const replies = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(replies, [
      { jsonrpc: '2.0', id: 1, result: { answered: 3 } },
      { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad params' } },
      { jsonrpc: '2.0', id: 3, result: { later: true } },
    ]);
  });

  it('closes, without crashing, when the output fails (the client went away)', async () => {
    const { output, transport, errors } = harness();
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await tick();
    assert.equal(closed, 1);
    assert.deepEqual(errors, ['write EPIPE']);
  });

  it('closes when its input ends, once', async () => {
    const { input, transport } = harness();
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();
    input.end();
    await tick();
    await transport.close();
    assert.equal(closed, 1);
  });
});

describe('envelopeProblem', () => {
  it('accepts requests, notifications and responses and names what is wrong otherwise', () => {
    assert.equal(envelopeProblem({ jsonrpc: '2.0', id: 'a', method: 'm', params: {} }), undefined);
    assert.equal(envelopeProblem({ jsonrpc: '2.0', method: 'm' }), undefined);
    assert.equal(envelopeProblem({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }), undefined);
    assert.match(envelopeProblem([]) ?? '', /JSON object/);
    assert.match(envelopeProblem({ jsonrpc: '2.0', id: 1.5, method: 'm' }) ?? '', /id/);
    assert.match(envelopeProblem({ jsonrpc: '2.0', id: 1, method: 'm', params: [1] }) ?? '', /params/);
    assert.match(envelopeProblem({ jsonrpc: '2.0', id: 1 }) ?? '', /result/);
    assert.match(envelopeProblem({ jsonrpc: '2.0' }) ?? '', /method/);
  });
});
