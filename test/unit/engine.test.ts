// Specification of the thinking engine: what it answers (the reference's five fields, for the same calls), how it keeps
// connections and sessions apart, which input it refuses and how, its limits, and how it survives restarts, torn
// journals and failing disks.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThinkingEngine, type ThoughtOutcome, type ThoughtReply } from '../../src/engine/engine';
import type { EngineEvent } from '../../src/engine/events';
import type {
  ListSessionsQuery,
  ListSessionsResult,
  SessionMeta,
  SessionSnapshot,
  SessionStore,
  StrategySwitch,
  ThoughtRecord,
} from '../../src/engine/model';
import { branchTreeSource } from '../../src/diagrams/branchTree';
import { revisionChainSource } from '../../src/diagrams/revisionChain';
import { FileSessionStore } from '../../src/storage/fileSessionStore';

/** The reference server's class, loaded from the devDependency (untyped ESM). */
interface ReferenceServer {
  processThought(input: Record<string, unknown>): { content: { type: string; text: string }[]; isError?: boolean };
}

const REFERENCE_FIELDS = ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength'] as const;

function ok(outcome: ThoughtOutcome): ThoughtReply {
  if (!outcome.ok) assert.fail(`expected the thought to be accepted, got: ${outcome.error}`);
  return outcome.reply;
}

function refused(outcome: ThoughtOutcome): string {
  if (outcome.ok) assert.fail(`expected a refusal, got ${JSON.stringify(outcome.reply)}`);
  return outcome.error;
}

function thought(thoughtNumber: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { thought: `Thought number ${thoughtNumber}.`, thoughtNumber, totalThoughts: 5, nextThoughtNeeded: true, ...extra };
}

const quietLog = (): void => {};

let directory: string;
before(() => {
  directory = mkdtempSync(join(tmpdir(), 'thought-explorer-engine-'));
});
after(() => {
  rmSync(directory, { recursive: true, force: true });
});

function freshDirectory(name: string): string {
  const path = join(directory, name);
  rmSync(path, { recursive: true, force: true });
  return path;
}

describe('the reply, compared with the reference server', () => {
  it('gives the reference five fields for the same call sequence (plain, revision, branches, exceeded estimate, end)', async () => {
    const previous = process.env.DISABLE_THOUGHT_LOGGING;
    process.env.DISABLE_THOUGHT_LOGGING = 'true';
    const specifier = '@modelcontextprotocol/server-sequential-thinking/dist/lib.js';
    const lib = (await import(specifier)) as { SequentialThinkingServer: new () => ReferenceServer };
    const reference = new lib.SequentialThinkingServer();
    if (previous === undefined) delete process.env.DISABLE_THOUGHT_LOGGING;
    else process.env.DISABLE_THOUGHT_LOGGING = previous;

    const calls: Record<string, unknown>[] = [
      thought(1),
      thought(2),
      thought(3, { isRevision: true, revisesThought: 2 }),
      thought(4, { branchFromThought: 2, branchId: 'alternative' }),
      thought(5, { branchFromThought: 2, branchId: 'alternative' }),
      thought(7, { needsMoreThoughts: true }),
      thought(8, { totalThoughts: 9, branchFromThought: 3, branchId: 'second' }),
      thought(9, { totalThoughts: 9, isRevision: true, revisesThought: 4 }),
      thought(10, { totalThoughts: 9, nextThoughtNeeded: false }),
    ];
    const engine = new ThinkingEngine({ log: quietLog });
    for (const [index, call] of calls.entries()) {
      const theirs = reference.processThought({ ...call }) as { content: { text: string }[]; isError?: boolean };
      assert.notEqual(theirs.isError, true);
      const expected = JSON.parse(theirs.content[0].text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(expected).sort(), [...REFERENCE_FIELDS].sort(), 'the reference answers exactly these five fields');
      const reply = ok(engine.process('connection', call)) as unknown as Record<string, unknown>;
      for (const field of REFERENCE_FIELDS) assert.deepEqual(reply[field], expected[field], `call ${index + 1}, field ${field}`);
    }
  });

  it('raises totalThoughts to thoughtNumber when the estimate is exceeded, as the reference does', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const reply = ok(engine.process('c', thought(1, { thoughtNumber: 4, totalThoughts: 2 })));
    assert.equal(reply.totalThoughts, 4);
    assert.equal(engine.getSession(reply.sessionId)?.thoughts[0].totalThoughts, 4);
  });

  it('adds our fields: sessionId, strategy, stage, nextStages, guidance and warnings', () => {
    const reply = ok(new ThinkingEngine({ log: quietLog }).process('c', thought(1)));
    assert.match(reply.sessionId, /^[A-Za-z0-9_.:-]{1,64}$/);
    assert.equal(reply.strategy, 'linear');
    assert.equal(typeof reply.stage, 'string');
    assert.ok(Array.isArray(reply.nextStages));
    assert.equal(typeof reply.guidance, 'string');
    assert.deepEqual(reply.warnings, []);
  });
});

