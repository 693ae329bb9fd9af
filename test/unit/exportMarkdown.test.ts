// Specification of the Markdown export: the summary, the diagrams as ```mermaid blocks, every thought with its badges,
// and thought text that always stays plain text (checked by rendering with a CommonMark/GFM renderer).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import { markdownInline, markdownText, sessionMarkdown } from '../../src/export/markdown';
import { branchTreeSource } from '../../src/diagrams/branchTree';
import { revisionChainSource } from '../../src/diagrams/revisionChain';
import { stageGraphSource } from '../../src/diagrams/stageGraph';
import { findStrategy } from '../../src/engine/strategies/catalog';
import { ThinkingEngine } from '../../src/engine/engine';
import { parseMermaid } from '../support/mermaidParse';

export const MARKDOWN_CORPUS = [
  '"]); alert(1)//',
  '<img src=x onerror=alert(1)>',
  '%%{init: {"securityLevel": "loose"}}%%',
  'click A call alert()',
  '</script><script>alert(1)</script>',
  '[click me](javascript:alert(1)) and ![img](javascript:alert(1)) <javascript:alert(1)>',
  '```\ncode fence\n```\n~~~\ntilde fence\n~~~',
  '# heading\n## another\nsetext\n===\n---\n***',
  '- list\n* star\n+ plus\n1. one\n2) two\n> quote',
  '    indented code\n\ttabbed',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '*emphasis* _under_ **strong** ~~strike~~ `code` $x^2$ $$y$$',
  '&lt;b&gt; &amp; &#60;script&#62; entities \\* escaped \\',
  '<div>block html</div>\n<!-- comment -->',
  'unicode ü ß 中文 emoji 😀👩‍💻',
  'trailing backslash \\\nnext line',
];

function snapshotOf(texts: readonly string[], extra: Partial<ThoughtRecord>[] = []): SessionSnapshot {
  const thoughts: ThoughtRecord[] = texts.map((thought, seq) => ({
    seq,
    thought,
    thoughtNumber: seq + 1,
    totalThoughts: texts.length,
    nextThoughtNeeded: seq < texts.length - 1,
    stage: 'thought_generation',
    timestamp: Date.UTC(2026, 10, 22, 2, 0, seq),
    ...extra[seq],
  }));
  return {
    meta: {
      id: '20261122T020000Z-abcd1234',
      purpose: texts[0],
      strategy: 'linear',
      stage: 'final_response',
      status: 'complete',
      createdAt: Date.UTC(2026, 10, 22, 2, 0, 0),
      updatedAt: Date.UTC(2026, 10, 22, 2, 5, 0),
      thoughtCount: texts.length,
      revisionCount: 1,
      branchIds: ['alt'],
      lastThoughtNumber: texts.length,
      totalThoughts: texts.length,
    },
    thoughts,
    strategySwitches: [],
  };
}

/** Renders with marked (ESM only, hence the dynamic import from this CommonJS test) into a DOM to inspect. */
async function render(markdown: string): Promise<Document> {
  const { marked } = await import('marked');
  return new JSDOM(marked.parse(markdown, { async: false, gfm: true })).window.document;
}

