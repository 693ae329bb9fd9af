// Owns one demo run, shared by `npm run demo` and `npm run screenshots`: code-server on loopback with the packaged
// .vsix installed (as a person would install it) plus the demo-player extension, a fresh demo workspace and session
// store, and the sample session played through VS Code's own MCP client once a workbench window opens. Narrates the
// player's progress in the terminal. With `browser`, it opens the workbench itself in headless Chromium.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { installExtension, launchChromium, makeProfile, makeTempDir, portIsFree, startCodeServer } from '../codeServer.mjs';
import { ensureVscodeEnvironment } from '../vscodeEnvironment.mjs';
import { SAMPLE_SESSION } from './sampleSession.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..', '..');

const THEMES = { dark: 'Default Dark Modern', light: 'Default Light Modern' };

/**
 * Bundles the demo player into the profile's extensions folder (it is never shipped or committed as JS) and lists
 * it in extensions.json: once `--install-extension` has written that file, VS Code loads only what it lists.
 */
async function installPlayer(extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(here, 'player', 'package.json'), 'utf8'));
  const folder = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
  const target = join(extensionsDir, folder);
  mkdirSync(target, { recursive: true });
  copyFileSync(join(here, 'player', 'package.json'), join(target, 'package.json'));
  await esbuild.build({
    entryPoints: [join(here, 'player', 'extension.ts')],
    outfile: join(target, 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'error',
  });
  const listFile = join(extensionsDir, 'extensions.json');
  const listed = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : [];
  listed.push({
    identifier: { id: `${manifest.publisher}.${manifest.name}` },
    version: manifest.version,
    location: { $mid: 1, fsPath: target, external: pathToFileURL(target).href, path: target, scheme: 'file' },
    relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  writeFileSync(listFile, JSON.stringify(listed));
}

function narrate(event, log) {
  switch (event.event) {
    case 'tool':
      log(`VS Code started the extension's MCP server; playing through ${event.tool}`);
      break;
    case 'thought': {
      const text = String(event.thought ?? '');
      log(`  [${String(event.index).padStart(2)}/${event.of}] ${event.stage ?? ''} — ${text.length > 90 ? `${text.slice(0, 89)}…` : text}`);
      break;
    }
    case 'done':
      log(
        `Sample session ${event.sessionId} complete. Reload the page (or F1 → "Thought Explorer Demo: Play Sample Session") to play it again.`,
      );
      break;
    case 'error':
      log(`The demo player failed: ${event.message}`);
      break;
    default:
      break;
  }
}

/** Follows the player's JSON-lines progress file; calls onEvent for each new event. Returns a stop function. */
function followProgress(file, onEvent) {
  let consumed = 0;
  const timer = setInterval(() => {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    if (complete.length <= consumed) return;
    for (const line of complete.slice(consumed).split('\n')) {
      if (line.trim() === '') continue;
      try {
        onEvent(JSON.parse(line));
      } catch {
        // a line the player did not finish writing; it is re-read next time
      }
    }
    consumed = complete.length;
  }, 250);
  return () => clearInterval(timer);
}

/**
 * @param {object} options
 * @param {string} options.vsix the packaged extension to install
 * @param {number} options.port loopback port for code-server
 * @param {number} options.paceMs pause between thoughts
 * @param {'dark'|'light'} options.theme
 * @param {Record<string, unknown>[]} [options.session] the tool calls to play (default: the sample session)
 * @param {boolean} [options.browser] open the workbench in headless Chromium (screenshots, --check)
 * @param {{width:number,height:number}} [options.viewport]
 * @param {(line: string) => void} options.log
 */
export async function startDemo(options) {
  const { log } = options;
  if (!(await portIsFree(options.port))) {
    throw new Error(`Port ${options.port} on 127.0.0.1 is in use. Pick another with --port <n> (or DEMO_PORT=<n>).`);
  }
  const environment = await ensureVscodeEnvironment({ log });
  const root = makeTempDir('thought-explorer-demo-');
  const profile = makeProfile(root, {
    'workbench.colorTheme': THEMES[options.theme],
    // Outside test mode this setting opens a "YOLO mode" warning; the demo needs no blanket approval (the tool is
    // read-only and the player calls it directly).
    'chat.tools.global.autoApprove': false,
    'window.commandCenter': false,
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  });
  const workspace = join(root, 'demo-workspace');
  mkdirSync(workspace);
  writeFileSync(
    join(workspace, 'README.md'),
    '# Thought Explorer demo\n\nThe Thought Explorer sidebar (activity bar) shows the sample session as it is recorded.\n' +
      'Ask an agent to "think step by step with sequentialthinking" to record your own.\n',
  );
  const storage = join(root, 'sessions');
  mkdirSync(storage);
  const sessionFile = join(root, 'sample-session.json');
  writeFileSync(sessionFile, JSON.stringify(options.session ?? SAMPLE_SESSION, null, 2));
  const progressFile = join(root, 'demo-progress.jsonl');

  log(`installing ${options.vsix}`);
  await installExtension(environment, profile, options.vsix);
  await installPlayer(profile.extensionsDir);

  const server = await startCodeServer({
    environment,
    profile,
    port: options.port,
    workspace,
    log,
    env: {
      THOUGHT_EXPLORER_STORAGE: storage,
      THOUGHT_EXPLORER_DEMO_SESSION: sessionFile,
      THOUGHT_EXPLORER_DEMO_PACE_MS: String(options.paceMs),
      THOUGHT_EXPLORER_DEMO_PROGRESS: progressFile,
    },
  });
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;

  const waiters = new Set();
  const stopFollowing = followProgress(progressFile, (event) => {
    narrate(event, log);
    for (const waiter of waiters) waiter(event);
  });
  /** Resolves with the 'done' event (or rejects on the player's error) of the next play-through. */
  const nextPlayThrough = (timeoutMs) =>
    new Promise((resolvePlay, rejectPlay) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        rejectPlay(new Error(`the sample session did not finish within ${timeoutMs / 1000} s (code-server log: ${profile.logFile})`));
      }, timeoutMs);
      const waiter = (event) => {
        if (event.event !== 'done' && event.event !== 'error') return;
        clearTimeout(timer);
        waiters.delete(waiter);
        if (event.event === 'done') resolvePlay(event);
        else rejectPlay(new Error(event.message));
      };
      waiters.add(waiter);
    });

  let page;
  if (options.browser) {
    const { context } = await launchChromium(environment, {
      viewport: options.viewport ?? { width: 1600, height: 1000 },
      colorScheme: options.theme,
    });
    page = await context.newPage();
    await page.goto(url);
  }
  return { url, server, page, nextPlayThrough, stop: stopFollowing, profile, workspace };
}
