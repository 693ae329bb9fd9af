// The product runs on Node.js 22 or newer. On an older Node the CLI says so in one line and exits non-zero, before
// anything else runs (a banner esbuild puts first in dist/cli.js); the manifests declare the same minimum.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error -- a plain .mjs build script without types
import { MINIMUM_NODE_MAJOR } from '../../scripts/projectNode.mjs';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const majorOf = (node: string) =>
  Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim());

/** An older Node on this machine: the one `npm test` was started on (scripts/projectNode.mjs keeps it), or the OS's. */
function olderNode(): string | undefined {
  const candidates = [process.env.THOUGHT_EXPLORER_OUTER_NODE, '/usr/bin/node', '/usr/local/bin/node'];
  return candidates.find((node) => node && existsSync(node) && majorOf(node) < MINIMUM_NODE_MAJOR);
}

describe('Node.js version', () => {
  it('the manifests declare the minimum the build checks', () => {
    for (const manifest of ['package.json', 'packages/mcp-server/package.json']) {
      const engines = (JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as { engines: { node: string } }).engines;
      assert.equal(engines.node, `>=${MINIMUM_NODE_MAJOR}`, manifest);
    }
  });

  it('the tests themselves run on a supported Node', () => {
    assert.ok(Number(process.versions.node.split('.')[0]) >= MINIMUM_NODE_MAJOR, process.version);
  });

  const older = olderNode();
  it(
    'an older Node running dist/cli.js gets one clear line and a non-zero exit',
    { skip: older ? false : 'no Node older than the minimum on this machine' },
    () => {
      const result = spawnSync(older!, [CLI, '--help'], { encoding: 'utf8', timeout: 30_000 });
      assert.notEqual(result.status, 0);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        new RegExp(`^thought-explorer-mcp needs Node\\.js ${MINIMUM_NODE_MAJOR} or newer; this is Node\\.js v\\d+\\.\\d+\\.\\d+\\.\\n$`),
      );
    },
  );
});
