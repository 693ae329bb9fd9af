// A journal that turns unreadable after it was listed, through a real MCP Client: `list` marks it with the reason at
// once (also when it was rewritten in place at the same size, which a tail read would not notice), `get` says it is
// unreadable and why (not "no session"), and the next `list` keeps the mark. The journal itself is left as it was.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { connectInMemory, jsonOf, sessions, tempDir, textOf, think, type ConnectedClient } from './support/clients';

interface Listed {
  sessionId: string;
  thoughtCount: number;
  unreadable?: string;
}

const open: ConnectedClient[] = [];
const dirs: string[] = [];
after(async () => {
  for (const connected of open) await connected.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A two-thought session written by another engine (as another process would), and a server over the same store. */
async function storeWithOneSession(): Promise<{ client: ConnectedClient['client']; journal: string }> {
  const dir = tempDir();
  dirs.push(dir);
  const writer = await connectInMemory(new ThinkingEngine({ store: new FileSessionStore(dir, { log: () => {} }) }));
  open.push(writer);
  await think(writer.client, { thought: 'first', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
  await think(writer.client, { thought: 'second', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false });
  const server = await connectInMemory(new ThinkingEngine({ store: new FileSessionStore(dir, { log: () => {} }) }));
  open.push(server);
  const name = readdirSync(dir).find((file) => file.endsWith('.jsonl'));
  assert.ok(name, 'the session was written');
  return { client: server.client, journal: join(dir, name) };
}

async function list(client: ConnectedClient['client']): Promise<Listed[]> {
  return jsonOf<{ sessions: Listed[] }>(await sessions(client, { action: 'list' })).sessions;
}

const NOT_A_JOURNAL = /not a session journal \(no valid "session" record on its first line\)/;

describe('thinking_sessions list marks a session a read found unreadable', () => {
  for (const [how, corrupt] of [
    ['rewritten in place at the same size', (text: string) => `${'x'.repeat(text.length - 1)}\n`],
    ['replaced by shorter garbage', () => 'garbage\n'],
    ['cut at the start', (text: string) => text.slice(5)],
  ] as const) {
    it(`a journal ${how}: list shows the mark and reason, get says why it cannot open it, list keeps the mark`, async () => {
      const { client, journal } = await storeWithOneSession();
      const [before] = await list(client);
      assert.deepEqual([before.thoughtCount, before.unreadable], [2, undefined]);
      const corrupted = corrupt(readFileSync(journal, 'utf8'));
      writeFileSync(journal, corrupted);

      const [marked] = await list(client);
      assert.equal(marked.sessionId, before.sessionId);
      assert.match(marked.unreadable ?? '', NOT_A_JOURNAL);
      assert.equal(marked.thoughtCount, 0);

      const got = await sessions(client, { action: 'get', sessionId: before.sessionId });
      assert.equal(got.isError, true);
      assert.match(textOf(got), new RegExp(`^Session "${before.sessionId}" is unreadable: .*${NOT_A_JOURNAL.source}`));

      const [again] = await list(client);
      assert.equal(again.sessionId, before.sessionId);
      assert.match(again.unreadable ?? '', NOT_A_JOURNAL);
      assert.equal(readFileSync(journal, 'utf8'), corrupted, 'the journal is left as it was');
    });
  }

  it('an id that was never stored is still "no session", with how to find one', async () => {
    const { client } = await storeWithOneSession();
    const got = await sessions(client, { action: 'get', sessionId: '20260101T000000Z-00000000' });
    assert.equal(got.isError, true);
    assert.match(textOf(got), /^Invalid sessionId: no session "20260101T000000Z-00000000" exists\. Use thinking_sessions/);
  });
});
