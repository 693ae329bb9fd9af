// HTML export: one self-contained offline file. Thoughts are plain escaped HTML, readable with scripts off. Diagrams
// are SVGs (sanitised, shown as images): pre-rendered by the editor, or the thought drawing made here; the stage graph
// without the editor's SVG is drawn on opening by the bundled Mermaid renderer (dist/webview/export-render.js) inlined under a CSP that admits that one script by its hash and nothing
// else: no other script, no handler, no javascript: URL and no network request can run from the file.
import { createHash } from 'node:crypto';
import { visibleText } from '../engine/fieldRules';
import type { SessionSnapshot } from '../engine/model';
import type { DiagramWindowOptions } from '../diagrams/diagramWindow';
import { isoDate, sessionTitle, summaryFacts, thoughtBadges } from './sessionFacts';
import { feedbackFacts } from './feedbackFacts';
import { insightFacts } from './insightFacts';
import { isThoughtDiagram, type DiagramKind } from '../engine/browserSafe/diagramKinds';
import { thoughtGraphSvgTiles, type ThoughtGraphTile } from '../diagrams/thoughtGraphSvg';
import { feedbackMarksBySeq, thoughtGraph } from '../diagrams/thoughtGraph';
import { sessionDiagrams, windowNote } from './sessionDiagrams';
import { svgForImage } from './svgSanitize';
import { withSchemeStyle } from '../diagrams/schemeStyle';
import { resolveLinks } from '../diagrams/thoughtLinks';
import { diffWords } from '../engine/browserSafe/wordDiff';
import { qaViewOf } from '../shared/qaView';

export interface HtmlExportOptions {
  /**
   * Pre-rendered SVG per diagram (from the editor), used for the stage graph: the thought diagrams are always drawn here
   * from the snapshot. A stage graph without one is drawn by `rendererScript` on opening.
   */
  svgs?: Partial<Record<DiagramKind, string>>;
  /** The text of dist/webview/export-render.js; needed unless every diagram has an SVG. */
  rendererScript?: string;
  diagramWindow?: DiagramWindowOptions;
  onProgress?: (done: number, total: number) => void;
}

export class HtmlExportError extends Error {}

/** A diagram's image: the editor's SVG, or one tile of the thought drawing (its rows and size). */
type DiagramImage = { svg: string } & Partial<Omit<ThoughtGraphTile, 'svg'>>;

const PROGRESS_EVERY = 250;
/**
 * Thoughts in one block the browser may skip until it nears the screen (content-visibility). One block per thought made
 * the browser track 10,000 blocks and fire an event for each while the page loaded, which cost more than the skipping saved.
 */
const THOUGHTS_PER_CHUNK = 100;

