// Regression tests for the store under a hostile file system and hostile imports (issue 10, items 2, 3, 4, 9, 11a):
// nothing acknowledged may become unreadable, no file in the store may block or escape it, and a listing never
// offers what opening then refuses. Real files, real FIFOs and symbolic links, the real CLI; temp directories only.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
  ftruncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { INDEX_FILE_NAME } from '../../src/storage/sessionIndex';
import { SessionFormatError, parseSessionJson, toLosslessJson } from '../../src/storage/sessionJsonFormats';
import { SessionFullError, StoreLocationError } from '../../src/storage/storeErrors';

const ROOT = resolve(__dirname, '..', '..');
const directories: string[] = [];
after(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function freshDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'store-hardening-'));
  directories.push(directory);
  return directory;
}

const quiet = () => {};

function thought(number: number, text = `Thought ${number}`, overrides: Record<string, unknown> = {}) {
  return { thought: text, thoughtNumber: number, totalThoughts: Math.max(number, 3), nextThoughtNeeded: true, ...overrides };
}

/** A session of `count` thoughts written through the engine, as an agent would; returns the store's directory. */
function writeSession(directory: string, id: string, count: number): void {
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet });
  for (let number = 1; number <= count; number++) assert.ok(engine.process('c', { sessionId: id, ...thought(number) }).ok);
  store.close();
}

/**
 * Runs `body` (TypeScript, with `store` a FileSessionStore on `directory`) in a child process, so a call that blocks
 * forever (a FIFO opened synchronously) fails the test after `timeoutMs` instead of hanging the runner.
 */
