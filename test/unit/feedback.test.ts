// Specification of feedback on a live session (issue 14): the engine's rules for recording it, delivering it once on
// the next reply with one guidance sentence first, marking it applied when the agent follows it; the journal records
// (created, delivered, applied), their validation on read (torn and bad lines), exports, and two processes sharing one
// store (the extension and the stdio CLI).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThinkingEngine, type ThoughtReply } from '../../src/engine/engine';
import type { EngineEvent } from '../../src/engine/events';
import { MAX_FEEDBACK_TEXT_LENGTH } from '../../src/engine/feedbackRules';
import type { FeedbackRecord } from '../../src/engine/model';
import {
  THOUGHTS_BEFORE_NOT_ACTED_ON,
  describeFeedbackStatus,
  feedbackStatus,
  thoughtsAfterDelivery,
  type FeedbackStatus,
} from '../../src/engine/browserSafe/feedbackStatus';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { feedbackFacts } from '../../src/export/feedbackFacts';
import { feedbackTooltipMarkdown } from '../../src/extension/sessionTreeModel';
import { parseSessionJson, toLosslessJson } from '../../src/storage/sessionJsonFormats';
import { isHostMessage, isWebviewMessage } from '../../src/shared/protocol';
import { branchTreeSource } from '../../src/diagrams/branchTree';
import { feedbackThoughtNumbers } from '../../src/diagrams/feedbackMarks';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'thought-explorer-feedback-'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
});

let directories = 0;
const quiet = () => {};
function freshDirectory(): string {
  return join(root, `store-${++directories}`);
}

function engineOn(directory: string, options: { checkStoreBeforeThought?: boolean; log?: (message: string) => void } = {}) {
  const store = new FileSessionStore(directory, { indexFlushDelayMs: 1, log: options.log ?? quiet });
  const engine = new ThinkingEngine({ store, log: quiet, checkStoreBeforeThought: options.checkStoreBeforeThought });
  const events: EngineEvent[] = [];
  engine.onEvent((event) => events.push(event));
  return { store, engine, events };
}

function think(engine: ThinkingEngine, connection: string, fields: Record<string, unknown>): ThoughtReply {
  const outcome = engine.process(connection, {
    thought: `thought ${String(fields.thoughtNumber)}`,
    totalThoughts: 6,
    nextThoughtNeeded: true,
    ...fields,
  });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  return outcome.reply;
}

/** A live session with thoughts 1..count; returns its id. */
function liveSession(engine: ThinkingEngine, connection: string, count = 3): string {
  let sessionId = '';
  for (let number = 1; number <= count; number++) sessionId = think(engine, connection, { thoughtNumber: number }).sessionId;
  return sessionId;
}