export function sessionHtml(snapshot: SessionSnapshot, options: HtmlExportOptions = {}): string {
  const diagrams = sessionDiagrams(snapshot, options.diagramWindow, 'scheme');
  // The thought diagrams are the explorer's own drawing (the SVG the editor sends is the same one), made here from the
  // snapshot without a browser, so CLI and VS Code exports carry the same rows and marks. They are drawn in tiles of
  // rows: a browser draws many short images in a fraction of the time one very tall one takes. Only the stage graph
  // needs Mermaid (the editor's SVG, else the renderer script).
  const images: Partial<Record<DiagramKind, DiagramImage[]>> = {};
  const thoughtDiagrams = diagrams.filter((diagram) => isThoughtDiagram(diagram.key));
  if (thoughtDiagrams.length > 0) {
    const graph = thoughtGraph(snapshot.thoughts);
    const marks = feedbackMarksBySeq(snapshot);
    for (const diagram of thoughtDiagrams) images[diagram.key] = thoughtGraphSvgTiles(graph, marks, diagram.title);
  }
  for (const diagram of diagrams) {
    const svg = options.svgs?.[diagram.key];
    if (images[diagram.key] === undefined && svg !== undefined) images[diagram.key] = [{ svg }];
  }
  const needsRenderer = diagrams.some((diagram) => images[diagram.key] === undefined);
  let script: string | undefined;
  if (needsRenderer) {
    if (options.rendererScript === undefined || options.rendererScript.trim() === '') {
      throw new HtmlExportError(
        'The HTML export needs the diagram renderer (dist/webview/export-render.js) or pre-rendered SVGs for every diagram; run the build first.',
      );
    }
    script = inlineScript(options.rendererScript);
  }
  const csp = [
    "default-src 'none'",
    script === undefined ? "script-src 'none'" : `script-src '${sha256(script)}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  const title = sessionTitle(snapshot);
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Our own text (no quotes or markup in it), written unescaped so the policy reads plainly in the file.
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="Thought Explorer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLES}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    '<dl class="summary">',
  );
  for (const fact of summaryFacts(snapshot)) out.push(`<div><dt>${escapeHtml(fact.label)}</dt><dd>${escapeHtml(fact.value)}</dd></div>`);
  out.push('</dl>', '</header>', '<main>', '<section class="diagrams">');

  for (const diagram of diagrams) {
    out.push(`<figure id="diagram-${diagram.key}" data-diagram="${diagram.key}">`, `<figcaption>${escapeHtml(diagram.title)}</figcaption>`);
    const tiles = images[diagram.key];
    if (tiles !== undefined) {
      if (tiles.length > 1) out.push('<div class="diagram-tiles">');
      for (const [index, tile] of tiles.entries()) {
        // Recoloured for the reader's scheme: the editor drew it in its own theme (see schemeStyle.ts).
        const image = Buffer.from(withSchemeStyle(svgForImage(tile.svg)), 'utf8').toString('base64');
        const alt =
          tiles.length > 1 && tile.from !== undefined && tile.to !== undefined
            ? `${diagram.title} diagram, thoughts ${tile.from + 1} to ${tile.to}`
            : `${diagram.title} diagram`;
        // Tiles below the first are drawn as they come near the screen; their size is known, so the page never jumps.
        const size = tile.width !== undefined && tile.height !== undefined ? ` width="${tile.width}" height="${tile.height}"` : '';
        const lazy = index > 0 ? ' loading="lazy" decoding="async"' : '';
        out.push(`<img class="diagram-img" alt="${escapeHtml(alt)}"${size}${lazy} src="data:image/svg+xml;base64,${image}">`);
      }
      if (tiles.length > 1) out.push('</div>');
    } else {
      out.push(`<pre class="mermaid-src">${escapeHtml(diagram.source.text)}</pre>`);
    }
    // The Mermaid text's window or folding applies only where that text is drawn.
    const note = tiles === undefined ? windowNote(diagram.source) : undefined;
    if (note) out.push(`<p class="note">${escapeHtml(note)}</p>`);
    out.push('</figure>');
  }
  out.push('</section>', '<section class="insights">', '<h2>Insights</h2>', '<dl class="summary">');
  for (const fact of insightFacts(snapshot)) out.push(`<div><dt>${escapeHtml(fact.label)}</dt><dd>${escapeHtml(fact.value)}</dd></div>`);
  out.push('</dl>', '</section>');
  const feedback = feedbackFacts(snapshot);
  if (feedback.length > 0) {
    out.push('<section class="feedback">', '<h2>Feedback</h2>', '<ul>');
    for (const fact of feedback)
      out.push(
        `<li><strong>${escapeHtml(fact.title)}</strong> <span class="note">${escapeHtml(fact.status)}</span>` +
          `${fact.text === undefined ? '' : `<div class="text">${escapeHtml(fact.text)}</div>`}</li>`,
      );
    out.push('</ul>', '</section>');
  }
  out.push('<section class="thoughts">', '<h2>Thoughts</h2>');

  const total = snapshot.thoughts.length;
  const { revises } = resolveLinks(snapshot.thoughts);
  if (total === 0) out.push('<p class="note">No thoughts yet.</p>');
  snapshot.thoughts.forEach((thought, index) => {
    if (index % THOUGHTS_PER_CHUNK === 0) out.push(`${index > 0 ? '</div>' : ''}<div class="thought-chunk">`);
    const classes = ['thought'];
    if (thought.branchId !== undefined) classes.push('branch');
    if (thought.isRevision || thought.revisesThought !== undefined) classes.push('revision');
    if (!thought.nextThoughtNeeded) classes.push('final');
    out.push(
      `<article class="${classes.join(' ')}" id="t${thought.seq}">`,
      `<h3>#${thought.thoughtNumber}${thought.branchId !== undefined ? ` <span class="line">${escapeHtml(thought.branchId)}</span>` : ''}</h3>`,
      `<p class="badges">${thoughtBadges(thought)
        .map((badge) => `<span class="badge">${escapeHtml(badge)}</span>`)
        .join(' ')} <time>${isoDate(thought.timestamp)}</time></p>`,
      `<div class="text">${escapeHtml(thought.thought)}</div>`,
    );
    const qa = qaSection(thought);
    if (qa) out.push(qa);
    const revised = revises[index];
    if (revised !== undefined)
      out.push(revisionDiff(snapshot.thoughts[revised].thought, thought.thought, snapshot.thoughts[revised].thoughtNumber));
    out.push('</article>');
    if (options.onProgress && ((index + 1) % PROGRESS_EVERY === 0 || index + 1 === total)) options.onProgress(index + 1, total);
  });
  if (total > 0) out.push('</div>');
  out.push('</section>', '</main>');
  if (script !== undefined) out.push(`<script>${script}</script>`);
  out.push('</body>', '</html>', '');
  return out.join('\n');
}

