// The in-editor suite's entry: VS Code's extension host loads this file (extensionTestsPath) and calls run().
// It runs every compiled `*.test.js` next to it with mocha's TDD interface (suite/test), in file-name order.
// Mocha stays external to the bundle and is resolved from the repo's node_modules at run time.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { RELOAD_MARKER, RELOAD_TEST_FILE, SUITE_FAILURES_KEY, type ReloadMarker } from './reloadMarker';

/**
 * The extension host's console reaches the code-server runner mixed with the workbench's own log lines. When the
 * runner passes a marker, every line the suite prints (mocha's reporter and the tests' own logs) is formatted here
 * and prefixed with it, so the runner can show exactly the suite's output. Returns a function that undoes it.
 */
function markConsoleOutput(marker: string): () => void {
  const methods = ['log', 'info', 'warn', 'error'] as const;
  // The extension host defines the console methods as accessors that forward to the workbench; plain assignment
  // does not replace them, so redefine the properties and put the original descriptors back afterwards.
  const descriptors = methods.map((method) => Object.getOwnPropertyDescriptor(console, method));
  for (const method of methods) {
    const original = console[method].bind(console);
    Object.defineProperty(console, method, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => original(`${marker}${format(...args)}`),
    });
  }
  // Mocha's reporters keep their own reference to console.log, taken when mocha was loaded.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const originalBaseLog = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => console.log(...args);
  return () => {
    methods.forEach((method, index) => {
      const descriptor = descriptors[index];
      if (descriptor) Object.defineProperty(console, method, descriptor);
    });
    base.consoleLog = originalBaseLog;
  };
}

/** Suites that need a special setup (scripts/testVsix.mjs installs the packaged .vsix) run only when named. */
const RUN_ONLY_WHEN_NAMED = new Set(['harnessVsix.test.js']);

/** The compiled test files to load: the named ones (comma-separated), or every ordinary *.test.js. */
function selectTestFiles(names: readonly string[], only: string | undefined): string[] {
  const tests = names.filter((name) => name.endsWith('.test.js')).sort();
  const wanted = (only ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (wanted.length > 0) {
    const missing = wanted.filter((name) => !tests.includes(name));
    if (missing.length > 0) throw new Error(`No compiled test file ${missing.join(', ')} next to ${__filename}`);
    return wanted;
  }
  const selected = tests.filter((name) => !RUN_ONLY_WHEN_NAMED.has(name));
  if (selected.length === 0) throw new Error(`No *.test.js files next to ${__filename}`);
  return selected;
}

export async function run(): Promise<void> {
  const grep = process.env.THOUGHT_EXPLORER_TEST_GREP?.trim();
  const mocha = new Mocha({
    ui: 'tdd',
    // The console is forwarded to the workbench page as text; ANSI colours would only be noise there.
    color: false,
    // A cold extension host and VS Code's own MCP client are slow on small CI machines.
    timeout: Number(process.env.THOUGHT_EXPLORER_TEST_TIMEOUT_MS ?? 60_000),
    ...(grep ? { grep } : {}),
  });
  // A window started by the reload test's reload runs only that test's second phase, not the whole suite again.
  const afterReload = RELOAD_MARKER !== undefined && existsSync(RELOAD_MARKER);
  const files = afterReload ? [RELOAD_TEST_FILE] : selectTestFiles(readdirSync(__dirname), process.env.THOUGHT_EXPLORER_TEST_FILES);
  // The first window's mocha never reports (the reload ends it): its failures travel in the marker and count here.
  const failedBeforeReload = afterReload && RELOAD_MARKER ? failuresInMarker(RELOAD_MARKER) : 0;
  for (const file of files) mocha.addFile(join(__dirname, file));

  const marker = process.env.THOUGHT_EXPLORER_TEST_OUTPUT_MARKER;
  const unmark = marker ? markConsoleOutput(marker) : () => undefined;
  let failures: number;
  try {
    failures = await new Promise<number>((resolve, reject) => {
      try {
        const runner = mocha.run(resolve);
        // Mocha's reporter lists failures at the end of the run, which a window that reloads never reaches: print each
        // one as it happens, or a failure before the reload would show only as a count.
        if (!afterReload && files.includes(RELOAD_TEST_FILE)) {
          runner.on('fail', (test, error: unknown) => {
            const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
            console.log(`\n  FAILED: ${test.fullTitle()}\n${detail}\n`);
          });
        }
        // Read by the reload test just before it reloads the window.
        (globalThis as Record<string, unknown>)[SUITE_FAILURES_KEY] = () => runner.failures;
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    // Printed while the console is still marked, or the runner would not show the line.
    if (failedBeforeReload > 0) console.log(`${failedBeforeReload} in-editor test(s) failed before the window reload (see above)`);
  } finally {
    unmark();
  }
  failures += failedBeforeReload;
  if (failures > 0) throw new Error(`${failures} in-editor test(s) failed`);
}

function failuresInMarker(path: string): number {
  try {
    const marker = JSON.parse(readFileSync(path, 'utf8')) as Partial<ReloadMarker>;
    return typeof marker.failuresBefore === 'number' ? marker.failuresBefore : 1;
  } catch {
    // A marker that cannot be read says nothing about the first window: count it as a failure rather than a pass.
    return 1;
  }
}
