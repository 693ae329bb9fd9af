// The release script's pure steps (scripts/release.mjs): version order, the CHANGELOG move, the version bumps in the
// manifests, the lockfile and server.json — and the script itself on a temporary copy of the repository's files
// (git repository of its own, --no-package), including its refusals.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';

interface ReleaseScript {
  ReleaseError: new (message: string) => Error;
  compareVersions(a: string, b: string): number;
  assertNewer(current: string, next: string): void;
  releaseChangelog(text: string, version: string, date: string): string;
  bumpManifest(text: string, version: string): string;
  bumpLockfile(text: string, version: string): string;
  bumpServerJson(text: string, version: string, npmName: string): string;
}

const ROOT = resolve(__dirname, '..', '..');
let release: ReleaseScript;

before(async () => {
  release = (await import(join(ROOT, 'scripts', 'release.mjs'))) as ReleaseScript;
});

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Added
- A new thing.

### Fixed
- A bug.

## [0.1.0]

### Added
- The first thing.
`;

describe('release: versions', () => {
  test('orders versions by Semantic Versioning precedence', () => {
    const ordered = [
      '0.1.0',
      '0.1.1',
      '0.2.0-alpha',
      '0.2.0-alpha.1',
      '0.2.0-alpha.beta',
      '0.2.0-beta.2',
      '0.2.0-beta.11',
      '0.2.0',
      '0.10.0',
      '1.0.0',
    ];
    for (let index = 1; index < ordered.length; index++) {
      const lower = ordered[index - 1] ?? '';
      const higher = ordered[index] ?? '';
      assert.ok(release.compareVersions(lower, higher) < 0, `${lower} < ${higher}`);
      assert.ok(release.compareVersions(higher, lower) > 0, `${higher} > ${lower}`);
    }
    assert.equal(release.compareVersions('1.2.3', '1.2.3'), 0);
  });

  test('refuses a version that is not greater, and text that is no version', () => {
    assert.throws(() => release.assertNewer('0.2.0', '0.2.0'), /0\.2\.0 is not greater than the current 0\.2\.0/);
    assert.throws(() => release.assertNewer('0.2.0', '0.1.9'), /not greater/);
    assert.throws(() => release.assertNewer('0.2.0', '0.2.0-rc.1'), /not greater/);
    assert.doesNotThrow(() => release.assertNewer('0.2.0-rc.1', '0.2.0'));
    for (const bad of ['v1.0.0', '1.0', '01.0.0', '1.0.0+build', 'latest', '']) {
      assert.throws(() => release.assertNewer('0.1.0', bad), /is not a version: send MAJOR\.MINOR\.PATCH/, bad);
    }
  });
});

describe('release: CHANGELOG', () => {
  test('moves the Unreleased entries under the version with the date, leaving an empty Unreleased above', () => {
    const released = release.releaseChangelog(CHANGELOG, '0.2.0', '2026-11-24');
    assert.equal(
      released,
      `# Changelog

Intro.

## [Unreleased]

## [0.2.0] - 2026-11-24

### Added
- A new thing.

### Fixed
- A bug.

## [0.1.0]

