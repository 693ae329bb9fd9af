// The label a thought gets in the diagrams: a compact head (`#n · stage`, and its role: revises #m, final) on the first
// line and a short excerpt of its text on the second, escaped for Mermaid. One function so every diagram names thoughts
// the same way; the whole text is in the card and the node's tooltip.
import type { ThoughtRecord } from '../engine/model';
import { LABEL_LINE_BREAK, mermaidLabel } from './mermaidText';
import { shortenedLine } from '../engine/browserSafe/textCut';

/** The plain-text head of a thought's label: number, stage and role. */
export function thoughtHead(thought: ThoughtRecord): string {
  const parts = [`#${thought.thoughtNumber}`];
  if (thought.stage) parts.push(thought.stage);
  if (thought.revisesThought !== undefined) parts.push(`revises #${thought.revisesThought}`);
  else if (thought.isRevision) parts.push('revision');
  if (!thought.nextThoughtNeeded) parts.push('final');
  return parts.join(' · ');
}

/**
 * Builds the escaped label; `excerptLength` 0 leaves the text out (used when a large diagram must shrink). The excerpt
 * is never shorter than the head: the node is that wide anyway.
 */
export function thoughtLabel(thought: ThoughtRecord, excerptLength: number): string {
  const plainHead = thoughtHead(thought);
  const head = mermaidLabel(plainHead, Number.MAX_SAFE_INTEGER);
  if (excerptLength <= 0) return head;
  const text = excerpt(thought.thought, Math.max(excerptLength, Array.from(plainHead).length));
  if (text === '') return head;
  // Mermaid decodes each line of a broken label before looking for KaTeX math, so text with `$$` stays on one line.
  const joint = text.includes('$$') ? ': ' : LABEL_LINE_BREAK;
  return `${head}${joint}${mermaidLabel(text, Number.MAX_SAFE_INTEGER)}`;
}

/** Whitespace flattened, shortened to `length` characters (code points, so emoji are never cut in half). */
export function excerpt(text: string, length: number): string {
  return shortenedLine(text, length);
}

/**
 * Labels memoised for one diagram build: fitting a large session into Mermaid's limits builds the text several times
 * with the same labels, and escaping is the costly part.
 */
export function cachedThoughtLabels(thoughts: readonly ThoughtRecord[]): (index: number, excerptLength: number) => string {
  const cache = new Map<string, string>();
  return (index, excerptLength) => {
    const key = `${index}:${excerptLength}`;
    let label = cache.get(key);
    if (label === undefined) {
      label = thoughtLabel(thoughts[index], excerptLength);
      cache.set(key, label);
    }
    return label;
  };
}
