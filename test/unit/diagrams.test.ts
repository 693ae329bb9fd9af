// Specification of the branch tree and revision chain diagram sources: their structure, node ids, escaping of
// untrusted thought text, and staying within Mermaid's limits however large the session grows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import { branchTreeSource, EARLIER_NODE_ID } from '../../src/diagrams/branchTree';
import { revisionChainSource, revisionChains } from '../../src/diagrams/revisionChain';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT_SIZE } from '../../src/diagrams/diagramWindow';
import { parseMermaid } from '../support/mermaidParse';

export const INJECTION_CORPUS = [
  '"]); alert(1)//',
  '<img src=x onerror=alert(1)>',
  '%%{init: {"securityLevel": "loose"}}%%',
  'click A call alert()',
  '</script><script>alert(1)</script>',
  'javascript:alert(1)',
  'line one\nline two\r\n%% comment\nclick t0 href "javascript:alert(1)"',
  'a; b; style t0 fill:#f00',
  '#35; #quot; &lt; &#60; entity look-alikes',
  '```mermaid\ngraph TD\n```',
  'unicode ü ß 中文 emoji 😀👩‍💻',
  'classDef x fill:red\nlinkStyle 0 stroke:red',
  '-->|"edge"| t1\nsubgraph s\nend',
  'math $$x^2$$ and $$\\frac{1}{2}$$ would render as KaTeX',
];

type ThoughtArgs = Record<string, unknown>;

function session(calls: ThoughtArgs[]): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  let id = '';
  for (const args of calls) {
    const outcome = engine.process('test', { totalThoughts: calls.length, nextThoughtNeeded: true, ...args });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    id = outcome.reply.sessionId;
  }
  const snapshot = engine.getSession(id);
  assert.ok(snapshot);
  return snapshot;
}

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

/** A session shaped like the benchmark's: every 10th thought a revision, every 25th opens a branch of 3 thoughts. */
export function largeSession(count: number, makeText: (index: number) => string): SessionSnapshot {
  const thoughts: Partial<ThoughtRecord>[] = [];
  let number = 0;
  let branch = 0;
  while (thoughts.length < count) {
    const index = thoughts.length;
    number++;
    if (index > 0 && index % 25 === 0) {
      branch++;
      const from = Math.max(1, number - 2);
      for (let step = 0; step < 3 && thoughts.length < count; step++) {
        thoughts.push({
          thought: makeText(thoughts.length),
          thoughtNumber: from + 1 + step,
          branchId: `b${branch}`,
          branchFromThought: from,
        });
      }
      continue;
    }
    if (index % 10 === 9) thoughts.push({ thought: makeText(index), thoughtNumber: number, isRevision: true, revisesThought: number - 1 });
    else thoughts.push({ thought: makeText(index), thoughtNumber: number, stage: 'thought_generation' });
  }
  return snapshotOf(thoughts);
}

const NODE_ID = /^(t\d+|earlier|empty|dangling\d+)$/;
/** A label: plain text with no character that could end it or mean something to Mermaid, and our own line break. */
const LABEL = /^(?:[^"|%{}<>$`\p{C}]|\u200d|<br>)*$/u;

/**
 * Checks every line against the only statement shapes the generators may emit. Anything that thought text could
 * inject (a directive, click, style, subgraph, a second statement on a line) fails one of these shapes.
 */
function assertOnlyKnownStatements(text: string): void {
  const lines = text.split('\n');
  assert.match(lines[0], /^flowchart (LR|TB)$/);
  for (const line of lines.slice(1)) {
    let match: RegExpMatchArray | null;
    if ((match = /^ {2}(\w+)\["([^"]*)"\]$/.exec(line)) || (match = /^ {2}(\w+)\(\["([^"]*)"\]\)$/.exec(line))) {
      assert.match(match[1], NODE_ID, line);
      assert.match(match[2], LABEL, line);
    } else if ((match = /^ {2}(\w+) (-->|-\.->)(?:\|"([^"]*)"\|)? (\w+)$/.exec(line))) {
      assert.match(match[1], NODE_ID, line);
      assert.match(match[4], NODE_ID, line);
      if (match[3] !== undefined) assert.match(match[3], LABEL, line);
    } else if ((match = /^ {2}class ([\w,]+) (revision|final|branchStart|dangling)$/.exec(line))) {
      for (const id of match[1].split(',')) assert.match(id, NODE_ID, line);
    } else {
      assert.match(
        line,
        /^ {2}classDef (revision|final|branchStart|dangling) stroke-[a-z]+: [0-9 ]+(px)?$/,
        `unexpected statement: ${line}`,
      );
    }
  }
}

function edgesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => / (-->|-\.->)/.test(line))
    .map((line) => line.trim());
}

