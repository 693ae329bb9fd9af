// Specification of the file store: journals that are appended to and never rewritten, recovery from torn and corrupt
// lines, an index that is rebuilt when missing or corrupt and follows journals written by another process, listing
// with filters and paging (checked at 10,000 sessions), bounded open files, and ids that cannot leave the directory.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidSessionIdError, type SessionMeta, type SessionStatus, type ThoughtRecord } from '../../src/engine/model';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { INDEX_FILE_NAME } from '../../src/storage/sessionIndex';
import { applyThought } from '../../src/engine/browserSafe/sessionMeta';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'thought-explorer-store-'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
});

let directories = 0;
function freshDirectory(): string {
  return join(root, `store-${++directories}`);
}

function newMeta(id: string, overrides: Partial<SessionMeta> = {}): SessionMeta {
  return {
    id,
    strategy: 'linear',
    status: 'live',
    createdAt: 1_000,
    updatedAt: 1_000,
    thoughtCount: 0,
    revisionCount: 0,
    branchIds: [],
    lastThoughtNumber: 0,
    totalThoughts: 3,
    ...overrides,
  };
}

/** Writes a session the way the engine does: create, then one append per thought with the meta after it. */
class SessionWriter {
  meta: SessionMeta;
  readonly thoughts: ThoughtRecord[] = [];

  constructor(
    private readonly store: FileSessionStore,
    id: string,
    overrides: Partial<SessionMeta> = {},
  ) {
    this.meta = newMeta(id, overrides);
    store.createSession(this.meta);
  }

  add(fields: Partial<ThoughtRecord> = {}, metaChanges: Partial<SessionMeta> = {}): ThoughtRecord {
    const thoughtNumber = fields.thoughtNumber ?? this.thoughts.length + 1;
    const record: ThoughtRecord = {
      seq: this.thoughts.length,
      thought: `Thought ${thoughtNumber} of ${this.meta.id}`,
      thoughtNumber,
      totalThoughts: Math.max(3, thoughtNumber),
      nextThoughtNeeded: true,
      timestamp: this.meta.updatedAt + 10,
      stage: 'thought_generation',
      ...fields,
    };
    this.meta = { ...applyThought(this.meta, record), purpose: this.meta.purpose ?? record.thought, ...metaChanges };
    this.store.appendThought(this.meta, record);
    this.thoughts.push(record);
    return record;
  }
}

