// `npm run release -- <version> [--allow-dirty] [--no-package]`: prepares a release without publishing anything.
// Moves CHANGELOG.md's [Unreleased] entries under `## [<version>] - <today>`, sets the version in package.json,
// package-lock.json (root), server.json (the entry and its npm package), packages/mcp-server/package.json and the agent
// plugin's two manifests (PLUGIN_MANIFESTS: the Agent Plugins plugin.json and Claude Code's), then
// builds the .vsix (npm run package) and the npm tarball. Refuses a version that is not greater than the current one,
// an empty [Unreleased] section, and a working tree with uncommitted changes (unless --allow-dirty). The pure steps
// are exported for test/unit/release.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export class ReleaseError extends Error {}

/** "1.2.3" or "1.2.3-beta.1" (no build metadata, no leading "v"); anything else is refused with what to send. */
export function parseVersion(text) {
  const match = SEMVER.exec(String(text));
  if (!match) throw new ReleaseError(`"${text}" is not a version: send MAJOR.MINOR.PATCH, e.g. 0.2.0 (optionally -pre.1)`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease: match[4] ? match[4].split('.') : [] };
}

/** Semantic Versioning precedence: negative, zero or positive as a is lower, equal or higher than b. */
export function compareVersions(a, b) {
  const left = parseVersion(a);
  const right = parseVersion(b);
  for (const part of ['major', 'minor', 'patch']) if (left[part] !== right[part]) return left[part] - right[part];
  // A version without prerelease ranks above the same version with one.
  if (left.prerelease.length === 0 || right.prerelease.length === 0) return right.prerelease.length - left.prerelease.length;
  for (let index = 0; index < Math.max(left.prerelease.length, right.prerelease.length); index++) {
    const x = left.prerelease[index];
    const y = right.prerelease[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const numeric = /^\d+$/;
    if (numeric.test(x) && numeric.test(y)) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
    } else if (numeric.test(x) !== numeric.test(y)) return numeric.test(x) ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function assertNewer(current, next) {
  if (compareVersions(next, current) <= 0) throw new ReleaseError(`Version ${next} is not greater than the current ${current}.`);
}

const UNRELEASED = /^## \[Unreleased\][^\n]*\n/m;

/**
 * The changelog with [Unreleased]'s entries moved under `## [version] - date`, and an empty [Unreleased] left above
 * it. Refuses a changelog without [Unreleased], one whose [Unreleased] has no entry, and a version already listed.
 */
export function releaseChangelog(text, version, date) {
  parseVersion(version);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new ReleaseError(`Release date "${date}" is not YYYY-MM-DD.`);
  const heading = UNRELEASED.exec(text);
  if (!heading) throw new ReleaseError('CHANGELOG.md has no "## [Unreleased]" section.');
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`^## \\[${escaped}\\]`, 'm').test(text)) throw new ReleaseError(`CHANGELOG.md already has a section for ${version}.`);
  const bodyStart = heading.index + heading[0].length;
  const nextSection = text.slice(bodyStart).search(/^## /m);
  const bodyEnd = nextSection < 0 ? text.length : bodyStart + nextSection;
  const body = text.slice(bodyStart, bodyEnd);
  // An entry is a list item; sub-headings (### Added) alone are no release.
  if (!/^\s*[-*] \S/m.test(body)) throw new ReleaseError('The [Unreleased] section of CHANGELOG.md lists no change; add entries first.');
  const released = `## [${version}] - ${date}\n${body.replace(/^\n*/, '\n').replace(/\n*$/, '\n\n')}`;
  return `${text.slice(0, bodyStart)}\n${released}${text.slice(bodyEnd)}`;
}

/** The agent plugin's manifests, relative to the repository: each carries the release's version. */
export const PLUGIN_MANIFESTS = ['packages/agent-plugin/plugin.json', 'packages/agent-plugin/.claude-plugin/plugin.json'];

/**
 * package.json, packages/mcp-server/package.json or a plugin manifest with a new top-level version (2-space JSON, as npm
 * writes; Prettier formats the plugin's JSON the same way, see .prettierrc.json).
 */
export function bumpManifest(text, version) {
  const manifest = JSON.parse(text);
  manifest.version = version;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** package-lock.json: the root's version, in both places npm keeps it. */
export function bumpLockfile(text, version) {
  const lock = JSON.parse(text);
  lock.version = version;
  if (lock.packages?.['']) lock.packages[''].version = version;
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** server.json: the entry's version and the version of our npm package in it. */
export function bumpServerJson(text, version, npmName) {
  const server = JSON.parse(text);
  server.version = version;
  for (const entry of server.packages ?? []) if (entry.registryType === 'npm' && entry.identifier === npmName) entry.version = version;
  return `${JSON.stringify(server, null, 2)}\n`;
}

function git(repo, args) {
  const result = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new ReleaseError(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'allow-dirty': { type: 'boolean', default: false }, 'no-package': { type: 'boolean', default: false } },
  });
  const { repo, packNpmPackage, TEMPLATE_DIR } = await import('./npmPackage.mjs');
  if (positionals.length !== 1) throw new ReleaseError('Usage: npm run release -- <version> [--allow-dirty] [--no-package]');
  const version = positionals[0];
  parseVersion(version);
  if (!values['allow-dirty']) {
    const dirty = git(repo, ['status', '--porcelain']).trim();
    if (dirty !== '') throw new ReleaseError(`The working tree has uncommitted changes (commit them, or pass --allow-dirty):\n${dirty}`);
  }
  const files = {
    manifest: join(repo, 'package.json'),
    lock: join(repo, 'package-lock.json'),
    server: join(repo, 'server.json'),
    npmManifest: join(TEMPLATE_DIR, 'package.json'),
    changelog: join(repo, 'CHANGELOG.md'),
  };
  const read = (path) => readFileSync(path, 'utf8');
  const current = JSON.parse(read(files.manifest)).version;
  assertNewer(current, version);
  const npmName = JSON.parse(read(files.npmManifest)).name;
  const date = new Date().toISOString().slice(0, 10);
  // Everything computed before anything is written: a refusal leaves every file as it was.
  const updates = [
    [files.changelog, releaseChangelog(read(files.changelog), version, date)],
    [files.manifest, bumpManifest(read(files.manifest), version)],
    [files.lock, bumpLockfile(read(files.lock), version)],
    [files.server, bumpServerJson(read(files.server), version, npmName)],
    [files.npmManifest, bumpManifest(read(files.npmManifest), version)],
    ...PLUGIN_MANIFESTS.map((path) => [join(repo, path), bumpManifest(read(join(repo, path)), version)]),
  ];
  for (const [path, text] of updates) writeFileSync(path, text);
  console.log(`Release ${current} → ${version} (${date}): updated ${updates.map(([path]) => relative(repo, path)).join(', ')}`);
  if (values['no-package']) return;
  const packaged = spawnSync('npm', ['run', '--silent', 'package'], { cwd: repo, stdio: 'inherit' });
  if (packaged.status !== 0) throw new ReleaseError('npm run package failed');
  const tarball = packNpmPackage({ production: true, log: (line) => console.log(line) });
  console.log(
    `${relative(repo, tarball.path)}: ${(tarball.bytes / 1024).toFixed(0)} KiB (${tarball.bytes} bytes), ${tarball.files.length} files`,
  );
  console.log(
    'Nothing was published. Next: review and commit, tag v' +
      version +
      ', then publish the .vsix (vsce publish --packagePath, ovsx publish), the tarball (npm publish <tgz>) and server.json (mcp-publisher publish).',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof ReleaseError ? `release: ${error.message}` : error);
    process.exit(1);
  });
}
