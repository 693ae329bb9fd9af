// Owns the real-VS-Code toolchain used by the in-editor tests, the demo and the screenshots: Node 24 and
// code-server (VS Code's own server + workbench) installed once from the npm registry into a cache outside the
// repo, keyed by their versions, plus the checks for what must come from the OS (Debian `chromium`, krb5 headers).
// Run directly (`node scripts/vscodeEnvironment.mjs`) to install ahead of time and print the paths.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NODE_VERSION, cacheRoot, ensureProjectNode, projectNodeEnv, projectNodePaths } from './projectNode.mjs';

export const CODE_SERVER_VERSION = '4.139.1';

/** code-server 4.139.x needs Node 24 (on Node 20 it dies on `registerHooks` at its first connection): the project's. */
const NODE_PACKAGE = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;

export function environmentDir() {
  return join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}-${NODE_PACKAGE}-${NODE_VERSION}`);
}

function paths(dir = environmentDir()) {
  const node = projectNodePaths();
  return {
    dir,
    marker: join(dir, 'installed.json'),
    lock: `${dir}.lock`,
    nodeDir: node.nodeDir,
    nodeBinDir: node.binDir,
    node: node.node,
    codeServerPrefix: join(dir, 'code-server'),
    codeServerEntry: join(dir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** The Chromium the tests drive: never downloaded, always the OS package (or CHROMIUM_PATH). */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) {
    throw new Error(
      'Chromium was not found (looked for CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser).\n' +
        '  Install it from the OS packages, e.g. on Debian/Ubuntu: sudo apt-get install -y chromium\n' +
        '  (never `npx playwright install`: browsers are not downloaded by this project).',
    );
  }
  return found;
}

function checkKerberosHeaders() {
  // code-server's `kerberos` dependency compiles against gssapi headers; without them the install fails deep in
  // node-gyp output, so say it up front.
  const headers = ['/usr/include/gssapi/gssapi.h', '/usr/include/krb5.h', '/usr/include/krb5/krb5.h'];
  if (!headers.some((header) => existsSync(header))) {
    throw new Error(
      "Kerberos development headers are missing (needed once to build code-server's native `kerberos` module).\n" +
        '  Install them, e.g. on Debian/Ubuntu: sudo apt-get install -y libkrb5-dev',
    );
  }
}

function run(command, args, options, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let tail = '';
    const keep = (chunk) => {
      tail = (tail + chunk.toString()).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else {
        log(tail);
        reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
      }
    });
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** A directory lock: mkdir is atomic. A lock left by a dead process is taken over. */
async function withLock(lockDir, log, body) {
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        // The owner may be between mkdir and writing its pid; give it a moment before judging.
      }
      if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
        log(`Removing a stale install lock left by process ${owner}.`);
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!announced) {
        log(`Another process (${Number.isNaN(owner) ? 'unknown' : owner}) is installing code-server; waiting…`);
        announced = true;
      }
      if (Date.now() - started > 30 * 60_000) throw new Error(`Timed out waiting for the install lock ${lockDir}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

async function install(p, log) {
  checkKerberosHeaders();
  rmSync(p.dir, { recursive: true, force: true });
  mkdirSync(p.codeServerPrefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const quiet = ['--no-save', '--no-audit', '--no-fund', '--loglevel=error'];

  log(`Installing code-server ${CODE_SERVER_VERSION} (native builds; several minutes the first time) …`);
  // npm 11 runs dependency install scripts only when the root package allows them.
  writeFileSync(
    join(p.codeServerPrefix, 'package.json'),
    JSON.stringify({ private: true, allowScripts: { 'code-server': true, argon2: true } }, null, 2),
  );
  await run(
    npm,
    ['install', '--prefix', p.codeServerPrefix, ...quiet, `code-server@${CODE_SERVER_VERSION}`],
    { env: projectNodeEnv() },
    log,
  );
  if (!existsSync(p.codeServerEntry)) throw new Error(`code-server installed but ${p.codeServerEntry} is missing`);

  // Prove it starts on this Node before declaring the cache good.
  await run(p.node, [p.codeServerEntry, '--version'], { env: projectNodeEnv() }, log);
  writeFileSync(
    p.marker,
    JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }, null, 2),
  );
}

/**
 * Installs Node 24 + code-server into the cache unless a previous run completed it, and returns the paths.
 * Safe to call from several processes at once (one installs, the others wait).
 */
export async function ensureVscodeEnvironment({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const chromium = findChromium();
  await ensureProjectNode({ log });
  const p = paths();
  if (!existsSync(p.marker)) {
    mkdirSync(cacheRoot(), { recursive: true });
    const started = Date.now();
    await withLock(p.lock, log, async () => {
      if (existsSync(p.marker)) return; // another process finished while we waited
      await install(p, log);
      log(`code-server ${CODE_SERVER_VERSION} ready in ${((Date.now() - started) / 1000).toFixed(0)} s (cached for later runs).`);
    });
  }
  return { node: p.node, nodeBinDir: p.nodeBinDir, codeServerEntry: p.codeServerEntry, chromium, dir: p.dir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureVscodeEnvironment()
    .then((environment) => console.log(JSON.stringify(environment, null, 2)))
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