function journalLines(store: FileSessionStore, id: string): Record<string, unknown>[] {
  return readFileSync(store.sessionFilePath(id), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('feedback: recording (engine.addFeedback)', () => {
  it('records each kind with id, author, time and fields, journaled as its own record, and announces feedbackAdded', () => {
    const directory = freshDirectory();
    const { store, engine, events } = engineOn(directory);
    const id = liveSession(engine, 'c1');
    const inputs = [
      { kind: 'note', text: '  consider the Windows runners too  ' },
      { kind: 'reject', thoughtNumber: 2, text: 'the cache is per job, not per runner' },
      { kind: 'branch', thoughtNumber: 1, branchId: 'alt-cache', text: 'try a shared cache' },
      { kind: 'conclude' },
    ];
    const records = inputs.map((input) => {
      const outcome = engine.addFeedback(id, input);
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      return outcome.feedback;
    });
    assert.deepEqual(
      records.map((record) => [record.kind, record.author, record.thoughtNumber, record.text, record.branchId, record.deliveredAt]),
      [
        ['note', 'user', undefined, 'consider the Windows runners too', undefined, undefined],
        ['reject', 'user', 2, 'the cache is per job, not per runner', undefined, undefined],
        ['branch', 'user', 1, 'try a shared cache', 'alt-cache', undefined],
        ['conclude', 'user', undefined, undefined, undefined, undefined],
      ],
    );
    assert.equal(new Set(records.map((record) => record.id)).size, 4);
    const journaled = journalLines(store, id).filter((line) => line.type === 'feedback');
    assert.deepEqual(
      journaled.map((line) => line.feedback),
      records,
    );
    assert.deepEqual(
      events.filter((event) => event.type === 'feedbackAdded').map((event) => (event.type === 'feedbackAdded' ? event.feedback.id : '')),
      records.map((record) => record.id),
    );
    store.close();
    // Read back by another store (a restart): the same list.
    const reread = new FileSessionStore(directory, { log: quiet });
    assert.deepEqual(reread.loadSession(id)?.feedback, records);
    reread.close();
  });

  it('refuses bad input with an error naming what to send, and stores nothing', () => {
    const { store, engine, events } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 3);
    const before = readFileSync(store.sessionFilePath(id), 'utf8');
    const cases: [string, unknown, RegExp][] = [
      [id, { kind: 'note', text: '' }, /Empty note/],
      [id, { kind: 'note', text: '   \n ' }, /Empty note/],
      [
        id,
        { kind: 'note', text: 'x'.repeat(1024 * 1024) },
        new RegExp(`1048576 characters, more than feedback may hold \\(${MAX_FEEDBACK_TEXT_LENGTH}\\)`),
      ],
      [id, { kind: 'reject', thoughtNumber: 9, text: 'wrong' }, /Unknown thought 9: session ".*" holds thoughts 1-3/],
      [id, { kind: 'reject', thoughtNumber: 2 }, /Missing reason/],
      [id, { kind: 'reject', text: 'why' }, /Missing thoughtNumber/],
      [id, { kind: 'branch', thoughtNumber: 0 }, /Invalid thoughtNumber: got 0/],
      [id, { kind: 'branch', thoughtNumber: 2, branchId: '../etc' }, /Invalid branchId: got "..\/etc"/],
      [id, { kind: 'shout', text: 'hey' }, /Invalid kind: got "shout"; send one of note, reject, branch, conclude/],
      [id, 'note', /Invalid feedback/],
      ['no-such-session', { kind: 'note', text: 'hello' }, /^Invalid sessionId: no session "no-such-session" exists/],
      ['../escape', { kind: 'note', text: 'hello' }, /sessionId/],
    ];
    for (const [sessionId, input, expected] of cases) {
      const outcome = engine.addFeedback(sessionId, input);
      assert.equal(outcome.ok, false, `${JSON.stringify(input).slice(0, 80)} was accepted`);
      if (!outcome.ok) assert.match(outcome.error, expected);
    }
    assert.equal(readFileSync(store.sessionFilePath(id), 'utf8'), before, 'the journal changed');
    assert.equal(engine.getSession(id)?.feedback, undefined);
    assert.equal(events.filter((event) => event.type === 'feedbackAdded').length, 0);
    store.close();
  });

  it('refuses feedback on a completed session: feedback goes to live sessions', () => {
    const { store, engine } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 2);
    think(engine, 'c1', { thoughtNumber: 3, nextThoughtNeeded: false });
    const before = readFileSync(store.sessionFilePath(id), 'utf8');
    const outcome = engine.addFeedback(id, { kind: 'note', text: 'too late?' });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.error, `Session "${id}" is complete; feedback goes to live sessions.`);
    assert.equal(readFileSync(store.sessionFilePath(id), 'utf8'), before);
    store.close();
  });
});

