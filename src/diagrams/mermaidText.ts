// Makes untrusted text safe inside a Mermaid label while keeping it readable as text (a Markdown export's diagram is
// read as source too). Inside a double-quoted label Mermaid ends the text only at `"`, so most characters stay as they
// are; the few that could still do something become Mermaid entity codes (`#60;`), which Mermaid decodes back into
// plain text when it draws the label:
// - `"` would close the label; `|` closes an edge label;
// - `%` could start a directive (`%%{init}`, found anywhere in the text); `{` `}` belong to directives too;
// - `<` `>` would be HTML in the drawn label; `&` before `name;` would be a character reference;
// - `#` before `word;` would be one of Mermaid's own entity codes; `$` starts KaTeX math (`$$…$$`); a backtick after
//   the quote makes a Markdown string; a backslash would reach KaTeX's math detection (`\(…\)`);
// - control, format and separator characters (bidi overrides, zero-width spaces) are invisible in the source.
import { shortenedLine } from '../engine/browserSafe/textCut';

/** Characters always written as entity codes. */
const ALWAYS_ESCAPED = /["|%{}<>$`\\]/u;
/** Invisible or layout-changing characters (except the zero-width joiner inside emoji sequences). */
const INVISIBLE = /[\p{C}\p{Z}]/u;

/** The line break Mermaid draws inside a label; never produced from thought text (its `<` is escaped). */
export const LABEL_LINE_BREAK = '<br>';

/** Escapes `text` for a double-quoted flowchart label (`id["…"]`), flattening whitespace and shortening it. */
export function mermaidLabel(text: string, maxLength = 80): string {
  const flat = shortenedLine(text, maxLength);
  let escaped = '';
  let offset = 0;
  for (const character of flat) {
    offset += character.length;
    escaped += needsEscape(character, flat, offset) ? `#${character.codePointAt(0)};` : character;
  }
  return escaped;
}

/** Whether `character`, followed in `text` by what starts at `next`, must be written as an entity code. */
function needsEscape(character: string, text: string, next: number): boolean {
  if (character === ' ' || character === '\u200d') return false;
  if (ALWAYS_ESCAPED.test(character) || INVISIBLE.test(character)) return true;
  // `#name;` is Mermaid's entity code and `&name;` / `&#12;` an HTML reference: only then is the sign escaped.
  const after = character === '#' ? REFERENCE_AFTER_HASH : character === '&' ? REFERENCE_AFTER_AMPERSAND : undefined;
  if (after === undefined) return false;
  after.lastIndex = next;
  return after.test(text);
}

const REFERENCE_AFTER_HASH = /\w+;/uy;
const REFERENCE_AFTER_AMPERSAND = /#?\w+;/uy;

/**
 * The plain text a label written by mermaidLabel (and thoughtLabel's line break) stands for, one string per drawn line:
 * what Mermaid shows when it draws the label. Entity codes become their characters in one pass, so a decoded `#` or
 * `&` never starts another code.
 */
export function decodedLabelLines(label: string): string[] {
  return label.split(LABEL_LINE_BREAK).map((line) =>
    line.replace(/#(\d{1,7});/g, (code, digits: string) => {
      const point = Number(digits);
      return point <= 0x10ffff ? String.fromCodePoint(point) : code;
    }),
  );
}

/** Turns any name (branch id, stage) into a Mermaid node id: letters, digits and `_` only, never a keyword. */
export function mermaidId(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9]/g, (character) => `_${character.codePointAt(0)}_`)}`;
}
