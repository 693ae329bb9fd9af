// Specification of exportSession (every format) and of the HTML export's structure in plain Node: the CSP admits
// exactly the inlined renderer, thought text is escaped, and pre-rendered SVGs are sanitised and shown as images.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { parseSessionJson } from '../../src/storage/sessionJsonFormats';
import { exportSession, type ExportProgress } from '../../src/export/index';
import { EXPORT_FORMATS, exportFormatNamed, isExportFormat } from '../../src/export/formats';
import { sessionHtml, HtmlExportError } from '../../src/export/html';
import { sanitizeSvg, svgForImage, SvgRejectedError } from '../../src/export/svgSanitize';

const INJECTIONS = [
  '"]); alert(1)//',
  '<img src=x onerror=alert(1)>',
  '%%{init: {"securityLevel": "loose"}}%%',
  'click A call alert()',
  '</script><script>alert(1)</script>',
  '<a href="javascript:alert(1)">javascript:alert(1)</a>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  "' onmouseover='alert(1)",
];

function sampleSession(texts: readonly string[] = ['Plan it', 'Check it', 'Fix the plan', 'Other idea', 'Answer']): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  const calls = texts.map((thought, index) => ({
    thought,
    thoughtNumber: index + 1,
    totalThoughts: texts.length,
    nextThoughtNeeded: index < texts.length - 1,
  }));
  if (calls.length >= 4) {
    Object.assign(calls[2], { isRevision: true, revisesThought: 2 });
    Object.assign(calls[3], { branchFromThought: 2, branchId: 'alt', thoughtNumber: 3 });
  }
  let id = '';
  for (const call of calls) {
    const outcome = engine.process('c', call);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    id = outcome.reply.sessionId;
  }
  const snapshot = engine.getSession(id);
  assert.ok(snapshot);
  return snapshot;
}

const FAKE_RENDERER = 'document.documentElement.dataset.rendered = "yes";';

describe('exportSession', () => {
  it('knows its formats, and the old name json-seed001 only as an alias of sequentialthinking-plus', () => {
    assert.deepEqual([...EXPORT_FORMATS], ['md', 'json', 'sequentialthinking-plus', 'html', 'otlp']);
    for (const format of EXPORT_FORMATS) assert.ok(isExportFormat(format) && exportFormatNamed(format) === format, format);
    assert.ok(!isExportFormat('json-seed001'), 'the old name is not listed as a format of its own');
    assert.equal(exportFormatNamed('json-seed001'), 'sequentialthinking-plus');
    assert.ok(!isExportFormat('pdf'));
    for (const unknown of ['pdf', 'toString', '__proto__', 'constructor']) assert.equal(exportFormatNamed(unknown), undefined, unknown);
  });

  it('exports lossless JSON that re-imports to the same session, and the sequentialthinking-plus shape', async () => {
    const snapshot = sampleSession();
    const lossless = await exportSession(snapshot, 'json');
    assert.deepEqual(parseSessionJson(lossless).snapshot, snapshot);
    const seed = JSON.parse(await exportSession(snapshot, 'sequentialthinking-plus')) as {
      id: string;
      thoughtHistory: unknown[];
      branches: Record<string, unknown[]>;
    };
    assert.equal(seed.id, snapshot.meta.id);
    assert.equal(seed.thoughtHistory.length, 5);
    assert.deepEqual(Object.keys(seed.branches), ['alt']);
  });

  it('exports Markdown and reports progress from start to done', async () => {
    const snapshot = sampleSession(Array.from({ length: 600 }, (_, index) => `thought ${index}`));
    const progress: ExportProgress[] = [];
    const markdown = await exportSession(snapshot, 'md', { onProgress: (step) => progress.push(step) });
    assert.match(markdown, /^# thought 0\n/);
    assert.equal(progress[0].fraction, 0);
    assert.equal(progress[progress.length - 1].fraction, 1);
    assert.ok(progress.some((step) => step.message === 'Writing thoughts (250/600)'));
    const fractions = progress.map((step) => step.fraction);
    assert.deepEqual(
      fractions,
      [...fractions].sort((a, b) => a - b),
      'progress never goes back',
    );
  });

  it('exports every format for branches named like Object.prototype members (__proto__, constructor, toString)', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const engine = new ThinkingEngine({ log: () => {} });
    const first = engine.process('c', { thought: 'Root', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    assert.ok(first.ok);
    const id = first.reply.sessionId;
    for (const [index, branchId] of names.entries()) {
      const outcome = engine.process('c', {
        sessionId: id,
        thought: `On ${branchId}`,
        thoughtNumber: 2 + index,
        totalThoughts: 2 + names.length,
        nextThoughtNeeded: true,
        branchFromThought: 1,
        branchId,
      });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    }
    const snapshot = engine.getSession(id);
    assert.ok(snapshot);
    const text = await exportSession(snapshot, 'sequentialthinking-plus');
    const seed = JSON.parse(text) as { branches: Record<string, { thought: string; branchId: string }[]> };
    assert.deepEqual(Object.keys(seed.branches), names, 'every branch is an own key of "branches"');
    for (const name of names)
      assert.deepEqual(
        Object.getOwnPropertyDescriptor(seed.branches, name)?.value?.map((thought: { thought: string }) => thought.thought),
        [`On ${name}`],
      );
    const back = parseSessionJson(text).snapshot;
    assert.deepEqual(
      back.thoughts.map((thought) => [thought.thought, thought.branchId]),
      snapshot.thoughts.map((thought) => [thought.thought, thought.branchId]),
    );
    assert.deepEqual(parseSessionJson(await exportSession(snapshot, 'json')).snapshot, snapshot);
    const markdown = await exportSession(snapshot, 'md');
    for (const name of names) assert.ok(markdown.includes(name.replace(/_/g, '\\_')), `${name} in the Markdown`);
    const html = await exportSession(snapshot, 'html', { rendererScript: FAKE_RENDERER });
    for (const name of names) assert.ok(html.includes(`<span class="line">${name}</span>`), `${name} in the HTML`);
  });

  it('exports HTML with the renderer read from the given path, and explains a missing renderer', async () => {
    const snapshot = sampleSession();
    await assert.rejects(exportSession(snapshot, 'html', { rendererPath: '/nonexistent/export-render.js' }), (error: unknown) => {
      assert.ok(error instanceof HtmlExportError);
      assert.match(
        error.message,
        /renderer for HTML export was not found \(looked in \/nonexistent\/export-render\.js\); run "npm run build"/,
      );
      return true;
    });
    const html = await exportSession(snapshot, 'html', { rendererScript: FAKE_RENDERER });
    assert.ok(html.includes(`<script>${FAKE_RENDERER}</script>`));
    // Every diagram pre-rendered: no script at all, and none is needed.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    const drawn = await exportSession(snapshot, 'html', {
      rendererPath: '/nonexistent',
      svgs: { stageGraph: svg, branchTree: svg, revisionChain: svg },
    });
    assert.ok(!drawn.includes('<script'));
    assert.match(drawn, /script-src 'none'/);
  });
});

