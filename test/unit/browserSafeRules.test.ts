// The engine's browser-safe rules (src/engine/browserSafe), each written once: a session's meta from its thoughts, its
// title, "abandoned", the query match, the plan and diagram kinds, random ids; and the callers that used to keep
// their own copy (the webview's replay prefix, the MCP App's snapshot, the import of a saved file) still answer alike.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIAGRAM_KINDS, isDiagramKind, isThoughtDiagram, THOUGHT_DIAGRAM_KINDS } from '../../src/engine/browserSafe/diagramKinds';
import { isPlanKind, PLAN_KINDS } from '../../src/engine/browserSafe/planKinds';
import { randomId } from '../../src/engine/browserSafe/randomId';
import {
  applyThought,
  applyThoughtInPlace,
  metaFromThoughts,
  purposeOf,
  resetDerived,
  withDerivedFrom,
} from '../../src/engine/browserSafe/sessionMeta';
import { metaMatchesText, searchSessions } from '../../src/engine/browserSafe/sessionSearch';
import { displayedStatus, IDLE_AS_ABANDONED_MS } from '../../src/engine/browserSafe/sessionStatus';
import { sessionName, sessionTitle } from '../../src/engine/browserSafe/sessionTitle';
import type { SessionMeta, ThoughtRecord } from '../../src/engine/model';
import { matchesQuery } from '../../src/engine/sessionQuery';
import { SessionData } from '../../mcp-app/sessionData';
import { SessionModel } from '../../webview/app/sessionModel';

function meta(fields: Partial<SessionMeta> = {}): SessionMeta {
  const counters = { thoughtCount: 0, revisionCount: 0, branchIds: [], lastThoughtNumber: 0, totalThoughts: 3 };
  return { id: 's1', strategy: 'linear', status: 'live', createdAt: 1000, updatedAt: 1000, ...counters, ...fields };
}

function thought(seq: number, fields: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return {
    seq,
    thought: `thought ${seq}`,
    thoughtNumber: seq + 1,
    totalThoughts: 5,
    nextThoughtNeeded: true,
    timestamp: 2000 + seq,
    ...fields,
  };
}

const THOUGHTS = [
  thought(0, { stage: 'analyse' }),
  thought(1, { branchId: 'b', branchFromThought: 1 }),
  thought(2, { isRevision: true, revisesThought: 1, stage: 'decide' }),
  thought(3, { branchId: 'a', branchFromThought: 1 }),
  thought(4, { branchId: 'b', branchFromThought: 1, totalThoughts: 7 }),
];