describe('branchTreeSource', () => {
  it('draws the main line in order and each branch from its fork point, with t<seq> node ids', () => {
    const snapshot = session([
      { thought: 'one', thoughtNumber: 1 },
      { thought: 'two', thoughtNumber: 2 },
      { thought: 'three', thoughtNumber: 3 },
      { thought: 'alt a', thoughtNumber: 3, branchFromThought: 2, branchId: 'alt' },
      { thought: 'alt b', thoughtNumber: 4, branchFromThought: 2, branchId: 'alt' },
      { thought: 'four', thoughtNumber: 4 },
    ]);
    const source = branchTreeSource(snapshot);
    assert.deepEqual(edgesOf(source.text), ['t0 --> t1', 't1 --> t2', 't1 -.->|"alt"| t3', 't3 --> t4', 't2 --> t5']);
    assert.match(source.text, /^ {2}t3\["#3 · [a-z_]+<br>alt a"\]$/m);
    assert.deepEqual({ truncated: source.truncated, shown: source.shown, total: source.total }, { truncated: false, shown: 6, total: 6 });
    assert.match(source.text, /class t3 branchStart/);
    assertOnlyKnownStatements(source.text);
  });

  it('forks from the latest main-line thought with that number before the branch began', () => {
    const snapshot = snapshotOf([
      { thoughtNumber: 1 },
      { thoughtNumber: 2 },
      { thoughtNumber: 2 }, // the agent re-used number 2 on the main line
      { thoughtNumber: 2, branchId: 'x', branchFromThought: 1 },
      { thoughtNumber: 3, branchId: 'y', branchFromThought: 2 },
      { thoughtNumber: 2 }, // after the branch: must not become its fork
      { thoughtNumber: 4, branchId: 'z', branchFromThought: 3 }, // 3 exists only on branch y: fall back to it
    ]);
    const edges = edgesOf(branchTreeSource(snapshot).text);
    assert.ok(edges.includes('t0 -.->|"x"| t3'), edges.join('\n'));
    assert.ok(edges.includes('t2 -.->|"y"| t4'), edges.join('\n'));
    assert.ok(edges.includes('t4 -.->|"z"| t6'), edges.join('\n'));
    assert.ok(edges.includes('t2 --> t5'), edges.join('\n'));
  });

  it('marks revisions and the final thought with classes and badges', () => {
    const snapshot = session([
      { thought: 'one', thoughtNumber: 1 },
      { thought: 'two', thoughtNumber: 2 },
      { thought: 'one again', thoughtNumber: 3, isRevision: true, revisesThought: 1 },
      { thought: 'done', thoughtNumber: 4, nextThoughtNeeded: false },
    ]);
    const { text } = branchTreeSource(snapshot);
    assert.match(text, /class t2 revision/);
    assert.match(text, /class t3 final/);
    assert.match(text, /t2\["#3 · [a-z_]+ · revises #1<br>one again"\]/);
    assert.match(text, /t3\["#4 · [a-z_]+ · final<br>done"\]/);
  });

  it('escapes every injection in thought text, stage and branch id', () => {
    const calls: ThoughtArgs[] = INJECTION_CORPUS.map((thought, index) => ({ thought, thoughtNumber: index + 1 }));
    const snapshot = session(calls);
    const withBranches = snapshotOf([
      ...snapshot.thoughts,
      ...INJECTION_CORPUS.map((text, index) => ({
        thought: text,
        thoughtNumber: 2,
        branchId: text,
        branchFromThought: 1,
        stage: text,
        seq: snapshot.thoughts.length + index,
      })),
    ]);
    for (const source of [
      branchTreeSource(snapshot),
      branchTreeSource(withBranches),
      branchTreeSource(withBranches, { excerptLength: 500 }),
    ]) {
      assertOnlyKnownStatements(source.text);
      // Our own line break is the one `<` a label may hold.
      const text = source.text.replaceAll('<br>', '');
      for (const payload of ['<', '%%', '{', '}', '`', '$', 'onerror=alert(1)>']) {
        assert.ok(!text.includes(payload), `raw ${payload} in output`);
      }
    }
  });

  it('shows an empty session as a single placeholder node', () => {
    const source = branchTreeSource(snapshotOf([]));
    assert.equal(source.text, 'flowchart LR\n  empty["No thoughts yet"]');
    assert.deepEqual({ truncated: source.truncated, shown: source.shown, total: source.total }, { truncated: false, shown: 0, total: 0 });
  });

  it('windows to the most recent N thoughts and links cut lines to an "earlier" placeholder', () => {
    const snapshot = largeSession(120, (index) => `text ${index}`);
    const source = branchTreeSource(snapshot, { maxThoughts: 20 });
    assert.deepEqual({ truncated: source.truncated, shown: source.shown, total: source.total }, { truncated: true, shown: 20, total: 120 });
    assert.match(source.text, new RegExp(`^ {2}${EARLIER_NODE_ID}\\(\\["… 100 earlier thoughts"\\]\\)$`, 'm'));
    const ids = [...source.text.matchAll(/^ {2}(t\d+)\[/gm)].map((match) => match[1]);
    assert.deepEqual(
      ids,
      Array.from({ length: 20 }, (_, index) => `t${100 + index}`),
    );
    assert.ok(edgesOf(source.text).some((edge) => edge.startsWith(`${EARLIER_NODE_ID} `)));
    assertOnlyKnownStatements(source.text);
  });

  it('stays within Mermaid maxTextSize and maxEdges at 1,000 thoughts, shortening labels before dropping thoughts', () => {
    const plain = largeSession(1_000, (index) => `Thought ${index}: ${'considering the options carefully '.repeat(12)}`);
    // A generous node budget: the limits, not the budget, decide how much is drawn one node per thought.
    const source = branchTreeSource(plain, { nodeBudget: 1_000 });
    assert.ok(source.text.length <= MERMAID_MAX_TEXT_SIZE, `${source.text.length} chars`);
    assert.ok(edgesOf(source.text).length <= MERMAID_MAX_EDGES, `${edgesOf(source.text).length} edges`);
    assert.equal(source.truncated, false);
    assert.ok((source.nodes ?? 0) >= 400, `only ${source.nodes} nodes`);
    assert.ok((source.foldedNodes ?? 0) > 0);

    // Emoji-heavy text escapes to ~9 characters per character: labels must shrink further, and it must still fit.
    const emoji = largeSession(1_000, () => '😀🤔💡'.repeat(60));
    const emojiSource = branchTreeSource(emoji, { maxThoughts: 1_000 });
    assert.ok(emojiSource.text.length <= MERMAID_MAX_TEXT_SIZE);

    // A small window keeps full excerpts; limits only bite when needed.
    const small = branchTreeSource(plain, { maxThoughts: 30 });
    assert.match(small.text, /Thought 999: considering the option/);
  });

  it("honours a renderer's own lower limits", () => {
    const snapshot = largeSession(300, (index) => `text ${index}`);
    const source = branchTreeSource(snapshot, { maxTextSize: 5_000, maxEdges: 60 });
    assert.ok(source.text.length <= 5_000);
    assert.ok(edgesOf(source.text).length <= 60);
    assert.ok((source.nodes ?? 0) > 1 && (source.nodes ?? 0) <= 61, `${source.nodes} nodes`);
    const windowed = branchTreeSource(snapshot, { maxThoughts: 300, maxTextSize: 5_000, maxEdges: 60 });
    assert.ok(windowed.shown > 0 && windowed.shown < 300);
  });

  it('refuses invalid window options with a clear error', () => {
    const snapshot = snapshotOf([{}]);
    assert.throws(() => branchTreeSource(snapshot, { maxThoughts: 0 }), /maxThoughts must be a whole number of at least 1, got 0/);
    assert.throws(() => branchTreeSource(snapshot, { maxThoughts: 2.5 }), /maxThoughts/);
    assert.throws(() => branchTreeSource(snapshot, { excerptLength: -1 }), /excerptLength/);
  });
});

describe('revisionChainSource', () => {
  it('draws each revised thought followed by its revisions in order, revisions of revisions included', () => {
    const snapshot = session([
      { thought: 'one', thoughtNumber: 1 },
      { thought: 'two', thoughtNumber: 2 },
      { thought: 'two, better', thoughtNumber: 3, isRevision: true, revisesThought: 2 },
      { thought: 'one, better', thoughtNumber: 4, isRevision: true, revisesThought: 1 },
      { thought: 'two, best', thoughtNumber: 5, isRevision: true, revisesThought: 3 },
      { thought: 'two, once more', thoughtNumber: 6, isRevision: true, revisesThought: 2 },
    ]);
    assert.deepEqual(revisionChains(snapshot), [
      { root: 1, revisions: [2, 4, 5] },
      { root: 0, revisions: [3] },
    ]);
    const source = revisionChainSource(snapshot);
    assert.deepEqual(edgesOf(source.text), ['t1 --> t2', 't2 --> t4', 't4 --> t5', 't0 --> t3']);
    assert.match(source.text, /t4\["#5 · [a-z_]+ · revises #3<br>two, best"\]/);
    assert.match(source.text, /class t2,t4,t5,t3 revision/);
    assertOnlyKnownStatements(source.text);
  });

  it('roots a revision of a thought the session does not hold at a dangling placeholder, not nowhere', () => {
    const snapshot = snapshotOf([
      { thoughtNumber: 4, revisesThought: 2, isRevision: true },
      { thoughtNumber: 5 },
      { thoughtNumber: 6, revisesThought: 4, isRevision: true },
      { thoughtNumber: 7, revisesThought: 2, isRevision: true },
    ]);
    assert.deepEqual(revisionChains(snapshot), [{ root: undefined, missingRoot: 2, revisions: [0, 2, 3] }]);
    const source = revisionChainSource(snapshot);
    assert.deepEqual(edgesOf(source.text), ['dangling2 --> t0', 't0 --> t2', 't2 --> t3']);
    assert.match(source.text, /^ {2}dangling2\(\["#2 · not in this session"\]\)$/m);
    assert.match(source.text, /^ {2}class dangling2 dangling$/m);
    assertOnlyKnownStatements(source.text);
  });

  it('says so when there are no revisions', () => {
    const source = revisionChainSource(session([{ thought: 'one', thoughtNumber: 1 }]));
    assert.equal(source.text, 'flowchart LR\n  empty["No revisions yet"]');
  });

  it('keeps the revised thought when windowing, and notes revisions left out', () => {
    const snapshot = snapshotOf([
      { thoughtNumber: 1 },
      { thoughtNumber: 2, revisesThought: 1, isRevision: true },
      { thoughtNumber: 3 },
      { thoughtNumber: 4 },
      { thoughtNumber: 5, revisesThought: 1, isRevision: true },
      { thoughtNumber: 6, revisesThought: 3, isRevision: true },
    ]);
    const source = revisionChainSource(snapshot, { maxThoughts: 2 });
    assert.equal(source.truncated, true);
    assert.deepEqual(edgesOf(source.text), ['t0 -->|"1 earlier revision not shown"| t4', 't2 --> t5']);
    assertOnlyKnownStatements(source.text);
  });

  it('escapes every injection', () => {
    const snapshot = snapshotOf(
      INJECTION_CORPUS.flatMap((text, index) => [
        { thought: text, thoughtNumber: index * 2 + 1, stage: text },
        { thought: text, thoughtNumber: index * 2 + 2, isRevision: true, revisesThought: index * 2 + 1 },
      ]),
    );
    const { text } = revisionChainSource(snapshot);
    assertOnlyKnownStatements(text);
    for (const payload of ['<', '%%', '{', '`']) assert.ok(!text.replaceAll('<br>', '').includes(payload), payload);
  });

  it('stays within Mermaid limits at 1,000 thoughts', () => {
    const snapshot = largeSession(1_000, (index) => `Revision text ${index} ${'x'.repeat(380)}`);
    const source = revisionChainSource(snapshot, { nodeBudget: 1_000 });
    assert.ok(source.text.length <= MERMAID_MAX_TEXT_SIZE);
    assert.ok(edgesOf(source.text).length <= MERMAID_MAX_EDGES);
    assert.ok(edgesOf(source.text).length >= 50);
    const folded = revisionChainSource(snapshot);
    assert.ok((folded.nodes ?? 0) <= 100, `${folded.nodes} nodes`);
  });
});

describe('Mermaid accepts the generated sources', () => {
  const corpusSession = (): SessionSnapshot =>
    snapshotOf(
      INJECTION_CORPUS.flatMap((text, index) => [
        { thought: text, thoughtNumber: index * 3 + 1, stage: text },
        { thought: text, thoughtNumber: index * 3 + 2, isRevision: true, revisesThought: index * 3 + 1, nextThoughtNeeded: false },
        { thought: text, thoughtNumber: index * 3 + 3, branchId: text, branchFromThought: index * 3 + 1 },
      ]),
    );

  it('parses the branch tree and revision chain of the injection corpus', async () => {
    const snapshot = corpusSession();
    await parseMermaid(branchTreeSource(snapshot).text);
    await parseMermaid(branchTreeSource(snapshot, { maxThoughts: 10, direction: 'TB' }).text);
    await parseMermaid(revisionChainSource(snapshot).text);
    await parseMermaid(revisionChainSource(snapshot, { maxThoughts: 4 }).text);
  });

  it('parses diagrams with dangling references (a branch and revisions of thoughts the session does not hold)', async () => {
    const snapshot = snapshotOf([
      { thoughtNumber: 4, revisesThought: 2, isRevision: true },
      { thoughtNumber: 5, branchFromThought: 3, branchId: 'alt' },
      { thoughtNumber: 6, branchFromThought: 3, branchId: 'other' },
    ]);
    const tree = branchTreeSource(snapshot).text;
    assert.deepEqual(edgesOf(tree), ['dangling3 -.->|"alt"| t1', 'dangling3 -.->|"other"| t2']);
    assert.equal(tree.split('\n').filter((line) => line.startsWith('  dangling3(')).length, 1, 'one placeholder per missing thought');
    assertOnlyKnownStatements(tree);
    await parseMermaid(tree);
    await parseMermaid(revisionChainSource(snapshot).text);
  });

  it('parses the empty diagrams and the largest windowed ones', async () => {
    await parseMermaid(branchTreeSource(snapshotOf([])).text);
    await parseMermaid(revisionChainSource(snapshotOf([])).text);
    const large = largeSession(1_000, (index) => `Thought ${index} 😀 <b>${'x'.repeat(300)}</b>`);
    await parseMermaid(branchTreeSource(large).text);
    await parseMermaid(revisionChainSource(large).text);
  });

  it('rejects what it should: the parse check is not a formality', async () => {
    await assert.rejects(parseMermaid('flowchart LR\n  t0["unterminated]\n'));
  });
});