describe('connections and sessions', () => {
  it('keeps two connections apart: each has its own session, history and branches', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const a1 = ok(engine.process('alice', thought(1)));
    const b1 = ok(engine.process('bob', thought(1)));
    const a2 = ok(engine.process('alice', thought(2, { branchFromThought: 1, branchId: 'alice-branch' })));
    const b2 = ok(engine.process('bob', thought(2)));
    const b3 = ok(engine.process('bob', thought(3)));
    assert.notEqual(a1.sessionId, b1.sessionId);
    assert.equal(a2.sessionId, a1.sessionId);
    assert.equal(b3.sessionId, b1.sessionId);
    assert.deepEqual([a1.thoughtHistoryLength, a2.thoughtHistoryLength], [1, 2]);
    assert.deepEqual([b1.thoughtHistoryLength, b2.thoughtHistoryLength, b3.thoughtHistoryLength], [1, 2, 3]);
    assert.deepEqual(a2.branches, ['alice-branch']);
    assert.deepEqual(b3.branches, []);
    assert.equal(engine.getSession(a1.sessionId)?.thoughts.length, 2);
    assert.equal(engine.getSession(b1.sessionId)?.thoughts.length, 3);
    assert.ok(engine.getSession(b1.sessionId)?.thoughts.every((record) => !record.thought.includes('alice')));
  });

  it("records a revision of a thought that exists only in another connection's session, warning how to resume that one", () => {
    const engine = new ThinkingEngine({ log: quietLog });
    ok(engine.process('alice', thought(1)));
    ok(engine.process('alice', thought(2)));
    const bob = ok(engine.process('bob', thought(1)));
    const reply = ok(engine.process('bob', thought(2, { isRevision: true, revisesThought: 2 })));
    assert.equal(reply.sessionId, bob.sessionId);
    assert.equal(engine.getSession(bob.sessionId)?.thoughts[1].revisesThought, 2);
    assert.ok(
      reply.warnings.some(
        (warning) =>
          /^revisesThought 2: session ".+" holds no such thought \(existing thought numbers: 1\)/.test(warning) &&
          /thinking_sessions with action "resume"/.test(warning),
      ),
      JSON.stringify(reply.warnings),
    );
  });

  it("lets a connection continue any session by sessionId, and makes it that connection's current session", () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('alice', thought(1)));
    const joined = ok(engine.process('bob', thought(2, { sessionId: first.sessionId })));
    assert.equal(joined.sessionId, first.sessionId);
    assert.equal(joined.thoughtHistoryLength, 2);
    const next = ok(engine.process('bob', thought(3)));
    assert.equal(next.sessionId, first.sessionId);
    assert.equal(engine.currentSessionId('bob'), first.sessionId);
  });

  it('starts a session with a chosen id on thoughtNumber 1, and refuses an unknown id for a later thought', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    assert.equal(ok(engine.process('c', thought(1, { sessionId: 'my-task' }))).sessionId, 'my-task');
    const error = refused(engine.process('d', thought(2, { sessionId: 'no-such-session' })));
    assert.match(error, /^Invalid sessionId: no session "no-such-session" exists\./);
    assert.match(error, /send thoughtNumber 1 to start a new session with this id/);
  });

  it("starts a new session on a connection's first thought, whatever its number", () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(3)));
    assert.equal(first.thoughtHistoryLength, 1);
    assert.equal(engine.listSessions().total, 1);
  });

  it('starts a new session when thoughtNumber 1 arrives as a plain thought after the session ended', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2, { nextThoughtNeeded: false })));
    assert.equal(engine.getSession(first.sessionId)?.meta.status, 'complete');
    const again = ok(engine.process('c', thought(1)));
    assert.notEqual(again.sessionId, first.sessionId);
    assert.equal(again.thoughtHistoryLength, 1);
    assert.equal(engine.getSession(first.sessionId)?.thoughts.length, 2, 'the ended session stays as it was');
  });

  it('starts a new session on thoughtNumber 1 while the session is still live, and says how to go back to it', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    const again = ok(engine.process('c', thought(1)));
    assert.notEqual(again.sessionId, first.sessionId);
    assert.equal(again.thoughtHistoryLength, 1);
    assert.ok(
      again.warnings.some((warning) => warning.includes(`sessionId "${first.sessionId}" with thoughtNumber 2`)),
      JSON.stringify(again.warnings),
    );
    assert.equal(engine.getSession(first.sessionId)?.meta.status, 'live', 'the earlier session stays as it was');
  });

  it('warns about a thought number its line already holds, and records it', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2)));
    const twice = ok(engine.process('c', { ...thought(2), sessionId: first.sessionId }));
    assert.equal(twice.thoughtHistoryLength, 3);
    assert.ok(
      twice.warnings.some((warning) => /already holds thought 2 .*thoughtNumber 3/.test(warning)),
      JSON.stringify(twice.warnings),
    );
    const branch = ok(engine.process('c', { ...thought(2), branchFromThought: 1, branchId: 'b' }));
    assert.ok(!branch.warnings.some((warning) => warning.includes('already holds')), 'a branch has its own numbers');
  });

  it('never resets a session when a branch is created, even one numbered 1 after the session ended', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2)));
    const live = ok(engine.process('c', thought(3, { branchFromThought: 1, branchId: 'b1' })));
    assert.equal(live.sessionId, first.sessionId);
    assert.equal(live.thoughtHistoryLength, 3);
    ok(engine.process('c', thought(4, { nextThoughtNeeded: false })));
    const afterEnd = ok(engine.process('c', thought(1, { branchFromThought: 2, branchId: 'b2' })));
    assert.equal(afterEnd.sessionId, first.sessionId);
    assert.equal(afterEnd.thoughtHistoryLength, 5);
    assert.deepEqual(afterEnd.branches, ['b1', 'b2']);
    const revision = ok(engine.process('c', thought(1, { isRevision: true, revisesThought: 1, nextThoughtNeeded: false })));
    assert.equal(revision.sessionId, first.sessionId, 'a revision numbered 1 does not start over either');
  });

  it('continues an ended session when a later thought number arrives (needsMoreThoughts), and it is live again', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1, { nextThoughtNeeded: false })));
    const more = ok(engine.process('c', thought(2, { needsMoreThoughts: true })));
    assert.equal(more.sessionId, first.sessionId);
    assert.equal(engine.getSession(first.sessionId)?.meta.status, 'live');
  });

  it("forgets a closed connection's pointer but keeps its session", () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    engine.closeConnection('c');
    assert.equal(engine.currentSessionId('c'), undefined);
    assert.notEqual(ok(engine.process('c', thought(2))).sessionId, first.sessionId);
    assert.equal(engine.getSession(first.sessionId)?.thoughts.length, 1);
  });
});

