// Word-level diff between a thought and its revision, shared by the explorer webview and the exporters (pure, no
// Node or DOM APIs). Myers' algorithm on word/whitespace/punctuation tokens, bounded in time and memory: above a token
// or edit budget it falls back to a line-level diff, and above that to "all removed, all added", so a pathological
// pair of 20,000-character thoughts can never stall the UI.

export type DiffKind = 'same' | 'added' | 'removed';

export interface DiffSegment {
  kind: DiffKind;
  text: string;
}

export interface WordDiffOptions {
  /** Most tokens (both sides, after the common prefix and suffix) diffed word by word. */
  maxTokens?: number;
  /** Most insertions + deletions searched for; Myers' memory grows with its square. */
  maxEdits?: number;
}

export interface WordDiffResult {
  segments: DiffSegment[];
  /** How fine the diff is: by word, by line (the word budget was exceeded), or the whole changed middle. */
  precision: 'word' | 'line' | 'whole';
}

const DEFAULT_MAX_TOKENS = 20_000;
const DEFAULT_MAX_EDITS = 1_000;

// Words (letters, marks, digits, underscore), whitespace runs, and every other character on its own.
const TOKEN = /[\p{L}\p{M}\p{N}_]+|\s+|[^\p{L}\p{M}\p{N}_\s]/gu;

/** Segments turning `before` into `after`: concatenating same+removed gives `before`, same+added gives `after`. */
export function wordDiff(before: string, after: string, options: WordDiffOptions = {}): DiffSegment[] {
  return diffWords(before, after, options).segments;
}

export function diffWords(before: string, after: string, options: WordDiffOptions = {}): WordDiffResult {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  const words = diffTokens(before.match(TOKEN) ?? [], after.match(TOKEN) ?? [], maxTokens, maxEdits);
  if (words) return { segments: tidy(words), precision: 'word' };
  // Too many words or edits: whole lines are far fewer tokens and still say where the text changed.
  const lines = diffTokens(splitLines(before), splitLines(after), maxTokens, maxEdits);
  if (lines) return { segments: tidy(lines), precision: 'line' };
  return { segments: tidy(wholeChange(before.match(TOKEN) ?? [], after.match(TOKEN) ?? [])), precision: 'whole' };
}

/** Where `a` and `b` differ: the common prefix ends at `start`, the common suffix starts at `endA` in a, `endB` in b. */
function commonEnds(a: readonly string[], b: readonly string[]): { start: number; endA: number; endB: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

/** Diffs two token lists; undefined when the changed middle exceeds the budgets. */
function diffTokens(a: readonly string[], b: readonly string[], maxTokens: number, maxEdits: number): DiffSegment[] | undefined {
  // The common prefix and suffix cost nothing to find and usually cover most of a revision.
  const { start, endA, endB } = commonEnds(a, b);
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  if (middleA.length + middleB.length > maxTokens) return undefined;
  const middle = myers(middleA, middleB, maxEdits);
  if (!middle) return undefined;
  const ops: DiffSegment[] = [];
  push(ops, 'same', a.slice(0, start).join(''));
  for (const op of middle) push(ops, op.kind, op.text);
  push(ops, 'same', a.slice(endA).join(''));
  return ops;
}

/** The coarsest answer: common prefix and suffix kept, everything between removed and added. */
function wholeChange(a: readonly string[], b: readonly string[]): DiffSegment[] {
  const { start, endA, endB } = commonEnds(a, b);
  const ops: DiffSegment[] = [];
  push(ops, 'same', a.slice(0, start).join(''));
  push(ops, 'removed', a.slice(start, endA).join(''));
  push(ops, 'added', b.slice(start, endB).join(''));
  push(ops, 'same', a.slice(endA).join(''));
  return ops;
}

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

/**
 * Myers' O((N+M)·D) shortest edit script on token arrays; undefined when more than `maxEdits` edits are needed.
 * Keeps one copy of the frontier per edit step (O(D²) integers), which `maxEdits` bounds.
 */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): DiffSegment[] | undefined {
  const n = a.length;
  const m = b.length;
  // One side empty: the answer is obvious and needs no search (and no budget).
  if (n === 0 || m === 0)
    return [
      { kind: 'removed', text: a.join('') },
      { kind: 'added', text: b.join('') },
    ];
  // Compare small integers instead of strings in the inner loop.
  const ids = new Map<string, number>();
  const idOf = (token: string): number => {
    let id = ids.get(token);
    if (id === undefined) {
      id = ids.size;
      ids.set(token, id);
    }
    return id;
  };
  const x1 = Int32Array.from(a, idOf);
  const y1 = Int32Array.from(b, idOf);

  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && x1[x] === y1[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[]): DiffSegment[] {
  const reversed: DiffSegment[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    // trace[d] is the frontier before step d, indexed by k + d.
    const frontier = trace[d];
    const at = (k: number): number => frontier[k + d];
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    // Step 0 starts at the origin; every later step starts where the chosen neighbour diagonal had reached.
    const previousX = d === 0 ? 0 : at(previousK);
    const previousY = d === 0 ? 0 : previousX - previousK;
    while (x > previousX && y > previousY) {
      reversed.push({ kind: 'same', text: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === previousX) reversed.push({ kind: 'added', text: b[previousY] });
      else reversed.push({ kind: 'removed', text: a[previousX] });
    }
    x = previousX;
    y = previousY;
  }
  return reversed.reverse();
}

function push(ops: DiffSegment[], kind: DiffKind, text: string): void {
  if (text !== '') ops.push({ kind, text });
}

/**
 * Makes the diff read well: whitespace kept between two changes joins them (so "the cat" → "a dog" reads as one
 * replacement, not two), each change shows its removed text before its added text, and neighbours of one kind merge.
 */
function tidy(ops: readonly DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  let removed = '';
  let added = '';
  const flush = (): void => {
    if (removed !== '') out.push({ kind: 'removed', text: removed });
    if (added !== '') out.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  ops.forEach((op, index) => {
    if (op.kind === 'removed') removed += op.text;
    else if (op.kind === 'added') added += op.text;
    else if (/^\s+$/.test(op.text) && (removed !== '' || added !== '') && index + 1 < ops.length && ops[index + 1].kind !== 'same') {
      removed += op.text;
      added += op.text;
    } else {
      flush();
      const last = out[out.length - 1];
      if (last && last.kind === 'same') last.text += op.text;
      else out.push({ kind: 'same', text: op.text });
    }
  });
  flush();
  return out;
}
