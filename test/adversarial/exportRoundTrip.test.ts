// A store's own export imports back, even for a session at the store's size limit (a 256 MiB journal): the indented
// JSON and the OTLP trace carry more around each thought than the journal (268 and 272 MB at the limit), and the import
// refused any file over 256 MiB. Making such a session takes minutes, so this measures what each format adds per
// journal byte on a session of the same shape (thoughts of 20,000 three-byte characters, the most a default store's
// 10,000 thoughts can fill 256 MiB with) and checks that the import limit the CLI states leaves room for it; and it
// imports both exports of that session back.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, RawStdioServer, requireBuiltCli, tempStore, toolText } from './support';

/** The store's documented limit on one session's journal. */
const MAX_SESSION_BYTES = 256 * 1024 * 1024;
const THOUGHTS = 30;
const TEXT = '思'.repeat(19_990);

function cli(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stderr: result.stderr };
}

describe("a store's own export imports back", () => {
  const store = tempStore('te-roundtrip-');
  after(() => store.remove());

  it(
    'leaves room in the import limit for the JSON and OTLP exports of a session at the size limit, and imports them',
    { timeout: 60_000 },
    async () => {
      requireBuiltCli();
      const written = join(store.dir, 'written');
      const server = RawStdioServer.start(written);
      let sessionId = '';
      try {
        await server.initialize();
        for (let number = 1; number <= THOUGHTS; number++) {
          const reply = await server.request(`t${number}`, 'tools/call', {
            name: 'sequentialthinking',
            arguments: {
              thought: `${String(number).padStart(5, '0')}${TEXT}`,
              thoughtNumber: number,
              totalThoughts: THOUGHTS,
              nextThoughtNeeded: number < THOUGHTS,
              ...(sessionId ? { sessionId } : {}),
            },
          });
          const { ok, text } = toolText(reply);
          assert.ok(ok, text.slice(0, 300));
          sessionId = (JSON.parse(text) as { sessionId?: string }).sessionId ?? sessionId;
        }
      } finally {
        await server.stop();
      }
      const journal = statSync(join(written, `${sessionId}.jsonl`)).size;

      // The import limit, as the CLI states it when refusing a (sparse) file far above it.
      const huge = join(store.dir, 'huge.json');
      const handle = openSync(huge, 'w');
      ftruncateSync(handle, 1024 * 1024 * 1024);
      closeSync(handle);
      const refused = cli(['import', huge, '--storage-path', join(store.dir, 'refused')]);
      const limitMiB = Number(/at most (\d+) MiB/.exec(refused.stderr)?.[1]);
      assert.ok(limitMiB > 0, refused.stderr);

      for (const format of ['json', 'otlp']) {
        const out = join(store.dir, `out.${format}`);
        const exported = cli(['export', sessionId, '--format', format, '--out', out, '--storage-path', written]);
        assert.equal(exported.status, 0, exported.stderr);
        const perJournalByte = statSync(out).size / journal;
        const atTheLimit = Math.ceil(MAX_SESSION_BYTES * perJournalByte);
        console.log(
          `# ${format}: ${perJournalByte.toFixed(4)} bytes per journal byte; a session at the limit exports to ~${atTheLimit} bytes`,
        );
        assert.ok(
          atTheLimit <= limitMiB * 1024 * 1024,
          `a session at the limit exports to ~${atTheLimit} bytes as ${format}; the import takes at most ${limitMiB} MiB`,
        );
        const imported = cli(['import', out, '--storage-path', join(store.dir, `back-${format}`)]);
        assert.equal(imported.status, 0, imported.stderr);
        assert.match(imported.stderr, new RegExp(`\\(${THOUGHTS} thoughts\\)`));
      }
    },
  );
});
