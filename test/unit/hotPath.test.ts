// The per-thought fast paths give exactly what the plain code they replace gives: the store's meta patch
// (thoughtMetaPatch vs metaPatch(applyThought(...))), the journal's one-write append of a string (byte counts with
// non-ASCII text), and the index's reconciliation with the directory (which sessions a listing keeps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionMeta, ThoughtRecord } from '../../src/engine/model';
import { applyThought, DERIVED_FIELDS } from '../../src/engine/browserSafe/sessionMeta';
import { thoughtMetaPatch, type MetaPatch } from '../../src/storage/metaDerivation';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { JournalWriter } from '../../src/storage/sessionJournal';

function baseMeta(): SessionMeta {
  return {
    id: 's1',
    strategy: 'linear',
    status: 'live',
    createdAt: 1000,
    updatedAt: 1000,
    thoughtCount: 2,
    revisionCount: 0,
    branchIds: ['a'],
    lastThoughtNumber: 2,
    totalThoughts: 5,
  };
}

function thoughtRecord(changes: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return { seq: 2, thought: 'third', thoughtNumber: 3, totalThoughts: 5, nextThoughtNeeded: true, timestamp: 2000, ...changes };
}

/** The plain reference: every non-derived field in which `actual` differs from `expected` (null: `actual` lacks it). */
function metaPatch(expected: SessionMeta, actual: SessionMeta): MetaPatch | undefined {
  let patch: Record<string, unknown> | undefined;
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if ((DERIVED_FIELDS as readonly string[]).includes(key)) continue;
    const want = (actual as unknown as Record<string, unknown>)[key];
    const have = (expected as unknown as Record<string, unknown>)[key];
    if (want === have || (typeof want === 'object' && typeof have === 'object' && JSON.stringify(want) === JSON.stringify(have))) continue;
    patch ??= {};
    patch[key] = want === undefined ? null : want;
  }
  return patch as MetaPatch | undefined;
}

test('thoughtMetaPatch equals metaPatch(applyThought(previous, thought), next) in every case', () => {
  const previousMetas: SessionMeta[] = [
    baseMeta(),
    { ...baseMeta(), stage: 'thought_generation', purpose: 'why' },
    { ...baseMeta(), stage: undefined, title: 'Named' },
    { ...baseMeta(), status: 'complete' },
    // Not valid metas, but the two functions must still agree: fields that applyThought always sets are missing.
    (({ updatedAt: _updatedAt, totalThoughts: _totalThoughts, ...rest }) => rest as SessionMeta)(baseMeta()),
  ];
  const thoughts: ThoughtRecord[] = [
    thoughtRecord(),
    thoughtRecord({ stage: 'thought_evaluation' }),
    thoughtRecord({ stage: 'thought_generation', branchId: 'b', branchFromThought: 2 }),
    thoughtRecord({ isRevision: true, revisesThought: 2, totalThoughts: 9, thoughtNumber: 9 }),
  ];
  const nextMetas = (previous: SessionMeta, thought: ThoughtRecord): SessionMeta[] => {
    const derived = applyThought(previous, thought);
    const withoutTitle = { ...derived };
    delete withoutTitle.title;
    const withoutUpdatedAt = { ...derived } as Partial<SessionMeta>;
    delete withoutUpdatedAt.updatedAt;
    return [
      derived,
      { ...derived, status: 'complete' },
      { ...derived, purpose: 'a new purpose' },
      { ...derived, stage: 'somewhere_else' },
      { ...derived, stage: undefined },
      withoutTitle,
      { ...derived, title: 'Renamed', updatedAt: 5 },
      { ...derived, totalThoughts: 42 },
      // Derived counters never go into a patch, whatever they say.
      { ...derived, thoughtCount: 99, branchIds: ['x'] },
      // Fields the store does not know yet still travel, and object values compare by content.
      { ...derived, extra: { nested: [1, 2] } } as SessionMeta,
      withoutUpdatedAt as SessionMeta,
    ];
  };
  let cases = 0;
  for (const previous of previousMetas) {
    for (const thought of thoughts) {
      for (const next of nextMetas(previous, thought)) {
        assert.deepEqual(
          thoughtMetaPatch(previous, next, thought),
          metaPatch(applyThought(previous, thought), next),
          JSON.stringify({ previous, thought, next }),
        );
        cases++;
      }
    }
  }
  // An object-valued field with equal content in both is no change.
  const withExtra = { ...baseMeta(), extra: { nested: [1] } } as SessionMeta;
  assert.equal(
    thoughtMetaPatch(withExtra, { ...applyThought(withExtra, thoughtRecord()), extra: { nested: [1] } } as SessionMeta, thoughtRecord()),
    undefined,
  );
  assert.ok(cases > 100);
});