describe('feedback: delivery on the next reply', () => {
  it('puts undelivered feedback on the next reply once, with one guidance sentence first, and journals the delivery', () => {
    const { store, engine, events } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 4);
    const plain = think(engine, 'c1', { thoughtNumber: 5 });
    assert.equal('userFeedback' in plain, false, 'a reply without feedback has no userFeedback field');
    const reject = engine.addFeedback(id, { kind: 'reject', thoughtNumber: 4, text: 'the numbers are off by one' });
    const note = engine.addFeedback(id, { kind: 'note', text: 'consider the Windows runners too' });
    assert.ok(reject.ok && note.ok);
    const reply = think(engine, 'c1', { thoughtNumber: 6 });
    assert.deepEqual(reply.userFeedback, [
      { id: reject.feedback.id, kind: 'reject', thoughtNumber: 4, text: 'the numbers are off by one' },
      { id: note.feedback.id, kind: 'note', text: 'consider the Windows runners too' },
    ]);
    assert.ok(
      reply.guidance.startsWith(
        'The user asked you to revise thought 4 (reason: "the numbers are off by one"): send isRevision true, revisesThought 4 (1 more in userFeedback). ',
      ),
      reply.guidance,
    );
    assert.equal(reply.guidance.split('The user').length, 2, 'one feedback sentence');
    const next = think(engine, 'c1', { thoughtNumber: 7 });
    assert.equal(next.userFeedback, undefined, 'delivered exactly once');
    assert.ok(!next.guidance.includes('The user'));
    const delivered = journalLines(store, id).filter((line) => line.type === 'feedbackDelivered');
    assert.equal(delivered.length, 1);
    assert.deepEqual(delivered[0].ids, [reject.feedback.id, note.feedback.id]);
    const feedback = engine.getSession(id)?.feedback ?? [];
    assert.ok(feedback.every((record) => typeof record.deliveredAt === 'number'));
    assert.ok(events.some((event) => event.type === 'feedbackChanged'));
    store.close();
  });

  it('says what each kind asks in the tool’s own field names', () => {
    const { store, engine } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 3);
    const sentences: Record<string, string> = {};
    const kinds = [
      { kind: 'branch', thoughtNumber: 2, branchId: 'alt-x' },
      { kind: 'conclude' },
      { kind: 'note', thoughtNumber: 1, text: 'mind "quotes"' },
    ];
    let number = 4;
    for (const input of kinds) {
      assert.ok(engine.addFeedback(id, input).ok);
      sentences[input.kind] = think(engine, 'c1', { thoughtNumber: number++ }).guidance;
    }
    assert.match(
      sentences.branch,
      /^The user asked you to explore an alternative from thought 2: send branchFromThought 2, branchId "alt-x"\. /,
    );
    assert.match(
      sentences.conclude,
      /^The user asked you to conclude now: move to stage \S+ and send your answer with nextThoughtNeeded false\. /,
    );
    assert.match(sentences.note, /^The user sent a note on thought 1: "mind \\"quotes\\""; take it into account in your next thought\. /);
    store.close();
  });
});

describe('feedback: only replies that reach the agent consume it', () => {
  it('a thought recorded programmatically (deliberation, chat) does not take the feedback; the next tool reply does', () => {
    const { store, engine } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 2);
    const given = engine.addFeedback(id, { kind: 'note', text: 'for the agent' });
    assert.ok(given.ok);
    const recorded = engine.recordThought('deliberation', {
      sessionId: id,
      thought: 'a role',
      thoughtNumber: 3,
      totalThoughts: 6,
      nextThoughtNeeded: true,
    });
    assert.ok(recorded.ok);
    assert.equal(recorded.reply.userFeedback, undefined);
    assert.equal(engine.getSession(id)?.feedback?.[0].deliveredAt, undefined);
    assert.deepEqual(think(engine, 'c1', { thoughtNumber: 4 }).userFeedback, [
      { id: given.feedback.id, kind: 'note', text: 'for the agent' },
    ]);
    store.close();
  });
});

