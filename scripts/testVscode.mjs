// `npm run test:vscode`: builds, then runs the compiled mocha suite (out/test/vscode/index.js) inside a real VS Code
// — code-server 4.139.1 opened in headless Debian Chromium — with this repo as the extension under development,
// streams the suite's output and exits with its code (124 and a clear message on a time-out).
// Options: --grep <pattern>, --timeout <seconds> (default 600, or VSCODE_TEST_TIMEOUT), --no-build,
// --verbose (echo code-server's and the workbench's logs), --screenshot <file> (the workbench at the end; on failure
// one always goes to test-results/vscode-failure.png). KEEP_TEMP=1 keeps the temporary profile folder.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { runToExit } from './codeServer.mjs';
import { parseTimeout, repo, runInEditorSuite } from './suiteRunner.mjs';
import { startWebviewDriver } from './webviewDriver.mjs';

const { values: options } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string', default: process.env.VSCODE_TEST_TIMEOUT ?? '600' },
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    screenshot: { type: 'string' },
  },
});
const timeoutSeconds = parseTimeout(options.timeout);
const log = (line) => process.stderr.write(`[test:vscode] ${line}\n`);

async function main() {
  if (!options['no-build']) {
    log('npm run build');
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  // Suites that act inside the explorer webview (typing a note) ask this process to do it in the workbench page.
  const driver = await startWebviewDriver(log);
  try {
    return await runInEditorSuite({
      developRepo: true,
      grep: options.grep,
      timeoutSeconds,
      verbose: options.verbose,
      screenshot: options.screenshot,
      env: driver.env,
      onPage: (page) => driver.attach(page),
      log,
    });
  } finally {
    await driver.close();
  }
}

await runToExit(main, log);
