// A pinned Claude Code from npm, installed on demand into the cache outside the repo (like code-server and the
// project's Node), never into the repo's dependencies. The npm package's postinstall only copies the platform's native
// binary over a placeholder; install scripts stay off and the binary is run from its platform package directly.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './projectNode.mjs';

export const CLAUDE_CODE_VERSION = '2.1.332';

function platformPackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
  if (!arch || !os) throw new Error(`Claude Code ships no native build for ${process.platform}-${process.arch}`);
  return `@anthropic-ai/claude-code-${os}-${arch}`;
}

/** The `claude` binary of the pinned version, installed first if the cache has none (about 400 MB, once). */
export function ensureClaudeCode({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const dir = join(cacheRoot(), `claude-code-${CLAUDE_CODE_VERSION}`);
  const binary = join(dir, 'node_modules', ...platformPackage().split('/'), process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (existsSync(binary)) return binary;
  log(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${dir}`);
  // Into a fresh folder renamed into place at the end: an interrupted install leaves no half folder that looks done.
  const staging = `${dir}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), '{"private":true}\n');
  const install = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`],
    { cwd: staging, stdio: 'inherit' },
  );
  if (install.status !== 0) throw new Error(`npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  if (!existsSync(binary)) throw new Error(`the install has no ${binary}: ${platformPackage()} was not installed`);
  return binary;
}
