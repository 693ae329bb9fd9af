// Runs the compiled in-editor mocha suite (out/test/vscode/index.js) inside code-server opened in headless Chromium
// and returns its exit code: used by `npm run test:vscode` (the repo as the extension under development) and by
// scripts/testVsix.mjs (the packaged .vsix installed instead). Streams the suite's own output to stdout.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  extensionHostLine,
  freePort,
  installExtension,
  launchChromium,
  makeProfile,
  makeTempDir,
  startCodeServer,
  workbenchUrl,
} from './codeServer.mjs';
import { ensureVscodeEnvironment } from './vscodeEnvironment.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const suiteEntry = join(repo, 'out', 'test', 'vscode', 'index.js');
const helperExtension = join(repo, 'test', 'vscode', 'helper-extension');

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

async function saveScreenshot(page, file, log) {
  try {
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file, timeout: 10_000 });
    log(`screenshot of the workbench: ${file}`);
  } catch (error) {
    log(`could not take a screenshot: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * @param {object} options
 * @param {boolean} [options.developRepo] load this repo as the extension under development (else an empty stand-in)
 * @param {string} [options.installVsix] a .vsix to install into the fresh extensions folder first
 * @param {string} [options.grep] mocha grep
 * @param {string} [options.files] comma-separated compiled test files to run (default: the normal set)
 * @param {number} options.timeoutSeconds
 * @param {boolean} [options.verbose] echo code-server's and the workbench's own logs
 * @param {string} [options.screenshot] save the workbench at the end to this file
 * @param {(page: import('playwright-core').Page) => Promise<void>} [options.beforeScreenshot] waits until the workbench
 *   shows what the screenshot is for (what the extension host cannot see, e.g. a chat's inline view painted)
 * @param {Record<string, string>} [options.env] more environment for code-server (and so the extension host)
 * @param {(line: string) => void} options.log
 * @param {string} [options.testsPath] the extensionTestsPath module to run instead of the suite (bench/vscodeRedraw.ts)
 * @param {(page: import('playwright-core').Page) => void | Promise<void>} [options.onPage] called with the workbench
 *   page before it opens, for callers that also watch the page (the redraw benchmark observes the webview's frames)
 * @param {(line: string) => void} [options.onOutput] receives the suite's own output lines instead of stdout
 * @returns {Promise<number>} the suite's exit code (124 on time-out)
 */
export async function runInEditorSuite(options) {
  const { log } = options;
  const testsPath = options.testsPath ?? suiteEntry;
  if (!existsSync(testsPath)) throw new Error(`${testsPath} is missing: the build did not produce the in-editor suite`);
  const environment = await ensureVscodeEnvironment({ log });
  const root = makeTempDir('thought-explorer-vscode-test-');
  const profile = makeProfile(root);
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Thought Explorer in-editor test workspace\n');
  const storage = join(root, 'thought-storage');
  mkdirSync(storage);
  linkHelperExtension(profile.extensionsDir);
  if (options.installVsix) {
    log(`installing ${options.installVsix} with code-server --install-extension`);
    await installExtension(environment, profile, options.installVsix);
  }

  // VS Code runs extensionTestsPath only for a window with an extension under development. Without the repo, an
  // empty stand-in extension takes that role, so installed extensions (the .vsix) load as a person's would.
  let developmentPath = repo;
  if (!options.developRepo) {
    developmentPath = join(root, 'test-host-extension');
    mkdirSync(developmentPath);
    writeFileSync(
      join(developmentPath, 'package.json'),
      JSON.stringify(
        { name: 'test-host', publisher: 'thought-explorer-tests', version: '0.0.1', engines: { vscode: '^1.101.0' } },
        null,
        2,
      ),
    );
  }

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
      THOUGHT_EXPLORER_TEST_FILES: options.files ?? '',
      THOUGHT_EXPLORER_TEST_OUTPUT_MARKER: outputMarker,
      THOUGHT_EXPLORER_STORAGE: storage,
      THOUGHT_EXPLORER_TEST_WORKSPACE: workspace,
      ...options.env,
    },
  });

  const { context } = await launchChromium(environment);
  const page = await context.newPage();
  await options.onPage?.(page);
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
      if (line?.text.startsWith(outputMarker)) {
        const text = line.text.slice(outputMarker.length);
        if (options.onOutput) options.onOutput(text);
        else process.stdout.write(`${text}\n`);
      } else if (options.verbose) process.stderr.write(`[workbench ${line?.level ?? message.type()}] ${line?.text ?? message.text()}\n`);
    });
  });
  page.on('pageerror', (error) => {
    if (options.verbose) process.stderr.write(`[workbench error] ${error.message}\n`);
  });
  server.exited.then(({ code, signal }) => finish({ kind: 'server-exit', code, signal }));
  const timer = setTimeout(() => finish({ kind: 'timeout' }), options.timeoutSeconds * 1000);

  log(`opening the workbench (suite: ${testsPath}${options.grep ? `, grep: ${options.grep}` : ''})`);
  const started = Date.now();
  await page.goto(
    workbenchUrl(server, workspace, {
      extensionDevelopmentPath: developmentPath,
      extensionTestsPath: testsPath,
    }),
  );

  const outcome = await finished;
  clearTimeout(timer);
  // Let the last console messages arrive before closing the page.
  await new Promise((resolveWait) => setTimeout(resolveWait, 300));
  await printed;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (outcome.kind !== 'exit' || outcome.code !== 0) await saveScreenshot(page, join(repo, 'test-results', 'vscode-failure.png'), log);
  else if (options.screenshot) {
    await options.beforeScreenshot?.(page).catch((error) => log(`the screenshot's condition was not met: ${error.message}`));
    await saveScreenshot(page, resolve(options.screenshot), log);
  }
  if (outcome.kind === 'timeout') {
    log(
      `TIMED OUT after ${options.timeoutSeconds} s: the suite did not finish (raise --timeout or VSCODE_TEST_TIMEOUT; ` +
        `run with --verbose or KEEP_TEMP=1 to see code-server's log at ${profile.logFile}).`,
    );
    return 124;
  }
  if (outcome.kind === 'server-exit') {
    log(`code-server exited unexpectedly (${outcome.signal ?? `exit ${outcome.code}`}); see ${profile.logFile} (KEEP_TEMP=1 keeps it).`);
    return 1;
  }
  log(`suite finished with exit code ${outcome.code} in ${seconds} s`);
  return outcome.code;
}

/** --timeout / VSCODE_TEST_TIMEOUT as seconds, or exit 2 with a clear message. */
export function parseTimeout(value) {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    console.error(`--timeout must be a positive number of seconds, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return seconds;
}
