// The exported HTML file in real Chromium (Debian's, driven by playwright-core): readable with scripts off; with
// scripts on, the inlined Mermaid draws every diagram while no script from thought text runs, no dialog opens and the
// CSP admits nothing but the renderer. Screenshots go to test-results/export-html/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { sessionThoughtGraphSvg } from '../../src/diagrams/thoughtGraphSvg';
import { exportSession } from '../../src/export/index';
import { imagesSettled } from '../support/pageSettled';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'dist', 'webview', 'export-render.js');
const RESULTS = join(ROOT, 'test-results', 'export-html');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The launch flags that work on these machines (see shared notes, real-vscode.md).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Every payload tries to set window.__pwned (and to open a dialog): if any of them ever runs, the tests see it. */
const CORPUS = [
  '"]); window.__pwned = 1; alert(1)//',
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '%%{init: {"securityLevel": "loose"}}%%\nclick t0 call alert()',
  'click A call alert()\nclick t1 href "javascript:window.__pwned=1"',
  '</script><script>window.__pwned=1;alert(1)</script>',
  '<a href="javascript:window.__pwned=1;alert(1)">javascript:alert(1)</a>',
  '<svg onload="window.__pwned=1"><script>window.__pwned=1</script></svg>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '```\n<style>body{display:none}</style>\n``` ; # `backticks` 😀 中文',
  'math $$x^2 + \\frac{1}{2}$$ stays text',
];

interface Observed {
  dialogs: string[];
  errors: string[];
  violations: string[];
}

function corpusSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  let id = '';
  const total = CORPUS.length + 3;
  const send = (args: Record<string, unknown>): void => {
    const outcome = engine.process('export-test', { totalThoughts: total, nextThoughtNeeded: true, ...args });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    id = outcome.reply.sessionId;
  };
  CORPUS.forEach((thought, index) => send({ thought, thoughtNumber: index + 1 }));
  send({ thought: `${CORPUS[1]} (revised)`, thoughtNumber: CORPUS.length + 1, isRevision: true, revisesThought: 2 });
  send({ thought: CORPUS[4], thoughtNumber: 3, branchFromThought: 2, branchId: 'alt' });
  send({ thought: 'Final answer', thoughtNumber: total, nextThoughtNeeded: false });
  const snapshot = engine.getSession(id);
  assert.ok(snapshot);
  // The engine refuses such a branch id; a hand-edited file might not be so careful. The export must not care.
  const thoughts = snapshot.thoughts.map((thought) =>
    thought.branchId === 'alt' ? { ...thought, branchId: '<b onmouseover=alert(1)>alt</b>' } : thought,
  );
  return { ...snapshot, thoughts };
}

async function open(
  browser: Browser,
  file: string,
  javaScriptEnabled: boolean,
): Promise<{ context: BrowserContext; page: Page; observed: Observed }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const observed: Observed = { dialogs: [], errors: [], violations: [] };
  page.on('dialog', (dialog) => {
    observed.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => observed.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) observed.violations.push(message.text());
  });
  await page.goto(pathToFileURL(file).href);
  return { context, page, observed };
}

/**
 * The thought drawing of an exported page, parsed from its figure's image (the export draws it as an SVG image): each
 * row's node id and text, and how many elements that could run or link anything the SVG holds.
 */
async function thoughtFigure(
  page: Page,
  kind: 'branchTree' | 'revisionChain',
): Promise<{ rows: { id: string; text: string }[]; active: number }> {
  // A long session's drawing is several images of consecutive rows (tiles), top to bottom.
  const sources = await page
    .locator(`#diagram-${kind} img.diagram-img`)
    .evaluateAll((images) => images.map((image) => image.getAttribute('src')));
  assert.ok(sources.length > 0, `the ${kind} figure has an image`);
  const svgs = sources.map((src) => {
    assert.ok(src !== null && src.startsWith('data:image/svg+xml;base64,'), `the ${kind} figure is SVG images`);
    return Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').toString('utf8');
  });
  return page.evaluate((texts) => {
    const docs = texts.map((text) => new DOMParser().parseFromString(text, 'image/svg+xml'));
    return {
      rows: docs.flatMap((doc) =>
        [...doc.querySelectorAll('g.node')].map((node) => ({ id: node.getAttribute('data-id') ?? '', text: node.textContent ?? '' })),
      ),
      active: docs.reduce(
        (sum, doc) => sum + doc.querySelectorAll('script, foreignObject, a, image, iframe, [onload], [onerror]').length,
        0,
      ),
    };
  }, svgs);
}

