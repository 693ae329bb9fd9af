// `thought-explorer-mcp import` holds the command's limits (--max-thoughts, --max-thought-length) as the server holds
// them for thoughts an agent sends: a file past them is refused whole, with the limit named, and nothing is stored.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import { exportSession } from '../../src/export/index';
import { CLI, ensureBuiltCli, tempDir } from './support/clients';

describe('CLI import limits', () => {
  const dir = tempDir('te-cli-import-limits-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });

  it('refuses a file with more thoughts or longer thoughts than the command allows, and takes it within them', async () => {
    ensureBuiltCli();
    const engine = new ThinkingEngine({ log: () => {} });
    let sessionId = '';
    for (let number = 1; number <= 3; number++) {
      const outcome = engine.process('c', {
        thought: `thought number ${number} of three`,
        thoughtNumber: number,
        totalThoughts: 3,
        nextThoughtNeeded: number < 3,
        ...(sessionId ? { sessionId } : {}),
      });
      assert.ok(outcome.ok);
      sessionId = outcome.reply.sessionId;
    }
    const file = join(dir, 'session.json');
    writeFileSync(file, await exportSession(engine.getSession(sessionId)!, 'json'));

    const store = join(dir, 'store');
    const tooMany = run(['import', file, '-s', store, '--max-thoughts', '2']);
    assert.equal(tooMany.status, 1, tooMany.stderr);
    assert.match(tooMany.stderr, /2/);
    assert.match(tooMany.stderr, /thoughts/i);
    const tooLong = run(['import', file, '-s', store, '--max-thought-length', '10']);
    assert.equal(tooLong.status, 1, tooLong.stderr);
    assert.match(tooLong.stderr, /10/);
    assert.deepEqual(
      readdirSync(store).filter((name) => name.endsWith('.jsonl')),
      [],
      'nothing stored',
    );

    const within = run(['import', file, '-s', store, '--max-thoughts', '3']);
    assert.equal(within.status, 0, within.stderr);
    assert.match(within.stderr, /imported .* \(3 thoughts\)/);
  });
});
