// `npm run test:vscode`: runs the compiled mocha suite (out/test/vscode/index.js) inside a real VS Code — code-server
// 4.139.1 opened in headless Debian Chromium — with this repo as the extension under development, streams the
// suite's output and exits with its code. Options: --grep <pattern>, --timeout <seconds> (default 600, or
// VSCODE_TEST_TIMEOUT), --no-build, --verbose (echo code-server's own log),
// --screenshot <file> (the workbench at the end; on failure one always goes to test-results/vscode-failure.png). KEEP_TEMP=1 keeps the profile folder.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  cleanupAll,
  extensionHostLine,
  freePort,
  launchChromium,
  makeProfile,
  makeTempDir,
  startCodeServer,
  stopEverythingOnSignals,
  workbenchUrl,
} from './codeServer.mjs';
import { ensureVscodeEnvironment } from './vscodeEnvironment.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const helperExtension = join(repo, 'test', 'vscode', 'helper-extension');
const suiteEntry = join(repo, 'out', 'test', 'vscode', 'index.js');

const { values: options } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string', default: process.env.VSCODE_TEST_TIMEOUT ?? '600' },
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    screenshot: { type: 'string' },
  },
});
const timeoutSeconds = Number(options.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
  console.error(`--timeout must be a positive number of seconds, got ${JSON.stringify(options.timeout)}`);
  process.exit(2);
}

const log = (line) => process.stderr.write(`[test:vscode] ${line}\n`);

/** Makes the scripted-language-model helper extension available to this run only, by a symlink. */
function linkHelperExtension(extensionsDir) {
  const manifestPath = join(helperExtension, 'package.json');
  if (!existsSync(manifestPath)) return;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!existsSync(join(helperExtension, manifest.main))) {
    throw new Error(`${manifest.main} of the helper extension is not built; run npm run build`);
  }
  symlinkSync(helperExtension, join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
}

/** What the workbench looked like at the end (always saved to test-results/vscode-failure.png on failure). */
async function saveScreenshot(page, file) {
  try {
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file, timeout: 10_000 });
    log(`screenshot of the workbench: ${file}`);
  } catch (error) {
    log(`could not take a screenshot: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main() {
  stopEverythingOnSignals();
  if (!options['no-build']) {
    log('npm run build');
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  if (!existsSync(suiteEntry)) throw new Error(`${suiteEntry} is missing: the build did not produce the in-editor suite`);

  const environment = await ensureVscodeEnvironment({ log });
  const root = makeTempDir('thought-explorer-vscode-test-');
  const profile = makeProfile(root);
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Thought Explorer in-editor test workspace\n');
  const storage = join(root, 'thought-storage');
  mkdirSync(storage);
  linkHelperExtension(profile.extensionsDir);

  const outputMarker = `[suite ${randomBytes(4).toString('hex')}] `;
  const port = await freePort();
  const server = await startCodeServer({
    environment,
    profile,
    port,
    workspace,
    smokeTestDriver: true,
    echo: options.verbose,
    log,
    // The extension host inherits code-server's environment: that is how the suite learns its options.
    env: {
      THOUGHT_EXPLORER_TEST_GREP: options.grep ?? '',
      THOUGHT_EXPLORER_TEST_OUTPUT_MARKER: outputMarker,
      THOUGHT_EXPLORER_STORAGE: storage,
      THOUGHT_EXPLORER_TEST_WORKSPACE: workspace,
    },
  });

  const { context } = await launchChromium(environment);
  const page = await context.newPage();
  let finish;
  const finished = new Promise((resolveFinish) => (finish = resolveFinish));
  await page.exposeFunction('codeAutomationExit', (code) => {
    finish({ kind: 'exit', code: Number(code) });
  });
  // Messages are decoded asynchronously; chain them so lines print in the order they were logged. Lines carrying
  // the marker are the suite's own output; the rest is the workbench's log (shown with --verbose).
  let printed = Promise.resolve();
  page.on('console', (message) => {
    const decoded = extensionHostLine(message);
    printed = printed.then(async () => {
      const line = await decoded;
      if (line?.text.startsWith(outputMarker)) process.stdout.write(`${line.text.slice(outputMarker.length)}\n`);
      else if (options.verbose) process.stderr.write(`[workbench ${line?.level ?? message.type()}] ${line?.text ?? message.text()}\n`);
    });
  });
  page.on('pageerror', (error) => {
    if (options.verbose) process.stderr.write(`[workbench error] ${error.message}\n`);
  });
  server.exited.then(({ code, signal }) => finish({ kind: 'server-exit', code, signal }));
  const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutSeconds * 1000);

  log(`opening the workbench (suite: ${suiteEntry}${options.grep ? `, grep: ${options.grep}` : ''})`);
  const started = Date.now();
  await page.goto(workbenchUrl(server, workspace, { extensionDevelopmentPath: repo, extensionTestsPath: suiteEntry }));

  const outcome = await finished;
  clearTimeout(timer);
  // Let the last console messages arrive before closing the page.
  await new Promise((resolveWait) => setTimeout(resolveWait, 300));
  await printed;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (outcome.kind !== 'exit' || outcome.code !== 0) await saveScreenshot(page, join(repo, 'test-results', 'vscode-failure.png'));
  else if (options.screenshot) await saveScreenshot(page, resolve(options.screenshot));
  if (outcome.kind === 'timeout') {
    log(`TIMED OUT after ${timeoutSeconds} s: the suite did not finish (raise --timeout or VSCODE_TEST_TIMEOUT; ` +
      `run with --verbose or KEEP_TEMP=1 to see code-server's log at ${profile.logFile}).`);
    return 124;
  }
  if (outcome.kind === 'server-exit') {
    log(`code-server exited unexpectedly (${outcome.signal ?? `exit ${outcome.code}`}); see ${profile.logFile} (KEEP_TEMP=1 keeps it).`);
    return 1;
  }
  log(`suite finished with exit code ${outcome.code} in ${seconds} s`);
  return outcome.code;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await cleanupAll();
}
process.exit(exitCode);