function collectingLog(): { log: (message: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { log: (message) => lines.push(message), lines };
}

describe('journals', () => {
  it('round-trips a session: meta, thoughts (revision, branch, extra fields), strategy switch and rename', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir, { log: () => assert.fail('no problems expected') });
    const writer = new SessionWriter(store, 'round-trip');
    writer.add();
    writer.add({ isRevision: true, revisesThought: 1 });
    writer.add({ branchFromThought: 1, branchId: 'alt', extra: { tools: ['search'], confidence: 0.7 } });
    const switched = { ...writer.meta, strategy: 'react' };
    delete switched.stage;
    const strategySwitch = { atSeq: 3, from: 'linear', to: 'react', timestamp: 2_000 };
    store.updateMeta(switched, strategySwitch);
    writer.meta = switched;
    writer.add({ stage: 'initial_reasoning', nextThoughtNeeded: false }, { status: 'complete' });
    const renamed = { ...writer.meta, title: 'Renamed "session" <with> marks' };
    store.updateMeta(renamed);
    store.close();

    const reopened = new FileSessionStore(dir, { log: () => assert.fail('no problems expected') });
    const snapshot = reopened.loadSession('round-trip');
    assert.deepEqual(snapshot, { meta: renamed, thoughts: writer.thoughts, strategySwitches: [strategySwitch] });
    assert.equal(snapshot?.meta.thoughtCount, 4);
    assert.equal(snapshot?.meta.revisionCount, 1);
    assert.deepEqual(snapshot?.meta.branchIds, ['alt']);
    reopened.close();
  });

  it('appends one line per thought and never rewrites what is already written', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    const writer = new SessionWriter(store, 'append-only');
    const path = store.sessionFilePath('append-only');
    const inode = statSync(path).ino;
    let previous = readFileSync(path);
    for (let count = 1; count <= 20; count++) {
      writer.add({ thought: `step ${count}: ${'word '.repeat(count)}` });
      const now = readFileSync(path);
      assert.ok(now.subarray(0, previous.length).equals(previous), 'earlier bytes unchanged');
      assert.equal(now.toString('utf8').slice(previous.length).split('\n').length, 2, 'exactly one new line');
      previous = now;
    }
    assert.equal(statSync(path).ino, inode, 'same file, not replaced');
    const lines = previous.toString('utf8').trimEnd().split('\n');
    assert.equal(lines.length, 21);
    assert.ok(
      lines.every((line) => !line.includes('  ')),
      'compact JSON',
    );
    store.close();
  });

  it('stores counters nowhere: a thought line carries a meta patch only for what the thought does not imply', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    const writer = new SessionWriter(store, 'patches');
    writer.add();
    writer.add();
    writer.add({ nextThoughtNeeded: false }, { status: 'complete' });
    const records = readFileSync(store.sessionFilePath('patches'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; meta?: Record<string, unknown> });
    assert.deepEqual(
      records.map((record) => record.type),
      ['session', 'thought', 'thought', 'thought'],
    );
    assert.deepEqual(records[1].meta, { purpose: 'Thought 1 of patches' });
    assert.equal(records[2].meta, undefined);
    assert.deepEqual(records[3].meta, { status: 'complete' });
    store.close();
  });

  it('ignores and reports a torn last line, recovers everything before it, and appends after it on a fresh line', () => {
    const dir = freshDirectory();
    const first = new FileSessionStore(dir);
    const writer = new SessionWriter(first, 'torn');
    writer.add();
    writer.add();
    first.close();
    const path = first.sessionFilePath('torn');
    appendFileSync(path, '{"type":"thought","thought":{"seq":2,"tho');

    const { log, lines } = collectingLog();
    const second = new FileSessionStore(dir, { log });
    const loaded = second.loadSession('torn');
    assert.equal(loaded?.thoughts.length, 2);
    assert.equal(loaded?.meta.thoughtCount, 2);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /torn\.jsonl:4: torn last line \(incomplete write\) ignored/);
    const continued = new SessionWriter(second, 'other');
    continued.add();
    const record: ThoughtRecord = {
      seq: 2,
      thought: 'after the crash',
      thoughtNumber: 3,
      totalThoughts: 3,
      nextThoughtNeeded: false,
      timestamp: 5_000,
    };
    second.appendThought({ ...applyThought(loaded!.meta, record), status: 'complete' }, record);
    second.close();

    const text = readFileSync(path, 'utf8');
    assert.ok(text.includes('"tho\n{"type":"thought","thought":{"seq":2,"thought":"after the crash"'), 'new record on its own line');
    const third = new FileSessionStore(dir, { log: () => {} });
    const recovered = third.loadSession('torn');
    assert.deepEqual(
      recovered?.thoughts.map((thought) => thought.thought),
      ['Thought 1 of torn', 'Thought 2 of torn', 'after the crash'],
    );
    assert.equal(recovered?.meta.status, 'complete');
    third.close();
  });

  it('skips and reports a corrupt line in the middle, and renumbers what follows so seq stays the position', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    const writer = new SessionWriter(store, 'corrupt-middle');
    writer.add();
    writer.add();
    writer.add();
    store.close();
    const path = store.sessionFilePath('corrupt-middle');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = '{"type":"thought","thought":{"seq":1,"thought":42}}';
    lines.splice(3, 0, 'garbage that is not JSON');
    writeFileSync(path, lines.join('\n'));

    const { log, lines: logged } = collectingLog();
    const reopened = new FileSessionStore(dir, { log });
    const loaded = reopened.loadSession('corrupt-middle');
    assert.deepEqual(
      loaded?.thoughts.map((thought) => [thought.seq, thought.thoughtNumber]),
      [
        [0, 1],
        [1, 3],
      ],
    );
    assert.equal(loaded?.meta.thoughtCount, 2);
    assert.equal(logged.length, 2, logged.join('\n'));
    assert.match(logged[0], /corrupt-middle\.jsonl:3: invalid line skipped \(line 3\.thought\.thought: expected a string, got 42\)/);
    assert.match(logged[1], /corrupt-middle\.jsonl:4: corrupt line skipped \(not JSON\)/);
    reopened.close();
  });

  it('reports and skips unreadable journals without failing the listing or anything else', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir, { log: () => {} });
    new SessionWriter(store, 'good').add();
    store.close();
    writeFileSync(join(dir, 'not-a-session.jsonl'), 'this is no journal\n');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'bad%20name.jsonl'), '{}\n');
    mkdirSync(join(dir, 'a-directory.jsonl'));
    writeFileSync(join(dir, 'notes.txt'), 'not ours');

    const { log, lines } = collectingLog();
    const reopened = new FileSessionStore(dir, { log });
    const listing = reopened.listSessions();
    // What cannot be opened stays listed, marked unreadable with the reason and with nothing counted.
    const readable = listing.sessions.filter((meta) => meta.unreadable === undefined);
    assert.deepEqual(
      readable.map((meta) => meta.id),
      ['good'],
    );
    const unreadable = new Map(listing.sessions.filter((meta) => meta.unreadable !== undefined).map((meta) => [meta.id, meta]));
    assert.deepEqual([...unreadable.keys()].sort(), ['empty', 'not-a-session']);
    assert.match(unreadable.get('not-a-session')?.unreadable ?? '', /not a session journal/);
    for (const meta of unreadable.values()) assert.equal(meta.thoughtCount, 0);
    assert.ok(
      lines.some((line) => line.includes('not-a-session.jsonl') && /not a session journal/.test(line)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) => line.includes('empty.jsonl')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) => line.includes('bad%20name.jsonl') && /not a valid session id/.test(line)),
      lines.join('\n'),
    );
    const reported = lines.length;
    reopened.listSessions();
    assert.equal(lines.length, reported, 'each problem is reported once, not on every listing');
    assert.equal(reopened.loadSession('not-a-session'), undefined);
    assert.ok(lines.length > reported, 'opening an unreadable session reports it');
    assert.throws(() => reopened.createSession(newMeta('not-a-session')), /already exists .* left untouched/);
    assert.equal(readFileSync(join(dir, 'not-a-session.jsonl'), 'utf8'), 'this is no journal\n');
    reopened.close();
  });

  it('refuses to create a session whose journal exists, leaving the file as it was', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    new SessionWriter(store, 'taken').add();
    const before = readFileSync(store.sessionFilePath('taken'));
    assert.throws(() => store.createSession(newMeta('taken')), /A journal for session "taken" already exists/);
    assert.ok(readFileSync(store.sessionFilePath('taken')).equals(before));
    store.close();
  });

  it('keeps at most maxOpenJournals files open, reopening the others on demand', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir, { maxOpenJournals: 2 });
    const writers = ['a', 'b', 'c', 'd', 'e'].map((id) => new SessionWriter(store, id));
    for (let round = 0; round < 3; round++) for (const writer of writers) writer.add();
    if (process.platform === 'linux') {
      const open = readdirSync('/proc/self/fd')
        .map((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            return '';
          }
        })
        .filter((target) => target.startsWith(dir));
      assert.ok(open.length <= 2, open.join('\n'));
    }
    for (const writer of writers) assert.equal(store.loadSession(writer.meta.id)?.thoughts.length, 3);
    store.close();
  });

  it('writes with fsync when asked for OS-crash durability', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir, { durability: 'fsync' });
    const writer = new SessionWriter(store, 'synced');
    writer.add();
    assert.equal(store.loadSession('synced')?.thoughts.length, 1);
    store.close();
    assert.throws(() => new FileSessionStore(dir, { durability: 'never' as 'write' }), /Invalid durability: got "never"/);
  });

  it('deletes a session (its journal and its index entry)', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    new SessionWriter(store, 'doomed').add();
    new SessionWriter(store, 'kept').add();
    assert.equal(store.deleteSession('doomed'), true);
    assert.equal(store.deleteSession('doomed'), false);
    assert.equal(existsSync(store.sessionFilePath('doomed')), false);
    assert.deepEqual(
      store.listSessions().sessions.map((meta) => meta.id),
      ['kept'],
    );
    assert.equal(store.loadSession('doomed'), undefined);
    store.close();
  });

  it('saves a whole session (import) atomically, replacing one with the same id, and appends to it afterwards', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    const original = new SessionWriter(store, 'imported');
    original.add();
    const source = new FileSessionStore(freshDirectory());
    const writer = new SessionWriter(source, 'imported', { title: 'From elsewhere', strategy: 'react' });
    writer.add({ stage: 'initial_reasoning' });
    writer.add({ branchFromThought: 1, branchId: 'b' });
    const switched = { ...writer.meta, strategy: 'tree_of_thoughts' };
    const strategySwitch = { atSeq: 2, from: 'react', to: 'tree_of_thoughts', timestamp: 3_000 };
    source.updateMeta(switched, strategySwitch);
    writer.meta = switched;
    writer.add({ stage: 'problem_decomposition', nextThoughtNeeded: false }, { status: 'complete' });
    const snapshot = source.loadSession('imported')!;
    source.close();

    store.saveSession(snapshot);
    assert.deepEqual(store.loadSession('imported'), snapshot);
    assert.deepEqual(store.listSessions().sessions[0], snapshot.meta);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
    const record: ThoughtRecord = {
      seq: 3,
      thought: 'more',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      timestamp: 9_000,
    };
    store.appendThought({ ...applyThought(snapshot.meta, record), status: 'live' }, record);
    const reopened = new FileSessionStore(dir);
    const loaded = reopened.loadSession('imported');
    assert.equal(loaded?.thoughts.length, 4);
    assert.equal(loaded?.meta.status, 'live');
    assert.equal(loaded?.meta.title, 'From elsewhere');
    assert.deepEqual(loaded?.strategySwitches, [strategySwitch]);
    reopened.close();
    store.close();
  });
});

