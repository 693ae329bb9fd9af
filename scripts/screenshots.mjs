// `npm run screenshots`: the workbench as a person sees it while the demo's sample session plays through VS Code's own
// MCP client, captured in headless Chromium in the dark and the light theme. Into docs/ (the README shows them):
// screenshot-<theme>.png (the explorer panel on the stage graph, the Sessions tree expanded) and
// live-branch-tree-dark.png (the Branches tab of the panel and the sidebar mid-session). Into --out (default
// out/screenshots): branches-live-<theme>.png and branches-finished-<theme>.png (panel and sidebar, the whole
// workbench), their panel-/sidebar- crops, and in the dark theme feedback given through the explorer (a note, a
// rejection, an alternative to explore) and html-export-dark.png, the HTML export made with Export Session… opened in
// Chromium. With --big the same for a 68-thought session with six branches (big-session-<theme>*.png). Each capture
// logs what a person checks: the rows' label size, the final thought on screen, the sidebar's sideways overflow.
// Options: --no-package (reuse the existing .vsix), --port <n> (default: a free port), --out <dir>, --theme dark|light
// (default: both). With --hats
// chat|explorer it captures instead a six-hats deliberation on the in-editor tests' scripted model: docs/chat-hats.png
// (the chat view) or docs/explorer-hats.png (the explorer panel while the synthesis hat runs), staged by
// test/vscode/screens/hats.stage.ts; with --mcp-app the inline thought graph in the chat: docs/mcp-app-chat.png, staged
// by screens/mcpAppChat.stage.ts; with --live only docs/live-branch-tree-dark.png.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanupAll, freePort, runToExit } from './codeServer.mjs';
import { branchingSession } from './demo/branchingSession.mjs';
import { repo, startDemo } from './demo/demoServer.mjs';
import { SAMPLE_SESSION } from './demo/sampleSession.mjs';
import { packageExtension, vsixPath } from './package.mjs';
import { runInEditorSuite } from './suiteRunner.mjs';
import { explorerFrame, measureGraph } from './webviewDriver.mjs';

const { values: options } = parseArgs({
  options: {
    'no-package': { type: 'boolean', default: false },
    port: { type: 'string' },
    out: { type: 'string' },
    hats: { type: 'string' },
    'mcp-app': { type: 'boolean', default: false },
    live: { type: 'boolean', default: false },
    big: { type: 'boolean', default: false },
    theme: { type: 'string' },
  },
});
const log = (line) => process.stderr.write(`[screenshots] ${line}\n`);
const docs = join(repo, 'docs');
const outDir = resolve(options.out ?? join(repo, 'out', 'screenshots'));
const VIEWPORT = { width: 1600, height: 1000 };
const BRANCH_TAB = 'vscode-tab-header[data-diagram="branchTree"]';
const STAGE_TAB = 'vscode-tab-header[data-diagram="stageGraph"]';
const ROWS = 'section.diagram-branchTree .graph-row';

/** Opens or folds the Sessions view in the Thought Explorer sidebar (its header toggles it). */
async function setSessionsViewOpen(page, open) {
  const header = page.locator('.pane-header', { hasText: 'Sessions' }).first();
  await header.waitFor({ timeout: 60_000 });
  if ((await header.getAttribute('aria-expanded')) !== String(open)) await header.click();
}

/** Puts the Branches tab on screen in `frame` and waits for row `seq` of the drawing. */
async function showBranches(frame, seq) {
  await frame.waitForSelector(BRANCH_TAB, { timeout: 120_000 });
  await frame.click(BRANCH_TAB);
  await frame.waitForSelector(`${ROWS}[data-seq="${seq}"]`, { timeout: 120_000 });
}

/**
 * What a person checks on the drawing in `frame`, measured there: the smallest row label, whether the newest row (the
 * final thought once the session ended) is inside the drawing's view, and any sideways overflow (a scrollbar).
 */
async function readability(frame, newestSeq) {
  const measured = await measureGraph(frame, 'section.diagram-branchTree');
  const sizes = measured.rows.map((row) => row.fontPx);
  return {
    rowsInDom: measured.rows.length,
    smallestLabelPx: sizes.length > 0 ? Math.min(...sizes) : Number.NaN,
    newestDrawn: measured.rows.some((row) => row.seq === newestSeq),
    newestInView: measured.newestInView,
    sidewaysOverflowPx: measured.overflow,
  };
}

async function shoot(page, file) {
  mkdirSync(resolve(file, '..'), { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: file });
  log(`saved ${file}`);
}

