// Properties of folding the branch tree and revision chain to a node budget (src/diagrams/compression.ts), checked on
// seeded random sessions (branches, branches of branches, revisions, dangling references, reused branch ids), plus
// targeted cases for what the person sees: runs, whole branches, recent thoughts kept, pins, expansion in place.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import { branchTreeSource } from '../../src/diagrams/branchTree';
import { revisionChainForest, revisionChainSource } from '../../src/diagrams/revisionChain';
import { foldForest, isFoldKey, parseFoldKey } from '../../src/diagrams/compression';
import type { DiagramSource, DiagramWindowOptions } from '../../src/diagrams/diagramWindow';
import { parseMermaid } from '../support/mermaidParse';

/** mulberry32: a small seeded generator, so every failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const STAGES = ['analysis', 'synthesis', 'evaluation', 'conclusion'];

function snapshotOf(thoughts: Partial<ThoughtRecord>[]): SessionSnapshot {
  return {
    meta: {
      id: 's',
      strategy: 'linear',
      status: 'live',
      createdAt: 0,
      updatedAt: 0,
      thoughtCount: thoughts.length,
      revisionCount: 0,
      branchIds: [],
      lastThoughtNumber: 0,
      totalThoughts: 0,
    },
    thoughts: thoughts.map((thought, seq) => ({
      seq,
      thought: `thought ${seq}`,
      thoughtNumber: seq + 1,
      totalThoughts: thoughts.length,
      nextThoughtNeeded: true,
      timestamp: 0,
      ...thought,
    })),
    strategySwitches: [],
  };
}

/** A random session: mostly the main line, some branches (of branches), revisions, and references to missing thoughts. */
function randomSession(seed: number, maxThoughts = 120): SessionSnapshot {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const count = 1 + Math.floor(next() * maxThoughts);
  const thoughts: Partial<ThoughtRecord>[] = [];
  const numbers: number[] = [];
  const lineNumbers = new Map<string | undefined, number>([[undefined, 0]]);
  let branches = 0;
  for (let index = 0; index < count; index++) {
    const roll = next();
    const thought: Partial<ThoughtRecord> = { stage: pick(STAGES), nextThoughtNeeded: index < count - 1 || next() < 0.5 };
    let line: string | undefined;
    if (roll < 0.1 && numbers.length > 0) {
      line = `b${++branches}`;
      thought.branchId = line;
      // Now and then a fork from a thought the session does not hold (a dangling placeholder).
      thought.branchFromThought = next() < 0.15 ? 900 + Math.floor(next() * 3) : pick(numbers);
      lineNumbers.set(line, thought.branchFromThought);
    } else if (roll < 0.25 && branches > 0) {
      line = `b${1 + Math.floor(next() * branches)}`;
      thought.branchId = line;
    }
    const number = (lineNumbers.get(line) ?? 0) + 1;
    lineNumbers.set(line, number);
    thought.thoughtNumber = number;
    if (next() < 0.12 && numbers.length > 0) {
      thought.isRevision = true;
      thought.revisesThought = next() < 0.1 ? 800 + Math.floor(next() * 2) : pick(numbers);
    }
    numbers.push(number);
    thoughts.push(thought);
  }
  return snapshotOf(thoughts);
}

