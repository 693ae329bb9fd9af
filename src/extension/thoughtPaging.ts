// Pages of thoughts for the Sessions tree: a level (a session's main line, or a branch) with more thoughts than a
// page holds is shown as page nodes ("Thoughts 1–200", "201–400", …), so expanding a 10,000-thought session builds
// fifty page items instead of ten thousand thought items. Pure (no vscode import), tested in plain Node.
import type { ThoughtEntry } from './sessionTreeModel';

/** Thoughts listed under one page node, and the most a level lists without pages. */
export const THOUGHT_PAGE_SIZE = 200;

export interface ThoughtPage {
  /** Index of the page's first entry in its level (inclusive) and past its last one (exclusive). */
  from: number;
  to: number;
  /** `Thoughts 1–200` (the thought numbers of the page's first and last entries, as the agent numbered them). */
  label: string;
  /** `200 thoughts`, plus the thoughts in branches that fork from them. */
  description: string;
}

/** The pages of one level's entries, or undefined when the level fits one page (its thoughts are listed directly). */
export function thoughtPages(entries: readonly ThoughtEntry[], pageSize = THOUGHT_PAGE_SIZE): ThoughtPage[] | undefined {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`page size must be a positive integer, got ${pageSize}`);
  if (entries.length <= pageSize) return undefined;
  const pages: ThoughtPage[] = [];
  for (let from = 0; from < entries.length; from += pageSize) {
    const to = Math.min(entries.length, from + pageSize);
    const first = entries[from].thought.thoughtNumber;
    const last = entries[to - 1].thought.thoughtNumber;
    let nested = 0;
    for (let index = from; index < to; index++) nested += branchThoughts(entries[index]);
    const count = to - from;
    pages.push({
      from,
      to,
      label: first === last ? `Thought ${first}` : `Thoughts ${first}–${last}`,
      description: `${count} thought${count === 1 ? '' : 's'}${nested > 0 ? ` · ${nested} in branches` : ''}`,
    });
  }
  return pages;
}

/** Thoughts in the branches that fork from `entry` (at any depth). */
function branchThoughts(entry: ThoughtEntry): number {
  let count = 0;
  for (const branch of entry.branches) {
    for (const inner of branch.entries) count += 1 + branchThoughts(inner);
  }
  return count;
}