describe('validation errors from session rules', () => {
  const engine = new ThinkingEngine({ log: quietLog });
  let sessionId = '';
  let connections = 0;
  beforeEach(() => {
    sessionId = ok(engine.process(`connection-${++connections}`, thought(1))).sessionId;
  });

  const cases: { name: string; args: () => Record<string, unknown>; pattern: RegExp }[] = [
    {
      name: 'a new branchId without branchFromThought',
      args: () => thought(2, { sessionId, branchId: 'fresh' }),
      pattern:
        /^Invalid branchFromThought: got nothing; expected the number of the thought branch "fresh" forks from \(session "[^"]+" has no branch "fresh" yet, and a new branch needs both\)\.$/,
    },
    {
      name: 'an unknown strategy',
      args: () => thought(2, { sessionId, strategy: 'telepathy' }),
      pattern: /^Invalid strategy: got "telepathy"; expected one of linear\b.*\.$/,
    },
    {
      name: 'a stage the strategy does not have',
      args: () => thought(2, { sessionId, stage: 'daydreaming' }),
      pattern: /^Invalid stage: "daydreaming" is not a stage of strategy "linear"\. Its stages are: problem_reception, /,
    },
    {
      name: 'a traversal sessionId',
      args: () => thought(1, { sessionId: '../outside' }),
      pattern: /^Invalid sessionId: got "\.\.\/outside"; expected 1-64 letters/,
    },
  ];
  for (const { name, args, pattern } of cases) {
    it(`refuses ${name} with an error naming the field, the value and what is valid`, () => {
      const before = engine.getSession(sessionId)?.thoughts.length;
      assert.match(refused(engine.process('x', args())), pattern);
      assert.equal(engine.getSession(sessionId)?.thoughts.length, before, 'nothing was recorded');
    });
  }

  it('passes on input errors from the parser unchanged (field, value, expectation)', () => {
    assert.equal(
      refused(engine.process('x', { ...thought(1), thoughtNumber: 'one' })),
      'Invalid thoughtNumber: got "one"; expected a whole number of at least 1 (for example 3).',
    );
  });

  it('warns (without refusing) when isRevision comes without revisesThought', () => {
    const reply = ok(engine.process('x', thought(2, { sessionId, isRevision: true })));
    assert.ok(
      reply.warnings.some((warning) => /revisesThought is missing/.test(warning)),
      JSON.stringify(reply.warnings),
    );
  });
});

