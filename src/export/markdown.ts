// Markdown export of a session: the summary, the diagrams as ```mermaid blocks (which GitHub renders) and every
// thought with its badges. Thought text is untrusted: it is escaped so that it always reads as plain text — no
// heading, list, code fence, table, link (nor autolink), image, HTML or math can come out of it.
import { visibleText } from '../engine/fieldRules';
import type { SessionSnapshot } from '../engine/model';
import type { DiagramWindowOptions } from '../diagrams/diagramWindow';
import { isoDate, sessionTitle, summaryFacts, thoughtBadges } from './sessionFacts';
import { feedbackFacts } from './feedbackFacts';
import { insightFacts } from './insightFacts';
import { sessionDiagrams, windowNote } from './sessionDiagrams';
import { qaViewOf } from '../shared/qaView';

export interface MarkdownExportOptions {
  /** Window for the thought diagrams; by default as many recent thoughts as Mermaid's limits allow. */
  diagramWindow?: DiagramWindowOptions;
  /** Called as thoughts are written, for progress reporting on large sessions. */
  onProgress?: (done: number, total: number) => void;
}

const PROGRESS_EVERY = 250;

export function sessionMarkdown(snapshot: SessionSnapshot, options: MarkdownExportOptions = {}): string {
  const out: string[] = [];
  out.push(`# ${markdownInline(sessionTitle(snapshot))}`, '');
  for (const fact of summaryFacts(snapshot)) out.push(`- **${fact.label}:** ${markdownInline(fact.value)}`);
  out.push('');

  for (const diagram of sessionDiagrams(snapshot, options.diagramWindow)) {
    out.push(`## ${diagram.title}`, '', '```mermaid', diagram.source.text, '```', '');
    const note = windowNote(diagram.source);
    if (note) out.push(`_${note}_`, '');
  }

  out.push('## Insights', '');
  for (const fact of insightFacts(snapshot)) out.push(`- **${fact.label}:** ${markdownInline(fact.value)}`);
  const feedback = feedbackFacts(snapshot);
  if (feedback.length > 0) {
    out.push('', '## Feedback', '');
    for (const fact of feedback) {
      out.push(`- **${markdownInline(fact.title)}** — _${markdownInline(fact.status)}_`);
      if (fact.text !== undefined) out.push('', markdownText(fact.text).replace(/^/gm, '  '), '');
    }
  }
  out.push('', '## Thoughts', '');
  const total = snapshot.thoughts.length;
  if (total === 0) out.push('_No thoughts yet._', '');
  snapshot.thoughts.forEach((thought, index) => {
    out.push(`### #${thought.thoughtNumber}${thought.branchId !== undefined ? ` (${markdownInline(thought.branchId)})` : ''}`, '');
    const badges = thoughtBadges(thought).map((badge) => markdownInline(badge));
    out.push(`_${[...badges, isoDate(thought.timestamp)].join(' · ')}_`, '');
    out.push(markdownText(thought.thought), '');
    const qa = qaViewOf(thought);
    if (qa) {
      if (qa.step) out.push(`- **Step:** ${markdownInline(qa.step)}`);
      if (qa.tools.length > 0) {
        const chips = qa.tools.map(
          (tool) =>
            `${markdownInline(tool.name)} (${tool.confidence.toFixed(2)}${tool.generic ? ', generic' : ''}${tool.unavailable ? ', not available' : ''})`,
        );
        out.push(`- **Recommended tools:** ${chips.join(' · ')}`);
      }
      if (qa.remainingSteps.length > 0)
        out.push(`- **Remaining steps:** ${qa.remainingSteps.map((step) => markdownInline(step)).join(' → ')}`);
      if (qa.suggestion) out.push(`- **Suggestion:** ${markdownInline(qa.suggestion)}`);
      out.push('');
    }
    if (options.onProgress && ((index + 1) % PROGRESS_EVERY === 0 || index + 1 === total)) options.onProgress(index + 1, total);
  });
  return `${out.join('\n').trimEnd()}\n`;
}

// Characters that start inline markup anywhere in CommonMark/GFM (emphasis, code, links, images via `[`, autolinks
// and HTML via `<`, entities via `&`, strikethrough, table cells, GitHub math) and the escape character itself.
const INLINE_SPECIAL = /[\\`*_[\]<>&~|$!]/g;

// What autolinking keys on, besides `<` and `[`: a "//" after a scheme (GFM's and markdown-it's http/ftp/"//" links),
// a dot inside a host-like word ("www.", and the bare domains markdown-it's fuzzy linkify takes) and "@" (e-mail).
// A backslash before each renders as the character itself, so the reader sees and copies the text unchanged, while
// every renderer sees a broken pattern (GFM and marked match the raw text; markdown-it links text between escapes).
const AUTOLINK_TRIGGERS = /\/(?=\/)|(?<=\/)\/|(?<=[\p{L}\p{N}_-])\.(?=\p{L})|@/gu;

/**
 * Escapes inline markup and everything a GFM or linkify renderer would turn into a link; hidden controls (bidi and the
 * like) are written out first, so they can neither reorder nor hide the text around them.
 */
function escapeInline(text: string): string {
  return visibleText(text).replace(INLINE_SPECIAL, '\\$&').replace(AUTOLINK_TRIGGERS, '\\$&');
}

/** Escapes text for use inside one Markdown line (headings, list items): whitespace flattened. */
export function markdownInline(text: string): string {
  return escapeLineStart(escapeInline(text.replace(/\s+/g, ' ').trim()));
}

/**
 * Escapes a multi-line text so it renders as plain paragraphs: every line keeps its break (a hard break, `\` at the
 * end), blank lines separate paragraphs, and nothing at the start of a line can become block markup. Leading
 * indentation is dropped because four spaces would start a code block.
 */
export function markdownText(text: string): string {
  const paragraphs: string[][] = [[]];
  for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.replace(/[\t ]+/g, ' ').trim();
    if (line === '') {
      if (paragraphs[paragraphs.length - 1].length > 0) paragraphs.push([]);
      continue;
    }
    paragraphs[paragraphs.length - 1].push(escapeLineStart(escapeInline(line)));
  }
  const blocks = paragraphs.filter((lines) => lines.length > 0).map((lines) => lines.join('\\\n'));
  return blocks.length > 0 ? blocks.join('\n\n') : '_(empty)_';
}

/** Escapes what would turn a line into a heading, list, quote, thematic break, setext underline or fence. */
function escapeLineStart(line: string): string {
  // Ordered list marker: digits followed by "." or ")".
  const ordered = /^(\d{1,9})([.)])/.exec(line);
  if (ordered) return `${ordered[1]}\\${ordered[2]}${line.slice(ordered[0].length)}`;
  if (/^[#>+\-=]/.test(line)) return `\\${line}`;
  return line;
}
