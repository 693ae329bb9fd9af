// Corrupted stores under the stdio CLI: torn lines, garbage, a FIFO, symlinks in and out of the store, an unreadable
// journal, a huge index. The server must keep serving (list, get of the good sessions, new thoughts), report the bad
// sessions instead of hiding or crashing on them, and never write outside the store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawStdioServer, requireBuiltCli, tempStore, toolText } from './support';

const IS_ROOT = process.getuid?.() === 0;
let calls = 0;

async function tool(
  server: RawStdioServer,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = 5000,
): Promise<{ ok: boolean; text: string }> {
  return toolText(await server.request(`call-${++calls}`, 'tools/call', { name, arguments: args }, timeoutMs));
}

/** Writes a healthy session with the CLI and returns its id and journal file name. */
async function writeSession(dir: string, thoughts: number): Promise<{ id: string; file: string }> {
  const server = RawStdioServer.start(dir);
  try {
    await server.initialize();
    let id = '';
    for (let number = 1; number <= thoughts; number++) {
      const reply = await tool(server, 'sequentialthinking', {
        thought: `healthy ${number}`,
        thoughtNumber: number,
        totalThoughts: thoughts,
        nextThoughtNeeded: number < thoughts,
        ...(id ? { sessionId: id } : {}),
      });
      assert.ok(reply.ok, reply.text);
      // A compact reply names the session on its first reply (and whenever it changes).
      id = (JSON.parse(reply.text) as { sessionId?: string }).sessionId ?? id;
    }
    return { id, file: `${id}.jsonl` };
  } finally {
    await server.stop();
  }
}

