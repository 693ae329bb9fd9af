// `npm run demo` — the one command that shows the product working: builds and packages the extension, starts
// code-server with the .vsix installed in a fresh demo workspace on http://127.0.0.1:8080, and plays a sample ReAct
// session (12 thoughts, a revision, two branches) through VS Code's own MCP client into the extension's MCP server
// as soon as the printed URL is opened. Ctrl-C stops everything it started.
// Options: --port <n> (or DEMO_PORT; default 8080), --pace <ms> (default 1500), --theme dark|light,
// --no-package (reuse the existing .vsix), --check (open it headless, wait for the session, save a screenshot to
// test-results/demo.png and exit: proves the demo works without a person).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runToExit } from './codeServer.mjs';
import { startDemo, repo } from './demo/demoServer.mjs';
import { packageExtension, vsixPath } from './package.mjs';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.DEMO_PORT ?? '8080' },
    pace: { type: 'string', default: '1500' },
    theme: { type: 'string', default: 'dark' },
    'no-package': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const log = (line) => process.stderr.write(`[demo] ${line}\n`);

function positiveInteger(name, value, { allowZero = false } = {}) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < (allowZero ? 0 : 1) || number > 65_535_000) {
    throw new Error(`--${name} must be a whole number${allowZero ? '' : ' above 0'}, got ${JSON.stringify(value)}`);
  }
  return number;
}

async function main() {
  const port = positiveInteger('port', options.port);
  if (port > 65_535) throw new Error(`--port must be at most 65535, got ${port}`);
  const paceMs = positiveInteger('pace', options.pace, { allowZero: true });
  if (options.theme !== 'dark' && options.theme !== 'light')
    throw new Error(`--theme must be dark or light, got ${JSON.stringify(options.theme)}`);

  let vsix = vsixPath();
  if (!options['no-package']) vsix = packageExtension({ log: (line) => (line.startsWith('  ') ? undefined : log(line)) }).path;
  else if (!existsSync(vsix)) throw new Error(`${vsix} does not exist: drop --no-package or run npm run package`);

  const demo = await startDemo({ vsix, port, paceMs, theme: options.theme, browser: options.check, log });
  if (options.check) {
    try {
      await demo.nextPlayThrough(180_000);
    } catch (error) {
      await demo.page.screenshot({ path: join(repo, 'test-results', 'demo-failure.png') }).catch(() => undefined);
      throw error;
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 2000));
    const file = join(repo, 'test-results', 'demo.png');
    await demo.page.screenshot({ path: file });
    log(`demo check passed; screenshot: ${file}`);
    return 0;
  }
  const banner = [
    '',
    '  Thought Explorer demo is running in real VS Code (code-server).',
    '',
    `  Open:  ${demo.url}`,
    '',
    '  The sample session starts playing as soon as the workbench has loaded: the Thought Explorer sidebar',
    '  lists it live, and the explorer panel draws the stage graph, branch tree and revision chain as each',
    "  thought arrives through VS Code's MCP client. Reload the page to play it again.",
    '  Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(`${banner.join('\n')}\n`);
  const { code, signal } = await demo.server.exited;
  log(`code-server exited (${signal ?? `exit ${code}`})`);
  return 1;
}

await runToExit(main, log);