describe('feedback: applied when the agent follows it', () => {
  it('marks reject applied by a revision of N, branch by a branch from N, conclude by the final thought; notes never', () => {
    const { store, engine } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c1', 4);
    const reject = engine.addFeedback(id, { kind: 'reject', thoughtNumber: 3, text: 'wrong premise' });
    const branch = engine.addFeedback(id, { kind: 'branch', thoughtNumber: 2 });
    const note = engine.addFeedback(id, { kind: 'note', text: 'fyi' });
    assert.ok(reject.ok && branch.ok && note.ok);
    // A revision of 3 sent in the same call that delivers the feedback does not count: the agent had not seen it.
    think(engine, 'c1', { thoughtNumber: 5, isRevision: true, revisesThought: 3 });
    const state = () => new Map((engine.getSession(id)?.feedback ?? []).map((record) => [record.id, record]));
    assert.equal(state().get(reject.feedback.id)?.appliedAt, undefined);
    const revision = think(engine, 'c1', { thoughtNumber: 6, isRevision: true, revisesThought: 3 });
    assert.equal(revision.userFeedback, undefined);
    assert.equal(state().get(reject.feedback.id)?.appliedBySeq, 5);
    assert.equal(state().get(branch.feedback.id)?.appliedAt, undefined);
    think(engine, 'c1', { thoughtNumber: 7, branchFromThought: 2, branchId: 'agent-alt' });
    assert.equal(state().get(branch.feedback.id)?.appliedBySeq, 6);
    const conclude = engine.addFeedback(id, { kind: 'conclude' });
    assert.ok(conclude.ok);
    think(engine, 'c1', { thoughtNumber: 8 });
    assert.equal(state().get(conclude.feedback.id)?.appliedAt, undefined);
    think(engine, 'c1', { thoughtNumber: 9, nextThoughtNeeded: false });
    assert.equal(state().get(conclude.feedback.id)?.appliedBySeq, 8);
    assert.equal(state().get(note.feedback.id)?.appliedAt, undefined, 'notes are never marked applied');
    const applied = journalLines(store, id).filter((line) => line.type === 'feedbackApplied');
    assert.deepEqual(
      applied.map((line) => [line.id, line.bySeq]),
      [
        [reject.feedback.id, 5],
        [branch.feedback.id, 6],
        [conclude.feedback.id, 8],
      ],
    );
    store.close();
    const reread = new FileSessionStore(store.directory, { log: quiet });
    assert.deepEqual(reread.loadSession(id)?.feedback, engine.getSession(id)?.feedback);
    reread.close();
  });
});

describe('feedback: journal validation, save and export', () => {
  it('skips torn and invalid feedback lines with a report, and keeps everything valid', () => {
    const directory = freshDirectory();
    const { store, engine } = engineOn(directory);
    const id = liveSession(engine, 'c1', 2);
    const good = engine.addFeedback(id, { kind: 'note', text: 'keep me' });
    assert.ok(good.ok);
    store.close();
    const path = store.sessionFilePath(id);
    const bad = [
      { type: 'feedback', feedback: { id: 'fb-1', kind: 'yell', author: 'user', createdAt: 1 } },
      {
        type: 'feedback',
        feedback: { id: 'fb-2', kind: 'note', author: 'user', createdAt: 1, text: 'x'.repeat(MAX_FEEDBACK_TEXT_LENGTH + 1) },
      },
      { type: 'feedback', feedback: { id: 'fb-3', kind: 'reject', author: 'user', createdAt: 1, text: 'no number' } },
      { type: 'feedback', feedback: { id: 'fb-4', kind: 'note', author: 'agent', createdAt: 1, text: 'not a user' } },
      { type: 'feedback', feedback: { ...good.feedback } },
      { type: 'feedbackDelivered', ids: ['fb-unknown'], at: 5 },
      { type: 'feedbackApplied', id: good.feedback.id, at: 5, bySeq: -1 },
    ];
    appendFileSync(
      path,
      `${bad.map((line) => JSON.stringify(line)).join('\n')}\n{"type":"feedbackDelivered","ids":["${good.feedback.id}"],"at":9`,
    );
    const problems: string[] = [];
    const reread = new FileSessionStore(directory, { log: (message) => problems.push(message) });
    const snapshot = reread.loadSession(id);
    assert.deepEqual(snapshot?.feedback, [good.feedback], 'the valid record only, not delivered (the torn line is ignored)');
    assert.equal(snapshot?.thoughts.length, 2);
    assert.equal(problems.length, bad.length + 1, problems.join('\n'));
    assert.match(problems.join('\n'), /feedback\.kind: expected one of note, reject, branch, conclude, got "yell"/);
    assert.match(problems.join('\n'), /feedback\.text: 4001 characters/);
    assert.match(problems.join('\n'), /feedback\.thoughtNumber/);
    assert.match(problems.join('\n'), /feedback\.author: expected "user"/);
    assert.match(problems.join('\n'), /a second feedback record with id/);
    assert.match(problems.join('\n'), /no feedback record with id "fb-unknown"/);
    assert.match(problems.join('\n'), /bySeq/);
    assert.match(problems.join('\n'), /torn last line/);
    // The listing (meta-only reads) is not disturbed by feedback lines.
    assert.equal(reread.listSessions().sessions.find((meta) => meta.id === id)?.thoughtCount, 2);
    reread.close();
  });

  it('keeps feedback through the lossless JSON export, import and a whole-session save', () => {
    const directory = freshDirectory();
    const { store, engine } = engineOn(directory);
    const id = liveSession(engine, 'c1', 3);
    assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 2, text: '<script>alert(1)</script>' }).ok);
    think(engine, 'c1', { thoughtNumber: 4 });
    const snapshot = engine.getSession(id);
    assert.ok(snapshot?.feedback?.[0].deliveredAt);
    const json = toLosslessJson(snapshot);
    const parsed = parseSessionJson(json).snapshot;
    assert.deepEqual(parsed.feedback, snapshot.feedback);
    const copy = { ...parsed, meta: { ...parsed.meta, id: 'copy-of-session' } };
    store.saveSession(copy);
    const reread = new FileSessionStore(directory, { log: quiet });
    assert.deepEqual(reread.loadSession('copy-of-session')?.feedback, snapshot.feedback);
    reread.close();
    // A file with bad feedback is refused whole, naming the field.
    const broken = JSON.parse(json) as { feedback: Record<string, unknown>[] };
    broken.feedback[0].kind = 'shout';
    assert.throws(() => parseSessionJson(JSON.stringify(broken)), /feedback\[0\]\.kind: expected one of/);
    store.close();
  });
});

