// The npm package of the standalone MCP server (`npx -y thought-explorer-mcp`). Its folder is packages/mcp-server/
// (the manifest and README committed there); this script stages that folder with the built files and the LICENSE
// into out/npm-package/, stamps the root package.json's version, and packs it with `npm pack` into
// thought-explorer-mcp-<version>.tgz at the repo root. `node scripts/npmPackage.mjs [--production]`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATE_DIR = join(repo, 'packages', 'mcp-server');

/**
 * The built files the package ships, relative to the repo root (and placed at the same path in the package). The CLI
 * bundle has no runtime dependency left outside it; the HTML export reads the diagram renderer next to it. A new
 * runtime asset of the CLI is one more line here.
 */
export const NPM_PACKAGE_FILES = [
  'dist/cli.js',
  'dist/cli-main.js',
  'dist/openai.js',
  'dist/otlpWorker.js',
  'dist/webview/export-render.js',
];

/** Files from the template folder and the repo root that every package holds besides the built ones. */
const TEMPLATE_FILES = ['README.md'];
const ROOT_FILES = ['LICENSE'];

export function rootVersion() {
  return JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
}

/** The package manifest: the template with the root version and the shipped files listed. */
export function npmManifest(version = rootVersion()) {
  const template = JSON.parse(readFileSync(join(TEMPLATE_DIR, 'package.json'), 'utf8'));
  return { ...template, version, files: [...NPM_PACKAGE_FILES] };
}

/** Copies everything the package holds into `directory` (emptied first); returns the directory. */
export function stageNpmPackage(directory = join(repo, 'out', 'npm-package')) {
  const missing = NPM_PACKAGE_FILES.filter((file) => !existsSync(join(repo, file)));
  if (missing.length > 0) throw new Error(`Build first (npm run build): missing ${missing.join(', ')}`);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  for (const file of NPM_PACKAGE_FILES) {
    mkdirSync(dirname(join(directory, file)), { recursive: true });
    // A development build ends with a source map comment; the map itself is not shipped, so drop the pointer.
    const text = readFileSync(join(repo, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    writeFileSync(join(directory, file), text, { mode: file === 'dist/cli.js' ? 0o755 : 0o644 });
  }
  for (const file of TEMPLATE_FILES) copyFileSync(join(TEMPLATE_DIR, file), join(directory, file));
  for (const file of ROOT_FILES) copyFileSync(join(repo, file), join(directory, file));
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify(npmManifest(), null, 2)}\n`);
  return directory;
}

/** Stages and packs the package; returns the tarball's path, size and file list (as `npm pack` reports them). */
export function packNpmPackage({ destination = repo, production = false, log = () => {} } = {}) {
  if (production) {
    log('Building for production (minified, no source maps)…');
    const build = spawnSync(process.execPath, [join(repo, 'esbuild.mjs'), '--production'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('esbuild --production failed');
  }
  const staged = stageNpmPackage();
  mkdirSync(destination, { recursive: true });
  // --ignore-scripts: the package has none, and packing must not run the root's. npm pack needs no network.
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: staged,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (packed.status !== 0) throw new Error(`npm pack failed (exit ${packed.status}): ${packed.stderr}`);
  const [report] = JSON.parse(packed.stdout);
  const path = join(destination, report.filename);
  return { path, bytes: statSync(path).size, unpackedBytes: report.unpackedSize, files: report.files.map((file) => file.path) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const log = (line) => console.log(line);
    const { path, bytes, unpackedBytes, files } = packNpmPackage({ production: process.argv.includes('--production'), log });
    log(
      `${relative(repo, path)}: ${(bytes / 1024).toFixed(0)} KiB packed (${bytes} bytes), ${(unpackedBytes / 1024).toFixed(0)} KiB unpacked, ${files.length} files:`,
    );
    for (const file of files) log(`  ${file}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