### Added
- The first thing.
`,
    );
    // Released again later: the next version goes above, the earlier one stays.
    const next = release.releaseChangelog(
      released.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Added\n- Later.\n'),
      '0.3.0',
      '2026-12-01',
    );
    assert.match(next, /## \[Unreleased\]\n\n## \[0\.3\.0\] - 2026-12-01\n\n### Added\n- Later\.\n\n## \[0\.2\.0\] - 2026-11-24\n/);
  });

  test('works when Unreleased is the last section', () => {
    const released = release.releaseChangelog('# Changelog\n\n## [Unreleased]\n- Only this.\n', '1.0.0', '2027-01-02');
    assert.equal(released, '# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2027-01-02\n\n- Only this.\n\n');
  });

  test('refuses an empty Unreleased section, a missing one, a version already listed and a bad date', () => {
    assert.throws(
      () => release.releaseChangelog('# Changelog\n\n## [Unreleased]\n\n### Added\n\n## [0.1.0]\n- x\n', '0.2.0', '2026-11-24'),
      /lists no change/,
    );
    assert.throws(() => release.releaseChangelog('# Changelog\n\n## [0.1.0]\n- x\n', '0.2.0', '2026-11-24'), /no "## \[Unreleased\]"/);
    assert.throws(() => release.releaseChangelog(CHANGELOG, '0.1.0', '2026-11-24'), /already has a section for 0\.1\.0/);
    assert.throws(() => release.releaseChangelog(CHANGELOG, '0.2.0', '24.11.2026'), /not YYYY-MM-DD/);
  });
});

describe('release: version bumps', () => {
  test('package.json, package-lock.json and server.json get the new version where each keeps it', () => {
    const manifest = JSON.parse(release.bumpManifest('{"name":"x","version":"0.1.0","dependencies":{"a":"0.1.0"}}', '0.2.0')) as Record<
      string,
      unknown
    >;
    assert.deepEqual(manifest, { name: 'x', version: '0.2.0', dependencies: { a: '0.1.0' } });
    const lock = JSON.parse(
      release.bumpLockfile(
        JSON.stringify({ name: 'x', version: '0.1.0', packages: { '': { version: '0.1.0' }, 'node_modules/a': { version: '0.1.0' } } }),
        '0.2.0',
      ),
    ) as { version: string; packages: Record<string, { version: string }> };
    assert.equal(lock.version, '0.2.0');
    assert.equal(lock.packages['']?.version, '0.2.0');
    assert.equal(lock.packages['node_modules/a']?.version, '0.1.0', 'dependencies keep their versions');
    const server = JSON.parse(
      release.bumpServerJson(
        JSON.stringify({
          version: '0.1.0',
          packages: [
            { registryType: 'npm', identifier: 'ours', version: '0.1.0' },
            { registryType: 'npm', identifier: 'other', version: '9.9.9' },
          ],
        }),
        '0.2.0',
        'ours',
      ),
    ) as { version: string; packages: { version: string }[] };
    assert.equal(server.version, '0.2.0');
    assert.deepEqual(
      server.packages.map((entry) => entry.version),
      ['0.2.0', '9.9.9'],
    );
  });
});

describe('release: the script on a copy of the repository files', () => {
  let copy: string;
  const files = [
    'package.json',
    'package-lock.json',
    'server.json',
    'CHANGELOG.md',
    'packages/mcp-server/package.json',
    'packages/agent-plugin/plugin.json',
    'packages/agent-plugin/.claude-plugin/plugin.json',
    'scripts/release.mjs',
    'scripts/npmPackage.mjs',
  ];
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(copy, 'scripts', 'release.mjs'), ...args], { cwd: copy, encoding: 'utf8' });
  const git = (...args: string[]) => spawnSync('git', args, { cwd: copy, encoding: 'utf8' });

  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'te-release-'));
    for (const file of files) {
      mkdirSync(join(copy, file, '..'), { recursive: true });
      copyFileSync(join(ROOT, file), join(copy, file));
    }
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'copy');
  });

  after(() => rmSync(copy, { recursive: true, force: true }));

  test('refuses a dirty tree, an older version and nonsense, changing nothing', () => {
    const before = files.map((file) => readFileSync(join(copy, file), 'utf8'));
    const current = (JSON.parse(before[0] ?? '{}') as { version: string }).version;
    const older = run(current, '--no-package');
    assert.equal(older.status, 1);
    assert.match(older.stderr, new RegExp(`release: Version ${current.replace(/\./g, '\\.')} is not greater`));
    assert.match(run('banana', '--no-package').stderr, /is not a version/);
    writeFileSync(join(copy, 'stray.txt'), 'x');
    const dirty = run('99.0.0', '--no-package');
    assert.equal(dirty.status, 1);
    assert.match(dirty.stderr, /uncommitted changes[\s\S]*stray\.txt/);
    rmSync(join(copy, 'stray.txt'));
    assert.deepEqual(
      files.map((file) => readFileSync(join(copy, file), 'utf8')),
      before,
    );
  });

  test('moves the CHANGELOG and bumps every version in step (no packaging)', () => {
    const result = run('99.0.0', '--no-package');
    assert.equal(result.status, 0, result.stderr);
    const today = new Date().toISOString().slice(0, 10);
    const json = (file: string) => JSON.parse(readFileSync(join(copy, file), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(json('package.json').version, '99.0.0');
    assert.equal(json('package-lock.json').version, '99.0.0');
    assert.equal(json('package-lock.json').packages[''].version, '99.0.0');
    assert.equal(json('server.json').version, '99.0.0');
    assert.equal(json('server.json').packages[0].version, '99.0.0');
    assert.equal(json('packages/mcp-server/package.json').version, '99.0.0');
    assert.equal(json('packages/agent-plugin/plugin.json').version, '99.0.0');
    assert.equal(json('packages/agent-plugin/.claude-plugin/plugin.json').version, '99.0.0');
    const changelog = readFileSync(join(copy, 'CHANGELOG.md'), 'utf8');
    assert.match(changelog, new RegExp(`## \\[Unreleased\\]\\n\\n## \\[99\\.0\\.0\\] - ${today}\\n\\n### Added\\n- `));
    // Only what the release touches changed: the rest of each file is byte for byte what it was.
    const diff = git('diff', '--numstat').stdout.trim().split('\n');
    assert.equal(diff.length, 7, diff.join('\n'));
    for (const line of diff) {
      const [added, removed, file] = line.split('\t');
      if (file === 'CHANGELOG.md') assert.deepEqual([added, removed], ['2', '0'], line);
      else if (file === 'server.json' || file === 'package-lock.json') assert.deepEqual([added, removed], ['2', '2'], line);
      else assert.deepEqual([added, removed], ['1', '1'], line);
    }
  });
});