describe('compatibility with the reference tool: lenient in what it accepts, precise in what it warns', () => {
  it('records revisesThought without isRevision as a revision, and says so', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    const reply = ok(engine.process('c', thought(2, { revisesThought: 1 })));
    assert.deepEqual(
      reply.warnings.filter((warning) => warning.includes('isRevision')),
      ['revisesThought came without isRevision: recorded as a revision of thought 1; send isRevision true with it.'],
    );
    const snake = ok(
      engine.process('c', {
        thought: 'again',
        thought_number: '3',
        total_thoughts: '5',
        next_thought_needed: 'true',
        is_revision: 'false',
        revises_thought: '1',
      }),
    );
    assert.ok(
      snake.warnings.includes('isRevision is false but revisesThought is 1: recorded as a revision of thought 1.'),
      JSON.stringify(snake.warnings),
    );
    const session = engine.getSession(first.sessionId);
    assert.deepEqual(
      session?.thoughts.slice(1).map((record) => [record.isRevision, record.revisesThought]),
      [
        [true, 1],
        [true, 1],
      ],
    );
    assert.equal(session?.meta.revisionCount, 2);
  });

  it('opens a branch with a generated, readable name when branchFromThought comes without branchId', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2, { branchFromThought: 1, branchId: 'branch-2' })));
    const first = ok(engine.process('c', thought(3, { branchFromThought: 1 })));
    assert.deepEqual(first.branches, ['branch-2', 'branch-3']);
    assert.ok(
      first.warnings.includes(
        'branchFromThought came without branchId: this thought opens branch "branch-3". Send branchId "branch-3" with this branch\'s next thoughts.',
      ),
      JSON.stringify(first.warnings),
    );
    const second = ok(engine.process('c', { ...thought(4), branch_from_thought: '2' }));
    assert.deepEqual(second.branches, ['branch-2', 'branch-3', 'branch-4']);
    const continued = ok(engine.process('c', thought(5, { branchId: 'branch-3' })));
    assert.deepEqual(continued.branches, ['branch-2', 'branch-3', 'branch-4'], 'branchId alone continues an existing branch');
    assert.ok(!continued.warnings.some((warning) => /branch/.test(warning)), JSON.stringify(continued.warnings));
    const records = engine.getSession(first.sessionId)?.thoughts ?? [];
    assert.deepEqual(
      records.slice(2).map((record) => [record.branchFromThought, record.branchId]),
      [
        [1, 'branch-3'],
        [2, 'branch-4'],
        [undefined, 'branch-3'],
      ],
    );
  });

  it('does not start over on a branch numbered 1 sent with branchFromThought only after the session ended', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2, { nextThoughtNeeded: false })));
    const branch = ok(engine.process('c', thought(1, { branchFromThought: 2 })));
    assert.equal(branch.sessionId, first.sessionId);
    assert.deepEqual(branch.branches, ['branch-1']);
  });

  it('after a reconnect without sessionId: records revisions and branches of thoughts the new session lacks, says how to resume, and the diagrams show them dangling', () => {
    const dir = freshDirectory('reconnect');
    const store = new FileSessionStore(dir, { log: quietLog });
    const engine = new ThinkingEngine({ store, log: quietLog });
    const earlier = ok(engine.process('before-reconnect', thought(1)));
    ok(engine.process('before-reconnect', thought(2)));
    ok(engine.process('before-reconnect', thought(3)));

    const revision = ok(engine.process('after-reconnect', thought(4, { isRevision: true, revisesThought: 2 })));
    assert.notEqual(revision.sessionId, earlier.sessionId, 'a new connection without sessionId starts a new session');
    const hint = revision.warnings.find((warning) => warning.startsWith('revisesThought 2: '));
    assert.ok(hint, JSON.stringify(revision.warnings));
    assert.match(hint, /session "[^"]+" holds no such thought \(it has no thoughts yet\); recorded with a dangling reference\./);
    assert.match(hint, /call thinking_sessions with action "resume" and its sessionId \(action "list" finds it\)/);
    const branch = ok(engine.process('after-reconnect', thought(5, { branchFromThought: 3, branchId: 'alt' })));
    assert.ok(
      branch.warnings.some((warning) => warning.startsWith('branchFromThought 3: ')),
      JSON.stringify(branch.warnings),
    );
    const both = ok(engine.process('after-reconnect', thought(6, { revisesThought: 1, branchFromThought: 1 })));
    assert.ok(
      both.warnings.some((warning) => warning.startsWith('revisesThought 1 and branchFromThought 1: ')),
      JSON.stringify(both.warnings),
    );
    store.close();

    const reopened = new FileSessionStore(dir, { log: quietLog });
    const snapshot = reopened.loadSession(revision.sessionId);
    reopened.close();
    assert.ok(snapshot);
    assert.deepEqual(
      snapshot.thoughts.map((record) => [record.revisesThought, record.branchFromThought, record.branchId]),
      [
        [2, undefined, undefined],
        [undefined, 3, 'alt'],
        [1, 1, 'branch-2'],
      ],
    );
    const tree = branchTreeSource(snapshot).text;
    assert.match(tree, /^ {2}dangling3\(\["#3 · not in this session"\]\)$/m);
    assert.match(tree, /^ {2}dangling3 -\.->\|"alt"\| t1$/m);
    assert.match(tree, /^ {2}dangling1 -\.->\|"branch-2"\| t2$/m);
    assert.match(tree, /^ {2}class dangling3,dangling1 dangling$/m);
    const chains = revisionChainSource(snapshot).text;
    assert.match(chains, /^ {2}dangling2\(\["#2 · not in this session"\]\)$/m);
    assert.match(chains, /^ {2}dangling2 --> t0$/m);
    assert.match(chains, /^ {2}dangling1 --> t2$/m);
  });
});

