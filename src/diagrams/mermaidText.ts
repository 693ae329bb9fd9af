// Makes untrusted text safe inside a Mermaid label. Every character outside a small safe set becomes a Mermaid
// entity code (`#60;`), so no text can close a label, start a directive (`%%{init}`), add a style, a click/link
// statement or HTML. Mermaid decodes the codes back into plain text when it draws the label.

// `$` is not safe: Mermaid renders `$$…$$` in a label as KaTeX math, so thought text could restyle a node.
const SAFE_CHARACTER = /[A-Za-z0-9 .,_?!'()/+=*@^~-]/;

/** Escapes `text` for a double-quoted flowchart label (`id["…"]`), flattening whitespace and shortening it. */
export function mermaidLabel(text: string, maxLength = 80): string {
  let flat = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  if (characters.length > maxLength) flat = `${characters.slice(0, maxLength - 1).join('')}…`;
  let escaped = '';
  for (const character of flat) {
    escaped += SAFE_CHARACTER.test(character) ? character : `#${character.codePointAt(0)};`;
  }
  return escaped;
}

/** Turns any name (branch id, stage) into a Mermaid node id: letters, digits and `_` only, never a keyword. */
export function mermaidId(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9]/g, (character) => `_${character.codePointAt(0)}_`)}`;
}
