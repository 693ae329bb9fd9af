// The injection corpus through every renderer and export: Markdown (rendered by marked/GFM and by markdown-it with
// linkify, as GitHub and VS Code's preview do), both JSON shapes, the diagram SVGs the explorer draws in Chromium
// (as "Export SVG" and the HTML export take them), and the HTML export opened in Chromium, both with those SVGs and with
// its own inlined renderer. Checked: no script runs, no dialog opens, no link or handler comes out of thought text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { visibleText } from '../../src/engine/fieldRules';
import { exportSession } from '../../src/export/index';
import { svgForImage } from '../../src/export/svgSanitize';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { ExplorerPage, launchChromium } from '../webview/support/explorerPage';
import { INJECTION_CORPUS } from '../webview/support/sessions';
import { imagesSettled } from '../support/pageSettled';

/** Every payload that could run sets window.__pwned or opens a dialog: either is seen. */
const CORPUS: readonly string[] = [
  ...INJECTION_CORPUS,
  '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">',
  '%%{init: {"securityLevel": "loose", "startOnLoad": true}}%%\nclick t0 call window.__pwned()',
  'click t1 callback "window.__pwned" "tip"\nclick t2 href "javascript:window.__pwned=1" _blank',
  'javascript:window.__pwned=1 JAVASCRIPT:alert(1) jav&#x09;ascript:alert(1) data:text/html,<script>alert(1)</script>',
  '&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62; &amp;lt; &nbsp; &#0; &#x110000;',
  ']]><script>window.__pwned=1</script><![CDATA[ ]]> <!-- --> <?xml version="1.0"?>',
  'control \u0000 \u0001 \u0007 \u0008 \u000b \u000c \u001b[31mred\u001b[0m \u007f \u0085 \u2028 \u2029 end',
  'bidi \u202e\u2066gnp.exe\u2069\u202c \u200f\u200e \u061c ‮override‬',
  'see https://evil.example/x?a=1 and www.evil.example and mail@evil.example',
  '[x](javascript:alert(1)) ![y](https://evil.example/p.png) <https://evil.example> [r]: https://evil.example',
  "\"><svg/onload=window.__pwned=1> ' onfocus='window.__pwned=1' autofocus='",
];

function hostileSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  const sessionId = 'hostile-adversarial';
  let n = 0;
  const send = (args: Record<string, unknown>): void => {
    n++;
    const outcome = engine.process('hostile', {
      sessionId,
      thoughtNumber: n,
      totalThoughts: CORPUS.length * 2 + 1,
      nextThoughtNeeded: true,
      ...args,
    });
    if (!outcome.ok) throw new Error(outcome.error);
  };
  for (const text of CORPUS) send({ thought: text, stage: undefined });
  for (const [index, text] of CORPUS.entries()) {
    if (index % 2 === 0) send({ thought: `${text} (revised)`, isRevision: true, revisesThought: index + 1 });
    else send({ thought: text, branchFromThought: index + 1, branchId: `b${index}` });
  }
  const snapshot = structuredClone(engine.getSession(sessionId));
  if (!snapshot) throw new Error('hostile session missing');
  // The engine refuses such names; an imported or hand-edited file may carry anything.
  for (const thought of snapshot.thoughts) if (thought.branchId !== undefined) thought.branchId = CORPUS[Number(thought.branchId.slice(1))];
  return {
    ...snapshot,
    meta: {
      ...snapshot.meta,
      title: CORPUS[4],
      branchIds: [...new Set(snapshot.thoughts.flatMap((thought) => (thought.branchId ? [thought.branchId] : [])))],
    },
  };
}