describe('string and snake_case input through the engine', () => {
  it('records a session sent entirely in snake_case with string numbers and booleans', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const first = ok(engine.process('c', { thought: 'a', thought_number: '1', total_thoughts: '2', next_thought_needed: 'true' }));
    const revision = ok(
      engine.process('c', {
        thought: 'b',
        thought_number: '2',
        total_thoughts: '2',
        next_thought_needed: 'true',
        is_revision: 'true',
        revises_thought: '1',
      }),
    );
    const branch = ok(
      engine.process('c', {
        thought: 'c',
        thought_number: '3',
        total_thoughts: '2',
        next_thought_needed: 'false',
        branch_from_thought: '1',
        branch_id: 'alt',
        session_id: first.sessionId,
      }),
    );
    assert.equal(revision.sessionId, first.sessionId);
    assert.deepEqual(
      [branch.thoughtNumber, branch.totalThoughts, branch.nextThoughtNeeded, branch.branches, branch.thoughtHistoryLength],
      [3, 3, false, ['alt'], 3],
    );
    const records = engine.getSession(first.sessionId)?.thoughts ?? [];
    assert.deepEqual(
      records.map((record) => [record.thoughtNumber, record.isRevision, record.revisesThought, record.branchFromThought, record.branchId]),
      [
        [1, undefined, undefined, undefined, undefined],
        [2, true, 1, undefined, undefined],
        [3, undefined, undefined, 1, 'alt'],
      ],
    );
  });
});

/** An in-memory SessionStore that can be told to fail, and counts what it was asked. */
class MemoryStore implements SessionStore {
  readonly sessions = new Map<string, SessionSnapshot>();
  failAppend = false;
  failCreate = false;
  loads = 0;
  deletes: string[] = [];

  createSession(meta: SessionMeta): void {
    if (this.failCreate) throw new Error('EIO: i/o error, open');
    this.sessions.set(meta.id, { meta, thoughts: [], strategySwitches: [] });
  }
  appendThought(meta: SessionMeta, record: ThoughtRecord): void {
    if (this.failAppend) throw new Error('ENOSPC: no space left on device, write');
    const session = this.require(meta.id);
    this.sessions.set(meta.id, { ...session, meta, thoughts: [...session.thoughts, record] });
  }
  updateMeta(meta: SessionMeta, strategySwitch?: StrategySwitch): void {
    const session = this.require(meta.id);
    this.sessions.set(meta.id, {
      ...session,
      meta,
      strategySwitches: strategySwitch ? [...session.strategySwitches, strategySwitch] : session.strategySwitches,
    });
  }
  loadSession(id: string): SessionSnapshot | undefined {
    this.loads++;
    const session = this.sessions.get(id);
    return session && { meta: session.meta, thoughts: [...session.thoughts], strategySwitches: [...session.strategySwitches] };
  }
  listSessions(query: ListSessionsQuery = {}): ListSessionsResult {
    const all = [...this.sessions.values()]
      .map((session) => session.meta)
      .filter((meta) => query.status === undefined || meta.status === query.status);
    return { sessions: all, total: all.length };
  }
  deleteSession(id: string): boolean {
    this.deletes.push(id);
    return this.sessions.delete(id);
  }
  saveSession(snapshot: SessionSnapshot): void {
    this.sessions.set(snapshot.meta.id, snapshot);
  }
  private require(id: string): SessionSnapshot {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  }
}