describe('a session meta follows from its thoughts', () => {
  it('counts thoughts and revisions, lists branches in order of first use, takes the last thought\u2019s facts', () => {
    const derived = metaFromThoughts(meta({ thoughtCount: 9, revisionCount: 4, branchIds: ['old'], lastThoughtNumber: 9 }), THOUGHTS);
    assert.deepEqual(
      {
        thoughtCount: derived.thoughtCount,
        revisionCount: derived.revisionCount,
        branchIds: derived.branchIds,
        lastThoughtNumber: derived.lastThoughtNumber,
        totalThoughts: derived.totalThoughts,
        updatedAt: derived.updatedAt,
        stage: derived.stage,
      },
      // A thought without a stage keeps the one before it.
      {
        thoughtCount: 5,
        revisionCount: 1,
        branchIds: ['b', 'a'],
        lastThoughtNumber: 5,
        totalThoughts: 7,
        updatedAt: 2004,
        stage: 'decide',
      },
    );
  });

  it('applyThought copies (the meta and its branch list are left alone); applyThoughtInPlace agrees with it', () => {
    const before = meta({ branchIds: ['x'] });
    const branches = before.branchIds;
    let copied = before;
    for (const next of THOUGHTS) copied = applyThought(copied, next);
    assert.deepEqual(before, meta({ branchIds: ['x'] }));
    assert.equal(before.branchIds, branches);
    const inPlace = meta({ branchIds: ['x'] });
    for (const next of THOUGHTS) applyThoughtInPlace(inPlace, next);
    assert.deepEqual(inPlace, copied);
    // Key order too: the journal and exports write these metas as JSON.
    assert.equal(JSON.stringify(inPlace), JSON.stringify(copied));
  });

  it('only a revision marked true counts as one', () => {
    assert.equal(applyThought(meta(), thought(0, { isRevision: false })).revisionCount, 0);
    assert.equal(applyThought(meta(), thought(0, { isRevision: true })).revisionCount, 1);
  });

  it('resetDerived zeroes the counters; withDerivedFrom takes only the counters', () => {
    assert.deepEqual(
      resetDerived(meta({ thoughtCount: 3, revisionCount: 1, branchIds: ['a'], lastThoughtNumber: 3, title: 'T' })),
      meta({ title: 'T' }),
    );
    const counters = metaFromThoughts(meta(), THOUGHTS);
    const merged = withDerivedFrom(meta({ title: 'kept', updatedAt: 5, totalThoughts: 1 }), counters);
    assert.deepEqual(
      merged,
      meta({
        title: 'kept',
        updatedAt: 5,
        totalThoughts: 1,
        thoughtCount: 5,
        revisionCount: 1,
        branchIds: ['b', 'a'],
        lastThoughtNumber: 5,
      }),
    );
  });

  it('a purpose is the first thought on one line, shortened to 120 characters', () => {
    assert.equal(purposeOf('  two\n  lines\t here '), 'two lines here');
    const long = purposeOf('word '.repeat(60));
    assert.equal(long.length, 120);
    assert.ok(long.endsWith('…'));
  });

  it('the webview\u2019s replay prefix is described by the same rule, with the last shown thought\u2019s stage', () => {
    const model = new SessionModel();
    const whole = metaFromThoughts(meta({ status: 'complete', stage: 'decide' }), THOUGHTS);
    model.load({ meta: whole, thoughts: THOUGHTS, strategySwitches: [] }, true);
    model.seek(2);
    const shown = model.shownSnapshot()!.meta;
    assert.deepEqual(
      [shown.thoughtCount, shown.branchIds, shown.lastThoughtNumber, shown.updatedAt, shown.status, shown.stage],
      [2, ['b'], 2, 2001, 'live', undefined],
    );
    model.seek(0);
    const empty = model.shownSnapshot()!.meta;
    assert.deepEqual([empty.thoughtCount, empty.updatedAt, empty.totalThoughts], [0, whole.createdAt, whole.totalThoughts]);
  });

  it('the MCP App\u2019s snapshot counts the thoughts it holds and keeps the page\u2019s stage and estimate', async () => {
    const data = new SessionData();
    await data.refresh('s1', async () => ({
      sessionId: 's1',
      strategy: 'linear',
      stage: 'decide',
      status: 'live',
      thoughtCount: THOUGHTS.length,
      revisionCount: 1,
      branchIds: ['b', 'a'],
      totalThoughts: 9,
      offset: 0,
      thoughts: THOUGHTS,
    }));
    const snapshot = data.snapshot().meta;
    assert.deepEqual(
      [
        snapshot.thoughtCount,
        snapshot.revisionCount,
        snapshot.branchIds,
        snapshot.lastThoughtNumber,
        snapshot.stage,
        snapshot.totalThoughts,
      ],
      [5, 1, ['b', 'a'], 5, 'decide', 9],
    );
  });
});

describe('a session title', () => {
  it('is the given name, else the purpose, else the id', () => {
    assert.equal(sessionTitle({ id: 'x', title: 'Named', purpose: 'About' }), 'Named');
    assert.equal(sessionTitle({ id: 'x', purpose: 'About' }), 'About');
    assert.equal(sessionTitle({ id: 'x' }), 'x');
    assert.equal(sessionName({ purpose: 'About' }), 'About');
    assert.equal(sessionName({}), undefined);
  });
});

