// The Node.js the project runs on (22 or newer; we use the same Node 24 LTS that code-server needs), installed once
// from the npm registry into the cache outside the repo, so `npm run setup` and `npm test` need nothing but the
// machine's own Node and npm, whatever their version. Run as
//   node scripts/projectNode.mjs <command> [args…]
// to run a command with that Node first on PATH (npm, and every `node` the command starts, then run on it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_VERSION = '24.21.0';
/** What the product needs (package.json `engines.node`); an older Node runs the commands through the cached one. */
export const MINIMUM_NODE_MAJOR = 22;
const NODE_PACKAGE = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;

export function cacheRoot() {
  return process.env.THOUGHT_EXPLORER_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'thought-explorer');
}

export function projectNodePaths() {
  const dir = join(cacheRoot(), `${NODE_PACKAGE}-${NODE_VERSION}`);
  const nodeDir = join(dir, 'node_modules', NODE_PACKAGE);
  return { dir, lock: `${dir}.lock`, nodeDir, binDir: join(nodeDir, 'bin'), node: join(nodeDir, 'bin', 'node') };
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)));
  });
}

function readPid(lock) {
  try {
    return readFileSync(join(lock, 'pid'), 'utf8');
  } catch {
    return ''; // between mkdir and writing the pid
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Installs Node into the cache unless it is there; safe from several processes at once (one installs, others wait). */
export async function ensureProjectNode({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const p = projectNodePaths();
  if (existsSync(p.node)) return p;
  mkdirSync(cacheRoot(), { recursive: true });
  for (const started = Date.now(); ;) {
    try {
      mkdirSync(p.lock);
      writeFileSync(join(p.lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (existsSync(p.node)) return p;
      const owner = Number.parseInt(readPid(p.lock), 10);
      if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
        rmSync(p.lock, { recursive: true, force: true }); // left by an install that was killed
        continue;
      }
      if (Date.now() - started > 10 * 60_000) throw new Error(`Timed out waiting for the install lock ${p.lock}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    if (existsSync(p.node)) return p;
    log(`Installing Node ${NODE_VERSION} (${NODE_PACKAGE} from the npm registry) into ${p.dir} …`);
    rmSync(p.dir, { recursive: true, force: true });
    mkdirSync(p.dir, { recursive: true });
    writeFileSync(join(p.dir, 'package.json'), JSON.stringify({ private: true }));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const code = await run(npm, [
      'install',
      '--prefix',
      p.dir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${NODE_PACKAGE}@${NODE_VERSION}`,
    ]);
    if (code !== 0 || !existsSync(p.node)) throw new Error(`Installing ${NODE_PACKAGE}@${NODE_VERSION} failed (exit code ${code}).`);
    return p;
  } finally {
    rmSync(p.lock, { recursive: true, force: true });
  }
}

/**
 * The environment for a command on the project's Node: its bin first on PATH; npm's per-run variables of the outer
 * npm (npm_node_execpath, npm_config_* …) dropped, so a nested npm runs scripts on this Node, as a top-level command
 * would; native builds against this Node's headers (~/.npmrc may point nodedir at the system's, and node-gyp cannot
 * download others here). THOUGHT_EXPLORER_OUTER_NODE keeps the Node we were started on, for the test of what an older
 * Node sees.
 */
export function projectNodeEnv(env = process.env) {
  const p = projectNodePaths();
  const clean = Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE'));
  return {
    ...clean,
    PATH: `${p.binDir}${delimiter}${env.PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
    THOUGHT_EXPLORER_OUTER_NODE: env.THOUGHT_EXPLORER_OUTER_NODE ?? process.execPath,
  };
}

/** `node scripts/projectNode.mjs <command> [args…]`: the command on a new enough Node; its exit code. */
async function main([command, ...args]) {
  if (!command) {
    console.error('usage: node scripts/projectNode.mjs <command> [args…]');
    return 2;
  }
  const major = Number(process.versions.node.split('.')[0]);
  // Already on a new enough Node (a developer's machine): run as is, nothing to install.
  if (major >= MINIMUM_NODE_MAJOR && !process.env.THOUGHT_EXPLORER_FORCE_PROJECT_NODE) return run(command, args, { env: process.env });
  await ensureProjectNode();
  return run(command, args, { env: projectNodeEnv() });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