/** The whole workbench, then the panel's and the sidebar's webviews alone, with the readability figures of each. */
async function shootSurfaces(page, frames, name, newestSeq) {
  await shoot(page, join(outDir, `${name}.png`));
  for (const [surface, frame] of Object.entries(frames)) {
    const figures = await readability(frame, newestSeq);
    log(`${name} ${surface}: ${JSON.stringify(figures)}`);
    const file = join(outDir, `${surface === 'view' ? 'sidebar' : 'panel'}-${name}.png`);
    // In the sidebar the page scrolls (the drawing above the cards) and following the session scrolls it to the newest
    // card: bring the drawing back, as a person reading it would.
    if (surface === 'view') await frame.locator('section.diagram-branchTree').scrollIntoViewIfNeeded();
    await (await frame.frameElement()).screenshot({ path: file });
    log(`saved ${file}`);
  }
}

/** Feedback through the panel as a person gives it: a note for the agent, a rejection, an alternative to explore. */
async function giveFeedback(frame) {
  const note = '.feedback-panel:not([hidden]) .feedback-note-input';
  await frame.waitForSelector('.thought-card[data-seq="4"]', { timeout: 120_000 });
  await frame.waitForSelector(note, { timeout: 60_000 });
  await frame.fill(note, 'Check the macOS runners too before concluding.');
  await frame.click('vscode-button.feedback-send-note');
  await frame.click('.thought-card[data-seq="2"] .thought-text');
  await frame.click('.thought-card[data-seq="2"] vscode-button.feedback-reject');
  await frame.fill('.thought-card[data-seq="2"] .feedback-input-reject', 'Timings alone do not show which step regressed.');
  await frame.click('.thought-card[data-seq="2"] vscode-button.feedback-submit-reject');
  await frame.click('.thought-card[data-seq="4"] .thought-text');
  await frame.click('.thought-card[data-seq="4"] vscode-button.feedback-branch');
  await frame.fill('.thought-card[data-seq="4"] .feedback-input-branch', 'compare-lockfiles');
  await frame.press('.thought-card[data-seq="4"] .feedback-input-branch', 'Enter');
  log('feedback given: a note, a rejection of #3, an alternative from #5');
}