function inChild(
  directory: string,
  body: string,
  timeoutMs = 15_000,
): { status: number | null; stdout: string; stderr: string; timedOut: boolean } {
  const script = `
    const { FileSessionStore } = require(${JSON.stringify(join(ROOT, 'src/storage/fileSessionStore.ts'))});
    const { ThinkingEngine } = require(${JSON.stringify(join(ROOT, 'src/engine/engine.ts'))});
    const store = new FileSessionStore(${JSON.stringify(directory)}, { log: () => {} });
    const engine = new ThinkingEngine({ store, log: () => {} });
    const out = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
    ${body}
    store.close();
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.error !== undefined || result.signal !== null,
  };
}

describe('journals of any size (item 2)', () => {
  it('opens a journal larger than the longest string V8 can make, recovering every record around garbage', { timeout: 60_000 }, () => {
    const directory = freshDirectory();
    writeSession(directory, 'huge', 2);
    const path = join(directory, 'huge.jsonl');
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    // The session and first thought, then 600 MB of NUL bytes (a sparse hole: no disk used), then the second thought.
    // Read as one string (0x1fffffe8 characters at most) this journal is unreadable as a whole.
    const fd = openSync(path, 'w');
    writeSync(fd, `${lines[0]}\n${lines[1]}\n`);
    const holeEnd = 600 * 1024 * 1024;
    ftruncateSync(fd, holeEnd);
    writeSync(fd, `\n${lines[2]}\n`, holeEnd);
    closeSync(fd);
    assert.ok(statSync(path).size > 0x1fffffe8);

    const problems: string[] = [];
    const store = new FileSessionStore(directory, { log: (message) => problems.push(message) });
    const snapshot = store.loadSession('huge');
    assert.ok(snapshot, `the journal opens: ${problems.join('\n')}`);
    assert.deepEqual(
      snapshot.thoughts.map((record) => record.thought),
      ['Thought 1', 'Thought 2'],
    );
    assert.ok(
      problems.some((line) => /line longer than \d+ bytes skipped/.test(line)),
      problems.join('\n'),
    );
    const listed = store.listSessions().sessions.find((meta) => meta.id === 'huge');
    assert.equal(listed?.thoughtCount, 2);
    assert.equal(listed?.unreadable, undefined);
    store.close();
  });

  it('reads lines that straddle read chunks, multi-byte characters included, exactly as written', () => {
    const directory = freshDirectory();
    const store = new FileSessionStore(directory, { log: quiet });
    const engine = new ThinkingEngine({ store, log: quiet });
    // ~2.5 MB of journal in lines of ~32-40 KB: several 1 MiB chunk boundaries fall inside lines and characters.
    const texts = Array.from({ length: 60 }, (_, index) => `${'é😀ж'.repeat(4_000 + index * 13)} ${index}`);
    texts.forEach((text, index) => assert.ok(engine.process('c', { sessionId: 'wide', ...thought(index + 1, text) }).ok));
    store.close();
    assert.ok(statSync(join(directory, 'wide.jsonl')).size > 2 * 1024 * 1024);
    const reopened = new FileSessionStore(directory, { log: quiet });
    assert.deepEqual(
      reopened.loadSession('wide')?.thoughts.map((record) => record.thought),
      texts,
    );
    reopened.close();
  });

  it('refuses a thought that would take the journal past maxSessionBytes, before acknowledging it; everything acknowledged reads back', () => {
    const directory = freshDirectory();
    const store = new FileSessionStore(directory, { log: quiet, maxSessionBytes: 8 * 1024 });
    const engine = new ThinkingEngine({ store, log: quiet });
    let acknowledged = 0;
    let refusal: string | undefined;
    for (let number = 1; number <= 100 && refusal === undefined; number++) {
      const outcome = engine.process('c', { sessionId: 'capped', ...thought(number, `Thought ${number} ${'x'.repeat(500)}`) });
      if (outcome.ok) acknowledged++;
      else refusal = outcome.error;
    }
    assert.ok(refusal !== undefined, 'the session is refused once full');
    assert.match(
      refusal,
      /Session "capped" is full: .*maxSessionBytes.*Continue in a new session: send sessionId "capped-2" with thoughtNumber 1/,
    );
    assert.doesNotMatch(refusal, /Send it again/, 'resending cannot help a full session');
    assert.ok(acknowledged > 5);
    assert.ok(statSync(join(directory, 'capped.jsonl')).size <= 8 * 1024);
    // A full session can still be closed (a meta record), and a new session starts normally.
    assert.ok(engine.setStatus('capped', 'complete'));
    assert.ok(engine.process('c', { sessionId: 'capped-2', ...thought(1) }).ok);
    store.close();

    const reopened = new FileSessionStore(directory, { log: quiet });
    const snapshot = reopened.loadSession('capped');
    assert.equal(snapshot?.thoughts.length, acknowledged, 'every acknowledged thought is on disk, and no other');
    assert.equal(snapshot?.meta.status, 'complete');
    reopened.close();
  });

  it('refuses an import larger than maxSessionBytes, leaving nothing behind', () => {
    const directory = freshDirectory();
    writeSession(directory, 'source', 40);
    const source = new FileSessionStore(directory, { log: quiet });
    const snapshot = source.loadSession('source');
    source.close();
    assert.ok(snapshot);
    const target = freshDirectory();
    const store = new FileSessionStore(target, { log: quiet, maxSessionBytes: 2048 });
    assert.throws(() => store.saveSession(snapshot), SessionFullError);
    assert.deepEqual(
      readdirSync(target).filter((name) => name !== INDEX_FILE_NAME),
      [],
    );
    store.close();
  });
});

describe(
  'files in the store that are not regular journals (item 3)',
  { skip: process.platform === 'win32' ? 'no FIFOs or unprivileged symbolic links on Windows' : false },
  () => {
    it('a FIFO named like a journal blocks nothing: get, list and a thought for its id answer at once', () => {
      const directory = freshDirectory();
      writeSession(directory, 'good', 1);
      const made = spawnSync('mkfifo', [join(directory, 'pipe.jsonl')]);
      assert.equal(made.status, 0, 'mkfifo');
      const result = inChild(
        directory,
        `
      out({ loaded: store.loadSession('pipe') ?? null });
      out(store.listSessions().sessions.map((meta) => ({ id: meta.id, unreadable: meta.unreadable ?? null, thoughts: meta.thoughtCount })));
      out(engine.process('c', { sessionId: 'pipe', thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true }));
      `,
      );
      assert.equal(result.timedOut, false, 'the store blocked on the FIFO');
      assert.equal(result.status, 0, result.stderr);
      const [loaded, listed, outcome] = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(loaded, { loaded: null });
      assert.deepEqual(
        listed.find((entry: { id: string }) => entry.id === 'good'),
        { id: 'good', unreadable: null, thoughts: 1 },
      );
      const pipe = listed.find((entry: { id: string }) => entry.id === 'pipe');
      assert.match(pipe?.unreadable ?? '', /is a FIFO \(named pipe\), not a regular file/);
      assert.equal(pipe.thoughts, 0);
      assert.equal(outcome.ok, false);
      assert.match(outcome.error, /already exists/);
    });

    it('never reads or appends through a journal that is a symbolic link to a file outside the store', () => {
      const directory = freshDirectory();
      const elsewhere = freshDirectory();
      writeSession(elsewhere, 'outside', 2);
      const outsidePath = join(elsewhere, 'outside.jsonl');
      const before = readFileSync(outsidePath, 'utf8');
      symlinkSync(outsidePath, join(directory, 'link.jsonl'));

      const store = new FileSessionStore(directory, { log: quiet });
      const engine = new ThinkingEngine({ store, log: quiet });
      assert.equal(store.loadSession('link'), undefined);
      const listed = store.listSessions().sessions;
      assert.equal(listed.length, 1);
      assert.equal(listed[0].id, 'link');
      assert.match(listed[0].unreadable ?? '', /is a symbolic link, not a regular file/);
      assert.equal(listed[0].thoughtCount, 0);
      const outcome = engine.process('c', { sessionId: 'link', ...thought(3) });
      assert.equal(outcome.ok, false);
      // A session once held and then replaced by a link is not appended through either.
      assert.throws(
        () =>
          store.appendThought(
            { ...listed[0], unreadable: undefined },
            { seq: 0, thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true, timestamp: 1 },
          ),
        /symbolic link/,
      );
      store.close();
      assert.equal(readFileSync(outsidePath, 'utf8'), before, 'the file outside the store is untouched');
    });

    it(
      'a FIFO or a huge file as index.json does not block or break listing: the index is rebuilt from the journals',
      { timeout: 60_000 },
      () => {
        const directory = freshDirectory();
        writeSession(directory, 'kept', 2);
        rmSync(join(directory, INDEX_FILE_NAME), { force: true });
        assert.equal(spawnSync('mkfifo', [join(directory, INDEX_FILE_NAME)]).status, 0);
        const result = inChild(directory, `out(store.listSessions().sessions.map((meta) => [meta.id, meta.thoughtCount]));`);
        assert.equal(result.timedOut, false, 'the store blocked on a FIFO index.json');
        assert.deepEqual(JSON.parse(result.stdout.trim()), [['kept', 2]]);
        assert.ok(statSync(join(directory, INDEX_FILE_NAME)).isFile(), 'the rebuilt index replaced the FIFO');

        // 300 MB of garbage (sparse), then deeply nested garbage: both rebuilt, neither read as a whole string.
        const fd = openSync(join(directory, INDEX_FILE_NAME), 'w');
        ftruncateSync(fd, 300 * 1024 * 1024);
        closeSync(fd);
        const log: string[] = [];
        let store = new FileSessionStore(directory, { log: (message) => log.push(message) });
        assert.deepEqual(
          store.listSessions().sessions.map((meta) => [meta.id, meta.thoughtCount]),
          [['kept', 2]],
        );
        assert.ok(
          log.some((line) => /rebuilding it from the journals/.test(line)),
          log.join('\n'),
        );
        store.close();
        writeFileSync(join(directory, INDEX_FILE_NAME), `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
        store = new FileSessionStore(directory, { log: quiet });
        assert.deepEqual(
          store.listSessions().sessions.map((meta) => [meta.id, meta.thoughtCount]),
          [['kept', 2]],
        );
        store.close();
      },
    );
  },
);