/** The thought's QA step, recommended tools with confidence, remaining steps and suggestion (all escaped), or ''. */
function qaSection(thought: SessionSnapshot['thoughts'][number]): string {
  const qa = qaViewOf(thought);
  if (!qa || (qa.tools.length === 0 && !qa.step && qa.remainingSteps.length === 0 && !qa.suggestion)) return '';
  const rows: string[] = [];
  if (qa.step) rows.push(`<dt>Step</dt><dd>${escapeHtml(qa.step)}</dd>`);
  if (qa.tools.length > 0) {
    const chips = qa.tools.map((tool) => {
      const flags = `${tool.generic ? ', generic' : ''}${tool.unavailable ? ', not available' : ''}`;
      return `<span class="tool-chip">${escapeHtml(tool.name)} <small>${tool.confidence.toFixed(2)}${flags}</small></span>`;
    });
    rows.push(`<dt>Recommended tools</dt><dd>${chips.join(' ')}</dd>`);
  }
  if (qa.remainingSteps.length > 0)
    rows.push(`<dt>Remaining steps</dt><dd>${qa.remainingSteps.map((step) => escapeHtml(step)).join(' → ')}</dd>`);
  if (qa.suggestion) rows.push(`<dt>Suggestion</dt><dd>${escapeHtml(qa.suggestion)}</dd>`);
  return `<dl class="qa">${rows.join('')}</dl>`;
}

/** What a revision changed, word by word; a native <details>, so it opens without scripts. */
function revisionDiff(before: string, after: string, revisedNumber: number): string {
  const { segments, precision } = diffWords(before, after);
  const body = segments
    .map((segment) =>
      segment.kind === 'same'
        ? escapeHtml(segment.text)
        : segment.kind === 'added'
          ? `<ins>${escapeHtml(segment.text)}</ins>`
          : `<del>${escapeHtml(segment.text)}</del>`,
    )
    .join('');
  const coarse =
    precision === 'word'
      ? ''
      : ` <span class="note">(by ${precision === 'line' ? 'line' : 'whole text'}: too long to compare word by word)</span>`;
  return `<details class="diff"><summary>Changes from #${revisedNumber}${coarse}</summary><div class="text">${body}</div></details>`;
}

/** Escapes text for HTML; hidden controls (bidi and the like) are written out as `\uXXXX` first. */
export function escapeHtml(text: string): string {
  return visibleText(text).replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]);
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Checks that the bundle can sit inside <script>…</script> unchanged: a `</script` would end it early, and `<!--`
 * together with `<script` would switch the HTML parser into a state where it ends elsewhere. esbuild already escapes
 * these in string literals; if a future bundle has them anyway, fail loudly rather than write a broken file.
 */
function inlineScript(script: string): string {
  if (/<\/script/i.test(script) || (script.includes('<!--') && /<script/i.test(script))) {
    throw new HtmlExportError('The diagram renderer bundle contains "</script" or "<!--<script" and cannot be inlined.');
  }
  return script;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

// Light and dark from the reader's system; wide diagrams scroll inside their figure instead of the page.
const STYLES = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --card: #f6f8fa; --border: #d1d9e0; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --card: #151b23; --border: #3d444d; --accent: #4493f8; } }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
.summary { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: 0 0 1.5rem; }
.summary div { display: flex; gap: .4rem; } .summary dt { color: var(--muted); } .summary dt::after { content: ":"; } .summary dd { margin: 0; overflow-wrap: anywhere; }
figure { margin: 0 0 1.5rem; padding: 1rem; border: 1px solid var(--border); border-radius: 8px; overflow: auto; }
figcaption { font-weight: 600; margin-bottom: .5rem; }
.diagram-svg svg, .diagram-img { max-width: none; height: auto; }
.diagram-tiles { width: max-content; }
.diagram-tiles .diagram-img { display: block; }
pre.mermaid-src { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; color: var(--muted); margin: 0; }
.note, .render-error { color: var(--muted); font-size: .85rem; margin: .5rem 0 0; }
.thought { background: var(--card); border: 1px solid var(--border); border-left: 4px solid var(--accent); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 .75rem; }
/* A 10,000-thought export: thoughts below the fold are not styled or laid out until scrolled to, so drawing the
   diagrams (which measures text, forcing a layout) does not lay out every thought first. In blocks of 100 thoughts:
   the browser tracks each skipped block, and 10,000 of them cost more than they save. */
.thought-chunk { content-visibility: auto; contain-intrinsic-size: auto 900rem; }
.thought.revision { border-left-style: dashed; } .thought.branch { margin-left: 2rem; } .thought.final { border-left-width: 8px; }
.thought h3 { margin: 0; font-size: 1rem; } .thought .line { font-weight: 400; color: var(--muted); }
.badges { margin: .25rem 0 .5rem; font-size: .8rem; color: var(--muted); }
.badge { display: inline-block; padding: 0 .45rem; border: 1px solid var(--border); border-radius: 1rem; margin-right: .25rem; }
.qa { margin: .5rem 0 0; font-size: .85rem; } .qa dt { font-weight: 600; } .qa dd { margin: 0 0 .25rem; }
.tool-chip { display: inline-block; padding: 0 .45rem; border: 1px solid var(--border); border-radius: .3rem; margin: 0 .25rem .15rem 0; font-family: monospace; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.feedback ul { padding-left: 1.25rem; } .feedback li { margin: 0 0 .5rem; }
.diff { margin-top: .5rem; font-size: .9rem; } .diff summary { cursor: pointer; color: var(--muted); }
del { background: rgba(248, 81, 73, .2); text-decoration: line-through; } ins { background: rgba(46, 160, 67, .25); text-decoration: none; }
`;