/** Waits for VS Code's quick input to ask for `what` (a locator inside the widget: a title or a placeholder). */
async function quickInputAsks(page, what) {
  await page.locator(`.quick-input-widget ${what}`).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Export Session… → the session → HTML → the save dialog's default path, as a person runs it; the file written. */
async function exportHtml(page, workspace) {
  const exported = () => readdirSync(workspace).filter((name) => name.endsWith('.html'));
  const before = new Set(exported());
  try {
    await page.keyboard.press('F1');
    await page.keyboard.type('Thought Explorer: Export Session');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Export Session' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    // The sessions, most recent first: the one just played.
    await quickInputAsks(page, 'input[placeholder*="Export which session"]');
    await page.keyboard.press('Enter');
    await quickInputAsks(page, '.quick-input-title:has-text("Export “")');
    await page.keyboard.type('HTML');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'HTML' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    // The save dialog (VS Code's own file dialog in the browser) proposes a name in the workspace folder: accept it.
    await quickInputAsks(page, '.quick-input-title:has-text("Export session")');
    await page.keyboard.press('Enter');
    for (const started = Date.now(); Date.now() - started < 60_000; await page.waitForTimeout(250)) {
      const added = exported().filter((name) => !before.has(name));
      if (added.length > 0) return join(workspace, added[0]);
    }
    throw new Error('Export Session… wrote no HTML file within 60 s');
  } catch (error) {
    await page.screenshot({ path: join(outDir, 'export-failed.png') });
    throw error;
  }
}

/**
 * The exported file in Chromium as a reader opens it: its first screen, its branch tree (the feedback marks on their
 * rows) and its feedback section; the file itself is kept beside the pictures.
 */
async function shootExport(page, file) {
  copyFileSync(file, join(outDir, 'html-export-dark.html'));
  const reader = await page.context().newPage();
  await reader.setViewportSize({ width: 1400, height: 1000 });
  await reader.goto(pathToFileURL(file).href);
  await reader.waitForLoadState('load');
  await reader.screenshot({ path: join(outDir, 'html-export-dark.png') });
  const parts = { branches: 'figure[data-diagram="branchTree"]', feedback: 'section.feedback' };
  for (const [part, selector] of Object.entries(parts)) {
    const element = reader.locator(selector).first();
    await element.scrollIntoViewIfNeeded();
    // The tiles below the first screen load lazily: wait until every image in view has decoded.
    await reader
      .waitForFunction(
        '[...document.images].filter((image) => { const box = image.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; }).every((image) => image.complete && image.naturalWidth > 0)',
        undefined,
        { timeout: 30_000 },
      )
      .catch(() => log(`the export's images in view did not all load within 30 s (${part})`));
    await element.screenshot({ path: join(outDir, `html-export-${part}-dark.png`) });
  }
  log(`saved html-export-dark.png, html-export-branches-dark.png, html-export-feedback-dark.png in ${outDir} (${file})`);
  await reader.close();
}

/**
 * One demo play-through at an agent's pace in `theme`: the Branches tab of the panel and the sidebar mid-session and at
 * the finish; in the dark theme also feedback and the HTML export; then the stage graph with the Sessions tree.
 */
async function captureDemo(theme, vsix, { session, name, midSeq, paceMs, feedback }) {
  const port = options.port ? Number(options.port) : await freePort();
  const demo = await startDemo({ vsix, port, paceMs, theme, browser: true, viewport: VIEWPORT, log, session });
  const { page } = demo;
  const finished = demo.nextPlayThrough(600_000);
  const frames = { panel: await explorerFrame(page, 'panel', 180_000), view: await explorerFrame(page, 'view', 180_000) };
  // The Sessions view folded, so the sidebar's explorer has the sidebar's height, as a person watching it would set it.
  await setSessionsViewOpen(page, false);
  // While the session is live (an ended session takes no feedback), early enough to be delivered with later thoughts.
  if (feedback) await giveFeedback(frames.panel);
  for (const frame of Object.values(frames)) await showBranches(frame, midSeq);
  await shootSurfaces(page, frames, `${name}-live-${theme}`, midSeq);
  if (!session && theme === 'dark') {
    await page.screenshot({ path: join(docs, 'live-branch-tree-dark.png') });
    log(`saved ${join(docs, 'live-branch-tree-dark.png')}`);
  }
  const done = await finished;
  const last = (session ?? SAMPLE_SESSION).length - 1;
  log(`played ${done.sessionId}`);
  for (const frame of Object.values(frames)) await frame.waitForSelector(`${ROWS}[data-seq="${last}"]`, { timeout: 60_000 });
  await shootSurfaces(page, frames, `${name}-finished-${theme}`, last);
  if (!session) {
    // The README's picture: the stage graph, and the finished session (under Recent) expanded in the Sessions tree.
    await frames.panel.click(STAGE_TAB);
    await setSessionsViewOpen(page, true);
    const row = page.locator('.monaco-list-row', { hasText: 'nightly build' }).first();
    if ((await row.count()) > 0) await row.click();
    await page.waitForTimeout(1500);
    await shoot(page, join(docs, `screenshot-${theme}.png`));
  }
  // Last: its notification would cover the pictures above.
  if (feedback) await shootExport(page, await exportHtml(page, demo.workspace));
  await cleanupAll();
}

/** `--live`: only the README's mid-session picture. */
async function captureLive(vsix) {
  const port = options.port ? Number(options.port) : await freePort();
  const demo = await startDemo({ vsix, port, paceMs: 2500, theme: 'dark', browser: true, viewport: VIEWPORT, log });
  const { page } = demo;
  const frames = { panel: await explorerFrame(page, 'panel', 180_000), view: await explorerFrame(page, 'view', 180_000) };
  for (const frame of Object.values(frames)) await showBranches(frame, 8);
  for (const [surface, frame] of Object.entries(frames)) log(`live ${surface}: ${JSON.stringify(await readability(frame, 8))}`);
  await shoot(page, join(docs, 'live-branch-tree-dark.png'));
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
  mkdirSync(outDir, { recursive: true });
  if (options.hats !== undefined) return captureHats(options.hats);
  if (options['mcp-app']) return captureStaged('mcpAppChat.stage.js', 'mcp-app-chat.png', {}, inlineGraphsDrawn);
  const vsix = options['no-package']
    ? vsixPath()
    : packageExtension({ log: (line) => (line.startsWith('  ') ? undefined : log(line)) }).path;
  if (options.live) return captureLive(vsix).then(() => 0);
  if (options.theme !== undefined && !['dark', 'light'].includes(options.theme))
    throw new Error(`--theme takes dark or light, not ${options.theme}`);
  for (const theme of options.theme ? [options.theme] : ['dark', 'light']) {
    if (options.big) await captureDemo(theme, vsix, { session: branchingSession(), name: 'big-session', midSeq: 40, paceMs: 150 });
    else await captureDemo(theme, vsix, { name: 'branches', midSeq: 8, paceMs: 2500, feedback: theme === 'dark' });
  }
  return 0;
}

await runToExit(main, log);
