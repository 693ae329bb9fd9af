// The label a thought gets in the diagrams: `#n`, its stage, its role (revision, branch start, final) and a short
// excerpt of its text, escaped for Mermaid. One function so every diagram names thoughts the same way.
import type { ThoughtRecord } from '../engine/model';
import { mermaidLabel } from './mermaidText';

/** Builds the escaped label; `excerptLength` 0 leaves the text out (used when a large diagram must shrink). */
export function thoughtLabel(thought: ThoughtRecord, excerptLength: number): string {
  const parts = [`#${thought.thoughtNumber}`];
  if (thought.stage) parts.push(thought.stage);
  if (thought.revisesThought !== undefined) parts.push(`revises #${thought.revisesThought}`);
  else if (thought.isRevision) parts.push('revision');
  if (!thought.nextThoughtNeeded) parts.push('final');
  const head = parts.join(' · ');
  if (excerptLength <= 0) return mermaidLabel(head, Number.MAX_SAFE_INTEGER);
  return mermaidLabel(`${head}: ${excerpt(thought.thought, excerptLength)}`, Number.MAX_SAFE_INTEGER);
}

/** Whitespace flattened, shortened to `length` characters (code points, so emoji are never cut in half). */
export function excerpt(text: string, length: number): string {
  // Only the head of a (possibly 20,000-character) thought can reach the label; flatten just that much.
  const trimmed = text.trim();
  const head = trimmed.slice(0, length * 4 + 64);
  const characters = Array.from(head.replace(/\s+/g, ' '));
  const cut = characters.length > length || head.length < trimmed.length;
  return cut ? `${characters.slice(0, Math.max(0, length - 1)).join('')}…` : characters.join('');
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