describe('session ids at the store', () => {
  it('maps ":" to "%3A" in file names and back', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    new SessionWriter(store, 'task:42').add();
    assert.equal(store.sessionFilePath('task:42'), join(dir, 'task%3A42.jsonl'));
    store.close();
    const reopened = new FileSessionStore(dir);
    assert.deepEqual(
      reopened.listSessions().sessions.map((meta) => meta.id),
      ['task:42'],
    );
    assert.equal(reopened.loadSession('task:42')?.thoughts.length, 1);
    reopened.close();
  });

  it('rejects traversal and reserved ids in every method with InvalidSessionIdError', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    for (const id of ['../x', '..', '.', 'a/b', 'a\\b', '.index', 'NUL', 'com1.log', '', 'x'.repeat(65), 'white space']) {
      assert.throws(() => store.loadSession(id), InvalidSessionIdError, id);
      assert.throws(() => store.createSession(newMeta(id)), InvalidSessionIdError, id);
      assert.throws(() => store.deleteSession(id), InvalidSessionIdError, id);
      assert.throws(() => store.sessionFilePath(id), /^InvalidSessionIdError: Invalid session id/, id);
    }
    assert.throws(
      () => store.loadSession('../../etc/passwd'),
      /Invalid session id "..\/..\/etc\/passwd": a session id cannot contain path separators/,
    );
    assert.deepEqual(readdirSync(dir), []);
    store.close();
  });
});