describe('imports held to the rules and limits of tool input (item 4)', () => {
  function losslessFile(
    overrides: { meta?: Record<string, unknown>; thought?: Record<string, unknown>; thoughts?: number; text?: string } = {},
  ): string {
    const thoughts = Array.from({ length: overrides.thoughts ?? 1 }, (_, index) => ({
      seq: index,
      thought: overrides.text ?? `Thought ${index + 1}`,
      thoughtNumber: index + 1,
      totalThoughts: index + 1,
      nextThoughtNeeded: true,
      timestamp: 1_000 + index,
      ...overrides.thought,
    }));
    return JSON.stringify({
      format: 'thought-explorer-session',
      version: 1,
      meta: {
        id: 'imported',
        strategy: 'linear',
        status: 'live',
        createdAt: 1_000,
        updatedAt: 2_000,
        thoughtCount: thoughts.length,
        revisionCount: 0,
        branchIds: [],
        lastThoughtNumber: thoughts.length,
        totalThoughts: thoughts.length,
        ...overrides.meta,
      },
      thoughts,
      strategySwitches: [],
    });
  }

  const outOfRange: [string, Parameters<typeof losslessFile>[0], RegExp][] = [
    [
      'a createdAt of 9e15',
      { meta: { createdAt: 9e15 } },
      /^meta\.createdAt: expected a time in milliseconds since 1970, from 0 to \d+ \(the year 2999\), got 9000000000000000$/,
    ],
    ['an updatedAt of 1e308', { meta: { updatedAt: 1e308 } }, /^meta\.updatedAt: expected a time/],
    ['a thought timestamp of 9e15', { thought: { timestamp: 9e15 } }, /^thoughts\[0\]\.timestamp: expected a time/],
    [
      'a thoughtNumber of 2^53',
      { thought: { thoughtNumber: 2 ** 53 } },
      /^thoughts\[0\]\.thoughtNumber: expected a whole number from 1 to 9007199254740991, got 9007199254740992$/,
    ],
  ];
  for (const [name, overrides, pattern] of outOfRange) {
    it(`refuses ${name}, naming the field and the range`, () => {
      assert.throws(
        () => parseSessionJson(losslessFile(overrides)),
        (error: unknown) => error instanceof SessionFormatError && pattern.test(error.message),
      );
    });
  }

  it('refuses sequentialthinking-plus dates beyond the year 2999', () => {
    const file = { id: 's', timestamp: '+275760-09-13T00:00:00.000Z', thoughtHistory: [thought(1)] };
    assert.throws(
      () => parseSessionJson(JSON.stringify(file)),
      /^SessionFormatError: timestamp: expected an ISO date or milliseconds since 1970, from 1970 to the year 2999/,
    );
  });

  it('refuses more thoughts than maxThoughtsPerSession and thoughts longer than maxThoughtLength (defaults and given limits)', () => {
    assert.throws(
      () => parseSessionJson(losslessFile({ thoughts: 10_001 })),
      /^SessionFormatError: thoughts: 10001 thoughts, more than a session may hold \(maxThoughtsPerSession 10000\)/,
    );
    assert.throws(
      () => parseSessionJson(losslessFile({ text: 'x'.repeat(20_001) })),
      /^SessionFormatError: thoughts\[0\]\.thought: 20001 characters, more than a thought may hold \(maxThoughtLength 20000\)/,
    );
    const seed = { id: 's', timestamp: 0, thoughtHistory: [thought(1, 'x'.repeat(5 * 1024 * 1024))] };
    assert.throws(() => parseSessionJson(JSON.stringify(seed)), /maxThoughtLength 20000/);
    assert.throws(
      () => parseSessionJson(losslessFile({ thoughts: 3 }), { limits: { maxThoughtsPerSession: 2, maxThoughtLength: 100 } }),
      /maxThoughtsPerSession 2/,
    );
    assert.equal(
      parseSessionJson(losslessFile({ thoughts: 3 }), { limits: { maxThoughtsPerSession: 3, maxThoughtLength: 100 } }).snapshot.thoughts
        .length,
      3,
    );
  });

  it('keeps a "__proto__" field of a sequentialthinking-plus thought as data, through the store and back, polluting nothing', () => {
    const text = `{"id":"proto","timestamp":0,"thoughtHistory":[{"thought":"a","thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":false,"__proto__":{"polluted":true},"note":"n"}]}`;
    const { snapshot } = parseSessionJson(text);
    const extra = snapshot.thoughts[0].extra;
    assert.ok(extra);
    assert.equal(Object.getPrototypeOf(extra), Object.prototype);
    assert.deepEqual(Object.keys(extra), ['__proto__', 'note']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(extra, '__proto__')?.value, { polluted: true });
    assert.equal((extra as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);

    const store = new FileSessionStore(freshDirectory(), { log: quiet });
    store.saveSession(snapshot);
    const back = store.loadSession('proto')?.thoughts[0].extra;
    assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { polluted: true });
    assert.deepEqual(
      JSON.parse(toLosslessJson(store.loadSession('proto')!)).thoughts[0].extra,
      JSON.parse('{"__proto__":{"polluted":true},"note":"n"}'),
    );
    store.close();
  });

  it('the store itself refuses a snapshot it could not read back, and listing goes on working', () => {
    const directory = freshDirectory();
    writeSession(directory, 'fine', 1);
    const store = new FileSessionStore(directory, { log: quiet });
    const snapshot = store.loadSession('fine')!;
    const broken = { ...snapshot, meta: { ...snapshot.meta, id: 'far', updatedAt: 9e15 } };
    assert.throws(() => store.saveSession(broken), /^SessionFormatError: meta\.updatedAt: expected a time/);
    assert.throws(
      () =>
        store.saveSession({
          ...snapshot,
          meta: { ...snapshot.meta, id: 'far2' },
          thoughts: [{ ...snapshot.thoughts[0], timestamp: 1e308 }],
        }),
      /thoughts\[0\]\.timestamp/,
    );
    assert.equal(existsSync(join(directory, 'far.jsonl')), false);
    assert.deepEqual(
      store.listSessions().sessions.map((meta) => meta.id),
      ['fine'],
    );
    for (const meta of store.listSessions().sessions) new Date(meta.updatedAt).toISOString();
    store.close();
  });
});

