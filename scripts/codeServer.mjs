// Owns the moving parts shared by the in-editor test runner, the .vsix check, the demo and the screenshots:
// starting code-server on loopback with throw-away profile folders, opening its workbench in headless Debian
// Chromium, turning the extension host's console into plain lines, and stopping every child on any exit path.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { projectNodeEnv } from './projectNode.mjs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Settings every run starts from: no welcome page, no telemetry, no updates, and tool calls approved for tests. */
export const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'chat.tools.global.autoApprove': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
};

/** Everything a script starts registers its stop function here; each runs once, newest first, on any exit. */
const cleanups = [];
let cleaningUp;

export function onCleanup(stop) {
  cleanups.push(stop);
}

export async function cleanupAll() {
  // Concurrent callers (a signal during a normal exit) share one pass; a later call cleans what was started since.
  cleaningUp ??= (async () => {
    while (cleanups.length > 0) {
      const stop = cleanups.pop();
      try {
        await stop();
      } catch (error) {
        process.stderr.write(`cleanup: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  })().finally(() => {
    cleaningUp = undefined;
  });
  return cleaningUp;
}

/** Ctrl-C / SIGTERM / SIGHUP stop everything this process started, then exit with the signal's code. */
function stopEverythingOnSignals() {
  let stopping = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    // `on`, not `once`: a second Ctrl-C while stopping must not kill this process before its children are gone.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping code-server and Chromium…\n`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
}

/** Runs a script's `main()` and exits with its code, stopping everything it started on every path. */
export async function runToExit(main, log) {
  stopEverythingOnSignals();
  let exitCode;
  try {
    exitCode = await main();
  } catch (error) {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    await cleanupAll();
  }
  process.exit(exitCode);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A fresh temp folder removed at cleanup (unless KEEP_TEMP is set, to look at logs after a failure). */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(() => {
    if (!process.env.KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dir}\n`);
  });
  return dir;
}

/**
 * Profile folders for one code-server: user data (with settings.json), extensions, and XDG dirs so nothing lands
 * in the user's ~/.config/code-server.
 */
export function makeProfile(root, settings = {}) {
  const profile = {
    root,
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
    xdgConfig: join(root, 'xdg-config'),
    xdgData: join(root, 'xdg-data'),
    logFile: join(root, 'code-server.log'),
  };
  for (const dir of [profile.userDataDir, profile.extensionsDir, profile.xdgConfig, profile.xdgData]) mkdirSync(dir, { recursive: true });
  mkdirSync(join(profile.userDataDir, 'User'), { recursive: true });
  writeFileSync(join(profile.userDataDir, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));
  return profile;
}

function profileEnv(profile, extraEnv) {
  return { ...projectNodeEnv(), XDG_CONFIG_HOME: profile.xdgConfig, XDG_DATA_HOME: profile.xdgData, ...extraEnv };
}

function commonArgs(profile) {
  return [
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extensionsDir,
  ];
}

/** Runs `code-server --install-extension <vsix>` into the profile's extensions folder. */
export function installExtension(environment, profile, vsixPath) {
  return new Promise((resolve, reject) => {
    const child = spawn(environment.node, [environment.codeServerEntry, ...commonArgs(profile), '--install-extension', vsixPath], {
      env: profileEnv(profile, {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`code-server --install-extension ${vsixPath} failed (exit ${code}):\n${output}`));
    });
  });
}

/**
 * Starts code-server on 127.0.0.1:port with the given profile and workspace and waits for /healthz. Its output goes
 * to profile.logFile (and to stderr with `echo`). Stopping kills its whole process group: the extension host and
 * other helpers are its children.
 */
export async function startCodeServer({ environment, profile, port, workspace, smokeTestDriver = false, env = {}, echo = false, log }) {
  const args = [
    environment.codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    ...commonArgs(profile),
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    workspace,
  ];
  const child = spawn(environment.node, args, { env: profileEnv(profile, env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const logStream = createWriteStream(profile.logFile);
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      logStream.write(chunk);
      if (echo) process.stderr.write(chunk);
    });
  }
  let exited = false;
  const exitedPromise = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
      await exitedPromise;
      clearTimeout(timer);
    }
    // The extension host may outlive the main process for a moment; make sure the group is gone.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    logStream.end();
  };
  onCleanup(stop);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited before it was ready; see ${profile.logFile}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer ${url}/healthz within 60 s; see ${profile.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log?.(`code-server ${url} ready (log: ${profile.logFile})`);
  return { url, port, process: child, exited: exitedPromise, stop };
}

export async function launchChromium(environment, { viewport = { width: 1400, height: 900 }, colorScheme } = {}) {
  // Signals are handled by stopEverythingOnSignals: Playwright's own handlers would exit the process as soon as the
  // browser is closed, before code-server has been stopped.
  const browser = await chromium.launch({
    executablePath: environment.chromium,
    headless: true,
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onCleanup(() => browser.close());
  const context = await browser.newContext({ viewport, colorScheme });
  return { browser, context };
}

/** The workbench URL for a folder, optionally with the smoke-test payload (extension under development + tests). */
export function workbenchUrl(server, workspace, payload) {
  const params = new URLSearchParams({ folder: workspace });
  if (payload) {
    const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
    const entries = [];
    if (payload.extensionDevelopmentPath) entries.push(['extensionDevelopmentPath', remote(payload.extensionDevelopmentPath)]);
    if (payload.extensionTestsPath) entries.push(['extensionTestsPath', remote(payload.extensionTestsPath)]);
    params.set('payload', JSON.stringify(entries));
  }
  return `${server.url}/?${params.toString()}`;
}

/**
 * The extension host's console reaches the page as `console.log('%c INFO', 'color: …', ...args)` (also `%c ERR`,
 * `%c WARN`…). Returns the args as one plain line, or undefined for messages that are not from the extension host.
 */
export async function extensionHostLine(message) {
  const values = [];
  for (const handle of message.args()) {
    try {
      values.push(await handle.jsonValue());
    } catch {
      values.push(String(handle));
    }
  }
  if (typeof values[0] !== 'string') return undefined;
  const head = /^%c\s*(INFO|ERR|ERROR|WARN|WARNING|DEBUG|TRACE|LOG)\b/.exec(values[0]);
  if (!head) return undefined;
  const rest = values.slice(2).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  return { level: head[1], text: formatPrintf(rest) };
}

/** Applies printf-style %s/%d/%i/%f/%o/%O/%j/%c substitutions the way console.log does, without colours. */
function formatPrintf(parts) {
  if (parts.length === 0) return '';
  const [first, ...rest] = parts;
  let index = 0;
  const head = first.replace(/%[sdifoOjc%]/g, (token) => {
    if (token === '%%') return '%';
    if (index >= rest.length) return token;
    const value = rest[index++];
    return token === '%c' ? '' : value;
  });
  return [head, ...rest.slice(index)].join(' ').replace(/\u001b\[[0-9;]*m/g, '');
}