describe('limits', () => {
  it('refuses a thought longer than maxThoughtLength', () => {
    const engine = new ThinkingEngine({ log: quietLog, limits: { maxThoughtLength: 50 } });
    assert.match(
      refused(engine.process('c', { ...thought(1), thought: 'x'.repeat(51) })),
      /^Invalid thought: got "51 characters"; expected at most 50 characters/,
    );
    ok(engine.process('c', { ...thought(1), thought: 'x'.repeat(50) }));
  });

  it('refuses thoughts beyond maxThoughtsPerSession and says how to continue', () => {
    const engine = new ThinkingEngine({ log: quietLog, limits: { maxThoughtsPerSession: 3 } });
    const first = ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2)));
    ok(engine.process('c', thought(3)));
    const error = refused(engine.process('c', thought(4)));
    assert.match(
      error,
      new RegExp(`^Session "${first.sessionId}" is full: it holds 3 thoughts, the most allowed \\(maxThoughtsPerSession\\)\\.`),
    );
    assert.match(error, /send sessionId "[A-Za-z0-9_.:-]{1,64}" with thoughtNumber 1/);
    assert.equal(engine.getSession(first.sessionId)?.thoughts.length, 3);
  });

  it('suggests a valid id for the next session even when the full one has a 64-character id', () => {
    const engine = new ThinkingEngine({ log: quietLog, limits: { maxThoughtsPerSession: 1 } });
    const id = 'x'.repeat(64);
    ok(engine.process('c', thought(1, { sessionId: id })));
    const suggested = /send sessionId "([^"]+)"/.exec(refused(engine.process('c', thought(2))))?.[1] ?? '';
    assert.ok(suggested.length <= 64 && suggested !== id, suggested);
    assert.equal(ok(engine.process('d', thought(1, { sessionId: suggested }))).sessionId, suggested);
  });

  it('holds at most maxSessionsInMemory sessions; an evicted one is reloaded from the store when continued', () => {
    const store = new MemoryStore();
    const engine = new ThinkingEngine({ log: quietLog, store, limits: { maxSessionsInMemory: 2 } });
    const ids = ['one', 'two', 'three'].map((name) => ok(engine.process(name, thought(1, { sessionId: name }))).sessionId);
    ok(engine.process('one', thought(2)));
    assert.equal(store.loads, 4, 'three lookups for new ids, then one reload of the evicted "one"');
    const reply = ok(engine.process('one', thought(3, { isRevision: true, revisesThought: 2 })));
    assert.equal(reply.thoughtHistoryLength, 3);
    assert.equal(store.loads, 4, '"one" is held again, no further load');
    assert.deepEqual(
      store.sessions.get(ids[0])?.thoughts.map((record) => record.thoughtNumber),
      [1, 2, 3],
    );
  });

  it('without a store, an evicted session is gone and the connection is told a new session started', () => {
    const engine = new ThinkingEngine({ log: quietLog, limits: { maxSessionsInMemory: 1 } });
    const first = ok(engine.process('a', thought(1)));
    ok(engine.process('b', thought(1)));
    const reply = ok(engine.process('a', thought(2)));
    assert.notEqual(reply.sessionId, first.sessionId);
    assert.ok(
      reply.warnings.some((warning) => warning.includes(first.sessionId)),
      JSON.stringify(reply.warnings),
    );
  });

  it('rejects limits that are not whole numbers of at least 1', () => {
    assert.throws(
      () => new ThinkingEngine({ limits: { maxThoughtLength: 0 } }),
      /Limit maxThoughtLength must be a whole number of at least 1, got 0/,
    );
    assert.throws(() => new ThinkingEngine({ limits: { maxSessionsInMemory: 1.5 } }), /maxSessionsInMemory/);
  });
});