describe('corrupted stores', () => {
  const store = tempStore('te-corrupt-');
  const outside = tempStore('te-outside-');
  let good: { id: string; file: string };
  let template: string;
  let server: RawStdioServer;
  const bad = {
    torn: 'torn-20260101',
    garbage: 'garbage-20260101',
    symlinkOut: 'symlink-out-20260101',
    unreadable: 'unreadable-20260101',
    directory: 'directory-20260101',
    empty: 'empty-20260101',
  };
  const outsideFile = join(outside.dir, 'victim.jsonl');

  before(async () => {
    requireBuiltCli();
    good = await writeSession(store.dir, 3);
    template = readFileSync(join(store.dir, good.file), 'utf8');
    const journal = (id: string) => template.split(good.id).join(id);
    // A torn last line, as a crash mid-append leaves it.
    writeFileSync(join(store.dir, `${bad.torn}.jsonl`), `${journal(bad.torn)}{"type":"thought","thought":{"seq":3,"thou`);
    // Garbage in the middle of a journal.
    const lines = journal(bad.garbage).split('\n');
    lines.splice(2, 0, '\u0000\u0000 not json at all {{{', '{"type":"thought","thought":"wrong shape"}');
    writeFileSync(join(store.dir, `${bad.garbage}.jsonl`), lines.join('\n'));
    // A journal that is a symlink to a file outside the store.
    writeFileSync(outsideFile, journal(bad.symlinkOut));
    symlinkSync(outsideFile, join(store.dir, `${bad.symlinkOut}.jsonl`));
    // Unreadable (only meaningful when not root) and a directory with a journal's name.
    writeFileSync(join(store.dir, `${bad.unreadable}.jsonl`), journal(bad.unreadable));
    chmodSync(join(store.dir, `${bad.unreadable}.jsonl`), 0o000);
    mkdirSync(join(store.dir, `${bad.directory}.jsonl`));
    writeFileSync(join(store.dir, `${bad.empty}.jsonl`), '');
    // A huge index of garbage: must be rebuilt from the journals, not trusted or choked on.
    const chunk = `${'{"format":"thought-explorer-index","sessions":['.repeat(10)}${'x'.repeat(1 << 20)}`;
    writeFileSync(join(store.dir, 'index.json'), '');
    for (let index = 0; index < 48; index++) appendFileSync(join(store.dir, 'index.json'), chunk);

    server = RawStdioServer.start(store.dir);
    await server.initialize();
  });

  after(async () => {
    await server?.stop();
    store.remove();
    outside.remove();
  });

  it('starts over a 48 MB garbage index and lists the healthy session', { timeout: 30_000 }, async () => {
    const list = await tool(server, 'thinking_sessions', { action: 'list', limit: 100 }, 20_000);
    assert.ok(list.ok, list.text);
    const ids = (JSON.parse(list.text) as { sessions: { id?: string; sessionId?: string }[] }).sessions.map(
      (meta) => meta.sessionId ?? meta.id,
    );
    assert.ok(ids.includes(good.id), `healthy session listed: ${list.text.slice(0, 400)}`);
    assert.ok(statSync(join(store.dir, 'index.json')).size < 1 << 20, 'the garbage index was replaced');
  });

  it('reads a journal with a torn last line up to the tear, and appends after it', async () => {
    const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: bad.torn, detail: 'full' });
    assert.ok(got.ok, got.text);
    assert.deepEqual(
      (JSON.parse(got.text) as { thoughts: { thought: string }[] }).thoughts.map((thought) => thought.thought),
      ['healthy 1', 'healthy 2', 'healthy 3'],
    );
    const more = await tool(server, 'sequentialthinking', {
      sessionId: bad.torn,
      thought: 'after the tear',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: false,
    });
    assert.ok(more.ok, more.text);
  });

  it('refuses a get of a garbage journal with a clear error, without crashing', async () => {
    const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: bad.garbage, detail: 'full' });
    if (got.ok) {
      // Recovering the readable thoughts is acceptable too, as long as nothing is invented.
      const thoughts = (JSON.parse(got.text) as { thoughts: { thought: string }[] }).thoughts.map((thought) => thought.thought);
      assert.ok(
        thoughts.every((thought) => thought.startsWith('healthy ')),
        thoughts.join(', '),
      );
    } else assert.match(got.text, /garbage-20260101|journal|line/i);
  });

  it('does not follow a journal symlink out of the store', async () => {
    const before = readFileSync(outsideFile, 'utf8');
    const more = await tool(server, 'sequentialthinking', {
      sessionId: bad.symlinkOut,
      thought: 'must not land outside',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: false,
    });
    assert.equal(readFileSync(outsideFile, 'utf8'), before, 'the file outside the store was written');
    assert.equal(more.ok, false, 'a thought to a session the store cannot hold is refused');
  });

  it('refuses an unreadable journal and a directory named like one with a clear error', async () => {
    for (const id of [bad.directory, ...(IS_ROOT ? [] : [bad.unreadable]), bad.empty]) {
      const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: id });
      assert.equal(got.ok, false, `${id}: ${got.text}`);
      assert.ok(got.text.length > 0);
    }
    if (IS_ROOT)
      console.log('# corrupted stores: running as root, so a chmod 000 journal is readable; the directory case stands in for it');
  });

  // List and get must agree: a session get refuses is listed as unreadable with the reason, and a session get recovers
  // (the garbage journal: its corrupt lines skipped) is listed with the counts of what get returns, nothing more.
  it('reports the bad sessions in list instead of hiding or miscounting them', async () => {
    const list = await tool(server, 'thinking_sessions', { action: 'list', limit: 100 }, 10_000);
    assert.ok(list.ok, list.text);
    const sessions = (JSON.parse(list.text) as { sessions: Record<string, unknown>[] }).sessions;
    const listed = new Map(sessions.map((meta) => [String(meta.sessionId ?? meta.id), meta]));
    assert.ok(listed.has(bad.garbage), 'the garbage journal is listed');
    const seen: string[] = [];
    for (const id of Object.values(bad)) {
      const meta = listed.get(id);
      const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: id, detail: 'full' });
      if (got.ok) {
        const thoughts = (JSON.parse(got.text) as { thoughts: unknown[] }).thoughts.length;
        assert.ok(meta, `${id}: get reads it, so list shows it`);
        assert.equal(meta.unreadable, undefined, `${id}: readable, yet listed as unreadable`);
        assert.equal(meta.thoughtCount, thoughts, `${id}: list counts what get returns`);
        seen.push(`${id}: ${thoughts} thoughts`);
      } else if (meta) {
        assert.match(
          String(meta.unreadable ?? ''),
          /\S/,
          `${id}: get refuses it (${got.text}), so list must mark it unreadable: ${JSON.stringify(meta)}`,
        );
        assert.equal(meta.thoughtCount ?? 0, 0, `${id}: no counts the journal does not back`);
        seen.push(`${id}: unreadable (${String(meta.unreadable)})`);
      } else seen.push(`${id}: not listed, get refuses it`);
    }
    console.log(`# corrupted stores, list vs get: ${seen.join('; ')}`);
  });

  it('keeps serving: lists, reads the healthy session and takes new thoughts after all of the above', async () => {
    const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: good.id, detail: 'full' });
    assert.ok(got.ok, got.text);
    const fresh = await tool(server, 'sequentialthinking', {
      thought: 'a new session in a damaged store',
      thoughtNumber: 1,
      totalThoughts: 1,
      nextThoughtNeeded: false,
    });
    assert.ok(fresh.ok, fresh.text);
    const list = await tool(server, 'thinking_sessions', { action: 'list' });
    assert.ok(list.ok, list.text);
    assert.ok(server.alive);
    const names = readdirSync(store.dir);
    assert.ok(names.includes(`${bad.garbage}.jsonl`), 'bad files are left for a person to look at, not deleted');
  });
});

// On its own server: today a FIFO freezes the whole process, which would take the other cases down with it.
describe('a FIFO named like a journal', () => {
  const store = tempStore('te-fifo-');
  let server: RawStdioServer | undefined;
  after(() => {
    server?.kill('SIGKILL');
    store.remove();
  });

  it('is refused without blocking the server', { timeout: 20_000 }, async () => {
    requireBuiltCli();
    await writeSession(store.dir, 1);
    // Nobody ever writes to it: opening it for reading blocks until a writer comes.
    execFileSync('mkfifo', [join(store.dir, 'fifo-20260101.jsonl')]);
    server = RawStdioServer.start(store.dir);
    await server.initialize();
    const got = await tool(server, 'thinking_sessions', { action: 'get', sessionId: 'fifo-20260101' }, 3000);
    assert.equal(got.ok, false);
    assert.match(got.text, /regular file|FIFO|not a journal/i);
    const list = await tool(server, 'thinking_sessions', { action: 'list' }, 3000);
    assert.ok(list.ok, list.text);
    assert.deepEqual((await server.request('ping-after-fifo', 'ping', undefined, 3000)).result, {});
  });
});
