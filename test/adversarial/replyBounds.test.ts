// Every reply bounded, whatever it carries: `get` (summary) and `resume` with a huge `recent`, the person's feedback
// (1,000 notes of 4,000 characters, quotes that JSON doubles) on a `get` page and on the next thought's reply, and a
// JSON-RPC batch of many calls in one stateless HTTP request, whose replies share one budget. Before, a large `recent`
// returned the whole session, feedback was not counted (49.7 MB pages), and 100 batched calls made a 1.9 GB response.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, PROTOCOL_VERSION, RawStdioServer, requireBuiltCli, startHttpCli, tempStore, toolText } from './support';

const THOUGHTS = 60;
const THOUGHT_TEXT = '"'.repeat(19_000);
const FEEDBACK = 1_000;
const NOTE = '"'.repeat(4_000);
/** The page bound (1,000,000 characters of JSON) with room for the reply's own fields. */
const PAGE_BOUND = 1_100_000;

describe('replies bounded whatever they carry', () => {
  const store = tempStore('te-reply-bounds-');
  const imported = join(store.dir, 'imported');
  let sessionId = '';
  let server: RawStdioServer;
  let requestNumber = 0;

  const call = async (name: string, args: Record<string, unknown>) => {
    const reply = await server.request(`r${++requestNumber}`, 'tools/call', { name, arguments: args }, 30_000);
    const { ok, text } = toolText(reply);
    assert.ok(ok, text.slice(0, 300));
    return { text, value: JSON.parse(text) as Record<string, unknown> };
  };

  before(async () => {
    requireBuiltCli();
    // A session of 60 long thoughts, exported, given 1,000 long notes of feedback, and imported into a second store.
    const writer = RawStdioServer.start(join(store.dir, 'written'));
    server = writer;
    await writer.initialize();
    for (let number = 1; number <= THOUGHTS; number++) {
      const { value } = await call('sequentialthinking', {
        thought: `${number} ${THOUGHT_TEXT}`,
        thoughtNumber: number,
        totalThoughts: THOUGHTS + 10,
        nextThoughtNeeded: true,
        ...(sessionId ? { sessionId } : {}),
      });
      sessionId = (value.sessionId as string | undefined) ?? sessionId;
    }
    await writer.stop();
    const file = join(store.dir, 'session.json');
    const exported = spawnSync(
      process.execPath,
      [CLI, 'export', sessionId, '--format', 'json', '--out', file, '--storage-path', join(store.dir, 'written')],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(exported.status, 0, exported.stderr);
    const session = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const createdAt = (session.meta as { updatedAt: number }).updatedAt;
    session.feedback = Array.from({ length: FEEDBACK }, (_, index) => ({
      id: `note-${index}`,
      kind: 'note',
      author: 'user',
      createdAt,
      text: NOTE,
    }));
    writeFileSync(file, JSON.stringify(session));
    const importedRun = spawnSync(process.execPath, [CLI, 'import', file, '--storage-path', imported], { encoding: 'utf8' });
    assert.equal(importedRun.status, 0, importedRun.stderr);
    server = RawStdioServer.start(imported);
    await server.initialize();
  });
  after(async () => {
    await server.stop();
    store.remove();
  });

  it('get (summary) and resume with a huge recent stay within one page, and say what was left out', async () => {
    for (const action of ['get', 'resume']) {
      const { text, value } = await call('thinking_sessions', { action, sessionId, recent: 1_000_000 });
      assert.ok(text.length < PAGE_BOUND, `${action}: ${text.length} characters`);
      const recent = value.recentThoughts as { thoughtNumber: number }[];
      assert.ok(recent.length > 0 && recent.length < THOUGHTS);
      assert.equal(recent.at(-1)?.thoughtNumber, THOUGHTS, 'the newest thoughts are the ones kept');
      assert.match(String(value.note), /left out/);
    }
  });

  it('get (full) counts the feedback in its page, and every note and thought can be read page by page', async () => {
    const feedbackSeen = new Set<string>();
    let feedbackOffset: number | undefined = 0;
    while (feedbackOffset !== undefined) {
      const { text, value } = await call('thinking_sessions', { action: 'get', sessionId, detail: 'full', feedbackOffset });
      assert.ok(text.length < PAGE_BOUND, `feedback page at ${feedbackOffset}: ${text.length} characters`);
      for (const record of (value.feedback as { id: string }[] | undefined) ?? []) feedbackSeen.add(record.id);
      feedbackOffset = value.nextFeedbackOffset as number | undefined;
    }
    assert.equal(feedbackSeen.size, FEEDBACK);
    const thoughtsSeen: number[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const { text, value } = await call('thinking_sessions', {
        action: 'get',
        sessionId,
        detail: 'full',
        offset,
        feedbackOffset: FEEDBACK,
      });
      assert.ok(text.length < PAGE_BOUND, `thought page at ${offset}: ${text.length} characters`);
      for (const thought of value.thoughts as { thoughtNumber: number }[]) thoughtsSeen.push(thought.thoughtNumber);
      offset = value.nextOffset as number | undefined;
    }
    assert.deepEqual(
      thoughtsSeen,
      Array.from({ length: THOUGHTS }, (_, index) => index + 1),
    );
  });

  it("the next thought's reply delivers feedback within a bound, the rest with the following thoughts", async () => {
    const { text, value } = await call('sequentialthinking', {
      thought: 'Next step.',
      thoughtNumber: THOUGHTS + 1,
      totalThoughts: THOUGHTS + 10,
      nextThoughtNeeded: true,
      sessionId,
    });
    assert.ok(text.length < 300_000, `reply of ${text.length} characters`);
    assert.ok(((value.userFeedback as unknown[] | undefined) ?? []).length > 0, 'some feedback is delivered');
    assert.match(JSON.stringify(value), /more feedback item\(s\) come with your next thought/);
  });

  it('a JSON-RPC batch in one stateless request shares one reply budget', { timeout: 60_000 }, async () => {
    const http = await startHttpCli(imported, ['--stateless']);
    try {
      const batch = Array.from({ length: 20 }, (_, index) => ({
        jsonrpc: '2.0',
        id: index,
        method: 'tools/call',
        params: { name: 'thinking_sessions', arguments: { action: 'get', sessionId, detail: 'full' } },
      }));
      const response = await fetch(http.url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${http.token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': PROTOCOL_VERSION,
        },
        body: JSON.stringify(batch),
      });
      const body = await response.text();
      assert.ok(body.length < 10_000_000, `one request answered with ${body.length} characters`);
      assert.match(body, /request of its own/);
      assert.match(body, /"nextFeedbackOffset"/, 'the first calls are answered');
    } finally {
      await http.stop();
    }
  });
});