test('JournalWriter appends a string with one write and counts its bytes, not its characters', () => {
  const directory = mkdtempSync(join(tmpdir(), 'hot-path-'));
  try {
    const path = join(directory, 'j.jsonl');
    const writer = JournalWriter.create(path, 'write');
    const first = '{"text":"ümlaut ✓ 😀"}\n';
    assert.equal(writer.append(first), Buffer.byteLength(first));
    const second = '{"text":"plain"}\n';
    assert.equal(writer.append(second), second.length);
    writer.close();
    assert.equal(readFileSync(path, 'utf8'), first + second);
    assert.throws(() => writer.append(second), /closed/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('listing drops exactly the sessions whose journals are gone, across repeated listings', () => {
  const directory = mkdtempSync(join(tmpdir(), 'hot-path-list-'));
  try {
    const quiet = () => {};
    const writer = new FileSessionStore(directory, { log: quiet });
    const engine = new ThinkingEngine({ store: writer, log: quiet });
    for (const id of ['one', 'two', 'three', 'a:b']) {
      const outcome = engine.process(id, {
        sessionId: id,
        thought: `about ${id}`,
        thoughtNumber: 1,
        totalThoughts: 1,
        nextThoughtNeeded: false,
      });
      assert.ok(outcome.ok);
    }
    writer.close();
    const reader = new FileSessionStore(directory, { log: quiet });
    const ids = () =>
      reader
        .listSessions()
        .sessions.map((meta) => meta.id)
        .sort();
    assert.deepEqual(ids(), ['a:b', 'one', 'three', 'two']);
    assert.deepEqual(ids(), ['a:b', 'one', 'three', 'two'], 'a second listing keeps every session');
    // Another process deletes a journal; a directory with a journal's name is no session.
    unlinkSync(join(directory, 'two.jsonl'));
    mkdirSync(join(directory, 'dir.jsonl'));
    assert.deepEqual(ids(), ['a:b', 'one', 'three']);
    // A second file name for the same id (":" written as is): listed once, and kept while either file is there.
    copyFileSync(join(directory, 'a%3Ab.jsonl'), join(directory, 'a:b.jsonl'));
    assert.deepEqual(ids(), ['a:b', 'one', 'three']);
    unlinkSync(join(directory, 'a%3Ab.jsonl'));
    assert.deepEqual(ids(), ['a:b', 'one', 'three']);
    unlinkSync(join(directory, 'a:b.jsonl'));
    unlinkSync(join(directory, 'one.jsonl'));
    assert.deepEqual(ids(), ['three']);
    reader.close();
    // What the index file keeps afterwards is only the surviving session, with no bookkeeping of the listing.
    const index = JSON.parse(readFileSync(join(directory, 'index.json'), 'utf8')) as { entries: Record<string, unknown>[] };
    assert.deepEqual(
      index.entries.map((entry) => entry.id),
      ['three'],
    );
    assert.deepEqual(Object.keys(index.entries[0]).sort(), ['consumed', 'ctimeMs', 'id', 'ino', 'meta', 'mtimeMs', 'size']);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('engine events: skipped without listeners, delivered to every subscribed one, however often one unsubscribes', () => {
  const engine = new ThinkingEngine({ log: () => {} });
  let number = 0;
  const think = () => {
    number++;
    const outcome = engine.process('c', { thought: `t${number}`, thoughtNumber: number, totalThoughts: 99, nextThoughtNeeded: true });
    assert.ok(outcome.ok);
  };
  think();
  const first: string[] = [];
  const second: string[] = [];
  const offFirst = engine.onEvent((event) => event.type === 'thoughtAdded' && first.push(event.thought.thought));
  const offSecond = engine.onEvent((event) => event.type === 'thoughtAdded' && second.push(event.thought.thought));
  think();
  assert.deepEqual(first, ['t2']);
  offFirst();
  offFirst();
  think();
  assert.deepEqual(first, ['t2'], 'an unsubscribed listener hears nothing');
  assert.deepEqual(second, ['t2', 't3'], 'unsubscribing another listener twice does not silence this one');
  offSecond();
  think();
  assert.deepEqual(second, ['t2', 't3']);
  const third: string[] = [];
  engine.onEvent((event) => event.type === 'thoughtAdded' && third.push(event.thought.thought));
  think();
  assert.deepEqual(third, ['t5']);
});