describe('abandoned', () => {
  it('a live session idle longer than 30 minutes is shown as abandoned; stored statuses otherwise', () => {
    const now = 10 * IDLE_AS_ABANDONED_MS;
    assert.equal(IDLE_AS_ABANDONED_MS, 30 * 60 * 1000);
    assert.equal(displayedStatus({ status: 'live', updatedAt: now - IDLE_AS_ABANDONED_MS }, now), 'live');
    assert.equal(displayedStatus({ status: 'live', updatedAt: now - IDLE_AS_ABANDONED_MS - 1 }, now), 'abandoned');
    assert.equal(displayedStatus({ status: 'complete', updatedAt: 0 }, now), 'complete');
    assert.equal(displayedStatus({ status: 'live', updatedAt: now - 11 }, now, 10), 'abandoned');
  });
});

describe('the query match', () => {
  const sessions = [
    meta({ id: 'alpha', title: 'Cache design' }),
    meta({ id: 'beta', purpose: 'nothing here' }),
    meta({ id: 'gamma' }),
    meta({ id: 'delta' }),
  ];
  const thoughtsById: Record<string, ThoughtRecord[] | undefined> = {
    alpha: [thought(0, { thought: 'no' })],
    beta: [thought(0, { thought: 'A CACHE miss' }), thought(1, { thought: 'cache hit' }), thought(2, { thought: 'cache again' })],
    gamma: undefined,
    delta: [thought(0, { thought: 'cache' })],
  };
  const read = (session: SessionMeta) => thoughtsById[session.id];

  it('matches the title, purpose or id case-insensitively (the listings\u2019 text filter too)', () => {
    assert.equal(metaMatchesText({ id: 'abc', title: 'Big Cache' }, 'cache'), true);
    assert.equal(metaMatchesText({ id: 'abc', purpose: 'p' }, 'ab'), true);
    assert.equal(metaMatchesText({ id: 'abc' }, 'zz'), false);
    assert.equal(matchesQuery(meta({ title: 'Big Cache' }), { text: 'CACHE' }), true);
    assert.equal(matchesQuery(meta({ title: 'Big Cache' }), { text: 'nope' }), false);
  });

  it('reports meta matches and the first thoughts that hold the query, within the per-session budget', () => {
    const result = searchSessions(sessions, read, 'Cache', { exhausted: () => false, hitsPerSession: 2 });
    assert.deepEqual(
      result.matches.map((match) => [match.meta.id, match.inMeta, match.hits.map((hit) => [hit.thought.seq, hit.at])]),
      [
        ['alpha', true, []],
        [
          'beta',
          false,
          [
            [0, 2],
            [1, 0],
          ],
        ],
        ['delta', false, [[0, 0]]],
      ],
    );
    // Every thought of each session looked at counts against a thought budget, hits or not; an unreadable one has none.
    assert.deepEqual([result.scannedSessions, result.scannedThoughts], [4, 5]);
  });

  it('stops where the caller\u2019s budget says, before the next session', () => {
    const asked: { matches: number; scannedThoughts: number }[] = [];
    const result = searchSessions(sessions, read, 'cache', {
      exhausted: (progress) => {
        asked.push(progress);
        return progress.scannedThoughts >= 4;
      },
      hitsPerSession: 1,
    });
    assert.deepEqual(asked, [
      { matches: 0, scannedThoughts: 0 },
      { matches: 1, scannedThoughts: 1 },
      { matches: 2, scannedThoughts: 4 },
    ]);
    assert.equal(result.scannedSessions, 2);
    assert.deepEqual(
      result.matches.map((match) => match.hits.length),
      [0, 1],
    );
  });
});

describe('kinds and ids', () => {
  it('plan kinds and diagram kinds, each one list', () => {
    assert.deepEqual(PLAN_KINDS, ['direct', 'sequential', 'parallel', 'task']);
    assert.equal(isPlanKind('parallel'), true);
    assert.equal(isPlanKind('Parallel'), false);
    assert.equal(isPlanKind(undefined), false);
    assert.deepEqual(DIAGRAM_KINDS, ['stageGraph', 'branchTree', 'revisionChain']);
    assert.ok(THOUGHT_DIAGRAM_KINDS.every((kind) => isDiagramKind(kind) && isThoughtDiagram(kind)));
    assert.equal(isThoughtDiagram('stageGraph'), false);
    assert.equal(isDiagramKind('toString'), false);
  });

  it('random ids carry their prefix and 64 random bits', () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomId('svg')));
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, /^svg-[0-9a-f]{16}$/);
  });
});