const NODE_LINE = /^ {2}(\w+)(?:\["|\(\["|\[\[")/;
const EDGE_LINE = /^ {2}(\w+) (?:-->|-\.->)(?:\|"[^"]*"\|)? (\w+)$/;

function nodeLines(text: string): string[] {
  return text.split('\n').filter((line) => NODE_LINE.test(line));
}

function edgeLines(text: string): string[] {
  return text.split('\n').filter((line) => EDGE_LINE.test(line));
}

type SourceOf = (snapshot: SessionSnapshot, options: DiagramWindowOptions) => DiagramSource;

const DIAGRAMS: [string, SourceOf, (snapshot: SessionSnapshot) => number[]][] = [
  ['branch tree', branchTreeSource, (snapshot) => snapshot.thoughts.map((thought) => thought.seq)],
  [
    'revision chain',
    revisionChainSource,
    (snapshot) =>
      revisionChainForest(snapshot)
        .lines.flatMap((line) => [...line.items])
        .sort((a, b) => a - b),
  ],
];

/** Expands the node holding `seq` until it is its own node; returns the steps taken, or -1 if it never gets there. */
function stepsToReach(source: SourceOf, snapshot: SessionSnapshot, seq: number, budget: number, limit = 40): number {
  const expanded: string[] = [];
  for (let step = 0; step <= limit; step++) {
    const result = source(snapshot, { nodeBudget: budget, expanded });
    assert.ok((result.nodes ?? 0) <= budget);
    const holder = [...(result.members ?? new Map<string, readonly number[]>())].find(([, seqs]) => seqs.includes(seq));
    assert.ok(holder, `thought ${seq} is in no node`);
    if (holder[0] === `t${seq}`) return step;
    assert.ok(isFoldKey(holder[0]), `${holder[0]} holds ${holder[1].length} thoughts but is not a folded node`);
    expanded.push(holder[0]);
  }
  return -1;
}

describe('diagram compression: properties on random sessions', () => {
  const SEEDS = Array.from({ length: 60 }, (_, index) => 1_000 + index * 7919);

  for (const [name, source, itemsOf] of DIAGRAMS) {
    it(`${name}: never more nodes than the budget, and every thought in exactly one node`, () => {
      for (const seed of SEEDS) {
        const snapshot = randomSession(seed);
        const next = random(seed ^ 0x5bd1e995);
        for (let round = 0; round < 4; round++) {
          const budget = 4 + Math.floor(next() * 40);
          const pinned = [Math.floor(next() * snapshot.thoughts.length)];
          const first = source(snapshot, { nodeBudget: budget, pinned });
          // Expand a random folded node of the first drawing, as a click would.
          const folded = [...(first.members ?? new Map()).keys()].filter(isFoldKey);
          const expanded = folded.length > 0 ? [folded[Math.floor(next() * folded.length)]] : [];
          const result = source(snapshot, { nodeBudget: budget, pinned, expanded });
          const declared = nodeLines(result.text).length;
          const context = `seed ${seed}, budget ${budget}, expanded ${expanded.join(',')}`;
          assert.equal(declared, result.nodes, context);
          assert.ok(declared <= budget, `${declared} nodes > ${budget} (${context})`);
          const seen = new Map<number, string>();
          for (const [id, seqs] of result.members ?? []) {
            for (const seq of seqs) {
              assert.ok(!seen.has(seq), `thought ${seq} in ${seen.get(seq)} and ${id} (${context})`);
              seen.set(seq, id);
            }
          }
          assert.deepEqual(
            [...seen.keys()].sort((a, b) => a - b),
            itemsOf(snapshot),
            `every thought drawn once (${context})`,
          );
          // Every edge joins drawn nodes.
          const ids = new Set(nodeLines(result.text).map((line) => (NODE_LINE.exec(line) as RegExpExecArray)[1]));
          for (const edge of edgeLines(result.text)) {
            const [, from, to] = EDGE_LINE.exec(edge) as RegExpExecArray;
            assert.ok(ids.has(from) && ids.has(to), `${edge} (${context})`);
          }
        }
      }
    });

    it(`${name}: every thought can be reached by expanding the node that holds it`, () => {
      for (const seed of SEEDS.slice(0, 25)) {
        const snapshot = randomSession(seed);
        const items = itemsOf(snapshot);
        if (items.length === 0) continue;
        const next = random(seed);
        const budget = 8 + Math.floor(next() * 20);
        for (let probe = 0; probe < 4; probe++) {
          const seq = items[Math.floor(next() * items.length)];
          const steps = stepsToReach(source, snapshot, seq, budget);
          assert.ok(steps >= 0, `thought ${seq} never reached (seed ${seed}, budget ${budget})`);
        }
      }
    });

    it(`${name}: a budget the session fits in, or expanding every folded node, gives today's full diagram`, () => {
      for (const seed of SEEDS) {
        const snapshot = randomSession(seed);
        const total = snapshot.thoughts.length;
        const full = source(snapshot, { maxThoughts: total });
        assert.equal(full.truncated, false);
        const whole = source(snapshot, { nodeBudget: 10_000 });
        assert.equal(whole.foldedNodes, 0, `seed ${seed}`);
        assert.deepEqual(new Set(nodeLines(whole.text)), new Set(nodeLines(full.text)), `nodes, seed ${seed}`);
        assert.deepEqual(new Set(edgeLines(whole.text)), new Set(edgeLines(full.text)), `edges, seed ${seed}`);

        // From a small budget, "expand everything" (every folded node, repeatedly) with room for all of it.
        const room = nodeLines(full.text).length;
        let expanded: string[] = [];
        for (let round = 0; round < 50; round++) {
          const folded = source(snapshot, { nodeBudget: 6, expanded });
          const keys = [...(folded.members ?? new Map()).keys()].filter(isFoldKey);
          if (keys.length === 0) break;
          expanded = [...new Set([...expanded, ...keys])];
        }
        const opened = source(snapshot, { nodeBudget: room, expanded });
        assert.equal(opened.foldedNodes, 0, `seed ${seed}`);
        assert.deepEqual(new Set(edgeLines(opened.text)), new Set(edgeLines(full.text)), `expanded edges, seed ${seed}`);
      }
    });
  }

  it('folded sources parse in Mermaid', async () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const snapshot = randomSession(seed);
      await parseMermaid(branchTreeSource(snapshot, { nodeBudget: 8 }).text);
      await parseMermaid(revisionChainSource(snapshot, { nodeBudget: 5 }).text);
    }
  });
});

/** A main line of `count` thoughts in the given stages. */
function mainLine(
  count: number,
  stage = (index: number): string => (index < count / 2 ? 'analysis' : 'synthesis'),
): Partial<ThoughtRecord>[] {
  return Array.from({ length: count }, (_, index) => ({ thoughtNumber: index + 1, stage: stage(index) }));
}

describe('diagram compression: what the person sees', () => {
  it('draws a session that fits the budget whole: every thought and both branches of a 12-thought session', () => {
    const thoughts = mainLine(8);
    thoughts.push({ thoughtNumber: 3, branchId: 'alt', branchFromThought: 2 }, { thoughtNumber: 4, branchId: 'alt' });
    thoughts.push({ thoughtNumber: 6, branchId: 'other', branchFromThought: 5 }, { thoughtNumber: 7, branchId: 'other' });
    const source = branchTreeSource(snapshotOf(thoughts), {});
    assert.equal(source.nodes, 12);
    assert.equal(source.foldedNodes, 0);
    assert.match(source.text, /\|"alt"\| t8$/m);
    assert.match(source.text, /\|"other"\| t10$/m);
  });

  it('folds a straight run into one node named by its range, size and stages; the recent thoughts stay their own nodes', () => {
    const snapshot = snapshotOf(mainLine(200));
    const source = branchTreeSource(snapshot, { nodeBudget: 20 });
    assert.equal(source.nodes, 20);
    const members = source.members as ReadonlyMap<string, readonly number[]>;
    // The oldest thoughts are folded, the newest are drawn one by one.
    assert.ok(!members.has('t0'));
    for (let seq = 190; seq < 200; seq++) assert.ok(members.has(`t${seq}`), `t${seq} drawn`);
    const oldest = [...members.keys()].find((id) => (members.get(id) ?? []).includes(0)) as string;
    const key = parseFoldKey(oldest);
    assert.ok(key && key.kind === 'run' && key.first === 0, oldest);
    const size = (members.get(oldest) ?? []).length;
    const stages = size > 100 ? 'analysis, synthesis' : 'analysis';
    const label = new RegExp(`^ {2}${oldest}\\[\\["#1–#${size} · ${size} thoughts · ${stages}"\\]\\]$`, 'm');
    assert.match(source.text, label);
    assert.match(source.text, new RegExp(`^ {2}class [\\w,]*${oldest}[\\w,]* folded$`, 'm'));
  });

  it('folds a whole branch into one node when runs are not enough, and keeps its fork point', () => {
    const thoughts = mainLine(30);
    for (let index = 0; index < 37; index++) {
      thoughts.push(
        index === 0 ? { thoughtNumber: 6, branchId: 'css', branchFromThought: 5 } : { thoughtNumber: 6 + index, branchId: 'css' },
      );
    }
    thoughts.push(...Array.from({ length: 5 }, (_, index) => ({ thoughtNumber: 31 + index })));
    for (let index = 0; index < 10; index++) {
      thoughts.push(
        index === 0 ? { thoughtNumber: 33, branchId: 'js', branchFromThought: 32 } : { thoughtNumber: 33 + index, branchId: 'js' },
      );
    }
    thoughts.push(...Array.from({ length: 5 }, (_, index) => ({ thoughtNumber: 36 + index })));
    // Room for the recent branch's structure but not the older one's: the older branch becomes one node.
    const source = branchTreeSource(snapshotOf(thoughts), { nodeBudget: 7 });
    assert.ok((source.nodes ?? 0) <= 7);
    assert.match(source.text, /^ {2}branch_30\[\["branch css · 37 thoughts/m);
    // The edge into the folded branch still carries the branch's name, from the node holding its fork thought.
    assert.match(source.text, /-\.->\|"css"\| branch_30$/m);
  });

  it('keeps a pinned thought its own node, and expanding a run opens it in place within the budget', () => {
    const snapshot = snapshotOf(mainLine(300));
    const pinned = branchTreeSource(snapshot, { nodeBudget: 12, pinned: [42] });
    assert.ok(pinned.members?.has('t42'));
    assert.ok((pinned.nodes ?? 0) <= 12);

    const before = branchTreeSource(snapshot, { nodeBudget: 12 });
    const run = [...(before.members ?? new Map()).entries()].find(([id, seqs]) => isFoldKey(id) && seqs.length > 1 && seqs.length <= 8);
    assert.ok(run, 'a small folded run to open');
    const after = branchTreeSource(snapshot, { nodeBudget: 12, expanded: [run[0]] });
    assert.ok((after.nodes ?? 0) <= 12);
    for (const seq of run[1]) assert.ok(after.members?.has(`t${seq}`), `t${seq} opened`);
    assert.ok(!after.members?.has(run[0]));
    // Stale keys (another session, a folded node that no longer exists) change nothing.
    assert.equal(branchTreeSource(snapshot, { nodeBudget: 12, expanded: ['run_5000_6000', 'branch_3', 'nonsense'] }).text, before.text);
  });

  it('groups older revision chains into one node and keeps the recent ones', () => {
    const thoughts: Partial<ThoughtRecord>[] = [];
    for (let index = 0; index < 60; index++) {
      thoughts.push({ thoughtNumber: index * 2 + 1 }, { thoughtNumber: index * 2 + 2, isRevision: true, revisesThought: index * 2 + 1 });
    }
    const snapshot = snapshotOf(thoughts);
    const source = revisionChainSource(snapshot, { nodeBudget: 20 });
    assert.ok((source.nodes ?? 0) <= 20);
    assert.ok(source.members?.has('t119') && source.members.has('t118'), 'the latest chain is drawn as it is');
    const oldest = [...(source.members ?? new Map()).keys()].find((id) => id.startsWith('roots_0_'));
    assert.ok(oldest, 'the oldest chains are one node');
    assert.match(source.text, new RegExp(`^ {2}${oldest}\\[\\["\\d+ thoughts on \\d+ revision chains`, 'm'));
  });

  it('the folding is exact on the forest: groups partition the items and respect the budget, even at a budget of 1', () => {
    const snapshot = randomSession(4242);
    const forest = revisionChainForest(snapshot);
    for (const budget of [1, 2, 3, 10]) {
      const { groups } = foldForest(forest, () => 0, budget);
      const items = groups.flatMap((group) => group.items).sort((a, b) => a - b);
      assert.deepEqual(
        items,
        forest.lines.flatMap((line) => [...line.items]).sort((a, b) => a - b),
      );
      assert.ok(groups.length <= Math.max(1, budget));
    }
  });
});