function writeExport(name: string, html: string): string {
  const file = join(RESULTS, name);
  writeFileSync(file, html);
  return file;
}

describe('exported HTML in Chromium', () => {
  let browser: Browser;
  let snapshot: SessionSnapshot;
  let exported: string;

  before(async () => {
    if (!existsSync(RENDERER)) throw new Error(`${RENDERER} is missing: run "npm run build" before the webview tests.`);
    if (!existsSync(CHROMIUM_PATH))
      throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
    mkdirSync(RESULTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    snapshot = corpusSession();
    exported = writeExport('session.html', await exportSession(snapshot, 'html', { rendererPath: RENDERER }));
  });

  after(async () => {
    await browser?.close();
  });

  it('is readable with scripts off: every thought as text, the thought drawing as images, the stage graph source shown', async () => {
    const { context, page, observed } = await open(browser, exported, false);
    try {
      const texts = await page.locator('article.thought > .text').allTextContents();
      assert.deepEqual(texts.slice(0, CORPUS.length), CORPUS);
      assert.equal(await page.locator('article.thought').count(), snapshot.thoughts.length);
      // Only the stage graph waits for the script; the branch tree and revision links are drawn into the file.
      assert.equal(await page.locator('pre.mermaid-src').count(), 1);
      assert.ok(await page.locator('#diagram-stageGraph pre.mermaid-src').isVisible());
      assert.equal(await page.locator('svg').count(), 0, 'nothing drawn inline without scripts');
      assert.equal(await page.locator('img.diagram-img').count(), 2);
      assert.equal(await page.locator('img:not(.diagram-img), iframe, a[href]').count(), 0, 'no element came out of thought text');
      assert.deepEqual(observed.dialogs, []);
      await page.screenshot({ path: join(RESULTS, 'scripts-off.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('draws every diagram with scripts on, runs nothing from thought text, and the CSP is never challenged', async () => {
    const { context, page, observed } = await open(browser, exported, true);
    try {
      await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
      const renderMs = await page.locator('html').getAttribute('data-render-ms');
      assert.equal(await page.locator('#diagram-stageGraph').getAttribute('data-rendered'), 'true');
      assert.equal(await page.locator('figure .diagram-svg svg').count(), 1);
      assert.equal(await page.locator('pre.mermaid-src:visible').count(), 0);

      // The thought drawing has a row per thought, each with its thought's text as text, not as markup.
      const branch = await thoughtFigure(page, 'branchTree');
      assert.deepEqual(
        branch.rows.map((row) => row.id),
        snapshot.thoughts.map((thought) => `t${thought.seq}`),
      );
      const labels = branch.rows.map((row) => row.text);
      assert.ok(
        labels.some((label) => label.includes('<img src=x onerror="window.__pwned=')),
        labels.join('\n'),
      );
      assert.equal(branch.active, 0, 'nothing in the drawing can run or link');
      assert.equal((await thoughtFigure(page, 'revisionChain')).rows.length, snapshot.thoughts.length);
      assert.equal(await page.locator('.katex').count(), 0, '$$…$$ in thought text must not become math');
      assert.ok(
        labels.some((label) => label.includes('math $$x^2 + \\frac{1}{2}$$ stays')),
        labels.join('\n'),
      );

      await imagesSettled(page);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
      assert.deepEqual(observed.dialogs, []);
      assert.deepEqual(observed.violations, []);
      assert.deepEqual(observed.errors, []);
      await page.screenshot({ path: join(RESULTS, 'scripts-on.png'), fullPage: true });
      process.stderr.write(`export-html: ${(statSync(exported).size / 1024).toFixed(0)} KiB, diagrams drawn in ${renderMs} ms\n`);
    } finally {
      await context.close();
    }
  });

  it('shows pre-rendered SVGs (with hostile additions) as inert images', async () => {
    const { context, page } = await open(browser, exported, true);
    let svgs: Record<string, string>;
    try {
      await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
      // The editor sends SVGs of every diagram: the stage graph as Mermaid drew it, the thought drawing as the explorer does.
      svgs = {
        stageGraph: await page.locator('#diagram-stageGraph .diagram-svg svg').evaluate((svg) => svg.outerHTML),
        branchTree: sessionThoughtGraphSvg(snapshot, 'Branch tree'),
        revisionChain: sessionThoughtGraphSvg(snapshot, 'Revision chain'),
      };
    } finally {
      await context.close();
    }
    const hostile =
      '<script>window.__pwned=1</script><image href="x" onerror="window.__pwned=1"/><a href="javascript:window.__pwned=1"><text>x</text></a></svg>';
    // The thought drawings are the export's own (drawn from the snapshot); the stage graph is the editor's as sent.
    svgs.stageGraph = svgs.stageGraph.replace(/<\/svg>$/, hostile).replace('<svg ', '<svg onload="window.__pwned=1" ');
    const file = writeExport('session-prerendered.html', await exportSession(snapshot, 'html', { svgs }));

    const opened = await open(browser, file, true);
    try {
      assert.equal(await opened.page.locator('script').count(), 0, 'no renderer needed when every diagram is pre-rendered');
      const sizes = await opened.page.locator('img.diagram-img').evaluateAll(async (images) =>
        Promise.all(
          (images as HTMLImageElement[]).map(async (image) => {
            await image.decode().catch(() => undefined);
            return image.naturalWidth;
          }),
        ),
      );
      assert.equal(sizes.length, 3);
      for (const width of sizes) assert.ok(width > 0, `an SVG image failed to load (${sizes.join(', ')})`);
      await imagesSettled(opened.page);
      assert.equal(await opened.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
      assert.deepEqual(opened.observed.dialogs, []);
      await opened.page.screenshot({ path: join(RESULTS, 'prerendered.png'), fullPage: true });
    } finally {
      await opened.context.close();
    }
  });

  it('detects script execution and CSP blocks when they happen (the checks above can fail)', async () => {
    // Without the exporter's escaping a payload does run, and the same observers see it.
    const unsafe = writeExport('control-unescaped.html', `<!doctype html><body>${CORPUS[1]}</body>`);
    const control = await open(browser, unsafe, true);
    try {
      await control.page.waitForFunction(() => (window as unknown as { __pwned?: unknown }).__pwned === 1, undefined, { timeout: 5_000 });
      assert.equal(control.observed.dialogs.length, 1);
    } finally {
      await control.context.close();
    }
    // An inline script the exporter did not hash is refused by the exported file's CSP.
    const html = await exportSession(snapshot, 'html', { rendererPath: RENDERER });
    const injected = writeExport('control-unhashed.html', html.replace('</main>', '</main><script>window.__pwned=1</script>'));
    const blocked = await open(browser, injected, true);
    try {
      await blocked.page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
      assert.equal(await blocked.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
      assert.equal(blocked.observed.violations.length, 1, blocked.observed.violations.join('\n'));
    } finally {
      await blocked.context.close();
    }
  });

  it('says what failed instead of leaving a blank figure when a diagram cannot be drawn', async () => {
    // The inlined Mermaid is trimmed to flowcharts; anything else (or a broken source) must fail visibly.
    const html = (await exportSession(snapshot, 'html', { rendererPath: RENDERER })).replace(
      /(<figure id="diagram-stageGraph"[\s\S]*?<pre class="mermaid-src">)[\s\S]*?(<\/pre>)/,
      '$1sequenceDiagram\n  A-&gt;&gt;B: hello$2',
    );
    const { context, page, observed } = await open(browser, writeExport('session-unsupported.html', html), true);
    try {
      await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
      assert.deepEqual(
        await page.locator('figure').evaluateAll((figures) => figures.map((figure) => figure.getAttribute('data-rendered'))),
        ['error', null, null],
      );
      assert.match((await page.locator('#diagram-stageGraph .render-error').textContent()) ?? '', /could not be drawn: .*only flowcharts/);
      assert.ok(await page.locator('#diagram-stageGraph pre.mermaid-src').isVisible(), 'the source stays readable');
      assert.deepEqual(observed.dialogs, []);
    } finally {
      await context.close();
    }
  });

  it("keeps every row's text inside its background, long tags and feedback marks included", async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    let id = '';
    const long = 'Hypothesis B: the new runner image moved the cache folder, so the restored cache lands where npm never looks for it';
    const send = (args: Record<string, unknown>): void => {
      const outcome = engine.process('row-width', { totalThoughts: 5, nextThoughtNeeded: true, ...args });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      id = outcome.reply.sessionId;
    };
    send({ thought: long, thoughtNumber: 1 });
    send({ thought: long, thoughtNumber: 2 });
    send({ thought: long, thoughtNumber: 3, branchFromThought: 2, branchId: 'runner-image-cache-location' });
    assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 3, text: 'Not the cache.' }).ok);
    send({ thought: long.toUpperCase(), thoughtNumber: 4, isRevision: true, revisesThought: 2 });
    send({ thought: 'WWWWWWWWWW '.repeat(20), thoughtNumber: 5, nextThoughtNeeded: false });
    const session = engine.getSession(id);
    assert.ok(session);
    const file = writeExport('row-width.html', await exportSession(session, 'html', { rendererPath: RENDERER }));
    const { context, page } = await open(browser, file, false);
    try {
      const [src] = await page
        .locator('#diagram-branchTree img.diagram-img')
        .evaluateAll((images) => images.map((image) => image.getAttribute('src')));
      assert.ok(typeof src === 'string' && src.startsWith('data:image/svg+xml;base64,'));
      const svg = Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').toString('utf8');
      // The image's own SVG drawn inline, so its text can be measured (an <img> keeps its inside to itself).
      await page.setContent(`<body style="margin:0;background:#fff">${svg}</body>`);
      const rows = await page.evaluate(() => {
        const background = document.querySelector('pattern rect') as SVGRectElement;
        const right = background.x.baseVal.value + background.width.baseVal.value;
        return [...document.querySelectorAll('g.node text')].map((text) => {
          const box = (text as SVGTextElement).getBBox();
          // What a clip path around the text leaves of it (getBBox does not apply clipping).
          const clipId = /url\(#([^)]+)\)/.exec(text.closest('[clip-path]')?.getAttribute('clip-path') ?? '')?.[1];
          const clip = clipId ? (document.getElementById(clipId)?.querySelector('rect') as SVGRectElement | null) : null;
          const clipRight = clip ? clip.x.baseVal.value + clip.width.baseVal.value : Infinity;
          return {
            text: text.textContent ?? '',
            overflow: box.x + box.width - right,
            shownOverflow: Math.min(box.x + box.width, clipRight) - right,
          };
        });
      });
      assert.equal(rows.length, 5);
      // Ordinary text, long tags and marks fit their background whole (the text shortened with "…" to make room);
      // a line of the widest letters is cut at the background's edge.
      for (const row of rows.slice(0, 4))
        assert.ok(row.overflow <= 0, `"${row.text}" runs ${row.overflow.toFixed(0)} px past its background`);
      for (const row of rows)
        assert.ok(row.shownOverflow <= 0, `"${row.text}" shows ${row.shownOverflow.toFixed(0)} px past its background`);
      assert.match(rows[2].text, /branch runner-image-cache-location from #2 .*… \[rejected, /);
      await page.screenshot({ path: join(RESULTS, 'row-width.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('draws a 1,000-thought session whole: a row per thought, nothing folded, the stage graph by Mermaid', async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    let id = '';
    for (let n = 1; n <= 1_000; n++) {
      const args: Record<string, unknown> = {
        thought: `Thought ${n}: ${'weighing the evidence and the options '.repeat(10)}`,
        thoughtNumber: n,
        totalThoughts: 1_000,
        nextThoughtNeeded: n < 1_000,
      };
      if (n % 10 === 0) Object.assign(args, { isRevision: true, revisesThought: n - 1 });
      if (n % 25 === 0)
        Object.assign(args, { isRevision: undefined, revisesThought: undefined, branchFromThought: n - 1, branchId: `b${n}` });
      const outcome = engine.process('large', args);
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      id = outcome.reply.sessionId;
    }
    const large = engine.getSession(id);
    assert.ok(large);
    const file = writeExport('session-1000.html', await exportSession(large, 'html', { rendererPath: RENDERER }));
    const { context, page, observed } = await open(browser, file, true);
    try {
      await page.waitForSelector('html[data-diagrams="done"]', { timeout: 180_000 });
      const renderMs = await page.locator('html').getAttribute('data-render-ms');
      assert.deepEqual(
        await page.locator('figure').evaluateAll((figures) => figures.map((figure) => figure.getAttribute('data-rendered'))),
        ['true', null, null],
      );
      assert.equal(await page.locator('.render-error').count(), 0);
      assert.equal(await page.locator('article.thought').count(), 1_000);
      assert.equal((await thoughtFigure(page, 'branchTree')).rows.length, 1_000);
      assert.equal(await page.locator('#diagram-branchTree .note').count(), 0, 'nothing folded to note');
      assert.deepEqual(observed.errors, []);
      await page.screenshot({ path: join(RESULTS, 'session-1000.png') });
      process.stderr.write(`export-html 1000 thoughts: ${(statSync(file).size / 1024).toFixed(0)} KiB, diagrams drawn in ${renderMs} ms\n`);
    } finally {
      await context.close();
    }
  });
});
