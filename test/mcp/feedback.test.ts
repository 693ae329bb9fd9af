// Feedback on a live session through real MCP Clients (issue 14): each kind appears exactly once on the agent's next
// `sequentialthinking` reply (text and structuredContent, checked by the SDK client against the advertised output
// schema), is journaled, and is marked applied when the agent follows it; feedback written by a second process into
// the store reaches the stdio CLI's next reply, and the CLI's marks come back; completed sessions and bad input are
// refused with nothing stored.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { FeedbackRecord } from '../../src/engine/model';
import { THOUGHTS_BEFORE_NOT_ACTED_ON, feedbackStatusText } from '../../src/engine/browserSafe/feedbackStatus';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { connectCli, connectInMemory, ensureBuiltCli, jsonOf, tempDir, textOf, think } from './support/clients';

const directories: string[] = [];
function directory(): string {
  const path = tempDir('te-feedback-');
  directories.push(path);
  return path;
}
before(() => ensureBuiltCli());
after(() => {
  for (const path of directories) rmSync(path, { recursive: true, force: true });
});

const quiet = () => {};

function thought(number: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { thought: `Thought ${number}.`, thoughtNumber: number, totalThoughts: 10, nextThoughtNeeded: true, ...extra };
}

/** The reply as the agent reads it (text) and as the SDK checked it (structuredContent); they must agree. */
function reply(result: CallToolResult): Record<string, unknown> {
  assert.equal(result.isError, undefined, textOf(result));
  const fromText = jsonOf(result);
  assert.deepEqual(result.structuredContent, fromText);
  return fromText;
}

/** The session's feedback as `thinking_sessions get` (full) gives it to an agent. */
async function feedbackRead(client: Client, sessionId: string): Promise<(FeedbackRecord & { status: string })[]> {
  const full = (await client.callTool({
    name: 'thinking_sessions',
    arguments: { action: 'get', sessionId, detail: 'full' },
  })) as CallToolResult;
  assert.equal(full.isError, undefined, textOf(full));
  return (full.structuredContent as { feedback?: (FeedbackRecord & { status: string })[] }).feedback ?? [];
}

