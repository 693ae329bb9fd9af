// How thoughts point at each other, resolved once per session: which thought a branch forks from, which thought a
// revision revises, and each thought's predecessor on its own line. Thoughts name each other by `thoughtNumber`, which
// is not unique (branches and revisions reuse numbers), so every reference is resolved to a `seq` here, by one rule,
// for every diagram and export.
import type { ThoughtRecord } from '../engine/model';

export interface ThoughtLinks {
  /** Seq of the thought each thought follows in the drawing (its line's previous thought, or its fork), if any. */
  parent: (number | undefined)[];
  /** True for the first thought of a branch (its parent, if any, is the fork thought). */
  startsBranch: boolean[];
  /** Seq of the thought each revision revises, if it names one that exists before it. */
  revises: (number | undefined)[];
}

/** The line a thought is on: its branch, or the main line. */
export function lineKey(thought: ThoughtRecord): string | undefined {
  return thought.branchId;
}

export function resolveLinks(thoughts: readonly ThoughtRecord[]): ThoughtLinks {
  const count = thoughts.length;
  const parent: (number | undefined)[] = new Array<number | undefined>(count).fill(undefined);
  const startsBranch: boolean[] = new Array<boolean>(count).fill(false);
  const revises: (number | undefined)[] = new Array<number | undefined>(count).fill(undefined);
  const resolver = new ThoughtLinkResolver();
  thoughts.forEach((thought, index) => {
    const links = resolver.add(thought, index);
    parent[index] = links.parent;
    startsBranch[index] = links.startsBranch;
    revises[index] = links.revises;
  });
  return { parent, startsBranch, revises };
}

/** One thought's links, as `resolveLinks` gives them. */
export interface ThoughtLinksOf {
  parent: number | undefined;
  startsBranch: boolean;
  revises: number | undefined;
}

/**
 * The same rule one thought at a time, for a session that grows (live trace streaming): each `add` resolves the new
 * thought against the ones added before it, in O(1).
 */
export class ThoughtLinkResolver {
  // Latest seq seen so far per line, and per (line, thoughtNumber), and per thoughtNumber on any line.
  private readonly lastOnLine = new Map<string | undefined, number>();
  private readonly byLineAndNumber = new Map<string, number>();
  private readonly byNumber = new Map<number, number>();

  /** `index`: the thought's position in the session (its seq). */
  add(thought: ThoughtRecord, index: number): ThoughtLinksOf {
    const key = (line: string | undefined, number: number): string => `${line === undefined ? 'm' : `b${line}`}\u0000${number}`;
    const line = lineKey(thought);
    const previous = this.lastOnLine.get(line);
    const links: ThoughtLinksOf = { parent: undefined, startsBranch: false, revises: undefined };
    if (line !== undefined && previous === undefined) {
      links.startsBranch = true;
      // The fork is the latest main-line thought with that number before the branch began; failing that (a branch
      // of a branch, or imported data), the latest thought with that number on any line.
      const from = thought.branchFromThought;
      if (from !== undefined) links.parent = this.byLineAndNumber.get(key(undefined, from)) ?? this.byNumber.get(from);
    } else {
      links.parent = previous;
    }

    if (thought.revisesThought !== undefined) {
      // A revision revises the latest thought with that number on its own line, else on the main line, else anywhere.
      const target = thought.revisesThought;
      links.revises =
        this.byLineAndNumber.get(key(line, target)) ?? this.byLineAndNumber.get(key(undefined, target)) ?? this.byNumber.get(target);
    }

    this.lastOnLine.set(line, index);
    this.byLineAndNumber.set(key(line, thought.thoughtNumber), index);
    this.byNumber.set(thought.thoughtNumber, index);
    return links;
  }
}

/**
 * The node id of a dangling reference: a thought number that a branch forks from or a revision revises but that the
 * session does not hold (e.g. the agent reconnected without its sessionId). Drawn as a placeholder, never dropped.
 */
export function danglingNodeId(thoughtNumber: number): string {
  return `dangling${thoughtNumber}`;
}

/** The placeholder's label (plain text; callers escape it). */
export function danglingLabel(thoughtNumber: number): string {
  return `#${thoughtNumber} · not in this session`;
}

/** The node id of a thought in every diagram: `t<seq>`, stable for the life of the session. */
export function thoughtNodeId(thought: ThoughtRecord): string {
  return `t${thought.seq}`;
}
