// What agents, files and other connections send is bounded, checked and made safe to show (issue 24, rows 3, 7, 8, 9,
// 12, 13), against the built CLI: the QA fields, `thinking_sessions get` paging, imports (unknown fields, feedback the
// engine would refuse, files over the size limit), bidi and control characters in exports and lists, and what a second
// connection or a second thought 1 gets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, statSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { CLI, callTool, connectHttp, RawStdioServer, requireBuiltCli, resultJson, startHttpCli, tempStore, toolText } from './support';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function storeBytes(dir: string): number {
  let total = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else total += statSync(full).size;
    }
  };
  walk(dir);
  return total;
}

const thought = (n: number, text: string, extra: Record<string, unknown> = {}) => ({
  thought: text,
  thoughtNumber: n,
  totalThoughts: Math.max(n, 3),
  nextThoughtNeeded: true,
  ...extra,
});

describe('bounded input from agents', () => {
  let store: ReturnType<typeof tempStore>;
  let server: RawStdioServer;
  let id = 100;
  const call = async (name: string, args: Record<string, unknown>, timeoutMs = 20_000) =>
    server.request(id++, 'tools/call', { name, arguments: args }, timeoutMs);

  before(async () => {
    requireBuiltCli();
    store = tempStore();
    server = RawStdioServer.start(store.dir);
    await server.initialize();
  });
  after(async () => {
    await server.stop();
    store.remove();
  });

  it('row 3: QA steps are bounded in size like the thought itself', async () => {
    const step = (index: number) => ({
      stepDescription: `step ${index} ${'d'.repeat(1990)}`,
      expectedOutcome: 'o'.repeat(2000),
      recommendedTools: [{ toolName: 'grep', confidence: 0.5, rationale: 'r'.repeat(1000), priority: 1 }],
    });
    const reply = await call('sequentialthinking', {
      ...thought(1, 'qa'),
      sessionId: 'qa-bounds',
      currentStep: step(0),
      previousSteps: Array.from({ length: 50 }, (_, index) => step(index)),
      remainingSteps: Array.from({ length: 50 }, () => 'x'.repeat(2000)),
    });
    const { ok, text } = toolText(reply);
    assert.equal(ok, false, `accepted: ${text.slice(0, 200)}`);
    assert.match(text, /at most \d+ characters/);
    assert.ok(storeBytes(store.dir) < 1024 * 1024, `the store holds ${storeBytes(store.dir)} bytes`);
  });

  it('row 3: `thinking_sessions get` (full) pages what it cannot return whole', async () => {
    for (let n = 1; n <= 120; n++) {
      const { ok, text } = toolText(
        await call('sequentialthinking', { ...thought(n, `${n} ${'t'.repeat(19_000)}`), sessionId: 'big-session' }),
      );
      assert.ok(ok, text);
    }
    const seen: number[] = [];
    let offset: number | undefined = 0;
    for (let page = 0; offset !== undefined && page < 20; page++) {
      const reply = await call('thinking_sessions', { action: 'get', sessionId: 'big-session', detail: 'full', offset });
      const size = Buffer.byteLength(JSON.stringify(reply));
      assert.ok(size < 4 * 1024 * 1024, `a page of ${size} bytes`);
      const value = (reply.result as { structuredContent: { thoughts: { thoughtNumber: number }[]; nextOffset?: number } })
        .structuredContent;
      seen.push(...value.thoughts.map((entry) => entry.thoughtNumber));
      offset = value.nextOffset;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 120 }, (_, index) => index + 1),
    );
  });

  it('row 8: bidi and control characters are shown escaped in exports and list titles; the journal keeps them', async () => {
    const spoof = 'Total \u202Eevil\u202C ok \u2066x\u2069 \u200F nul\u0000 bel\u0007 esc\u001b[31m line\u2028sep';
    const { ok, text } = toolText(await call('sequentialthinking', { ...thought(1, spoof), sessionId: 'bidi-session' }));
    assert.ok(ok, text);
    const listed = toolText(await call('thinking_sessions', { action: 'list', text: 'Total' }));
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const listedTitle = (JSON.parse(listed.text) as { sessions: { title: string }[] }).sessions[0].title;
    assert.doesNotMatch(listedTitle, RAW);
    assert.match(listedTitle, /\\u202E/);
    for (const format of ['md', 'html']) {
      const exported = cli(['export', 'bidi-session', '--format', format, '--storage-path', store.dir]);
      assert.equal(exported.status, 0, exported.stderr);
      // The HTML file inlines our own diagram renderer, whose code holds control characters of its own: only the page counts.
      const page = exported.stdout.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
      assert.doesNotMatch(page, RAW, `${format} export holds a raw control character`);
      assert.match(exported.stdout, /\\u202E/);
    }
    const journal = readdirSync(store.dir, { recursive: true })
      .map(String)
      .filter((name) => name.includes('bidi-session'))
      .map((name) => {
        try {
          return readFileSync(join(store.dir, name), 'utf8');
        } catch {
          return '';
        }
      })
      .join('');
    assert.ok(journal.includes('\\u202e') || journal.includes('\u202E'), 'the journal keeps the original text');
  });
});

