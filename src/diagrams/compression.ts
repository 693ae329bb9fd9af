// Adaptive compression of a thought diagram to a node budget. Mermaid's layout cost grows with every node, so a large
// session is drawn as fewer nodes rather than drawn slower: plain runs of a line fold into one node, whole branches
// fold into one node, and older stretches fold into the line they hang from before recent ones do.
//
// The diagram is described as a forest of lines (each a list of thought seqs in order; a line may hang off an item of
// another line, or be a root). A folded node is a group of items that stays connected: a stretch of one line plus the
// whole subtrees of lines it absorbed, or a run of consecutive whole root trees. Starting from one node per item, the
// cheapest merge is taken until the count fits the budget. A merge costs, first, the protection of an item it would
// stop showing on its own (structure, the current thought, pinned and expanded thoughts; merging groups that are
// already folded hides nothing more), then its size, weighted so that older merges are cheaper. Candidates sit in a
// lazy priority queue: one whose cost rose since it was queued goes back in; one whose cost fell is taken at once.
// Pure and deterministic: the same forest, weights and budget always give the same groups.

export interface FoldLine {
  /** Item ids (thought seqs) in drawing order. */
  items: readonly number[];
  /** The item this line hangs off (e.g. a branch's fork thought); undefined for a root line. */
  parent?: number;
}

export interface FoldForest {
  /** Every line, ordered by its first item; a line's parent item belongs to an earlier line. */
  lines: readonly FoldLine[];
  /** Item ids are below this (the session's thought count). */
  size: number;
}

/** One drawn node: a stretch of a line with the subtrees it absorbed, or a run of whole root trees. */
export type FoldGroup =
  | {
      kind: 'segment';
      /** Index of the line the stretch is on. */
      line: number;
      /** Positions of the stretch on that line (inclusive). */
      start: number;
      end: number;
      /** Lines inside the group other than its own (whole subtrees absorbed), in line order. */
      absorbedLines: number[];
      /** Every item of the group, ascending. */
      items: number[];
    }
  | {
      kind: 'roots';
      /** Indices of the root lines covered (into `rootLines`), inclusive. */
      rootFrom: number;
      rootTo: number;
      /** Every line inside the group, in line order. */
      absorbedLines: number[];
      items: number[];
    };

export interface FoldResult {
  groups: FoldGroup[];
  /** Indices of the root lines in order (what `rootFrom`/`rootTo` index). */
  rootLines: number[];
}

/** Weight of an item's protection: higher folds later. Expansion adds EXPANDED_WEIGHT per expanded key covering it. */
export const ITEM_WEIGHT = { plain: 0, branchStart: 1, structure: 2, current: 4, pinned: 4 } as const;
export const EXPANDED_WEIGHT = 5;

/** The smallest budget the folding accepts: enough for a folded past, a fork, a branch and the current thought. */
export const MIN_NODE_BUDGET = 4;
/** The default node budget (Mermaid draws about a hundred nodes in well under a second on a 2-core machine). */
export const DEFAULT_NODE_BUDGET = 100;

const PROTECTION_STEP = 1e15;
// Older merges are cheaper: the size of a merge is scaled by 2^(RECENCY_BITS × how late its newest item is), so the
// far past folds into large stretches while the recent thoughts stay one node each.
const RECENCY_BITS = 32;

const NEXT = 0;
const ABSORB = 1;
const ROOT_NEXT = 2;