describe('the index', () => {
  it('is written, then used by the next store instead of reading every journal', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    new SessionWriter(store, 'one').add();
    new SessionWriter(store, 'two').add();
    assert.equal(store.listSessions().total, 2);
    store.close();
    const index = JSON.parse(readFileSync(join(dir, INDEX_FILE_NAME), 'utf8')) as {
      format: string;
      entries: { id: string; meta: SessionMeta }[];
    };
    assert.equal(index.format, 'thought-explorer-index');
    assert.deepEqual(index.entries.map((entry) => entry.id).sort(), ['one', 'two']);

    // Prove the index is what the next listing uses: doctor a title in it (journals untouched, so it is trusted).
    for (const entry of index.entries) entry.meta.title = `indexed ${entry.id}`;
    writeFileSync(join(dir, INDEX_FILE_NAME), JSON.stringify(index));
    const reopened = new FileSessionStore(dir);
    assert.deepEqual(
      reopened
        .listSessions()
        .sessions.map((meta) => meta.title)
        .sort(),
      ['indexed one', 'indexed two'],
    );
    reopened.close();
  });

  it('is rebuilt from the journals when missing', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir);
    const writer = new SessionWriter(store, 'kept');
    writer.add();
    writer.add({ branchFromThought: 1, branchId: 'x' });
    store.close();
    rmSync(join(dir, INDEX_FILE_NAME));
    const reopened = new FileSessionStore(dir);
    assert.deepEqual(reopened.listSessions().sessions, [writer.meta]);
    assert.ok(existsSync(join(dir, INDEX_FILE_NAME)), 'the rebuilt index is written at once');
    reopened.close();
  });

  for (const [name, content] of [
    ['not JSON', '{"format":"thought-explorer-index","ver'],
    ['another format', '{"format":"something-else","version":1,"entries":[]}'],
    [
      'an entry with a bad meta',
      '{"format":"thought-explorer-index","version":2,"entries":[{"id":"kept","ino":1,"size":1,"consumed":1,"meta":{"id":"kept"}}]}',
    ],
  ] as const) {
    it(`is rebuilt when corrupt (${name}), and says so`, () => {
      const dir = freshDirectory();
      const store = new FileSessionStore(dir);
      const writer = new SessionWriter(store, 'kept');
      writer.add();
      store.close();
      writeFileSync(join(dir, INDEX_FILE_NAME), content);
      const { log, lines } = collectingLog();
      const reopened = new FileSessionStore(dir, { log });
      assert.deepEqual(reopened.listSessions().sessions, [writer.meta]);
      assert.ok(
        lines.some((line) => /session index .* is corrupt .*rebuilding it from the journals/.test(line)),
        lines.join('\n'),
      );
      reopened.close();
      assert.match(
        readFileSync(join(dir, INDEX_FILE_NAME), 'utf8'),
        /^\{"format":"thought-explorer-index","version":2,"entries":\[\{"id":"kept"/,
      );
    });
  }

  it('follows journals written by another process: new sessions, appended thoughts, deletions, replacements', () => {
    const dir = freshDirectory();
    const extension = new FileSessionStore(dir, { indexFlushDelayMs: 1 });
    const cli = new FileSessionStore(dir, { indexFlushDelayMs: 1 });
    const mine = new SessionWriter(extension, 'mine');
    mine.add();
    assert.deepEqual(
      extension.listSessions().sessions.map((meta) => meta.id),
      ['mine'],
    );

    const theirs = new SessionWriter(cli, 'theirs', { createdAt: 5_000, updatedAt: 5_000 });
    theirs.add();
    let listing = extension.listSessions();
    assert.deepEqual(
      listing.sessions.map((meta) => [meta.id, meta.thoughtCount]),
      [
        ['theirs', 1],
        ['mine', 1],
      ],
    );

    theirs.add({ branchFromThought: 1, branchId: 'side' });
    theirs.add({ nextThoughtNeeded: false }, { status: 'complete' });
    listing = extension.listSessions();
    assert.deepEqual(listing.sessions[0], theirs.meta, "the other process's appends are read (from where the index left off)");

    // The other process's index write never hides this process's sessions.
    cli.flushIndex();
    mine.add();
    extension.close();
    cli.close();
    const third = new FileSessionStore(dir);
    assert.deepEqual(
      third.listSessions().sessions.map((meta) => [meta.id, meta.thoughtCount]),
      [
        ['theirs', 3],
        ['mine', 2],
      ],
    );

    const again = new FileSessionStore(dir);
    again.deleteSession('mine');
    assert.deepEqual(
      third.listSessions().sessions.map((meta) => meta.id),
      ['theirs'],
    );
    const replacement = again.loadSession('theirs')!;
    again.saveSession({ ...replacement, meta: { ...replacement.meta, title: 'replaced by an import' } });
    assert.equal(third.listSessions().sessions[0].title, 'replaced by an import');
    again.close();
    third.close();
  });

  it('reads only what another process appended, and copes when that process crashed mid-line', () => {
    const dir = freshDirectory();
    const { log, lines } = collectingLog();
    const viewer = new FileSessionStore(dir, { log });
    const first = new FileSessionStore(dir, { log: () => {} });
    const writer = new SessionWriter(first, 'crashy');
    writer.add();
    assert.equal(viewer.listSessions().sessions[0].thoughtCount, 1);
    first.close();
    // The writing process dies in the middle of a record.
    appendFileSync(first.sessionFilePath('crashy'), '{"type":"thought","thou');
    assert.equal(viewer.listSessions().sessions[0].thoughtCount, 1);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /crashy\.jsonl:appended line 1: torn last line \(incomplete write\) ignored/);
    // Restarted, it continues the session by id: its record starts on a fresh line.
    const restarted = new FileSessionStore(dir, { log: () => {} });
    const loaded = restarted.loadSession('crashy')!;
    const record: ThoughtRecord = {
      seq: 1,
      thought: 'after restart',
      thoughtNumber: 2,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      timestamp: 7_000,
    };
    restarted.appendThought(applyThought(loaded.meta, record), record);
    const listed = viewer.listSessions().sessions[0];
    assert.equal(listed.thoughtCount, 2);
    assert.equal(listed.updatedAt, 7_000);
    assert.deepEqual(
      viewer.loadSession('crashy')?.thoughts.map((thought) => thought.thought),
      ['Thought 1 of crashy', 'after restart'],
    );
    restarted.close();
    viewer.close();
  });

  it('lists 10,000 sessions correctly: totals, filters, newest first, pages that cover everything once', () => {
    const dir = freshDirectory();
    const store = new FileSessionStore(dir, { log: (message) => assert.fail(message) });
    const statuses: SessionStatus[] = ['live', 'complete', 'abandoned'];
    const strategies = ['linear', 'react', 'tree_of_thoughts', 'self_ask'];
    const expected: SessionMeta[] = [];
    for (let index = 0; index < 10_000; index++) {
      const id = `s-${index.toString().padStart(5, '0')}`;
      // Times are shuffled against the ids so the order really comes from updatedAt.
      const time = 1_700_000_000_000 + ((index * 7_919) % 10_000) * 1_000;
      const meta: SessionMeta = newMeta(id, {
        strategy: strategies[index % strategies.length],
        createdAt: time,
        updatedAt: time,
        purpose: index % 100 === 0 ? `Needle number ${index}` : `Ordinary session ${index}`,
      });
      store.createSession(meta);
      const record: ThoughtRecord = {
        seq: 0,
        thought: meta.purpose!,
        thoughtNumber: 1,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        timestamp: time + 1,
      };
      const after = { ...applyThought(meta, record), status: statuses[index % statuses.length] };
      store.appendThought(after, record);
      expected.push(after);
    }
    store.close();
    expected.sort((a, b) => b.updatedAt - a.updatedAt);

    const check = (listing: FileSessionStore): void => {
      const all = listing.listSessions();
      assert.equal(all.total, 10_000);
      assert.deepEqual(all.sessions, expected);
      const seen = new Set<string>();
      for (let offset = 0; offset < 10_000; offset += 750) {
        const page = listing.listSessions({ offset, limit: 750 });
        assert.equal(page.total, 10_000);
        assert.deepEqual(page.sessions, expected.slice(offset, offset + 750));
        for (const meta of page.sessions) seen.add(meta.id);
      }
      assert.equal(seen.size, 10_000);
      assert.equal(listing.listSessions({ status: 'complete' }).total, expected.filter((meta) => meta.status === 'complete').length);
      assert.equal(
        listing.listSessions({ strategy: 'react', status: 'live' }).total,
        expected.filter((meta) => meta.strategy === 'react' && meta.status === 'live').length,
      );
      const needles = listing.listSessions({ text: 'NEEDLE', limit: 5 });
      assert.equal(needles.total, 100);
      assert.deepEqual(needles.sessions, expected.filter((meta) => meta.purpose?.startsWith('Needle')).slice(0, 5));
      assert.deepEqual(listing.listSessions({ offset: 9_998, limit: 10 }).sessions, expected.slice(9_998));
      assert.deepEqual(listing.listSessions({ limit: 0 }).sessions, []);
    };

    const fromIndex = new FileSessionStore(dir, { log: (message) => assert.fail(message) });
    check(fromIndex);
    fromIndex.close();
    rmSync(join(dir, INDEX_FILE_NAME));
    const rebuilt = new FileSessionStore(dir, { log: (message) => assert.fail(message) });
    check(rebuilt);
    rebuilt.close();
  });

  it('refuses a negative offset or limit with a clear error', () => {
    const store = new FileSessionStore(freshDirectory());
    assert.throws(() => store.listSessions({ offset: -1 }), /Invalid offset: got -1; expected a whole number of at least 0/);
    assert.throws(() => store.listSessions({ limit: 1.5 }), /Invalid limit: got 1.5/);
    store.close();
  });
});
