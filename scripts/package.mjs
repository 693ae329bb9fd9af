// `npm run package`: a production build (minified, no source maps) packaged by @vscode/vsce into
// thought-explorer-<version>.vsix at the repo root. The package holds only what runs (see .vscodeignore); this
// script lists it, refuses it if sources, tests, maps or node_modules slipped in, runs the checks Open VSX's `ovsx`
// can make offline (openVsxChecks.mjs), and prints its size.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openVsxChecks } from './openVsxChecks.mjs';
import { vsixProblems, zipEntries } from './vsixContents.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function vsixPath() {
  const { name, version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  return join(repo, `${name}-${version}.vsix`);
}

function run(command, args) {
  // stdin closed: vsce asks y/N questions on some warnings, and a package step must fail rather than wait.
  const result = spawnSync(command, args, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

export function packageExtension({ log = (line) => console.log(line) } = {}) {
  const out = vsixPath();
  // Maps left by a development build stay in dist/ but are kept out of the package by .vscodeignore.
  log('Building for production (minified, no source maps)…');
  run(process.execPath, [join(repo, 'esbuild.mjs'), '--production']);
  log('Packaging with @vscode/vsce…');
  run(process.execPath, [
    join(repo, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies', // esbuild bundles every runtime dependency into dist/
    // README's relative links and images become absolute URLs into the manifest's repository (as the Marketplace
    // and Open VSX need them to render).
    '--out',
    out,
  ]);
  const entries = zipEntries(out);
  const problems = vsixProblems(entries);
  if (problems.length > 0) throw new Error(`${relative(repo, out)} holds what it must not:\n  ${problems.join('\n  ')}`);
  for (const line of openVsxChecks(repo)) log(line);
  const bytes = statSync(out).size;
  log(`${relative(repo, out)}: ${(bytes / 1024).toFixed(0)} KiB (${bytes} bytes), ${entries.length} entries:`);
  for (const entry of entries) log(`  ${entry}`);
  return { path: out, bytes, entries };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    packageExtension();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
