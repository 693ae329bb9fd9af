// `npm run screenshots`: the workbench as a person sees it after the demo's sample session, captured in headless
// Chromium in the dark and the light theme: docs/screenshot-dark.png, docs/screenshot-light.png (the explorer panel
// on the stage graph, the Sessions tree expanded) and docs/screenshot-branches-dark.png (the branch tree tab).
// Options: --no-package (reuse the existing .vsix), --port <n> (default: a free port). With --hats chat|explorer it
// captures instead a six-hats deliberation on the in-editor tests' scripted model: docs/chat-hats.png (the chat view)
// or docs/explorer-hats.png (the explorer panel while the synthesis hat runs), staged by test/vscode/screens/hats.stage.ts;
// with --mcp-app the inline thought graph in the chat: docs/mcp-app-chat.png, staged by screens/mcpAppChat.stage.ts;
// with --live the branch tree while the demo session is still live (rows appended as thoughts arrive):
// docs/live-branch-tree-dark.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanupAll, freePort, runToExit } from './codeServer.mjs';
import { repo, startDemo } from './demo/demoServer.mjs';
import { packageExtension, vsixPath } from './package.mjs';
import { runInEditorSuite } from './suiteRunner.mjs';

const { values: options } = parseArgs({
  options: {
    'no-package': { type: 'boolean', default: false },
    port: { type: 'string' },
    hats: { type: 'string' },
    'mcp-app': { type: 'boolean', default: false },
    live: { type: 'boolean', default: false },
  },
});
const log = (line) => process.stderr.write(`[screenshots] ${line}\n`);
const docs = join(repo, 'docs');

/**
 * The explorer panel's webview document: among the frames that hold the explorer's tab bar (the sidebar view has
 * one too), the widest one.
 */
async function explorerPanelFrame(page) {
  for (let attempt = 0; attempt < 40; attempt++) {
    let best;
    for (const frame of page.frames()) {
      try {
        if ((await frame.locator('text=Revisions').count()) === 0) continue;
        const box = await (await frame.frameElement()).boundingBox();
        if (box && (!best || box.width > best.width)) best = { frame, width: box.width };
      } catch {
        // a frame that went away while looking
      }
    }
    if (best) return best.frame;
    await page.waitForTimeout(250);
  }
  return undefined;
}

async function capture(theme, vsix) {
  const port = options.port ? Number(options.port) : await freePort();
  const demo = await startDemo({ vsix, port, paceMs: 200, theme, browser: true, viewport: { width: 1600, height: 1000 }, log });
  const { page } = demo;
  await demo.nextPlayThrough(180_000);
  // Expand the finished session (under Recent, open) in the Sessions tree: a person would see its thoughts and branches.
  const session = page.locator('.monaco-list-row', { hasText: 'nightly build' }).first();
  if ((await session.count()) > 0) await session.click();
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1500);
  const file = join(docs, `screenshot-${theme}.png`);
  await page.screenshot({ path: file });
  log(`saved ${file}`);
  if (theme === 'dark') {
    const frame = await explorerPanelFrame(page);
    if (frame) {
      await frame.locator('text=Branches').first().click();
      // The tree opens on the latest thoughts (windowed): the fork of the second branch, the revision and the end.
      await page.waitForTimeout(1500);
      const branches = join(docs, 'screenshot-branches-dark.png');
      await page.screenshot({ path: branches });
      log(`saved ${branches}`);
    } else {
      log("the explorer panel's tabs were not found; skipped the branch-tree screenshot");
    }
  }
  await cleanupAll();
}

/**
 * The Branches tab mid-session: the demo played at an agent's pace (a thought every 2.5 s), captured once the tenth
 * card is on screen; the thought drawing appends rows, so the first thought's row is still where it was drawn.
 */
async function captureLive(vsix) {
  const port = options.port ? Number(options.port) : await freePort();
  const demo = await startDemo({ vsix, port, paceMs: 2500, theme: 'dark', browser: true, viewport: { width: 1600, height: 1000 }, log });
  const { page } = demo;
  const frame = await explorerPanelFrame(page);
  if (!frame) throw new Error("the explorer panel's tabs were not found");
  await frame.waitForSelector('.thought-card[data-seq="8"]', { state: 'attached', timeout: 120_000 });
  await frame.click('vscode-tab-header[data-diagram="branchTree"]');
  await frame.waitForSelector('section.diagram-branchTree .graph-row[data-seq="9"]', { timeout: 30_000 });
  await page.mouse.move(0, 0);
  const file = join(docs, 'live-branch-tree-dark.png');
  await page.screenshot({ path: file });
  log(`saved ${file}`);
  await cleanupAll();
}

/** A window staged by `stageFile` in the extension under development (after `npm run build`), then the workbench. */
async function captureStaged(stageFile, screenshot, env = {}, beforeScreenshot = undefined) {
  const code = await runInEditorSuite({
    developRepo: true,
    testsPath: join(repo, 'out', 'test', 'vscode-screens', stageFile),
    timeoutSeconds: 300,
    screenshot: join(docs, screenshot),
    beforeScreenshot,
    env,
    log,
  });
  await cleanupAll();
  return code;
}

/** The chat's inline views (MCP App frames nested in the chat) have each drawn their thought graph. */
async function inlineGraphsDrawn(page) {
  const drawn = async () => {
    let graphs = 0;
    for (const frame of page.frames())
      graphs += await frame
        .locator('svg g.node')
        .count()
        .then(
          (count) => (count > 0 ? 1 : 0),
          () => 0,
        );
    return graphs;
  };
  for (const started = Date.now(); Date.now() - started < 30_000; await page.waitForTimeout(250)) if ((await drawn()) >= 3) return;
  throw new Error('fewer than three inline thought graphs drawn within 30 s');
}

/** A six-hats deliberation on the scripted model: the chat view, or the explorer panel while the synthesis hat runs. */
function captureHats(stage) {
  if (stage !== 'chat' && stage !== 'explorer') throw new Error(`--hats takes chat or explorer, not ${stage}`);
  return captureStaged('hats.stage.js', `${stage}-hats.png`, { THOUGHT_EXPLORER_SCREENSHOT: stage });
}

async function main() {
  mkdirSync(docs, { recursive: true });
  if (options.hats !== undefined) return captureHats(options.hats);
  if (options['mcp-app']) return captureStaged('mcpAppChat.stage.js', 'mcp-app-chat.png', {}, inlineGraphsDrawn);
  const vsix = options['no-package']
    ? vsixPath()
    : packageExtension({ log: (line) => (line.startsWith('  ') ? undefined : log(line)) }).path;
  if (options.live) return captureLive(vsix).then(() => 0);
  for (const theme of ['dark', 'light']) await capture(theme, vsix);
  return 0;
}

await runToExit(main, log);