describe('a failing store', () => {
  it('answers an error and keeps nothing of the thought in memory when the append fails', () => {
    const store = new MemoryStore();
    const logs: string[] = [];
    const engine = new ThinkingEngine({ store, log: (message) => logs.push(message) });
    const first = ok(engine.process('c', thought(1)));
    store.failAppend = true;
    const error = refused(engine.process('c', thought(2, { branchFromThought: 1, branchId: 'lost' })));
    assert.match(
      error,
      /^The thought could not be saved \(ENOSPC: no space left on device, write\); nothing was recorded\. Send it again\.$/,
    );
    assert.ok(logs.some((line) => line.includes('ENOSPC')));
    const held = engine.getSession(first.sessionId);
    assert.equal(held?.thoughts.length, 1);
    assert.deepEqual(held?.meta.branchIds, []);
    assert.equal(held?.meta.thoughtCount, 1);
    store.failAppend = false;
    const retry = ok(engine.process('c', thought(2, { branchFromThought: 1, branchId: 'lost' })));
    assert.equal(retry.thoughtHistoryLength, 2);
    assert.deepEqual(retry.branches, ['lost']);
  });

  it('leaves no empty session behind when the first thought of a new session cannot be written', () => {
    const store = new MemoryStore();
    const engine = new ThinkingEngine({ store, log: quietLog });
    const events: EngineEvent[] = [];
    engine.onEvent((event) => events.push(event));
    store.failAppend = true;
    refused(engine.process('c', thought(1, { sessionId: 'doomed' })));
    assert.deepEqual(store.deletes, ['doomed']);
    assert.equal(store.sessions.size, 0);
    assert.equal(engine.currentSessionId('c'), undefined);
    assert.deepEqual(events, [], 'no events for a thought that was not recorded');
    store.failAppend = false;
    assert.equal(ok(engine.process('c', thought(1, { sessionId: 'doomed' }))).thoughtHistoryLength, 1);
  });

  it('answers an error when the session cannot be created', () => {
    const store = new MemoryStore();
    store.failCreate = true;
    const engine = new ThinkingEngine({ store, log: quietLog });
    assert.match(refused(engine.process('c', thought(1))), /could not be saved \(EIO/);
    assert.equal(engine.listSessions().total, 0);
  });

  it('with the file store: a journal that disappears under the engine gives an error, not a crash', () => {
    const dir = freshDirectory('vanishing');
    const store = new FileSessionStore(dir, { log: quietLog, maxOpenJournals: 1 });
    const engine = new ThinkingEngine({ store, log: quietLog });
    const a = ok(engine.process('a', thought(1)));
    ok(engine.process('b', thought(1)));
    rmSync(store.sessionFilePath(a.sessionId));
    const error = refused(engine.process('a', thought(2)));
    assert.match(error, /could not be saved \(Session "[^"]+" has no journal/);
    assert.equal(engine.getSession(a.sessionId)?.thoughts.length, 1);
    store.close();
  });
});

describe('events', () => {
  it('tells listeners of a started session, each thought, stage changes and the end', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const events: EngineEvent[] = [];
    engine.onEvent((event) => events.push(event));
    ok(engine.process('c', thought(1)));
    ok(engine.process('c', thought(2, { nextThoughtNeeded: false })));
    const types = events.map((event) => event.type);
    assert.equal(types[0], 'sessionStarted');
    assert.equal(types.filter((type) => type === 'thoughtAdded').length, 2);
    assert.ok(types.includes('stageChanged'));
    assert.equal(types.at(-1), 'sessionEnded');
  });

  it('isolates a listener that throws: the thought is still recorded and the failure logged', () => {
    const logs: string[] = [];
    const engine = new ThinkingEngine({ log: (message) => logs.push(message) });
    engine.onEvent(() => {
      throw new Error('view broke');
    });
    const reply = ok(engine.process('c', thought(1)));
    assert.equal(reply.thoughtHistoryLength, 1);
    assert.ok(logs.some((line) => line.includes('view broke')));
  });
});

describe('recordThought: a parsed thought with per-thought data', () => {
  it('records the same thought process() would, and keeps `extra` in memory, in the journal and after a restart', () => {
    const dir = freshDirectory('extra');
    const store1 = new FileSessionStore(dir, { log: quietLog });
    const engine1 = new ThinkingEngine({ store: store1, log: quietLog });
    const extra = { role: 'critic', model: 'scripted-1', tokens: 42, durationMs: 1234, status: 'ok' };
    const viaProcess = ok(new ThinkingEngine({ log: quietLog }).process('c', thought(1, { sessionId: 'same' })));
    const reply = ok(
      engine1.recordThought(
        'c',
        { thought: 'Thought number 1.', thoughtNumber: 1, totalThoughts: 5, nextThoughtNeeded: true, sessionId: 'same' },
        { extra },
      ),
    );
    assert.deepEqual(reply, viaProcess, 'the same reply as process() for the same thought');
    const second = ok(engine1.recordThought('c', { thought: 'plain', thoughtNumber: 2, totalThoughts: 5, nextThoughtNeeded: true }));
    assert.equal(second.thoughtHistoryLength, 2);
    assert.deepEqual(
      engine1.getSession('same')?.thoughts.map((record) => record.extra),
      [extra, undefined],
    );
    assert.match(
      readFileSync(store1.sessionFilePath('same'), 'utf8'),
      /"extra":\{"role":"critic","model":"scripted-1","tokens":42,"durationMs":1234,"status":"ok"\}/,
    );
    store1.close();

    const store2 = new FileSessionStore(dir, { log: quietLog });
    assert.deepEqual(
      store2.loadSession('same')?.thoughts.map((record) => record.extra),
      [extra, undefined],
    );
    store2.close();
  });

  it('refuses through the outcome, never by throwing, like process()', () => {
    const engine = new ThinkingEngine({ log: quietLog });
    const outcome = engine.recordThought(
      'c',
      { thought: 'x', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true, sessionId: 'missing' },
      { extra: { role: 'r' } },
    );
    assert.match(refused(outcome), /^Invalid sessionId: no session "missing" exists\./);
  });
});

describe('durability through the file store', () => {
  it('resumes a session by sessionId after a restart (new engine, new store, same directory)', () => {
    const dir = freshDirectory('restart');
    const store1 = new FileSessionStore(dir, { log: quietLog });
    const engine1 = new ThinkingEngine({ store: store1, log: quietLog });
    const first = ok(engine1.process('c', thought(1)));
    ok(engine1.process('c', thought(2, { branchFromThought: 1, branchId: 'left' })));
    ok(engine1.process('c', thought(3, { isRevision: true, revisesThought: 1 })));
    const before = engine1.getSession(first.sessionId);
    store1.close();

    const store2 = new FileSessionStore(dir, { log: quietLog });
    const engine2 = new ThinkingEngine({ store: store2, log: quietLog });
    assert.deepEqual(engine2.getSession(first.sessionId), before, 'the reloaded session equals the one written');
    const resumed = ok(
      engine2.process('another-connection', thought(4, { sessionId: first.sessionId, isRevision: true, revisesThought: 2 })),
    );
    assert.equal(resumed.sessionId, first.sessionId);
    assert.equal(resumed.thoughtHistoryLength, 4);
    assert.deepEqual(resumed.branches, ['left']);
    const branched = ok(engine2.process('another-connection', thought(5, { branchFromThought: 3, branchId: 'right' })));
    assert.deepEqual(branched.branches, ['left', 'right']);
    store2.close();

    const store3 = new FileSessionStore(dir, { log: quietLog });
    const reloaded = store3.loadSession(first.sessionId);
    assert.deepEqual(
      reloaded?.thoughts.map((record) => record.thoughtNumber),
      [1, 2, 3, 4, 5],
    );
    assert.equal(reloaded?.meta.revisionCount, 2);
    assert.deepEqual(
      store3.listSessions().sessions.map((meta) => [meta.id, meta.thoughtCount]),
      [[first.sessionId, 5]],
    );
    store3.close();
  });

  it('recovers a journal whose last line was torn by a crash, and appends after it on a fresh line', () => {
    const dir = freshDirectory('torn');
    const store1 = new FileSessionStore(dir, { log: quietLog });
    const engine1 = new ThinkingEngine({ store: store1, log: quietLog });
    const first = ok(engine1.process('c', thought(1)));
    ok(engine1.process('c', thought(2)));
    store1.close();
    const path = store1.sessionFilePath(first.sessionId);
    // What a crash in the middle of writeSync leaves: the start of a record, no newline.
    appendFileSync(path, '{"type":"thought","thought":{"seq":2,"thought":"half a tho');

    const logs: string[] = [];
    const store2 = new FileSessionStore(dir, { log: (message) => logs.push(message) });
    const engine2 = new ThinkingEngine({ store: store2, log: quietLog });
    assert.equal(engine2.getSession(first.sessionId)?.thoughts.length, 2);
    assert.ok(
      logs.some((line) => /torn last line/.test(line)),
      logs.join('\n'),
    );
    const resumed = ok(engine2.process('c', thought(3, { sessionId: first.sessionId })));
    assert.equal(resumed.thoughtHistoryLength, 3);
    store2.close();

    const lines = readFileSync(path, 'utf8').split('\n');
    assert.equal(lines.at(-1), '', 'the journal ends with a complete line');
    const parsed = lines.slice(0, -1).filter((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    });
    assert.equal(parsed.length, lines.length - 2, 'only the torn fragment is not JSON; the new record stands alone');
    const store3 = new FileSessionStore(dir, { log: quietLog });
    assert.deepEqual(
      store3.loadSession(first.sessionId)?.thoughts.map((record) => [record.seq, record.thoughtNumber]),
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    );
    store3.close();
  });

  it('refuses traversal and reserved session ids and writes nothing outside the store', () => {
    const root = freshDirectory('traversal');
    const dir = join(root, 'store');
    const store = new FileSessionStore(dir, { log: quietLog });
    const engine = new ThinkingEngine({ store, log: quietLog });
    for (const id of ['../escape', '..', '.', '/etc/passwd', 'a\\b', '.hidden']) {
      assert.match(refused(engine.process('c', thought(1, { sessionId: id }))), /^Invalid sessionId: /, id);
    }
    const error = refused(engine.process('c', thought(1, { sessionId: 'CON' })));
    assert.match(error, /^Invalid sessionId: Invalid session id "CON": "CON" is a reserved device name on Windows\.$/);
    assert.deepEqual(readdirSync(root), ['store']);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(existsSync(join(root, 'escape.jsonl')), false);
    store.close();
  });

  it('writes every accepted thought to the journal before process() returns', () => {
    const dir = freshDirectory('immediate');
    const store = new FileSessionStore(dir, { log: quietLog });
    const engine = new ThinkingEngine({ store, log: quietLog });
    const first = ok(engine.process('c', thought(1)));
    for (let number = 2; number <= 5; number++) {
      ok(engine.process('c', { ...thought(number), thought: `marker-${number}` }));
      const lines = readFileSync(store.sessionFilePath(first.sessionId), 'utf8').trimEnd().split('\n');
      assert.equal(lines.length, number + 1, 'the session record plus one line per thought');
      assert.match(lines.at(-1) ?? '', new RegExp(`"thought":"marker-${number}"`));
    }
    store.close();
  });
});
