// `npm run test:walkthrough`: runs the in-editor walkthrough suite (test/vscode/suite/walkthrough.test.ts) in real VS
// Code and answers its questions from the workbench page: when the suite writes a label into the request file, this
// runner reads the open walkthrough's steps (title, ticked or not) from the DOM and writes them to the answer file,
// which the suite checks. After the last question it saves docs/walkthrough.png (the walkthrough with every step
// done). Options: --no-build, --timeout <seconds>, --verbose, --screenshot <file> (default docs/walkthrough.png).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeTempDir, runToExit } from './codeServer.mjs';
import { parseTimeout, repo, runInEditorSuite } from './suiteRunner.mjs';
import { startWebviewDriver } from './webviewDriver.mjs';

const { values: options } = parseArgs({
  options: {
    timeout: { type: 'string', default: process.env.VSCODE_TEST_TIMEOUT ?? '600' },
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    screenshot: { type: 'string', default: join(repo, 'docs', 'walkthrough.png') },
  },
});
const timeoutSeconds = parseTimeout(options.timeout);
const log = (line) => process.stderr.write(`[test:walkthrough] ${line}\n`);

/** The open walkthrough's steps as the page shows them: title and whether VS Code ticked it. */
async function readSteps(page) {
  const steps = page.locator('button.getting-started-step');
  await steps.first().waitFor({ state: 'visible', timeout: 20_000 });
  const seen = [];
  for (let index = 0; index < (await steps.count()); index++) {
    const step = steps.nth(index);
    seen.push({
      title: (await step.locator('h3.step-title').innerText()).trim(),
      done: (await step.getAttribute('aria-checked')) === 'true',
    });
  }
  return seen;
}

async function main() {
  if (!options['no-build']) {
    log('npm run build');
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const exchange = makeTempDir('thought-explorer-walkthrough-');
  const request = join(exchange, 'request');
  const answer = join(exchange, 'answer.json');
  let page;
  let answering = false;
  const poll = setInterval(async () => {
    if (!page || answering || !existsSync(request)) return;
    answering = true;
    try {
      const { label, expectDone } = JSON.parse(readFileSync(request, 'utf8'));
      rmSync(request);
      // Ticks follow completion events asynchronously: read the list until it shows the ticks the suite expects (or
      // until a deadline; the suite's assertions then show what the page held).
      const deadline = Date.now() + 10_000;
      let steps = await readSteps(page);
      while (steps.filter((step) => step.done).length !== expectDone && Date.now() < deadline) {
        await new Promise((resolveWait) => setTimeout(resolveWait, 200));
        steps = await readSteps(page);
      }
      log(`${label}: ${steps.map((step) => `${step.done ? '✓' : '·'} ${step.title}`).join(' | ')}`);
      if (label === 'done' && options.screenshot) {
        // The step's SVG is drawn in a webview of its own, which paints after the list.
        await page.waitForTimeout(4000);
        await page.screenshot({ path: resolve(options.screenshot) });
        log(`screenshot: ${resolve(options.screenshot)}`);
      }
      writeFileSync(answer, JSON.stringify({ label, steps }));
    } catch (error) {
      log(`could not read the walkthrough: ${error instanceof Error ? error.message : String(error)}`);
      writeFileSync(answer, JSON.stringify({ label: 'error', steps: [] }));
    } finally {
      answering = false;
    }
  }, 200);
  // The suite runs its Command Palette steps through the driver, as a person's clicks.
  const driver = await startWebviewDriver(log);
  try {
    return await runInEditorSuite({
      developRepo: true,
      files: 'walkthrough.test.js',
      env: { ...driver.env, THOUGHT_EXPLORER_TEST_WALKTHROUGH_REQUEST: request, THOUGHT_EXPLORER_TEST_WALKTHROUGH_ANSWER: answer },
      timeoutSeconds,
      verbose: options.verbose,
      onPage: (workbench) => {
        page = workbench;
        driver.attach(workbench);
      },
      log,
    });
  } finally {
    clearInterval(poll);
    await driver.close();
  }
}

await runToExit(main, log);
