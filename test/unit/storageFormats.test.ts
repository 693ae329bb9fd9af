// Specification of what the store accepts from outside: session ids (as file names), the default location, and the
// session file formats — our lossless JSON and the {id, timestamp, thoughtHistory, branches} shape of sequentialthinking-plus / think-strategies.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { SessionFormatError, parseSessionJson, toLosslessJson, toSequentialThinkingPlusJson } from '../../src/storage/sessionJsonFormats';
import { journalFileName, sessionIdFromFileName, sessionIdProblem } from '../../src/storage/sessionIds';
import { STORAGE_ENV_VARIABLE, defaultStoragePath } from '../../src/storage/storageLocation';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'thought-explorer-formats-'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('session ids', () => {
  it('accepts the engine\'s alphabet, including generated ids and ids with ":"', () => {
    for (const id of [
      '20261122T021500Z-0a1b2c3d',
      'task:42',
      'a',
      'A.b_c-d',
      'x'.repeat(64),
      'session-20250428-145302',
      'con-job',
      'CONSOLE',
    ]) {
      assert.equal(sessionIdProblem(id), undefined, id);
    }
  });

  const refused: [unknown, RegExp][] = [
    ['..', /cannot be "\." or "\.\."/],
    ['.', /cannot be "\." or "\.\."/],
    ['../etc', /path separators/],
    ['a/b', /path separators/],
    ['a\\b', /path separators/],
    ['.hidden', /cannot start with "\."/],
    ['', /1 to 64 characters/],
    ['x'.repeat(65), /1 to 64 characters/],
    ['has space', /may only contain letters, digits/],
    ['emoji🙂', /may only contain/],
    ['CON', /"CON" is a reserved device name on Windows/],
    ['nul.txt', /reserved device name/],
    ['Com1', /reserved device name/],
    ['lpt9.x', /reserved device name/],
    ['aux:', /reserved device name/],
    [42, /must be a string/],
  ];
  for (const [id, pattern] of refused) {
    it(`refuses ${JSON.stringify(id)}`, () => {
      assert.match(sessionIdProblem(id) ?? 'accepted', pattern);
    });
  }

  it('maps ids to file names one-to-one and back, writing ":" as "%3A"', () => {
    for (const id of ['plain', 'a:b:c', 'x.y', 'task:42']) {
      const name = journalFileName(id);
      assert.ok(!name.includes(':'), name);
      assert.equal(sessionIdFromFileName(name), id);
    }
    assert.equal(journalFileName('a:b'), 'a%3Ab.jsonl');
    for (const name of ['index.json', '.hidden.jsonl', 'a%3ab.jsonl', 'a%20b.jsonl', 'CON.jsonl', 'x.txt', '.jsonl']) {
      assert.equal(sessionIdFromFileName(name), undefined, name);
    }
  });
});

describe('the default storage location', () => {
  it('is ~/.thought-explorer/sessions', () => {
    assert.equal(defaultStoragePath({}), join(homedir(), '.thought-explorer', 'sessions'));
    assert.equal(defaultStoragePath({ [STORAGE_ENV_VARIABLE]: '   ' }), join(homedir(), '.thought-explorer', 'sessions'));
  });

  it(`is overridden by ${STORAGE_ENV_VARIABLE}, made absolute, with ~ expanded`, () => {
    assert.equal(defaultStoragePath({ [STORAGE_ENV_VARIABLE]: '/srv/thoughts' }), resolve('/srv/thoughts'));
    assert.equal(defaultStoragePath({ [STORAGE_ENV_VARIABLE]: 'relative/dir' }), resolve('relative/dir'));
    assert.equal(defaultStoragePath({ [STORAGE_ENV_VARIABLE]: '~/elsewhere' }), join(homedir(), 'elsewhere'));
  });
});

/** The example of a sequentialthinking-plus session file, verbatim: a branch thought that appears only under `branches`. */
const PLUS_EXAMPLE = `{
  "id": "session-20250428-145302",
  "timestamp": "2025-04-28T14:53:02.123Z",
  "thoughtHistory": [
    { "thought": "First thought content", "thoughtNumber": 1, "totalThoughts": 3, "nextThoughtNeeded": true, "isRevision": false },
    { "thought": "Second thought content", "thoughtNumber": 2, "totalThoughts": 3, "nextThoughtNeeded": true, "isRevision": false },
    { "thought": "Final thought content", "thoughtNumber": 3, "totalThoughts": 3, "nextThoughtNeeded": false, "isRevision": false }
  ],
  "branches": {
    "branch-1": [
      { "thought": "Alternative approach", "thoughtNumber": 1, "totalThoughts": 2, "nextThoughtNeeded": true, "branchFromThought": 2, "branchId": "branch-1" }
    ]
  }
}`;