/** Live markup in a DOM: elements that run, load or link, handler attributes and script URLs. */
function liveMarkup(root: ParentNode, allowed: (element: Element) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    if (allowed(element)) continue;
    const tag = element.tagName.toLowerCase();
    if (
      ['script', 'img', 'iframe', 'object', 'embed', 'a', 'form', 'link', 'meta', 'base', 'foreignobject', 'animate', 'set'].includes(tag)
    )
      found.push(`<${tag}>`);
    for (const attribute of element.getAttributeNames()) {
      const value = element.getAttribute(attribute) ?? '';
      if (attribute.toLowerCase().startsWith('on')) found.push(`${tag}[${attribute}]`);
      if (/^\s*(javascript|data|vbscript):/i.test(value) && attribute !== 'src') found.push(`${tag}[${attribute}=${value.slice(0, 40)}]`);
    }
  }
  return found;
}

const snapshot = hostileSession();

describe('injection corpus through Markdown and JSON', () => {
  it('Markdown renders as text in marked (GFM) and markdown-it (linkify): no script, link, image or handler', async () => {
    const markdown = await exportSession(snapshot, 'md');
    const { marked } = await import('marked');
    const { default: MarkdownIt } = (await import('markdown-it')) as unknown as {
      default: new (options: object) => { render(text: string): string };
    };
    for (const [name, html] of [
      ['marked', marked.parse(markdown, { async: false, gfm: true })],
      ['markdown-it', new MarkdownIt({ html: true, linkify: true }).render(markdown)],
    ] as const) {
      const document = new JSDOM(html).window.document;
      // The only markup allowed is what the export itself writes: headings, paragraphs, lists, emphasis, code blocks.
      const structural = (element: Element) =>
        ['h1', 'h2', 'h3', 'p', 'ul', 'li', 'strong', 'em', 'br', 'pre', 'code'].includes(element.tagName.toLowerCase());
      assert.deepEqual(liveMarkup(document.body), [], `${name}: live markup`);
      assert.deepEqual(
        [...document.body.querySelectorAll('*')].filter((element) => !structural(element)).map((element) => element.tagName),
        [],
        `${name}: unexpected elements`,
      );
      assert.equal(document.querySelectorAll('pre').length, 3, `${name}: only the three diagrams are code blocks`);
    }
  });

  it('JSON exports carry every character unchanged and parse back', async () => {
    for (const format of ['json', 'sequentialthinking-plus'] as const) {
      const text = await exportSession(snapshot, format);
      const parsed = JSON.parse(text) as { thoughts?: { thought: string }[]; thoughtHistory?: { thought: string }[] };
      const thoughts = (parsed.thoughts ?? parsed.thoughtHistory ?? []).map((thought) => thought.thought);
      assert.deepEqual(
        thoughts,
        snapshot.thoughts.map((thought) => thought.thought),
        format,
      );
      // Raw U+2028/2029 are valid JSON but end a line in a JavaScript string; the file must stay valid either way.
      assert.doesNotThrow(() => JSON.parse(text));
    }
  });
});