/** Folds `forest` into at most `budget` groups (the whole forest can always become one group). */
export function foldForest(forest: FoldForest, weight: (item: number) => number, budget: number): FoldResult {
  const { lines, size } = forest;
  const lineOf = new Int32Array(size).fill(-1);
  const positionOf = new Int32Array(size);
  const childLines = new Map<number, number[]>();
  const rootLines: number[] = [];
  const rootIndex = new Int32Array(lines.length).fill(-1);
  let itemCount = 0;
  lines.forEach((line, index) => {
    line.items.forEach((item, position) => {
      lineOf[item] = index;
      positionOf[item] = position;
    });
    itemCount += line.items.length;
    if (line.parent === undefined) {
      rootIndex[index] = rootLines.length;
      rootLines.push(index);
    } else {
      const children = childLines.get(line.parent) ?? [];
      children.push(index);
      childLines.set(line.parent, children);
    }
  });
  // Subtree sizes, children before parents (a child line starts after its parent's item, so later in the order).
  const subtreeSize = lines.map((line) => line.items.length);
  for (let index = lines.length - 1; index >= 0; index--) {
    const parent = lines[index].parent;
    if (parent !== undefined) subtreeSize[lineOf[parent]] += subtreeSize[index];
  }

  // Groups live in union-find over item ids: a group is named by one of its items.
  const link = new Int32Array(size);
  for (let item = 0; item < size; item++) link[item] = item;
  const find = (item: number): number => {
    let root = item;
    while (link[root] !== root) root = link[root];
    while (link[item] !== root) {
      const next = link[item];
      link[item] = root;
      item = next;
    }
    return root;
  };
  const gKind = new Uint8Array(size); // 0 segment, 1 roots
  const gLine = new Int32Array(size);
  const gStart = new Int32Array(size);
  const gEnd = new Int32Array(size);
  const gRootFrom = new Int32Array(size);
  const gRootTo = new Int32Array(size);
  const gSize = new Int32Array(size);
  const gProtection = new Float64Array(size);
  const gNewest = new Int32Array(size);
  const gVersion = new Int32Array(size);
  for (const line of lines) {
    for (const item of line.items) {
      gLine[item] = lineOf[item];
      gStart[item] = gEnd[item] = positionOf[item];
      gSize[item] = 1;
      gProtection[item] = weight(item);
      gNewest[item] = item;
    }
  }

  const isComplete = (group: number): boolean => gKind[group] === 1 || (gStart[group] === 0 && gSize[group] === subtreeSize[gLine[group]]);
  const rootPosition = (group: number): number => (gKind[group] === 1 ? gRootTo[group] : rootIndex[gLine[group]]);
  const partnerOf = (group: number, type: number): number | undefined => {
    if (type === NEXT) {
      if (gKind[group] === 1) return undefined;
      const items = lines[gLine[group]].items;
      return gEnd[group] + 1 < items.length ? find(items[gEnd[group] + 1]) : undefined;
    }
    if (!isComplete(group)) return undefined;
    if (type === ABSORB) {
      const parent = gKind[group] === 0 ? lines[gLine[group]].parent : undefined;
      return parent === undefined ? undefined : find(parent);
    }
    const position = rootPosition(group);
    if (position < 0 || position + 1 >= rootLines.length) return undefined;
    const partner = find(lines[rootLines[position + 1]].items[0]);
    return isComplete(partner) ? partner : undefined;
  };
  const span = Math.max(1, size - 1);
  // Only a group of one item still shows that item: merging folded groups hides nothing more, whatever they hold.
  const shown = (group: number): number => (gSize[group] === 1 ? gProtection[group] : 0);
  const costOf = (a: number, b: number): number =>
    Math.max(shown(a), shown(b)) * PROTECTION_STEP +
    (gSize[a] + gSize[b]) * 2 ** ((RECENCY_BITS * Math.max(gNewest[a], gNewest[b])) / span);

  // A binary heap of candidate merges (cost, owner group, owner version, type) in parallel typed arrays: a 10,000-thought
  // session makes tens of thousands of candidates, and tuples would keep the garbage collector busy.
  let capacity = 1024;
  let hCost = new Float64Array(capacity);
  let hOwner = new Int32Array(capacity);
  let hVersion = new Int32Array(capacity);
  let hType = new Uint8Array(capacity);
  let heapSize = 0;
  const less = (i: number, j: number): boolean =>
    hCost[i] < hCost[j] || (hCost[i] === hCost[j] && (hOwner[i] < hOwner[j] || (hOwner[i] === hOwner[j] && hType[i] < hType[j])));
  const swap = (i: number, j: number): void => {
    const cost = hCost[i];
    hCost[i] = hCost[j];
    hCost[j] = cost;
    const owner = hOwner[i];
    hOwner[i] = hOwner[j];
    hOwner[j] = owner;
    const version = hVersion[i];
    hVersion[i] = hVersion[j];
    hVersion[j] = version;
    const kind = hType[i];
    hType[i] = hType[j];
    hType[j] = kind;
  };
  const push = (cost: number, owner: number, version: number, type: number): void => {
    if (heapSize === capacity) {
      capacity *= 2;
      const grow = <T extends Float64Array | Int32Array | Uint8Array>(array: T, make: (size: number) => T): T => {
        const bigger = make(capacity);
        bigger.set(array);
        return bigger;
      };
      hCost = grow(hCost, (size) => new Float64Array(size));
      hOwner = grow(hOwner, (size) => new Int32Array(size));
      hVersion = grow(hVersion, (size) => new Int32Array(size));
      hType = grow(hType, (size) => new Uint8Array(size));
    }
    let index = heapSize++;
    hCost[index] = cost;
    hOwner[index] = owner;
    hVersion[index] = version;
    hType[index] = type;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!less(index, parent)) break;
      swap(index, parent);
      index = parent;
    }
  };
  /** Removes the top entry (read it from index 0 first). */
  const popTop = (): void => {
    heapSize--;
    if (heapSize === 0) return;
    hCost[0] = hCost[heapSize];
    hOwner[0] = hOwner[heapSize];
    hVersion[0] = hVersion[heapSize];
    hType[0] = hType[heapSize];
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heapSize && less(left, smallest)) smallest = left;
      if (right < heapSize && less(right, smallest)) smallest = right;
      if (smallest === index) break;
      swap(index, smallest);
      index = smallest;
    }
  };
  const offer = (group: number): void => {
    for (let type = NEXT; type <= ROOT_NEXT; type++) {
      const partner = partnerOf(group, type);
      if (partner !== undefined) push(costOf(group, partner), group, gVersion[group], type);
    }
    // A root tree that just became whole can now merge with the whole root tree before it.
    const position = rootPosition(group);
    if (isComplete(group) && position > 0) {
      const previousFirst = gKind[group] === 1 ? gRootFrom[group] - 1 : position - 1;
      if (previousFirst >= 0) {
        const previous = find(lines[rootLines[previousFirst]].items[0]);
        if (isComplete(previous)) push(costOf(previous, group), previous, gVersion[previous], ROOT_NEXT);
      }
    }
  };

  for (const line of lines) for (const item of line.items) offer(item);
  let count = itemCount;
  const target = Math.max(1, Math.floor(budget));
  while (count > target) {
    if (heapSize === 0) break;
    const cost = hCost[0];
    const owner = hOwner[0];
    const version = hVersion[0];
    const type = hType[0];
    popTop();
    if (find(owner) !== owner || gVersion[owner] !== version) continue;
    const partner = partnerOf(owner, type);
    if (partner === undefined) continue;
    // Costs rise as groups grow (size, recency) but may fall once a protected item is already folded; a candidate whose
    // cost fell is simply taken now.
    const current = costOf(owner, partner);
    if (current > cost) {
      push(current, owner, version, type);
      continue;
    }
    // The survivor keeps the name: the left stretch, the parent's group, or the earlier root run.
    const survivor = type === ABSORB ? partner : owner;
    const absorbed = type === ABSORB ? owner : partner;
    if (type === NEXT) {
      gEnd[survivor] = gEnd[absorbed];
    } else if (type === ROOT_NEXT) {
      const from = gKind[survivor] === 1 ? gRootFrom[survivor] : rootIndex[gLine[survivor]];
      gRootTo[survivor] = rootPosition(absorbed);
      gRootFrom[survivor] = from;
      gKind[survivor] = 1;
    }
    gSize[survivor] += gSize[absorbed];
    gProtection[survivor] = Math.max(gProtection[survivor], gProtection[absorbed]);
    gNewest[survivor] = Math.max(gNewest[survivor], gNewest[absorbed]);
    gVersion[survivor]++;
    link[absorbed] = survivor;
    count--;
    offer(survivor);
    // The stretch before it on its line may now merge with it at a different cost.
    if (gKind[survivor] === 0 && gStart[survivor] > 0) {
      const previous = find(lines[gLine[survivor]].items[gStart[survivor] - 1]);
      push(costOf(previous, survivor), previous, gVersion[previous], NEXT);
    }
  }

  // Collect each group's items and lines.
  const members = new Map<number, number[]>();
  const linesOfGroup = new Map<number, number[]>();
  lines.forEach((line, index) => {
    const head = find(line.items[0]);
    const headLines = linesOfGroup.get(head) ?? [];
    headLines.push(index);
    linesOfGroup.set(head, headLines);
    for (const item of line.items) {
      const group = find(item);
      const list = members.get(group) ?? [];
      list.push(item);
      members.set(group, list);
    }
  });
  const groups: FoldGroup[] = [];
  for (const [group, items] of members) {
    items.sort((a, b) => a - b);
    if (gKind[group] === 1) {
      groups.push({
        kind: 'roots',
        rootFrom: gRootFrom[group],
        rootTo: gRootTo[group],
        absorbedLines: linesOfGroup.get(group) ?? [],
        items,
      });
    } else {
      const own = gLine[group];
      const absorbedLines = (linesOfGroup.get(group) ?? []).filter((line) => line !== own);
      groups.push({ kind: 'segment', line: own, start: gStart[group], end: gEnd[group], absorbedLines, items });
    }
  }
  groups.sort((a, b) => a.items[0] - b.items[0]);
  return { groups, rootLines };
}