describe('sequentialthinking-plus import', () => {
  it('opens the example file: its thoughts, its branch, its date, complete', () => {
    const { snapshot, format, warnings } = parseSessionJson(PLUS_EXAMPLE);
    assert.equal(format, 'sequentialthinking-plus');
    const created = Date.parse('2025-04-28T14:53:02.123Z');
    assert.deepEqual(
      snapshot.thoughts.map((thought) => [thought.seq, thought.thoughtNumber, thought.branchId, thought.thought]),
      [
        [0, 1, undefined, 'First thought content'],
        [1, 2, undefined, 'Second thought content'],
        [2, 3, undefined, 'Final thought content'],
        [3, 1, 'branch-1', 'Alternative approach'],
      ],
    );
    assert.equal(snapshot.thoughts[3].branchFromThought, 2);
    assert.equal(snapshot.thoughts[0].isRevision, false);
    assert.ok(snapshot.thoughts.every((thought) => thought.timestamp === created));
    assert.deepEqual(snapshot.meta, {
      id: 'session-20250428-145302',
      strategy: 'linear',
      status: 'complete',
      createdAt: created,
      updatedAt: created,
      thoughtCount: 4,
      revisionCount: 0,
      branchIds: ['branch-1'],
      lastThoughtNumber: 1,
      totalThoughts: 2,
      purpose: 'First thought content',
    });
    assert.deepEqual(snapshot.strategySwitches, []);
    assert.deepEqual(warnings, ['branches.branch-1[0] was only listed under its branch; it is added after the thought history.']);
  });

  it('does not duplicate branch thoughts that are in both thoughtHistory and branches (as the reference keeps them)', () => {
    const branchThought = {
      thought: 'Alt',
      thoughtNumber: 2,
      totalThoughts: 2,
      nextThoughtNeeded: false,
      branchFromThought: 1,
      branchId: 'b',
    };
    const file = {
      id: 'both',
      timestamp: '2025-01-01T00:00:00Z',
      thoughtHistory: [{ thought: 'One', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }, branchThought],
      branches: { b: [branchThought] },
    };
    const { snapshot, warnings } = parseSessionJson(JSON.stringify(file));
    assert.equal(snapshot.thoughts.length, 2);
    assert.deepEqual(warnings, []);
  });

  it('keeps think-strategies extras: the strategy, stages, per-thought times and unknown fields', () => {
    const file = {
      id: 'strategic',
      timestamp: '2025-02-01T10:00:00Z',
      strategy: 'react',
      thoughtHistory: [
        {
          thought: 'Reason',
          thoughtNumber: 1,
          totalThoughts: 2,
          nextThoughtNeeded: true,
          stage: 'initial_reasoning',
          timestamp: '2025-02-01T10:00:01Z',
          confidence: 0.5,
        },
        { thought: 'Act', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true, stage: 'action_planning', timestamp: 1738404002000 },
      ],
      branches: {},
    };
    const { snapshot } = parseSessionJson(JSON.stringify(file));
    assert.equal(snapshot.meta.strategy, 'react');
    assert.equal(snapshot.meta.stage, 'action_planning');
    assert.equal(snapshot.meta.status, 'abandoned', 'a saved session that did not finish is not live anywhere');
    assert.deepEqual(snapshot.thoughts[0].extra, { confidence: 0.5 });
    assert.equal(snapshot.thoughts[0].timestamp, Date.parse('2025-02-01T10:00:01Z'));
    assert.equal(snapshot.meta.updatedAt, 1738404002000);
  });

  const broken: [string, unknown, RegExp][] = [
    [
      'a thoughtNumber that is a word',
      { id: 's', timestamp: 0, thoughtHistory: [{ thought: 'a', thoughtNumber: 'two', totalThoughts: 1, nextThoughtNeeded: true }] },
      /^thoughtHistory\[0\]\.thoughtNumber: expected a whole number from 1 to 9007199254740991, got "two"$/,
    ],
    [
      'a missing thought text',
      { id: 's', timestamp: 0, thoughtHistory: [{ thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true }] },
      /^thoughtHistory\[0\]\.thought: expected a string, got nothing$/,
    ],
    [
      'a nextThoughtNeeded that is a string',
      { id: 's', timestamp: 0, thoughtHistory: [{ thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: 'no' }] },
      /^thoughtHistory\[0\]\.nextThoughtNeeded: expected true or false, got "no"$/,
    ],
    ['an id with a path', { id: '../../x', timestamp: 0, thoughtHistory: [] }, /^id: a session id cannot contain path separators/],
    [
      'a bad date',
      { id: 's', timestamp: 'yesterday', thoughtHistory: [] },
      /^timestamp: expected an ISO date or milliseconds since 1970, from 1970 to the year 2999, got "yesterday"$/,
    ],
    ['no thoughts', { id: 's', timestamp: 0, thoughtHistory: [] }, /^thoughtHistory: expected at least one thought$/],
    ['thoughtHistory not an array', { id: 's', timestamp: 0, thoughtHistory: {} }, /^thoughtHistory: expected an array, got \{\}$/],
    [
      'a branch listed under another name',
      {
        id: 's',
        timestamp: 0,
        thoughtHistory: [{ thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true }],
        branches: {
          x: [{ thought: 'b', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true, branchFromThought: 1, branchId: 'y' }],
        },
      },
      /^branches\.x\[0\]\.branchId: expected "x"/,
    ],
    [
      'revisesThought without isRevision',
      {
        id: 's',
        timestamp: 0,
        thoughtHistory: [{ thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true, revisesThought: 1 }],
      },
      /^thoughtHistory\[0\]\.revisesThought: expected isRevision: true alongside it$/,
    ],
    [
      'branchFromThought without a branch name',
      {
        id: 's',
        timestamp: 0,
        thoughtHistory: [{ thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true, branchFromThought: 1 }],
      },
      /^thoughtHistory\[0\]\.branchId: expected a branch name/,
    ],
  ];
  for (const [name, file, pattern] of broken) {
    it(`refuses a file with ${name}, naming where`, () => {
      assert.throws(
        () => parseSessionJson(JSON.stringify(file)),
        (error: unknown) => error instanceof SessionFormatError && pattern.test(error.message),
      );
    });
  }

  it('stores a file under another id when asked (e.g. to import the same file twice)', () => {
    assert.equal(parseSessionJson(PLUS_EXAMPLE, { id: 'copy-2' }).snapshot.meta.id, 'copy-2');
    assert.throws(() => parseSessionJson(PLUS_EXAMPLE, { id: '..' }), /^SessionFormatError: id: a session id cannot be/);
  });

  it('warns about revisions of thoughts the file does not hold, but keeps them', () => {
    const file = {
      id: 's',
      timestamp: 0,
      thoughtHistory: [{ thought: 'a', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false, isRevision: true, revisesThought: 1 }],
    };
    assert.deepEqual(parseSessionJson(JSON.stringify(file)).warnings, [
      'Thought 1 revises thought 1, which the file does not hold before it.',
    ]);
  });
});