describe('injection corpus in Chromium: diagram SVGs and the HTML export', () => {
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'te-injection-'));
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs nothing from thought text in the SVGs the explorer draws, nor in the HTML export', { timeout: 150_000 }, async () => {
    const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1200, height: 900 });
    let svgs: Record<string, string>;
    try {
      await explorer.page.evaluate(() => {
        (window as unknown as { __pwned: unknown }).__pwned = undefined;
      });
      const view = toSessionView(snapshot);
      await explorer.send({ type: 'snapshot', mode: 'live', session: view });
      await explorer.waitForDiagram('stageGraph', 'g.node');
      await explorer.send({ type: 'requestSvg', requestId: 'adversarial', session: view });
      const message = await explorer.waitForPosted('svgRendered', 90_000);
      assert.equal(message.requestId, 'adversarial');
      const rendered = { svgs: message.svgs as Record<string, string>, errors: message.errors };
      assert.deepEqual(rendered.errors, []);
      svgs = rendered.svgs;
      assert.deepEqual(Object.keys(svgs).sort(), ['branchTree', 'revisionChain', 'stageGraph']);
      assert.equal(
        await explorer.page.evaluate(() => (window as unknown as { __pwned: unknown }).__pwned),
        undefined,
        'no payload ran in the explorer',
      );
      assert.deepEqual(explorer.record.dialogs, []);
      assert.deepEqual(explorer.record.cspViolations, []);
    } finally {
      await explorer.close();
    }

    // Each SVG as "Export SVG" saves it, opened as a document of its own, and as the HTML export embeds it.
    for (const [key, svg] of Object.entries(svgs)) {
      // Parsed leniently (HTML): the raw SVG may hold control characters XML forbids (see svgForImage).
      const document = new JSDOM(`<body>${svg}</body>`).window.document;
      const fromText = liveMarkup(document.body, (element) => element.tagName.toLowerCase() === 'foreignobject');
      assert.deepEqual(
        fromText.filter((entry) => !entry.startsWith('<foreignobject')),
        [],
        `${key}: live markup in the drawn SVG`,
      );
      // What the HTML export embeds must be well-formed XML, or the image does not load at all.
      let sanitized: Document | undefined;
      assert.doesNotThrow(
        () => (sanitized = new JSDOM(svgForImage(svg), { contentType: 'image/svg+xml' }).window.document),
        `${key}: sanitised SVG is well-formed XML`,
      );
      assert.deepEqual(
        liveMarkup(sanitized as Document, (element) => element.tagName.toLowerCase() === 'foreignobject'),
        [],
        `${key}: live markup in the sanitised SVG`,
      );
      const file = join(dir, `${key}.svg`);
      writeFileSync(file, svg);
      const context = await browser.newContext();
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(pathToFileURL(file).href);
      await imagesSettled(page);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned: unknown }).__pwned), undefined, `${key}.svg ran a payload`);
      assert.deepEqual(dialogs, [], `${key}.svg opened a dialog`);
      await context.close();
    }

    // The HTML export twice: with the pre-rendered SVGs (no script at all) and drawn by its own inlined renderer.
    for (const [name, options] of [
      ['with SVGs', { svgs }],
      ['drawn on opening', {}],
    ] as const) {
      const html = await exportSession(snapshot, 'html', options);
      const file = join(dir, `export-${name.replace(/\W+/g, '-')}.html`);
      writeFileSync(file, html);
      const context = await browser.newContext();
      const page = await context.newPage();
      const dialogs: string[] = [];
      const violations: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(pathToFileURL(file).href);
      if (name === 'drawn on opening') await page.waitForSelector('figure svg', { timeout: 60_000 });
      await imagesSettled(page);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned: unknown }).__pwned), undefined, `${name}: a payload ran`);
      assert.deepEqual(dialogs, [], `${name}: dialogs`);
      const live = await page.evaluate(() => {
        const found: string[] = [];
        for (const element of document.querySelectorAll('main *, header *')) {
          const tag = element.tagName.toLowerCase();
          if (['script', 'iframe', 'object', 'embed', 'a', 'form'].includes(tag)) found.push(`<${tag}>`);
          if (tag === 'img' && !(element as HTMLImageElement).src.startsWith('data:image/svg+xml;base64,'))
            found.push('<img> not a diagram');
          for (const attribute of element.getAttributeNames()) {
            if (attribute.startsWith('on')) found.push(`${tag}[${attribute}]`);
            if (/javascript:/i.test(element.getAttribute(attribute) ?? '')) found.push(`${tag}[${attribute}] javascript:`);
          }
        }
        return found;
      });
      assert.deepEqual(live, [], `${name}: live markup from thought text`);
      // Everything reads back verbatim, but hidden controls (bidi, NUL and the like), which are written out as \uXXXX.
      const texts = await page.locator('article.thought > .text').allTextContents();
      assert.deepEqual(
        texts,
        snapshot.thoughts.map((thought) => visibleText(thought.thought.replace(/\r\n?/g, '\n'))),
        `${name}: thoughts shown verbatim`,
      );
      console.log(
        `# injection corpus (${CORPUS.length} entries), HTML export ${name}: 0 scripts run, 0 dialogs, ${violations.length} CSP reports`,
      );
      await context.close();
    }
  });
});