/**
 * The items an expanded key stands for, for node keys `run_<first>_<last>` (the stretch from one item to another on
 * its line, with every line hanging off it), `branch_<first>` (a line and its subtree) and `roots_<first>_<last>`
 * (root lines from the one starting at `first` to the one starting at `last`, with their subtrees). Unknown or stale
 * keys (the session changed) stand for nothing. Each key adds one level of protection to the items it covers.
 */
export function expandedDepths(forest: FoldForest, expanded: Iterable<string>): Int32Array {
  const depth = new Int32Array(forest.size);
  const { lines } = forest;
  const lineOf = new Int32Array(forest.size).fill(-1);
  const positionOf = new Int32Array(forest.size);
  const childLines = new Map<number, number[]>();
  lines.forEach((line, index) => {
    line.items.forEach((item, position) => {
      lineOf[item] = index;
      positionOf[item] = position;
    });
    if (line.parent !== undefined) {
      const children = childLines.get(line.parent) ?? [];
      children.push(index);
      childLines.set(line.parent, children);
    }
  });
  const markLine = (line: number, from: number, to: number): void => {
    const items = lines[line].items;
    for (let position = from; position <= to; position++) {
      const item = items[position];
      depth[item]++;
      for (const child of childLines.get(item) ?? []) markLine(child, 0, lines[child].items.length - 1);
    }
  };
  const known = (item: number): boolean => Number.isInteger(item) && item >= 0 && item < forest.size && lineOf[item] >= 0;
  // A key given twice counts twice: opening a node that folded back the same way opens it further.
  for (const key of expanded) {
    const parsed = parseFoldKey(key);
    if (!parsed) continue;
    if (parsed.kind === 'run') {
      const { first, last } = parsed;
      if (!known(first) || !known(last) || lineOf[first] !== lineOf[last] || positionOf[first] > positionOf[last]) continue;
      markLine(lineOf[first], positionOf[first], positionOf[last]);
    } else if (parsed.kind === 'branch') {
      if (!known(parsed.first) || positionOf[parsed.first] !== 0) continue;
      const line = lineOf[parsed.first];
      markLine(line, 0, lines[line].items.length - 1);
    } else {
      const { first, last } = parsed;
      if (!known(first) || !known(last) || positionOf[first] !== 0 || positionOf[last] !== 0) continue;
      for (let line = lineOf[first]; line <= lineOf[last]; line++) {
        if (lines[line].parent === undefined) markLine(line, 0, lines[line].items.length - 1);
      }
    }
  }
  return depth;
}

export type FoldKey = { kind: 'run' | 'roots'; first: number; last: number } | { kind: 'branch'; first: number };

/** Reads a folded node's key back (`run_3_40`, `branch_25`, `roots_0_90`); undefined for anything else. */
export function parseFoldKey(key: string): FoldKey | undefined {
  const match = /^(run|roots|branch)_(\d+)(?:_(\d+))?$/.exec(key);
  if (!match) return undefined;
  const first = Number(match[2]);
  if (match[1] === 'branch') return match[3] === undefined ? { kind: 'branch', first } : undefined;
  if (match[3] === undefined) return undefined;
  return { kind: match[1] as 'run' | 'roots', first, last: Number(match[3]) };
}

/** True for the node ids folded nodes get (the explorer expands them on click). */
export function isFoldKey(nodeId: string): boolean {
  return parseFoldKey(nodeId) !== undefined;
}