function sampleSession(): SessionSnapshot {
  const store = new FileSessionStore(join(root, 'sample'), { log: () => {} });
  const engine = new ThinkingEngine({ store, log: () => {} });
  const first = engine.process('c', {
    thought: 'Frame the problem: "quotes", <tags> and\nnewlines.',
    thoughtNumber: 1,
    totalThoughts: 4,
    nextThoughtNeeded: true,
  });
  assert.ok(first.ok);
  const id = first.reply.sessionId;
  for (const args of [
    { thought: 'A plan.', thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true },
    { thought: 'Better plan.', thoughtNumber: 3, totalThoughts: 4, nextThoughtNeeded: true, isRevision: true, revisesThought: 2 },
    {
      thought: 'Or another way.',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      branchFromThought: 2,
      branchId: 'other-way',
    },
    { thought: 'Done.', thoughtNumber: 5, totalThoughts: 4, nextThoughtNeeded: false },
  ]) {
    const outcome = engine.process('c', args);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  }
  engine.renameSession(id, 'A sample');
  const snapshot = store.loadSession(id);
  store.close();
  assert.ok(snapshot);
  return snapshot;
}

describe('lossless export and import', () => {
  it('round-trips a session exactly', () => {
    const snapshot = sampleSession();
    const text = toLosslessJson(snapshot);
    assert.match(text, /^\{\n {2}"format": "thought-explorer-session",\n {2}"version": 1,/);
    const parsed = parseSessionJson(text);
    assert.equal(parsed.format, 'thought-explorer');
    assert.deepEqual(parsed.snapshot, snapshot);
    assert.deepEqual(parsed.warnings, []);
  });

  it('exports the sequentialthinking-plus shape, which imports back with the same thoughts', () => {
    const snapshot = sampleSession();
    const seed = JSON.parse(toSequentialThinkingPlusJson(snapshot)) as {
      id: string;
      timestamp: string;
      thoughtHistory: unknown[];
      branches: Record<string, unknown[]>;
    };
    assert.equal(seed.id, snapshot.meta.id);
    assert.equal(seed.timestamp, new Date(snapshot.meta.createdAt).toISOString());
    assert.equal(seed.thoughtHistory.length, 5);
    assert.deepEqual(Object.keys(seed.branches), ['other-way']);
    const back = parseSessionJson(JSON.stringify(seed)).snapshot;
    assert.deepEqual(
      back.thoughts.map(
        ({ thought, thoughtNumber, totalThoughts, nextThoughtNeeded, revisesThought, branchFromThought, branchId, stage, timestamp }) => ({
          thought,
          thoughtNumber,
          totalThoughts,
          nextThoughtNeeded,
          revisesThought,
          branchFromThought,
          branchId,
          stage,
          timestamp,
        }),
      ),
      snapshot.thoughts.map(
        ({ thought, thoughtNumber, totalThoughts, nextThoughtNeeded, revisesThought, branchFromThought, branchId, stage, timestamp }) => ({
          thought,
          thoughtNumber,
          totalThoughts,
          nextThoughtNeeded,
          revisesThought,
          branchFromThought,
          branchId,
          stage,
          timestamp,
        }),
      ),
    );
    assert.equal(back.meta.status, 'complete');
    assert.equal(back.meta.revisionCount, 1);
  });

  const corrupt: [string, (file: Record<string, unknown>) => void, RegExp][] = [
    [
      'a meta that disagrees with its thoughts',
      (file) => ((file.meta as Record<string, unknown>).thoughtCount = 9),
      /^meta\.thoughtCount: the thoughts give 5, the meta says 9$/,
    ],
    [
      'thoughts out of order',
      (file) => (file.thoughts as Record<string, unknown>[]).reverse(),
      /^thoughts\[0\]\.seq: expected 0 \(thoughts in arrival order\), got 4$/,
    ],
    [
      'an unknown status',
      (file) => ((file.meta as Record<string, unknown>).status = 'paused'),
      /^meta\.status: expected one of live, complete, abandoned, got "paused"$/,
    ],
    [
      'a branch id with markup',
      (file) => ((file.thoughts as Record<string, unknown>[])[3].branchId = '<b>'),
      /^thoughts\[3\]\.branchId: expected 1-64 letters/,
    ],
    ['a newer version', (file) => (file.version = 2), /^version: expected 1, got 2$/],
    [
      'a strategy switch beyond the thoughts',
      (file) => (file.strategySwitches = [{ atSeq: 99, from: 'linear', to: 'react', timestamp: 1 }]),
      /^strategySwitches\[0\]\.atSeq: expected at most 5/,
    ],
  ];
  for (const [name, damage, pattern] of corrupt) {
    it(`refuses ${name}, naming the field`, () => {
      const file = JSON.parse(toLosslessJson(sampleSession())) as Record<string, unknown>;
      damage(file);
      assert.throws(
        () => parseSessionJson(JSON.stringify(file)),
        (error: unknown) => error instanceof SessionFormatError && pattern.test(error.message),
      );
    });
  }

  it('refuses text that is no session file at all', () => {
    assert.throws(
      () => parseSessionJson('{"format": "other"}'),
      /^SessionFormatError: format: expected "thought-explorer-session", got "other"$/,
    );
    assert.throws(() => parseSessionJson('[1,2]'), /^SessionFormatError: file: expected an object/);
    assert.throws(() => parseSessionJson('{"hello": 1}'), /not a session file/);
    assert.throws(() => parseSessionJson('{"id": '), /^SessionFormatError: file: not valid JSON/);
  });

  it('imports through the engine into the store, then continues by sessionId after a restart', () => {
    const dir = join(root, 'import-target');
    const store = new FileSessionStore(dir, { log: () => {} });
    const engine = new ThinkingEngine({ store, log: () => {} });
    const { snapshot } = parseSessionJson(PLUS_EXAMPLE);
    engine.importSession(snapshot);
    store.close();
    const restarted = new FileSessionStore(dir, { log: () => {} });
    const engine2 = new ThinkingEngine({ store: restarted, log: () => {} });
    assert.deepEqual(restarted.loadSession(snapshot.meta.id), snapshot);
    const outcome = engine2.process('c', {
      thought: 'Revisit the second.',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: false,
      isRevision: true,
      revisesThought: 2,
      sessionId: snapshot.meta.id,
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    assert.equal(outcome.reply.thoughtHistoryLength, 5);
    assert.deepEqual(outcome.reply.branches, ['branch-1']);
    restarted.close();
  });
});