describe('listing never offers what opening refuses (item 9)', () => {
  it('a journal rewritten behind the index (same size and mtime) is read again and listed as unreadable, not with the old counts', () => {
    const directory = freshDirectory();
    writeSession(directory, 'swapped', 3);
    const path = join(directory, 'swapped.jsonl');
    let store = new FileSessionStore(directory, { log: quiet });
    assert.equal(store.listSessions().sessions[0].thoughtCount, 3);
    store.close();
    // Same inode, same size, same mtime: only the ctime tells. Opening it fails; listing must say so.
    const { size, atime, mtime } = statSync(path);
    writeFileSync(path, 'x'.repeat(size));
    utimesSync(path, atime, mtime);
    store = new FileSessionStore(directory, { log: quiet });
    const [listed] = store.listSessions().sessions;
    assert.equal(store.loadSession('swapped'), undefined);
    assert.equal(listed.id, 'swapped');
    assert.match(listed.unreadable ?? '', /not a session journal/);
    assert.equal(listed.thoughtCount, 0);
    store.close();
  });

  it('an index written under laxer rules (version 1, a time past 2999) is rebuilt from the journals', () => {
    const directory = freshDirectory();
    writeSession(directory, 'real', 2);
    const index = JSON.parse(readFileSync(join(directory, INDEX_FILE_NAME), 'utf8'));
    index.version = 1;
    index.entries[0].meta.thoughtCount = 99;
    index.entries[0].meta.updatedAt = 9e15;
    writeFileSync(join(directory, INDEX_FILE_NAME), JSON.stringify(index));
    const store = new FileSessionStore(directory, { log: quiet });
    const [listed] = store.listSessions().sessions;
    assert.equal(listed.thoughtCount, 2);
    assert.ok(listed.updatedAt < 9e15);
    store.close();
  });

  it('a session that get refuses (a journal emptied behind the store) is listed as unreadable from then on', () => {
    const directory = freshDirectory();
    writeSession(directory, 'gone-bad', 2);
    const store = new FileSessionStore(directory, { log: quiet });
    assert.equal(store.listSessions().sessions[0].thoughtCount, 2);
    writeFileSync(join(directory, 'gone-bad.jsonl'), '');
    assert.equal(store.loadSession('gone-bad'), undefined);
    const [listed] = store.listSessions().sessions;
    assert.equal(listed.thoughtCount, 0);
    assert.match(listed.unreadable ?? '', /not a session journal/);
    store.close();
    // Unreadable entries are not kept in index.json.
    assert.deepEqual(JSON.parse(readFileSync(join(directory, INDEX_FILE_NAME), 'utf8')).entries, []);
  });
});

describe('a store path that is a file (item 11a)', () => {
  it('is refused with a StoreLocationError that says so', () => {
    const file = join(freshDirectory(), 'sessions');
    writeFileSync(file, 'not a folder');
    assert.throws(
      () => new FileSessionStore(file),
      (error: unknown) => error instanceof StoreLocationError && /is a file, not a folder/.test(error.message),
    );
    assert.throws(
      () => new FileSessionStore(join(file, 'below')),
      (error: unknown) => error instanceof StoreLocationError && /part of that path is a file/.test(error.message),
    );
  });

  it('ends the CLI with that message and no stack trace', () => {
    const file = join(freshDirectory(), 'sessions');
    writeFileSync(file, 'not a folder');
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), '--storage-path', file], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      input: '',
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /is a file, not a folder/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });
});