describe('feedback: two processes on one store', () => {
  it("reaches the other process's next reply (checkStoreBeforeThought), and its marks come back as feedbackChanged", () => {
    const directory = freshDirectory();
    const cli = engineOn(directory, { checkStoreBeforeThought: true });
    const editor = engineOn(directory);
    const id = liveSession(cli.engine, 'agent', 3);
    const given = editor.engine.addFeedback(id, { kind: 'reject', thoughtNumber: 2, text: 'from the editor' });
    assert.ok(given.ok, given.ok ? '' : given.error);
    const reply = think(cli.engine, 'agent', { thoughtNumber: 4 });
    assert.deepEqual(reply.userFeedback, [{ id: given.feedback.id, kind: 'reject', thoughtNumber: 2, text: 'from the editor' }]);
    assert.equal(reply.thoughtHistoryLength, 4);
    think(cli.engine, 'agent', { thoughtNumber: 5, isRevision: true, revisesThought: 2 });
    // The editor's watcher would call refreshSession; the delivered and applied marks arrive as feedbackChanged.
    editor.events.length = 0;
    assert.equal(editor.engine.refreshSession(id), true);
    const changed = editor.events.find((event) => event.type === 'feedbackChanged');
    assert.ok(changed && changed.type === 'feedbackChanged');
    assert.equal(changed.feedback[0].appliedBySeq, 4);
    assert.equal(typeof changed.feedback[0].deliveredAt, 'number');
    // Without the check, a process does not see the other's feedback until something refreshes it.
    const blind = engineOn(freshDirectory());
    const other = engineOn(blind.store.directory);
    const blindId = liveSession(blind.engine, 'agent', 2);
    assert.ok(other.engine.addFeedback(blindId, { kind: 'note', text: 'hello' }).ok);
    assert.equal(think(blind.engine, 'agent', { thoughtNumber: 3 }).userFeedback, undefined);
    for (const store of [cli.store, editor.store, blind.store, other.store]) store.close();
  });

  it('refuses feedback on a session the other process completed meanwhile', () => {
    const directory = freshDirectory();
    const cli = engineOn(directory, { checkStoreBeforeThought: true });
    const editor = engineOn(directory);
    const id = liveSession(cli.engine, 'agent', 2);
    assert.ok(editor.engine.addFeedback(id, { kind: 'note', text: 'first' }).ok);
    think(cli.engine, 'agent', { thoughtNumber: 3, nextThoughtNeeded: false });
    const late = editor.engine.addFeedback(id, { kind: 'note', text: 'second' });
    assert.equal(late.ok, false);
    if (!late.ok) assert.match(late.error, /is complete; feedback goes to live sessions/);
    cli.store.close();
    editor.store.close();
  });

  it('delivers feedback whose delivery mark could not be saved on the following reply instead: never lost, never twice', () => {
    const directory = freshDirectory();
    const { store, engine } = engineOn(directory);
    const id = liveSession(engine, 'c1', 2);
    assert.ok(engine.addFeedback(id, { kind: 'note', text: 'retry me' }).ok);
    const original = store.appendFeedback.bind(store);
    let fail = true;
    store.appendFeedback = (meta, entry) => {
      if (fail) throw new Error('disk full');
      original(meta, entry);
    };
    assert.equal(think(engine, 'c1', { thoughtNumber: 3 }).userFeedback, undefined, 'not delivered when the mark cannot be saved');
    fail = false;
    assert.equal(think(engine, 'c1', { thoughtNumber: 4 }).userFeedback?.[0].text, 'retry me');
    assert.equal(think(engine, 'c1', { thoughtNumber: 5 }).userFeedback, undefined);
    store.close();
  });
});