function journal(store: FileSessionStore, id: string): Record<string, unknown>[] {
  return readFileSync(store.sessionFilePath(id), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('feedback through a real MCP Client (in-memory transport)', () => {
  it('advertises userFeedback in the output schema', async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const { client, close } = await connectInMemory(engine);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'sequentialthinking');
      const properties = (tool?.outputSchema as { properties?: Record<string, unknown>; required?: string[] }).properties ?? {};
      assert.ok('userFeedback' in properties);
      assert.ok(!((tool?.outputSchema as { required?: string[] }).required ?? []).includes('userFeedback'));
    } finally {
      await close();
    }
  });

  it('delivers each kind exactly once on the next reply, journals it, and marks it applied when the agent follows it', async () => {
    const store = new FileSessionStore(directory(), { log: quiet, indexFlushDelayMs: 1 });
    const engine = new ThinkingEngine({ store, log: quiet });
    const { client, close } = await connectInMemory(engine);
    try {
      let number = 1;
      const sessionId = reply(await think(client, thought(number++))).sessionId as string;
      for (; number <= 4;) reply(await think(client, thought(number++)));
      /** Gives feedback, sends the next thought and returns its reply; the one after must carry none. */
      const roundTrip = async (input: Record<string, unknown>, follow: Record<string, unknown> = {}) => {
        const given = engine.addFeedback(sessionId, input);
        assert.ok(given.ok, given.ok ? '' : given.error);
        const delivered = reply(await think(client, thought(number++)));
        const followed = reply(await think(client, thought(number++, follow)));
        assert.equal(followed.userFeedback, undefined, `${String(input.kind)} delivered twice`);
        return { id: given.feedback.id, delivered };
      };

      const note = await roundTrip({ kind: 'note', text: 'Consider the Windows runners too.' });
      assert.deepEqual(note.delivered.userFeedback, [{ id: note.id, kind: 'note', text: 'Consider the Windows runners too.' }]);
      assert.match(note.delivered.guidance as string, /^The user sent a note: "Consider the Windows runners too\."; take it into account/);

      const reject = await roundTrip(
        { kind: 'reject', thoughtNumber: 3, text: 'The cache key ignores the OS.' },
        { isRevision: true, revisesThought: 3 },
      );
      assert.deepEqual(reject.delivered.userFeedback, [
        { id: reject.id, kind: 'reject', thoughtNumber: 3, text: 'The cache key ignores the OS.' },
      ]);
      assert.match(
        reject.delivered.guidance as string,
        /^The user asked you to revise thought 3 .*send isRevision true, revisesThought 3\./,
      );

      const branch = await roundTrip(
        { kind: 'branch', thoughtNumber: 2, branchId: 'alt-matrix' },
        { branchFromThought: 2, branchId: 'alt-matrix' },
      );
      assert.deepEqual(branch.delivered.userFeedback, [{ id: branch.id, kind: 'branch', thoughtNumber: 2, branchId: 'alt-matrix' }]);
      assert.match(branch.delivered.guidance as string, /send branchFromThought 2, branchId "alt-matrix"\./);

      const concludeGiven = engine.addFeedback(sessionId, { kind: 'conclude', text: 'Good enough.' });
      assert.ok(concludeGiven.ok);
      const concludeReply = reply(await think(client, thought(number++)));
      assert.deepEqual(concludeReply.userFeedback, [{ id: concludeGiven.feedback.id, kind: 'conclude', text: 'Good enough.' }]);
      assert.match(
        concludeReply.guidance as string,
        /^The user asked you to conclude now \("Good enough\."\): move to stage \S+ and send your answer with nextThoughtNeeded false\./,
      );
      const last = reply(await think(client, thought(number++, { nextThoughtNeeded: false })));
      assert.equal(last.userFeedback, undefined);

      const records = new Map((engine.getSession(sessionId)?.feedback ?? []).map((record) => [record.id, record]));
      assert.equal(records.size, 4);
      for (const record of records.values()) assert.equal(typeof record.deliveredAt, 'number', `${record.kind} not delivered`);
      assert.equal(records.get(note.id)?.appliedAt, undefined, 'notes are never applied');
      const seqOf = (thoughtNumber: number) =>
        engine.getSession(sessionId)?.thoughts.find((entry) => entry.thoughtNumber === thoughtNumber)?.seq;
      assert.equal(records.get(reject.id)?.appliedBySeq, seqOf(8));
      assert.equal(records.get(branch.id)?.appliedBySeq, seqOf(10));
      assert.equal(records.get(concludeGiven.feedback.id)?.appliedBySeq, seqOf(12));

      const lines = journal(store, sessionId);
      assert.equal(lines.filter((line) => line.type === 'feedback').length, 4);
      assert.equal(lines.filter((line) => line.type === 'feedbackDelivered').length, 4);
      assert.equal(lines.filter((line) => line.type === 'feedbackApplied').length, 3);
      // An agent reading the session back sees what the person said, delivered and applied, and where each stands.
      const read = await feedbackRead(client, sessionId);
      assert.deepEqual(
        read.map(({ status: _status, ...record }) => record),
        engine.getSession(sessionId)?.feedback,
      );
      assert.deepEqual(
        read.map((record) => record.status),
        ['delivered to the agent', 'applied by #8', 'applied by #10', 'acted on: the agent concluded at #12'],
      );
      // A restart reads the same state back from the journal.
      store.close();
      const reread = new FileSessionStore(store.directory, { log: quiet });
      assert.deepEqual(reread.loadSession(sessionId)?.feedback, engine.getSession(sessionId)?.feedback);
      reread.close();
    } finally {
      await close();
      store.close();
    }
  });

  it('says "not acted on: session ended" for a rejection the agent ignored until it finished', async () => {
    const store = new FileSessionStore(directory(), { log: quiet });
    const engine = new ThinkingEngine({ store, log: quiet });
    const { client, close } = await connectInMemory(engine);
    try {
      const sessionId = reply(await think(client, thought(1))).sessionId as string;
      for (const number of [2, 3]) reply(await think(client, thought(number)));
      const given = engine.addFeedback(sessionId, { kind: 'reject', thoughtNumber: 3, text: 'Thought 3 skips the cache.' });
      assert.ok(given.ok);
      assert.deepEqual(
        (await feedbackRead(client, sessionId)).map((record) => record.status),
        ['waiting for the next thought'],
      );
      assert.ok(reply(await think(client, thought(4))).userFeedback, 'delivered on the next reply');
      assert.deepEqual(
        (await feedbackRead(client, sessionId)).map((record) => record.status),
        ['delivered to the agent'],
      );
      // The agent goes on without revising #3 and finishes before three thoughts pass.
      reply(await think(client, thought(5, { nextThoughtNeeded: false })));
      const read = await feedbackRead(client, sessionId);
      assert.deepEqual(
        read.map((record) => record.status),
        ['not acted on: session ended'],
      );
      // The journal says the same after a restart (the status is derived, never stored).
      store.close();
      const reread = new FileSessionStore(store.directory, { log: quiet });
      const snapshot = reread.loadSession(sessionId);
      reread.close();
      assert.ok(snapshot?.feedback);
      assert.equal(feedbackStatusText(snapshot.feedback[0], snapshot.thoughts, snapshot.meta.status), 'not acted on: session ended');
      assert.equal(
        journal(store, sessionId)
          .filter((line) => String(line.type).startsWith('feedback'))
          .every((line) => !('status' in line)),
        true,
      );
    } finally {
      await close();
      store.close();
    }
  });

  it(`says "not acted on: ${THOUGHTS_BEFORE_NOT_ACTED_ON} thoughts passed" while live, then "applied" once the agent revises`, async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const { client, close } = await connectInMemory(engine);
    try {
      const sessionId = reply(await think(client, thought(1))).sessionId as string;
      reply(await think(client, thought(2)));
      const given = engine.addFeedback(sessionId, { kind: 'reject', thoughtNumber: 2, text: 'Thought 2 is wrong.' });
      assert.ok(given.ok);
      let number = 3;
      reply(await think(client, thought(number++))); // carries the feedback
      const statuses: string[] = [];
      for (let passed = 1; passed <= THOUGHTS_BEFORE_NOT_ACTED_ON; passed++) {
        reply(await think(client, thought(number++)));
        statuses.push((await feedbackRead(client, sessionId))[0].status);
      }
      assert.deepEqual(statuses, [
        ...Array.from({ length: THOUGHTS_BEFORE_NOT_ACTED_ON - 1 }, () => 'delivered to the agent'),
        `not acted on: ${THOUGHTS_BEFORE_NOT_ACTED_ON} thoughts passed`,
      ]);
      // Late is still applied: the revision wins over "not acted on".
      const revising = number;
      reply(await think(client, thought(number++, { isRevision: true, revisesThought: 2 })));
      assert.deepEqual(
        (await feedbackRead(client, sessionId)).map((record) => record.status),
        [`applied by #${revising}`],
      );
    } finally {
      await close();
    }
  });

  it('refuses feedback on a completed session, and bad input, with nothing stored', async () => {
    const store = new FileSessionStore(directory(), { log: quiet });
    const engine = new ThinkingEngine({ store, log: quiet });
    const { client, close } = await connectInMemory(engine);
    try {
      const sessionId = reply(await think(client, thought(1))).sessionId as string;
      reply(await think(client, thought(2)));
      const before = readFileSync(store.sessionFilePath(sessionId), 'utf8');
      const refusals: [string, Record<string, unknown>, RegExp][] = [
        [sessionId, { kind: 'note', text: '' }, /^Empty note/],
        [
          sessionId,
          { kind: 'note', text: 'n'.repeat(1024 * 1024) },
          /^Invalid text: 1048576 characters, more than feedback may hold \(4000\); shorten it\.$/,
        ],
        [
          sessionId,
          { kind: 'reject', thoughtNumber: 7, text: 'wrong' },
          /^Unknown thought 7: session "[^"]+" holds thoughts 1-2; name one of those\.$/,
        ],
        ['20990101T000000Z-nosuch', { kind: 'note', text: 'hello' }, /^Invalid sessionId: no session "20990101T000000Z-nosuch" exists/],
      ];
      for (const [id, input, expected] of refusals) {
        const outcome = engine.addFeedback(id, input);
        assert.equal(outcome.ok, false);
        if (!outcome.ok) assert.match(outcome.error, expected);
      }
      assert.equal(readFileSync(store.sessionFilePath(sessionId), 'utf8'), before);
      assert.equal(reply(await think(client, thought(3))).userFeedback, undefined, 'nothing refused reaches the agent');
      reply(await think(client, thought(4, { nextThoughtNeeded: false })));
      const late = engine.addFeedback(sessionId, { kind: 'note', text: 'one more thing' });
      assert.deepEqual(late, { ok: false, error: `Session "${sessionId}" is complete; feedback goes to live sessions.` });
      assert.equal(journal(store, sessionId).filter((line) => String(line.type).startsWith('feedback')).length, 0);
    } finally {
      await close();
      store.close();
    }
  });
});

