// Sizes the limits allow, handled without recursion: a session of 130,000 thoughts (`--max-thoughts` allows it) gives
// its stats and its Markdown and HTML exports, where spreading its arrays into one call overflowed the stack; and a
// file nested 100,000 levels deep is refused naming the field, where reading it threw "Maximum call stack size exceeded".
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, RawStdioServer, requireBuiltCli, tempStore, toolText } from './support';

const THOUGHTS = 130_000;
const DEPTH = 100_000;

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('sizes the limits allow, and nesting past them', () => {
  const store = tempStore('te-scale-');
  after(() => store.remove());

  it(`a session of ${THOUGHTS} thoughts gives its stats and its Markdown and HTML exports`, { timeout: 120_000 }, async () => {
    requireBuiltCli();
    const start = Date.parse('2026-01-01T00:00:00Z');
    const history = Array.from({ length: THOUGHTS }, (_, index) => ({
      thought: `t${index + 1}`,
      thoughtNumber: index + 1,
      totalThoughts: THOUGHTS,
      nextThoughtNeeded: index + 1 < THOUGHTS,
      timestamp: new Date(start + index * 1000).toISOString(),
    }));
    const file = join(store.dir, 'big.json');
    writeFileSync(file, JSON.stringify({ id: 'scale-session', timestamp: new Date(start).toISOString(), thoughtHistory: history }));
    const limits = ['--storage-path', join(store.dir, 'store'), '--max-thoughts', '200000'];
    const imported = cli(['import', file, ...limits]);
    assert.equal(imported.status, 0, imported.stderr);
    for (const format of ['md', 'html']) {
      const out = join(store.dir, `out.${format}`);
      const exported = cli(['export', 'scale-session', '--format', format, '--out', out, ...limits]);
      assert.equal(exported.status, 0, `${format}: ${exported.stderr.slice(0, 400)}`);
      assert.ok(readFileSync(out, 'utf8').includes(`t${THOUGHTS}`), `${format} holds the last thought`);
    }
    const server = RawStdioServer.start(join(store.dir, 'store'), ['--max-thoughts', '200000']);
    try {
      await server.initialize();
      const reply = await server.request(
        'stats',
        'tools/call',
        { name: 'thinking_sessions', arguments: { action: 'stats', sessionId: 'scale-session' } },
        30_000,
      );
      const { ok, text } = toolText(reply);
      assert.ok(ok, text.slice(0, 400));
      assert.match(text, /"maxMs":\s*1000/);
    } finally {
      await server.stop();
    }
  });

  const deep = (inner: string) => `${'['.repeat(DEPTH)}${inner}${']'.repeat(DEPTH)}`;
  const deepOtlpValue = `${'{"arrayValue":{"values":['.repeat(DEPTH)}${']}}'.repeat(DEPTH)}`;

  it('refuses an import nested 100,000 levels deep (JSON extra, OTLP arrayValue), naming the field', { timeout: 60_000 }, () => {
    const plus = join(store.dir, 'deep-plus.json');
    writeFileSync(
      plus,
      `{"id":"deep-plus","thoughtHistory":[{"thought":"a","thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":false,"extra":${deep('1')}}]}`,
    );
    const otlp = join(store.dir, 'deep-otlp.json');
    writeFileSync(
      otlp,
      `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"thought-explorer"},"spans":[{"traceId":"c67d9ddbc8cd9b3235e50ceb3f3ed047","spanId":"6e3c1ece176c0861","name":"thinking session","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"x","value":${deepOtlpValue}}]}]}]}]}`,
    );
    for (const [file, field] of [
      [plus, /thoughtHistory\[0\]\.extra/],
      [otlp, /spans\[0\]\.attributes\[0\]|resourceSpans\[0\]\.scopeSpans\[0\]/],
    ] as const) {
      const result = cli(['import', file, '--storage-path', join(store.dir, 'store')]);
      assert.notEqual(result.status, 0, 'refused');
      assert.doesNotMatch(result.stderr, /Maximum call stack/);
      assert.match(result.stderr, /nested deeper than \d+ levels/);
      assert.match(result.stderr, field, result.stderr.slice(0, 400));
    }
  });
});
