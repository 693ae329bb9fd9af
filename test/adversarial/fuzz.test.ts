// Property-based fuzzing (fast-check) of the tool input, through a real SDK Client and createServer over the in-memory
// transport with a real file store, and of imports, through the built CLI's `import` command. Properties: every call
// gets an answer (a result or a refusal that names a field), an acknowledged thought is stored exactly as sent, a
// refused one stores nothing, and whatever import accepts the store can list and read back afterwards.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { createServer } from '../../src/mcp/server';
import { CLI, RawStdioServer, callTool, fuzzSeed, requireBuiltCli, resultText, tempStore, toolText } from './support';

const FIELDS = [
  'thought',
  'thoughtNumber',
  'totalThoughts',
  'nextThoughtNeeded',
  'isRevision',
  'revisesThought',
  'branchFromThought',
  'branchId',
  'needsMoreThoughts',
  'sessionId',
  'strategy',
  'stage',
];

/** Values that break parsers: extremes, wrong types, prototype names, control and bidi characters. */
const hostileValue = fc.oneof(
  fc.constantFrom(0, -1, 1, Number.MAX_SAFE_INTEGER, 1.5, '1', 'true', 'false', '', ' ', null, true, false),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '\u202e\u2066evil',
    '\u0000\u0007\u001b[31m',
    ']]>',
    '%%{init}%%',
    '<script>alert(1)</script>',
    'a'.repeat(300),
  ),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: -5, max: 50 }),
  fc.double({ min: -1000, max: 1000 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('__proto__', 'a', 'thought'), fc.integer(), { maxKeys: 2 }),
);

/** Numbers beyond safe integers (issue 10 item 1): acknowledged today, gone after a restart. */
const unsafeNumber = fc.constantFrom(2 ** 53, 2 ** 53 + 2, 1e308, -1e308, '99999999999999999999999', '1e400');
const NUMBER_FIELDS = ['thoughtNumber', 'totalThoughts', 'revisesThought', 'branchFromThought'];

/** Mostly-valid thoughts with some fields replaced or added: deep enough into the engine to matter. */
const toolInput = (overrides: fc.Arbitrary<Record<string, unknown>>) =>
  fc.record({
    base: fc.record({
      thought: fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom('x', 'thought with \u202e bidi', 'ok')),
      thoughtNumber: fc.integer({ min: 1, max: 8 }),
      totalThoughts: fc.integer({ min: 1, max: 8 }),
      nextThoughtNeeded: fc.boolean(),
    }),
    overrides,
  });
const anyOverrides = fc.dictionary(fc.constantFrom(...FIELDS, '__proto__', 'constructor', 'extra_field', 'thought_number'), hostileValue, {
  maxKeys: 3,
});
const unsafeNumberOverrides = fc.dictionary(fc.constantFrom(...NUMBER_FIELDS), unsafeNumber, { minKeys: 1, maxKeys: 2 });