describe('feedback: explorer protocol guards and diagram marks', () => {
  it('accepts well-formed giveFeedback / feedbackResult / feedbackChanged messages and refuses malformed ones', () => {
    const record = { id: 'fb-1', kind: 'reject', author: 'user', createdAt: 1, thoughtNumber: 2, text: 'why' };
    const valid: unknown[] = [
      { type: 'giveFeedback', requestId: 'r1', sessionId: 's', kind: 'note', text: 'hello' },
      { type: 'giveFeedback', requestId: 'r2', sessionId: 's', kind: 'reject', thoughtNumber: 2, text: 'why' },
      { type: 'giveFeedback', requestId: 'r3', sessionId: 's', kind: 'branch', thoughtNumber: 1, branchId: 'alt-1' },
      { type: 'giveFeedback', requestId: 'r4', sessionId: 's', kind: 'conclude' },
      // Oversized text passes the guard: the engine answers it with a clear error instead of dropping it.
      { type: 'giveFeedback', requestId: 'r5', sessionId: 's', kind: 'note', text: 'x'.repeat(1024 * 1024) },
    ];
    const invalid: unknown[] = [
      { type: 'giveFeedback', sessionId: 's', kind: 'note', text: 'no request id' },
      { type: 'giveFeedback', requestId: 'r', sessionId: 's', kind: 'shout' },
      { type: 'giveFeedback', requestId: 'r', sessionId: 's', kind: 'reject', thoughtNumber: '2' },
      { type: 'giveFeedback', requestId: 'r', sessionId: 's', kind: 'note', text: 42 },
      { type: 'giveFeedback', requestId: 'r', sessionId: 's', kind: 'note', text: 'x'.repeat(3 * 1024 * 1024) },
      { type: 'giveFeedback', requestId: 'r', sessionId: 7, kind: 'note', text: 'x' },
    ];
    for (const message of valid) assert.equal(isWebviewMessage(message), true, JSON.stringify(message).slice(0, 80));
    for (const message of invalid) assert.equal(isWebviewMessage(message), false, JSON.stringify(message).slice(0, 80));
    assert.equal(isHostMessage({ type: 'feedbackResult', requestId: 'r1', ok: false, error: 'no' }), true);
    assert.equal(isHostMessage({ type: 'feedbackResult', requestId: 'r1', ok: true, feedback: record }), true);
    assert.equal(isHostMessage({ type: 'feedbackResult', requestId: 'r1', ok: 'yes' }), false);
    assert.equal(isHostMessage({ type: 'feedbackChanged', sessionId: 's', feedback: [record] }), true);
    assert.equal(isHostMessage({ type: 'feedbackChanged', sessionId: 's', feedback: [{ ...record, kind: 'shout' }] }), false);
    assert.equal(isHostMessage({ type: 'feedbackChanged', sessionId: 's', feedback: 'all' }), false);
  });

  it('marks the thought feedback is about with the feedback class in the branch tree, and only then', () => {
    // A clock that moves: which thought numbered 3 the feedback means is decided by time.
    let clock = Date.UTC(2026, 0, 1);
    const engine = new ThinkingEngine({ log: quiet, now: () => (clock += 1000) });
    const id = liveSession(engine, 'c1', 4);
    // Thought 3 again on a branch, after the feedback: the mark stays on the thought that existed when it was given.
    assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 3, text: 'no' }).ok);
    think(engine, 'c1', { thoughtNumber: 3, branchFromThought: 2, branchId: 'b' });
    const snapshot = engine.getSession(id);
    assert.ok(snapshot);
    assert.deepEqual([...feedbackThoughtNumbers(snapshot)], [3]);
    const text = branchTreeSource(snapshot).text;
    assert.match(text, /^ {2}classDef feedback /m);
    assert.match(text, /^ {2}class t2 feedback$/m);
    const plain = branchTreeSource({ ...snapshot, feedback: undefined }).text;
    assert.doesNotMatch(plain, /feedback/);
  });
});