describe('sessionHtml', () => {
  it('admits only the inlined renderer, by its hash, and nothing from the network', () => {
    const html = sessionHtml(sampleSession(), { rendererScript: FAKE_RENDERER });
    const document = new JSDOM(html).window.document;
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
    const hash = createHash('sha256').update(FAKE_RENDERER).digest('base64');
    assert.equal(
      csp,
      `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    assert.equal(document.head.firstElementChild?.getAttribute('charset'), 'utf-8');
    assert.equal(document.head.children[1], document.querySelector('meta[http-equiv]'), 'the CSP comes before anything it governs');
    const scripts = document.querySelectorAll('script');
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0].textContent, FAKE_RENDERER);
  });

  it('writes summary, one figure per diagram (the thought drawing as an image, the stage graph as Mermaid source), and every thought with badges', () => {
    const snapshot = sampleSession();
    const document = new JSDOM(sessionHtml(snapshot, { rendererScript: FAKE_RENDERER })).window.document;
    assert.equal(document.querySelector('h1')?.textContent, 'Plan it');
    assert.deepEqual(
      [...document.querySelectorAll('figure')].map((figure) => figure.getAttribute('data-diagram')),
      ['stageGraph', 'branchTree', 'revisionChain'],
    );
    assert.match(document.querySelector('#diagram-stageGraph pre.mermaid-src')?.textContent ?? '', /^flowchart /);
    // The branch tree is the explorer's drawing, made into the file: a row per thought, the branch named on its row.
    const image = document.querySelector('#diagram-branchTree img.diagram-img')?.getAttribute('src') ?? '';
    const svg = Buffer.from(image.slice(image.indexOf(',') + 1), 'base64').toString('utf8');
    const rows = [...new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document.querySelectorAll('g.node')];
    assert.deepEqual(
      rows.map((row) => row.getAttribute('data-id')),
      ['t0', 't1', 't2', 't3', 't4'],
    );
    assert.match(rows[3].textContent ?? '', /alt/);
    const articles = [...document.querySelectorAll('article.thought')];
    assert.deepEqual(
      articles.map((article) => article.id),
      ['t0', 't1', 't2', 't3', 't4'],
    );
    assert.match(articles[2].querySelector('.badges')?.textContent ?? '', /revision of #2/);
    assert.match(articles[3].querySelector('.badges')?.textContent ?? '', /branch alt from #2/);
    assert.match(articles[4].querySelector('.badges')?.textContent ?? '', /final/);
    assert.ok(
      articles[3].classList.contains('branch') && articles[2].classList.contains('revision') && articles[4].classList.contains('final'),
    );
  });

  it('shows what each revision changed, word by word, without scripts', () => {
    const snapshot = sampleSession(['Plan it', 'Check the <old> cache first', 'Check the <new> index first', 'Other idea', 'Answer']);
    const document = new JSDOM(sessionHtml(snapshot, { rendererScript: FAKE_RENDERER })).window.document;
    const diffs = [...document.querySelectorAll('article details.diff')];
    assert.equal(diffs.length, 1);
    assert.equal(diffs[0].closest('article')?.id, 't2');
    assert.equal(diffs[0].querySelector('summary')?.textContent, 'Changes from #2');
    assert.deepEqual(
      [...diffs[0].querySelectorAll('del')].map((element) => element.textContent),
      ['old', 'cache'],
    );
    assert.deepEqual(
      [...diffs[0].querySelectorAll('ins')].map((element) => element.textContent),
      ['new', 'index'],
    );
    assert.equal(
      diffs[0].querySelector('.text')?.innerHTML,
      'Check the &lt;<del>old</del><ins>new</ins>&gt; <del>cache</del><ins>index</ins> first',
    );
  });

  it('keeps hostile thought text, titles and branch ids as text', () => {
    const snapshot = sampleSession(INJECTIONS);
    snapshot.meta.title = '</title><script>alert(1)</script>';
    snapshot.thoughts[3] = { ...snapshot.thoughts[3], branchId: '<b onclick=alert(1)>x</b>', stage: '"><img src=x onerror=alert(1)>' };
    const html = sessionHtml(snapshot, { rendererScript: FAKE_RENDERER });
    const document = new JSDOM(html).window.document;
    assert.equal(document.querySelectorAll('script').length, 1);
    // The only images are the thought drawing's two figures (data: SVG, shown as images: nothing in them runs).
    assert.equal(
      document.querySelectorAll('img:not(.diagram-img), a, meta[http-equiv="refresh"], b, [onclick], [onerror], [onmouseover]').length,
      0,
    );
    assert.equal(document.querySelectorAll('img.diagram-img[src^="data:image/svg+xml;base64,"]').length, 2);
    assert.equal(document.title, '</title><script>alert(1)</script>');
    const texts = [...document.querySelectorAll('article > .text')].map((element) => element.textContent);
    assert.deepEqual(texts, INJECTIONS);
    for (const pre of document.querySelectorAll('pre.mermaid-src')) assert.equal(pre.children.length, 0);
  });

  it('lists the feedback given, with its state, and keeps hostile feedback text as text', () => {
    const snapshot = sampleSession();
    snapshot.feedback = [
      { id: 'fb-1', kind: 'note', author: 'user', createdAt: Date.UTC(2026, 10, 22, 2, 1), text: INJECTIONS.join('\n') },
      { id: 'fb-2', kind: 'conclude', author: 'user', createdAt: Date.UTC(2026, 10, 22, 2, 2), deliveredAt: Date.UTC(2026, 10, 22, 2, 3) },
    ];
    const document = new JSDOM(sessionHtml(snapshot, { rendererScript: FAKE_RENDERER })).window.document;
    const entries = [...document.querySelectorAll('section.feedback li')];
    assert.deepEqual(
      entries.map((entry) => entry.querySelector('strong')?.textContent),
      ['Note', 'Conclude now'],
    );
    assert.equal(entries[0].querySelector('.text')?.textContent, INJECTIONS.join('\n'));
    assert.match(entries[1].textContent ?? '', /delivered 2026-11-22T02:03:00\.000Z/);
    assert.equal(document.querySelectorAll('script').length, 1);
    assert.equal(document.querySelectorAll('section.feedback :is(img, a, b, script, [onclick], [onerror])').length, 0);
    assert.equal(
      new JSDOM(sessionHtml(sampleSession(), { rendererScript: FAKE_RENDERER })).window.document.querySelector('section.feedback'),
      null,
    );
  });

  it('refuses a renderer that would break out of its script element', () => {
    assert.throws(() => sessionHtml(sampleSession(), { rendererScript: 'x("</script>")' }), HtmlExportError);
    assert.throws(() => sessionHtml(sampleSession(), {}), /needs the diagram renderer/);
  });

  it('shows pre-rendered SVGs as sanitised images', () => {
    const hostile = [
      '<svg id="d" xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script>',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src=x onerror=alert(1)><br><iframe src="javascript:alert(1)"></iframe>a&nbsp;b</div></foreignObject>',
      '<a href="javascript:alert(1)"><text>x</text></a><a xlink:href=" JaVaScRiPt:alert(1)">y</a><use href="#d"/>',
      '<set attributeName="href" to="javascript:alert(1)"/><svg:script>alert(2)</svg:script></svg>',
    ].join('');
    // The editor's stage graph is shown as sent (sanitised); the thought drawings are always the export's own.
    const html = sessionHtml(sampleSession(), { rendererScript: FAKE_RENDERER, svgs: { stageGraph: hostile, branchTree: hostile } });
    const document = new JSDOM(html).window.document;
    const image = document.querySelector('#diagram-stageGraph img.diagram-img');
    assert.ok(image);
    assert.equal(document.querySelector('#diagram-stageGraph pre'), null);
    const branch = document.querySelector('#diagram-branchTree img.diagram-img')?.getAttribute('src') ?? '';
    assert.doesNotMatch(Buffer.from(branch.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8'), /<use href="#d"/);
    const svg = Buffer.from((image.getAttribute('src') ?? '').replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
    assert.doesNotMatch(svg, /script|onload|onerror|javascript|iframe/i);
    assert.match(svg, /<use href="#d"\/>/);
    assert.match(svg, /<br\/>/);
    assert.match(svg, /a&#160;b/);
  });
});

describe('sanitizeSvg', () => {
  it('rejects what is not an SVG and keeps what is harmless', () => {
    assert.throws(() => sanitizeSvg('<html><svg></svg></html>'), SvgRejectedError);
    assert.throws(() => sanitizeSvg('not svg'), SvgRejectedError);
    assert.equal(
      sanitizeSvg('<?xml version="1.0"?>\n<svg width="1"><g class="x"><path d="M0 0"/></g></svg>'),
      '<svg width="1"><g class="x"><path d="M0 0"/></g></svg>',
    );
    assert.match(svgForImage('<svg><rect/></svg>'), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"><rect\/><\/svg>$/);
  });

  it('leaves text that merely mentions handlers alone and always yields well-formed XML', () => {
    const mermaidLike =
      '<svg id="m" style="max-width: 10px;" data-x="a<b"><style>#m .node > rect { fill: red; }</style>' +
      '<g class="node"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><span><p>#2: &lt;img src=x onerror="alert(1)"&gt; a&nbsp;b<br>c & d</p></span></div></foreignObject></g>' +
      '<marker id="arrow"><path d="M0 0"/></marker><path marker-end="url(#arrow)" style="fill:url(http://evil/x)"/><g><unclosed></g>';
    const clean = svgForImage(mermaidLike);
    assert.match(clean, /<p>#2: &lt;img src=x onerror="alert\(1\)"&gt; a&#160;b<br\/>c &amp; d<\/p>/);
    assert.match(clean, /marker-end="url\(#arrow\)"/);
    assert.doesNotMatch(clean, /evil/);
    assert.match(clean, /data-x="a&lt;b"/);
    const parsed = new new JSDOM('').window.DOMParser().parseFromString(clean, 'image/svg+xml');
    assert.equal(parsed.querySelector('parsererror'), null, clean);
  });

  it('keeps the SVG well-formed XML when labels hold characters XML forbids (control characters, lone surrogates)', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg"><text aria-label="a\u0001b">ctl \u0000\u0007\u001b[31m \ud800 &#0; &#x1; &#65; &#x1F600; ok</text></svg>';
    const clean = svgForImage(svg);
    const document = new JSDOM(clean, { contentType: 'image/svg+xml' }).window.document;
    assert.equal(document.querySelector('text')?.textContent, 'ctl \ufffd\ufffd\ufffd[31m \ufffd \ufffd \ufffd A 😀 ok');
    assert.equal(document.querySelector('text')?.getAttribute('aria-label'), 'a\ufffdb');
  });

  it('does not let removals join into new active content', () => {
    const clean = sanitizeSvg('<svg><scr<script>x</script>ipt>alert(1)</scr<script></script>ipt></svg>');
    assert.doesNotMatch(clean, /<script/i);
  });
});
