// The launcher (dist/cli.js) on a machine shared with other users: Node runs whatever its compile cache folder holds,
// so the cache may only live in a folder of ours that no one else can write, and a temp folder that cannot hold it
// (TMPDIR under /proc, where Node's own recursive creation spun forever) must cost nothing.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, requireBuiltCli, tempStore } from './support';

const uid = process.getuid?.();
const OUR_FOLDER = `thought-explorer-compile-cache-${uid}`;

/** `node dist/cli.js --version` with this temp folder and no cache variables from the caller. */
function runCli(tempFolder: string, timeout = 20_000): ReturnType<typeof spawnSync> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tempFolder };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  return spawnSync(process.execPath, [CLI, '--version'], { env, timeout, encoding: 'utf8' });
}

function folderWritableByAll(path: string): void {
  mkdirSync(path);
  chmodSync(path, 0o777);
}

describe('the compile cache on a shared machine', { skip: uid === undefined && 'no user ids on this OS' }, () => {
  const temp = tempStore('te-shared-tmp-');
  after(() => temp.remove());

  it('never uses a cache folder that another user could have planted entries in', () => {
    requireBuiltCli();
    const tmp = join(temp.dir, 'planted');
    mkdirSync(tmp);
    // Node's default name and ours, both made first by "someone else": writable by all.
    folderWritableByAll(join(tmp, 'node-compile-cache'));
    folderWritableByAll(join(tmp, OUR_FOLDER));
    for (let run = 0; run < 2; run++) {
      const result = runCli(tmp);
      assert.equal(result.status, 0, String(result.stderr));
      assert.match(String(result.stdout), /^\d+\.\d+\.\d+/);
    }
    assert.deepEqual(readdirSync(join(tmp, 'node-compile-cache')), [], 'Node wrote its cache into a shared folder');
    assert.deepEqual(readdirSync(join(tmp, OUR_FOLDER)), [], 'the cache went into a folder others may write');
  });

  it('never follows a link or uses a folder owned by another user', () => {
    const tmp = join(temp.dir, 'linked');
    mkdirSync(tmp);
    const target = join(tmp, 'elsewhere');
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, join(tmp, OUR_FOLDER));
    assert.equal(runCli(tmp).status, 0);
    assert.deepEqual(readdirSync(target), [], 'the cache followed a link');

    if (uid !== 0) return; // only root can give a folder to another user
    const owned = join(temp.dir, 'owned');
    mkdirSync(owned);
    mkdirSync(join(owned, OUR_FOLDER), { mode: 0o700 });
    chownSync(join(owned, OUR_FOLDER), 65_534, 65_534);
    assert.equal(runCli(owned).status, 0);
    assert.deepEqual(readdirSync(join(owned, OUR_FOLDER)), [], 'the cache went into a folder of another user');
  });

  it('keeps the cache in a per-user folder it creates with mode 0700', () => {
    const tmp = join(temp.dir, 'fresh');
    mkdirSync(tmp);
    assert.equal(runCli(tmp).status, 0);
    const folder = lstatSync(join(tmp, OUR_FOLDER));
    assert.ok(folder.isDirectory());
    assert.equal(folder.mode & 0o777, 0o700);
    assert.equal(folder.uid, uid);
    assert.ok(readdirSync(join(tmp, OUR_FOLDER)).length > 0, 'the cache is on: the second start reads compiled code');
    assert.equal(existsSync(join(tmp, 'node-compile-cache')), false);
  });

  for (const tmp of ['/proc', '/proc/self', '/proc/1/fd', join('/nonexistent', 'te-tmp')]) {
    it(`starts at once with TMPDIR=${tmp}`, { skip: !existsSync('/proc/self') && 'no /proc' }, () => {
      const result = runCli(tmp, 15_000);
      assert.equal(result.error, undefined, `the launcher did not finish: ${String(result.error)}`);
      assert.equal(result.status, 0, String(result.stderr));
      assert.match(String(result.stdout), /^\d+\.\d+\.\d+/);
    });
  }
});