describe('feedback: where it stands (feedbackStatus, one rule for every surface)', () => {
  const thoughts = (count: number, stamp = (seq: number) => 1000 + seq * 10) =>
    Array.from({ length: count }, (_, seq) => ({ seq, timestamp: stamp(seq) }));
  const reject: FeedbackRecord = { id: 'fb-1', kind: 'reject', author: 'user', createdAt: 1, thoughtNumber: 2, text: 'wrong' };
  const at = (record: FeedbackRecord, withSeq: number | undefined, deliveredAt = 1000 + (withSeq ?? 0) * 10) => ({
    ...record,
    deliveredAt,
    ...(withSeq === undefined ? {} : { deliveredWithSeq: withSeq }),
  });

  it(`waits, is delivered, then is not acted on once ${THOUGHTS_BEFORE_NOT_ACTED_ON} thoughts passed; an applied mark always wins`, () => {
    assert.deepEqual(feedbackStatus(reject, { thoughts: thoughts(3), status: 'live' }), { state: 'pending' });
    const delivered = at(reject, 3);
    const states = [4, 5, 6, 7].map((count) => feedbackStatus(delivered, { thoughts: thoughts(count), status: 'live' }));
    assert.deepEqual(states, [
      { state: 'delivered' },
      { state: 'delivered' },
      { state: 'delivered' },
      { state: 'not-acted-on', reason: 'thoughts-passed', thoughtsPassed: 3 },
    ]);
    const applied = { ...delivered, appliedAt: 2000, appliedBySeq: 9 };
    assert.deepEqual(feedbackStatus(applied, { thoughts: thoughts(12), status: 'complete' }), { state: 'applied', bySeq: 9 });
  });

  it('says "session ended" for undone feedback of a complete or abandoned session, "not delivered" when it never went out', () => {
    for (const status of ['complete', 'abandoned'] as const) {
      assert.deepEqual(feedbackStatus(at(reject, 3), { thoughts: thoughts(5), status }), {
        state: 'not-acted-on',
        reason: 'session-ended',
        thoughtsPassed: 1,
      });
      assert.deepEqual(feedbackStatus(reject, { thoughts: thoughts(5), status }), { state: 'undelivered', reason: 'session-ended' });
    }
  });

  it('counts "Conclude now" as acted on when the session completed, even when it rode on the final reply', () => {
    const conclude: FeedbackRecord = { id: 'fb-c', kind: 'conclude', author: 'user', createdAt: 1 };
    // Given while the final thought was on its way: delivered with it, no later thought could mark it applied.
    for (const record of [at(conclude, 4), conclude])
      assert.deepEqual(feedbackStatus(record, { thoughts: thoughts(5), status: 'complete' }), { state: 'applied', bySeq: 4 });
    // Abandoned is not concluded: that stays "not acted on" / "not delivered".
    assert.equal(feedbackStatus(at(conclude, 4), { thoughts: thoughts(5), status: 'abandoned' }).state, 'not-acted-on');
    const status = feedbackStatus(at(conclude, 4), { thoughts: thoughts(5), status: 'complete' });
    assert.equal(
      describeFeedbackStatus(status, (seq) => seq + 1, 'conclude'),
      'acted on: the agent concluded at #5',
    );
  });

  it('never calls a delivered note "not acted on": a note asks for nothing checkable', () => {
    const note: FeedbackRecord = { id: 'fb-n', kind: 'note', author: 'user', createdAt: 1, text: 'fyi' };
    assert.deepEqual(feedbackStatus(at(note, 0), { thoughts: thoughts(20), status: 'live' }), { state: 'delivered' });
    assert.deepEqual(feedbackStatus(at(note, 0), { thoughts: thoughts(20), status: 'complete' }), { state: 'delivered' });
  });

  it('counts by the delivering thought, and by time for records journaled before it was kept', () => {
    // Same-millisecond thoughts (a fast agent, a fixed clock) still count by seq.
    const sameMs = thoughts(8, () => 5000);
    assert.equal(thoughtsAfterDelivery(at(reject, 2, 5000), sameMs), 5);
    assert.equal(thoughtsAfterDelivery(at(reject, undefined, 1025), thoughts(8)), 5);
  });

  it('is worded once: what the explorer, the tree, thinking_sessions and the exports print', () => {
    const number = (seq: number) => seq + 1;
    assert.deepEqual(
      [
        { state: 'pending' },
        { state: 'delivered' },
        { state: 'applied', bySeq: 4 },
        { state: 'applied' },
        { state: 'undelivered', reason: 'session-ended' },
        { state: 'not-acted-on', reason: 'session-ended', thoughtsPassed: 1 },
        { state: 'not-acted-on', reason: 'thoughts-passed', thoughtsPassed: 3 },
      ].map((status) => describeFeedbackStatus(status as FeedbackStatus, number)),
      [
        'waiting for the next thought',
        'delivered to the agent',
        'applied by #5',
        'applied',
        'not delivered: session ended',
        'not acted on: session ended',
        'not acted on: 3 thoughts passed',
      ],
    );
  });

  it('gives the export and the Sessions tree tooltip the same words as the explorer and thinking_sessions', () => {
    const { engine } = engineOn(freshDirectory());
    const id = liveSession(engine, 'c', 3);
    assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 3, text: 'Thought 3 skips the cache.' }).ok);
    think(engine, 'c', { thoughtNumber: 4 });
    think(engine, 'c', { thoughtNumber: 5, nextThoughtNeeded: false });
    const snapshot = engine.getSession(id);
    assert.ok(snapshot);
    assert.match(feedbackFacts(snapshot)[0].status, /^given \S+, delivered \S+, not acted on: session ended$/);
    assert.equal(feedbackTooltipMarkdown(snapshot), '**Your feedback**\n\n- Reject #3: not acted on\\: session ended');
  });

  it('reads the delivering thought back from the journal, also from a line written before withSeq existed', () => {
    const directory = freshDirectory();
    const { store, engine } = engineOn(directory);
    const id = think(engine, 'c', { thoughtNumber: 1 }).sessionId;
    think(engine, 'c', { thoughtNumber: 2 });
    const given = engine.addFeedback(id, { kind: 'reject', thoughtNumber: 1, text: 'wrong' });
    assert.ok(given.ok);
    assert.ok(think(engine, 'c', { thoughtNumber: 3 }).userFeedback);
    assert.equal(engine.getSession(id)?.feedback?.[0].deliveredWithSeq, 2);
    const path = store.sessionFilePath(id);
    store.close();
    const reread = new FileSessionStore(directory, { log: quiet });
    assert.equal(reread.loadSession(id)?.feedback?.[0].deliveredWithSeq, 2);
    reread.close();
    // An older journal: the delivered mark without withSeq follows the thought whose reply carried it.
    const old = readFileSync(path, 'utf8').replace(/,"withSeq":2/, '');
    assert.doesNotMatch(old, /withSeq/);
    const olderDirectory = freshDirectory();
    const olderStore = new FileSessionStore(olderDirectory, { log: quiet });
    appendFileSync(olderStore.sessionFilePath(id), old);
    assert.equal(olderStore.loadSession(id)?.feedback?.[0].deliveredWithSeq, 2);
    olderStore.close();
  });
});