async function fuzzTool(
  storeDir: string,
  name: string,
  input: fc.Arbitrary<{ base: Record<string, unknown>; overrides: Record<string, unknown> }>,
  numRuns: number,
): Promise<void> {
  const seed = fuzzSeed(name);
  const fileStore = new FileSessionStore(storeDir, { log: () => undefined });
  const engine = new ThinkingEngine({ store: fileStore, log: () => undefined });
  const created = createServer({ engine, connectionId: 'fuzz' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverTransport);
  const client = new Client({ name: 'fuzz', version: '1' });
  await client.connect(clientTransport);
  let accepted = 0;
  let refused = 0;
  let current: string | undefined;
  try {
    await fc.assert(
      fc.asyncProperty(input, async ({ base, overrides }) => {
        const args: Record<string, unknown> = { ...base };
        for (const [key, value] of Object.entries(overrides))
          Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
        const result = await callTool(client, 'sequentialthinking', args);
        const text = resultText(result);
        assert.ok(text.length > 0, 'every answer says something');
        if (result.isError) {
          refused++;
          assert.doesNotMatch(text, /\n\s+at /, 'no stack trace in a refusal');
          return;
        }
        accepted++;
        // A compact reply names the session only when it is new to this connection: keep the last one named.
        const reply = JSON.parse(text) as { sessionId?: string };
        current = reply.sessionId ?? current;
        const full = JSON.parse(
          resultText(await callTool(client, 'thinking_sessions', { action: 'get', sessionId: current, detail: 'full' })),
        ) as { thoughts: { thought: string }[] };
        const last = full.thoughts[full.thoughts.length - 1];
        if (typeof args.thought === 'string') assert.equal(last?.thought, args.thought, 'the stored thought is the one sent');
      }),
      { seed, numRuns, endOnFailure: true },
    );
    // Everything acknowledged is on disk: a second engine on the same store reads the same sessions.
    const listed = engine.listSessions({ offset: 0, limit: 1000 });
    const reopened = new ThinkingEngine({ store: new FileSessionStore(storeDir, { log: () => undefined }), log: () => undefined });
    for (const meta of listed.sessions)
      assert.deepEqual(
        reopened.getSession(meta.id)?.thoughts,
        engine.getSession(meta.id)?.thoughts,
        `session ${meta.id} as re-read from disk`,
      );
    console.log(`# ${name}: ${accepted} accepted, ${refused} refused, ${listed.total} sessions re-read from disk`);
  } finally {
    await client.close();
    created.cleanup();
  }
}

describe('fuzzing the sequentialthinking tool', () => {
  const store = tempStore('te-fuzz-tool-');
  const unsafeStore = tempStore('te-fuzz-unsafe-');
  after(() => {
    store.remove();
    unsafeStore.remove();
  });

  it('answers every input, stores exactly what it acknowledges and nothing it refuses', { timeout: 120_000 }, async () => {
    await fuzzTool(store.dir, 'tool input fuzz', toolInput(anyOverrides), Number(process.env.FUZZ_RUNS ?? 300));
  });

  it('refuses numbers beyond safe integers, or keeps them readable after a restart', { timeout: 60_000 }, async () => {
    await fuzzTool(unsafeStore.dir, 'unsafe number fuzz', toolInput(unsafeNumberOverrides), 40);
  });
});

/** A sequentialthinking-plus file with a few fields of a thought or of the file replaced by hostile values. */
const importFile = fc.record({
  thoughts: fc.array(
    fc.record({
      thought: fc.string({ minLength: 1, maxLength: 30 }),
      thoughtNumber: fc.integer({ min: 1, max: 5 }),
      totalThoughts: fc.integer({ min: 1, max: 5 }),
      nextThoughtNeeded: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  fileOverrides: fc.dictionary(fc.constantFrom('id', 'timestamp', 'branches', 'strategy', 'thoughtHistory'), hostileValue, { maxKeys: 1 }),
  thoughtOverrides: fc.dictionary(fc.constantFrom(...FIELDS, 'timestamp'), hostileValue, { maxKeys: 2 }),
});

function runImport(storeDir: string, file: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, 'import', file, '--storage-path', storeDir], { encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, stderr: run.stderr };
}

async function assertStoreReadable(storeDir: string, imported: number): Promise<void> {
  const server = RawStdioServer.start(storeDir);
  try {
    await server.initialize();
    const list = toolText(
      await server.request('list', 'tools/call', { name: 'thinking_sessions', arguments: { action: 'list', limit: 100 } }),
    );
    assert.ok(list.ok, `list after imports: ${list.text}`);
    const sessions = (JSON.parse(list.text) as { sessions: { sessionId?: string; id?: string }[] }).sessions;
    assert.equal(sessions.length, imported, 'every accepted import is listed');
    for (const meta of sessions) {
      const got = toolText(
        await server.request(`get-${meta.sessionId ?? meta.id}`, 'tools/call', {
          name: 'thinking_sessions',
          arguments: { action: 'get', sessionId: meta.sessionId ?? meta.id },
        }),
      );
      assert.ok(got.ok, `get ${meta.sessionId ?? meta.id}: ${got.text}`);
    }
  } finally {
    await server.stop();
  }
}

describe('fuzzing import', () => {
  const store = tempStore('te-fuzz-import-');
  const files = tempStore('te-fuzz-files-');
  after(() => {
    store.remove();
    files.remove();
  });

  it('takes a file whole or refuses it with a message, and the store stays readable', { timeout: 120_000 }, async () => {
    requireBuiltCli();
    const seed = fuzzSeed('imports');
    let imported = 0;
    let refusedFiles = 0;
    let index = 0;
    await fc.assert(
      fc.asyncProperty(importFile, async ({ thoughts, fileOverrides, thoughtOverrides }) => {
        const history: Record<string, unknown>[] = thoughts.map((thought) => ({ ...thought }));
        for (const [key, value] of Object.entries(thoughtOverrides))
          Object.defineProperty(history[0], key, { value, enumerable: true, writable: true, configurable: true });
        const file: Record<string, unknown> = {
          id: `fuzz-${seed}-${index}`,
          timestamp: '2026-11-22T02:00:00.000Z',
          thoughtHistory: history,
          branches: {},
        };
        for (const [key, value] of Object.entries(fileOverrides))
          Object.defineProperty(file, key, { value, enumerable: true, writable: true, configurable: true });
        const path = join(files.dir, `f${index++}.json`);
        writeFileSync(path, JSON.stringify(file));
        const { status, stderr } = runImport(store.dir, path);
        assert.ok(status === 0 || status === 1, `exit ${status}: ${stderr}`);
        assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
        if (status === 0) imported++;
        else {
          refusedFiles++;
          assert.ok(stderr.trim().length > 0, 'a refusal says why');
        }
      }),
      { seed, numRuns: Number(process.env.FUZZ_IMPORT_RUNS ?? 30), endOnFailure: true },
    );
    console.log(`# import fuzz: ${imported} imported, ${refusedFiles} refused`);
    await assertStoreReadable(store.dir, imported);
  });

  for (const [name, timestamp] of [
    ['9e15', 9e15],
    ['1e308', 1e308],
  ] as const) {
    it(`refuses a thought timestamp of ${name}, or keeps the store listable`, { timeout: 30_000 }, async () => {
      const own = tempStore('te-import-time-');
      try {
        const path = join(own.dir, 'file.json');
        writeFileSync(
          path,
          JSON.stringify({
            id: 'time-test',
            timestamp: '2026-11-22T02:00:00.000Z',
            thoughtHistory: [{ thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, timestamp }],
            branches: {},
          }),
        );
        const storeDir = join(own.dir, 'store');
        const { status } = runImport(storeDir, path);
        await assertStoreReadable(storeDir, status === 0 ? 1 : 0);
      } finally {
        own.remove();
      }
    });
  }
});