describe('imports follow the live rules', () => {
  let store: ReturnType<typeof tempStore>;
  before(() => {
    requireBuiltCli();
    store = tempStore();
  });
  after(() => store.remove());

  it('row 7: an unknown thought field of 30 MB is dropped with a warning', () => {
    const file = join(store.dir, '..', `${store.dir.split('/').pop()}-plus.json`);
    writeFileSync(
      file,
      JSON.stringify({
        id: 'plus-huge',
        thoughtHistory: [
          { thought: 'one', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, blob: 'y'.repeat(30 * 1024 * 1024) },
        ],
      }),
    );
    const run = cli(['import', file, '--storage-path', store.dir]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /warning: .*blob/);
    assert.ok(storeBytes(store.dir) < 1024 * 1024, `the store holds ${storeBytes(store.dir)} bytes`);
  });

  it('row 12: a file over the import limit is refused with the limit named, before it is read', () => {
    const file = join(store.dir, '..', `${store.dir.split('/').pop()}-huge.json`);
    const handle = openSync(file, 'w');
    ftruncateSync(handle, 513 * 1024 * 1024);
    closeSync(handle);
    const run = cli(['import', file, '--storage-path', store.dir]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /at most \d+ MiB/);
  });

  it('row 9: feedback the engine refuses live (unknown thought, given after the session ended) is dropped with a warning', () => {
    const file = join(store.dir, '..', `${store.dir.split('/').pop()}-feedback.json`);
    const at = Date.UTC(2026, 0, 1);
    const meta = {
      id: 'fb-import',
      strategy: 'linear',
      status: 'complete',
      createdAt: at,
      updatedAt: at + 2000,
      thoughtCount: 2,
      revisionCount: 0,
      branchIds: [],
      lastThoughtNumber: 2,
      totalThoughts: 2,
    };
    const thoughts = [1, 2].map((n) => ({
      seq: n - 1,
      thought: `thought ${n}`,
      thoughtNumber: n,
      totalThoughts: 2,
      nextThoughtNeeded: n < 2,
      timestamp: at + n * 1000,
    }));
    const feedback = [
      { id: 'fb-1', kind: 'note', author: 'user', createdAt: at + 1500, thoughtNumber: 1, text: 'fine' },
      { id: 'fb-2', kind: 'reject', author: 'user', createdAt: at + 1500, thoughtNumber: 99, text: 'no such thought' },
      { id: 'fb-3', kind: 'note', author: 'user', createdAt: at + 9000, text: 'after the end' },
    ];
    writeFileSync(file, JSON.stringify({ format: 'thought-explorer-session', version: 1, meta, thoughts, strategySwitches: [], feedback }));
    const run = cli(['import', file, '--storage-path', store.dir]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /warning: .*fb-2.*99/);
    assert.match(run.stderr, /warning: .*fb-3/);
    const exported = cli(['export', 'fb-import', '--format', 'json', '--storage-path', store.dir]);
    assert.equal(exported.status, 0, exported.stderr);
    const kept = (JSON.parse(exported.stdout) as { feedback?: { id: string }[] }).feedback?.map((entry) => entry.id);
    assert.deepEqual(kept, ['fb-1']);
  });
});

describe('sessions across connections (row 13)', () => {
  let store: ReturnType<typeof tempStore>;
  let http: Awaited<ReturnType<typeof startHttpCli>>;
  let a: Client;
  let b: Client;
  before(async () => {
    requireBuiltCli();
    store = tempStore();
    http = await startHttpCli(store.dir);
    a = await connectHttp(http, 'a');
    b = await connectHttp(http, 'b');
  });
  after(async () => {
    await a.close();
    await b.close();
    await http.stop();
    store.remove();
  });

  it('a duplicate thought number gets a warning; a second thought 1 without sessionId starts a new session', async () => {
    const first = resultJson<{ sessionId: string }>(await callTool(a, 'sequentialthinking', thought(1, 'A starts')));
    resultJson(await callTool(b, 'sequentialthinking', { ...thought(2, 'B joins by id'), sessionId: first.sessionId }));
    const again = resultJson<{ warnings: string[]; sessionId?: string }>(await callTool(a, 'sequentialthinking', thought(2, 'A goes on')));
    // A compact reply names the session only when it changes: A is still in its first one.
    assert.equal(again.sessionId ?? first.sessionId, first.sessionId);
    assert.ok(
      again.warnings.some((warning) => /already holds thought 2/.test(warning)),
      JSON.stringify(again.warnings),
    );
    const restart = resultJson<{ warnings: string[]; sessionId: string }>(await callTool(a, 'sequentialthinking', thought(1, 'A again')));
    assert.notEqual(restart.sessionId, first.sessionId);
    assert.ok(
      restart.warnings.some((warning) => warning.includes(first.sessionId)),
      JSON.stringify(restart.warnings),
    );
  });

  it('thinking_sessions is not annotated read-only (configure writes)', async () => {
    const { tools } = await a.listTools();
    const sessions = tools.find((tool) => tool.name === 'thinking_sessions');
    assert.equal(sessions?.annotations?.readOnlyHint, false);
  });
});