describe('feedback across processes: the stdio CLI and a second process on one store', () => {
  it("reaches the stdio server's next reply through the journal, and the CLI's marks reach the other process", async () => {
    const shared = directory();
    const cli = await connectCli(shared);
    // The second process: what VS Code's extension host is, an engine over its own store on the same folder.
    const editorStore = new FileSessionStore(shared, { log: quiet });
    const editor = new ThinkingEngine({ store: editorStore, log: quiet });
    const changes: string[] = [];
    editor.onEvent((event) => {
      if (event.type === 'feedbackChanged')
        changes.push(event.feedback.map((record) => `${record.kind}:${record.appliedBySeq ?? '-'}`).join(','));
    });
    try {
      const sessionId = reply(await think(cli.client, thought(1))).sessionId as string;
      reply(await think(cli.client, thought(2)));
      reply(await think(cli.client, thought(3)));
      const given = editor.addFeedback(sessionId, { kind: 'reject', thoughtNumber: 2, text: 'Thought 2 assumes one runner.' });
      assert.ok(given.ok, given.ok ? '' : given.error);
      const next = reply(await think(cli.client, thought(4)));
      assert.deepEqual(next.userFeedback, [
        { id: given.feedback.id, kind: 'reject', thoughtNumber: 2, text: 'Thought 2 assumes one runner.' },
      ]);
      assert.match(next.guidance as string, /^The user asked you to revise thought 2/);
      assert.equal(next.thoughtHistoryLength, 4);
      const revision = reply(await think(cli.client, thought(5, { isRevision: true, revisesThought: 2 })));
      assert.equal(revision.userFeedback, undefined, 'delivered once');
      // The extension's store watcher calls refreshSession on a change notification; here the test calls it.
      assert.equal(editor.refreshSession(sessionId), true);
      const record = editor.getSession(sessionId)?.feedback?.[0];
      assert.equal(typeof record?.deliveredAt, 'number');
      assert.equal(record?.appliedBySeq, 4);
      assert.deepEqual(changes.at(-1), 'reject:4');
      // A note given after the CLI completed the session is refused.
      reply(await think(cli.client, thought(6, { nextThoughtNeeded: false })));
      const late = editor.addFeedback(sessionId, { kind: 'note', text: 'late' });
      assert.equal(late.ok, false);
      if (!late.ok) assert.match(late.error, /is complete; feedback goes to live sessions/);
    } finally {
      await cli.close();
      editorStore.close();
    }
  });
});
