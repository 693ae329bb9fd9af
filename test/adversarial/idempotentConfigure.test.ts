// `thinking_sessions configure` is advertised as idempotent: sending the same settings again must write nothing. Each
// identical call appended a 279-byte line to the session's journal, so a looping client grew it without bound.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { RawStdioServer, requireBuiltCli, tempStore, toolText } from './support';

const REPEATS = 50;

describe('configure with identical settings', () => {
  const store = tempStore('te-configure-');
  after(() => store.remove());

  it(`writes the journal once for ${REPEATS} identical calls, and again only for a real change`, { timeout: 30_000 }, async () => {
    requireBuiltCli();
    const server = RawStdioServer.start(store.dir);
    try {
      await server.initialize();
      const first = toolText(
        await server.request('t1', 'tools/call', {
          name: 'sequentialthinking',
          arguments: { thought: 'Start', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true },
        }),
      );
      assert.ok(first.ok, first.text);
      const sessionId = (JSON.parse(first.text) as { sessionId: string }).sessionId;
      const journal = join(store.dir, `${sessionId}.jsonl`);
      const configure = async (id: string, settings: Record<string, unknown>) => {
        const reply = toolText(
          await server.request(id, 'tools/call', { name: 'thinking_sessions', arguments: { action: 'configure', sessionId, ...settings } }),
        );
        assert.ok(reply.ok, reply.text);
      };
      await configure('c0', { replyDetail: 'compact', askAtDecisionPoints: false });
      const once = statSync(journal).size;
      for (let index = 1; index <= REPEATS; index++) await configure(`c${index}`, { replyDetail: 'compact', askAtDecisionPoints: 'false' });
      assert.equal(statSync(journal).size - once, 0, `${REPEATS} identical configure calls grew the journal`);
      await configure('change', { replyDetail: 'full' });
      assert.ok(statSync(journal).size > once, 'a real change is written');
      const changed = statSync(journal).size;
      await configure('back-default', { replyDetail: 'default' });
      await configure('default-again', { replyDetail: 'default' });
      const afterDefault = statSync(journal).size;
      assert.ok(afterDefault > changed);
      await configure('default-third', { replyDetail: 'default' });
      assert.equal(statSync(journal).size, afterDefault, '"default" twice writes once');
    } finally {
      await server.stop();
    }
  });
});