/** What a reader should see of a thought: lines trimmed and flattened, blank lines as paragraph breaks. */
function normalized(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter((line) => line !== '')
        .join('\n'),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** The text of the paragraphs after a thought heading's badge line, with <br> as a line break. */
function thoughtTextAfter(heading: Element): { text: string; badges: string } {
  const badgeParagraph = heading.nextElementSibling;
  assert.ok(badgeParagraph && badgeParagraph.tagName === 'P' && badgeParagraph.firstElementChild?.tagName === 'EM', 'badge line');
  const paragraphs: string[] = [];
  for (let element = badgeParagraph.nextElementSibling; element && element.tagName !== 'H3'; element = element.nextElementSibling) {
    assert.equal(element.tagName, 'P', `thought text became <${element.tagName.toLowerCase()}>: ${element.outerHTML}`);
    assert.equal(element.querySelectorAll('*:not(br)').length, 0, `markup inside thought text: ${element.innerHTML}`);
    const clone = element.cloneNode(true) as Element;
    for (const br of [...clone.querySelectorAll('br')]) br.replaceWith('\n');
    paragraphs.push(
      (clone.textContent ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join('\n'),
    );
  }
  return { text: paragraphs.join('\n\n'), badges: badgeParagraph.textContent ?? '' };
}

describe('sessionMarkdown', () => {
  it('writes the summary, the diagrams as mermaid blocks and every thought with its badges', async () => {
    const snapshot = snapshotOf(
      ['Plan the migration', 'Check the schema', 'Schema is fine after all', 'Try the other order', 'Done'],
      [{}, {}, { isRevision: true, revisesThought: 2 }, { branchId: 'alt', branchFromThought: 2, thoughtNumber: 3 }, {}],
    );
    const markdown = sessionMarkdown(snapshot);
    const document = await render(markdown);
    assert.equal(document.querySelector('h1')?.textContent, 'Plan the migration');
    const summary = document.querySelector('ul')?.textContent ?? '';
    for (const fact of [
      'Strategy: linear',
      'Status: complete',
      'Thoughts: 5 (1 revision, 1 branch)',
      'Branches: alt',
      'Started: 2026-11-22T02:00:00.000Z',
    ]) {
      assert.ok(summary.includes(fact), `${fact} in ${summary}`);
    }
    const mermaidBlocks = [...document.querySelectorAll('pre > code.language-mermaid')].map((code) => code.textContent?.trimEnd());
    assert.deepEqual(mermaidBlocks, [
      stageGraphSource(snapshot, findStrategy(snapshot.meta.strategy)).trimEnd(),
      branchTreeSource(snapshot, { direction: 'TB' }).text,
      revisionChainSource(snapshot).text,
    ]);
    assert.deepEqual(
      [...document.querySelectorAll('h2')].map((h2) => h2.textContent),
      ['Stage graph', 'Branch tree', 'Revision chain', 'Insights', 'Thoughts'],
    );

    const headings = [...document.querySelectorAll('h3')];
    assert.deepEqual(
      headings.map((h3) => h3.textContent),
      ['#1', '#2', '#3', '#3 (alt)', '#4'].map((text, index) => (index === 4 ? '#5' : text)),
    );
    const badges = headings.map((heading) => thoughtTextAfter(heading).badges);
    assert.match(badges[2], /^thought_generation · revision of #2 · 2026-11-22T02:00:02\.000Z$/);
    assert.match(badges[3], /^thought_generation · branch alt from #2 · /);
    assert.match(badges[4], /^thought_generation · final · /);
    assert.equal(thoughtTextAfter(headings[1]).text, 'Check the schema');
  });

  it('keeps every hostile thought as plain text that reads back exactly', async () => {
    const snapshot = snapshotOf(
      MARKDOWN_CORPUS,
      MARKDOWN_CORPUS.map((text) => ({ stage: text.slice(0, 30), branchId: undefined })),
    );
    snapshot.meta.title = '<script>alert(1)</script> # [x](javascript:alert(1))';
    const document = await render(sessionMarkdown(snapshot));
    assert.equal(
      document.querySelectorAll(
        'script, img, a, table, blockquote, ol, h4, h5, h6, hr, del, strong:not(li strong), em:not(p > em:first-child)',
      ).length,
      0,
      document.body.innerHTML.slice(0, 2000),
    );
    assert.equal(document.querySelectorAll('h1').length, 1);
    assert.equal(document.querySelector('h1')?.textContent, '<script>alert(1)</script> # [x](javascript:alert(1))');
    assert.equal(document.querySelectorAll('pre').length, 3, 'only the three mermaid blocks are code');
    const headings = [...document.querySelectorAll('h3')];
    assert.equal(headings.length, MARKDOWN_CORPUS.length);
    headings.forEach((heading, index) => {
      const { text, badges } = thoughtTextAfter(heading);
      assert.equal(text, normalized(MARKDOWN_CORPUS[index]), `thought ${index}`);
      assert.ok(badges.startsWith(MARKDOWN_CORPUS[index].slice(0, 30).replace(/\s+/g, ' ').trim()), `badges ${index}: ${badges}`);
    });
  });

  it('notes when a diagram shows only the most recent thoughts, and reports progress', () => {
    const texts = Array.from({ length: 600 }, (_, index) => `Thought number ${index}`);
    const progress: number[] = [];
    const markdown = sessionMarkdown(snapshotOf(texts), {
      diagramWindow: { maxThoughts: 50 },
      onProgress: (done, total) => {
        assert.equal(total, 600);
        progress.push(done);
      },
    });
    assert.match(markdown, /_Showing the most recent 50 of 600 thoughts\._/);
    assert.deepEqual(progress, [250, 500, 600]);
  });

  it('handles an empty session', () => {
    const markdown = sessionMarkdown(snapshotOf([]));
    assert.match(markdown, /^# Session 20261122T020000Z-abcd1234\n/);
    assert.match(markdown, /_No thoughts yet\._/);
  });
});

describe('markdown escaping helpers', () => {
  it('escapes inline markup and line starts', () => {
    assert.equal(markdownInline('# *a* <b> | c'), '\\# \\*a\\* \\<b\\> \\| c');
    assert.equal(markdownInline('1. one'), '1\\. one');
    assert.equal(markdownText('a\n\n\n  b\nc'), 'a\n\nb\\\nc');
    assert.equal(markdownText('   '), '_(empty)_');
  });
});

// Bare URLs, www. hosts, e-mail addresses and plain domains that GFM (GitHub, marked) or markdown-it's linkify (VS
// Code's preview, default fuzzy options) would turn into links.
const AUTOLINK_CORPUS = [
  'see https://example.com/path?q=1 now',
  'http://localhost:8080 and ftp://files.example.org',
  'www.example.com and WWW.EXAMPLE.ORG/page',
  'mail me: someone@example.com or mailto:someone@example.com',
  'xmpp:user@example.com/resource',
  'plain domains example.com, github.io and sub.domain.co.uk',
  '//protocol-relative.example.net/x',
  'javascript:alert(1) and data:text/html,<b>x</b>',
  'file.ts, e.g. v1.2.3, 3.14, a.b.c and the end.',
  'https://xn--bcher-kva.example/ and https://bücher.example/',
];

/** markdown-it as VS Code's preview runs it (linkify on, default fuzzy link and e-mail detection). */
async function renderMarkdownIt(markdown: string): Promise<Document> {
  const { default: MarkdownIt } = (await import('markdown-it')) as unknown as {
    default: new (options: object) => { render(text: string): string };
  };
  return new JSDOM(new MarkdownIt({ html: true, linkify: true }).render(markdown)).window.document;
}

describe('no link comes out of thought text', () => {
  const snapshot = snapshotOf(
    AUTOLINK_CORPUS,
    AUTOLINK_CORPUS.map((text) => ({ branchId: text.slice(0, 24), stage: text.slice(0, 20) })),
  );
  snapshot.meta.title = 'Title https://example.com www.example.com me@example.com';
  const markdown = sessionMarkdown(snapshot);

  for (const [name, renderWith] of [
    ['marked (GFM)', render],
    ['markdown-it (linkify)', renderMarkdownIt],
  ] as const) {
    it(`${name}: no <a>, and every thought reads back exactly`, async () => {
      const document = await renderWith(markdown);
      const links = [...document.querySelectorAll('a')].map((link) => link.outerHTML);
      assert.deepEqual(links, [], 'links out of thought text');
      assert.equal(document.querySelector('h1')?.textContent, snapshot.meta.title);
      const headings = [...document.querySelectorAll('h3')];
      assert.equal(headings.length, AUTOLINK_CORPUS.length);
      headings.forEach((heading, index) => {
        assert.equal(heading.textContent, `#${index + 1} (${AUTOLINK_CORPUS[index].slice(0, 24).replace(/\s+/g, ' ').trim()})`);
        assert.equal(thoughtTextAfter(heading).text, normalized(AUTOLINK_CORPUS[index]), `thought ${index}`);
      });
    });
  }

  it('leaves ordinary prose readable: only dots inside host-like words, "//" and "@" are escaped', () => {
    assert.equal(markdownText('Version 3.14 works. See the end.'), 'Version 3.14 works. See the end.');
    assert.equal(markdownText('https://a.io'), 'https:\\/\\/a\\.io');
    assert.equal(markdownText('me@x.org'), 'me\\@x\\.org');
  });
});

describe('Markdown export: the Feedback section', () => {
  it('lists what the person said, with its state, and keeps hostile feedback text as text', async () => {
    const snapshot = snapshotOf(['Plan', 'Check', 'Fix', 'Answer']);
    const at = (second: number) => Date.UTC(2026, 10, 22, 2, 1, second);
    snapshot.feedback = [
      { id: 'fb-1', kind: 'note', author: 'user', createdAt: at(0), text: MARKDOWN_CORPUS.join('\n'), deliveredAt: at(1) },
      {
        id: 'fb-2',
        kind: 'reject',
        author: 'user',
        createdAt: at(2),
        thoughtNumber: 2,
        text: 'wrong **runner**',
        deliveredAt: at(3),
        appliedAt: at(4),
        appliedBySeq: 2,
      },
      { id: 'fb-3', kind: 'branch', author: 'user', createdAt: at(5), thoughtNumber: 1, branchId: 'alt-<b>x</b>' },
    ];
    const document = await render(sessionMarkdown(snapshot));
    assert.deepEqual(
      [...document.querySelectorAll('h2')].map((h2) => h2.textContent),
      ['Stage graph', 'Branch tree', 'Revision chain', 'Insights', 'Feedback', 'Thoughts'],
    );
    const items = [...document.querySelectorAll('h2 + ul')].at(-1);
    assert.ok(items, 'a list under Feedback');
    const entries = [...items.querySelectorAll(':scope > li')];
    assert.equal(entries.length, 3);
    assert.equal(entries[0].querySelector('strong')?.textContent, 'Note');
    assert.match(entries[0].textContent ?? '', /given 2026-11-22T02:01:00\.000Z, delivered 2026-11-22T02:01:01\.000Z/);
    // The whole corpus comes out as text: no element from it, nothing clickable.
    const made = [...items.querySelectorAll('a, img, script, h1, h2, h3, h4, table, blockquote, pre, code, ol, ul, div, del, strong, em')];
    assert.deepEqual(
      made.map((element) => element.tagName.toLowerCase()),
      ['strong', 'em', 'strong', 'em', 'strong', 'em'],
      items.innerHTML,
    );
    assert.ok((entries[0].textContent ?? '').includes('<img src=x onerror=alert(1)>'));
    assert.equal(entries[1].querySelector('strong')?.textContent, 'Reject thought 2');
    assert.match(entries[1].textContent ?? '', /applied by #3 2026-11-22T02:01:04\.000Z/);
    assert.ok((entries[1].textContent ?? '').includes('wrong **runner**'));
    assert.equal(entries[2].querySelector('strong')?.textContent, 'Explore an alternative from thought 1 (branch alt-<b>x</b>)');
    assert.match(entries[2].textContent ?? '', /not delivered/);
  });

  it('has no Feedback section when nobody gave any', async () => {
    const document = await render(sessionMarkdown(snapshotOf(['Plan', 'Answer'])));
    assert.ok(![...document.querySelectorAll('h2')].some((h2) => h2.textContent === 'Feedback'));
  });
});

describe('Markdown diagram text reads as text', () => {
  it('writes labels plainly (entities only where Mermaid needs them) and Mermaid still parses them', async () => {
    const engine = new ThinkingEngine({ log: () => undefined });
    const texts = ['Plan: cache it (step 1) · test', 'Check #1180 vs #1181; 40 s → 22 min', 'Say "done" <now>'];
    texts.forEach((thought, index) => {
      const outcome = engine.process('md', {
        sessionId: 'md',
        thought,
        thoughtNumber: index + 1,
        totalThoughts: 3,
        nextThoughtNeeded: index < 2,
      });
      assert.ok(outcome.ok);
    });
    const snapshot = engine.getSession('md');
    assert.ok(snapshot);
    const markdown = sessionMarkdown(snapshot);
    const blocks = [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((match) => match[1]);
    assert.equal(blocks.length, 3);
    const tree = blocks[1];
    assert.match(tree, /#1 · problem_reception<br>Plan: cache it \(step 1\) · test/);
    assert.match(tree, /#2 · [a-z_]+<br>Check #1180 vs #35;1181; 40 s → 22 min/);
    // Only what would end the label, become markup or read as an entity code (`#1181;`) is coded.
    assert.match(tree, /Say #34;done#34; #60;now#62;/);
    for (const ordinary of ['#35;1 ', '#58;', '#183;', '#40;', '#59;', '#8594;']) assert.ok(!markdown.includes(ordinary), ordinary);
    for (const block of blocks) await parseMermaid(block);
  });
});
