// Insights on a fixture whose figures were counted by hand (written next to each expectation): per session (revisions,
// branches, stage loops, pace, feedback, tokens) and across sessions (per strategy, rates, median length, abandoned,
// filters by time and strategy).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FeedbackRecord, SessionMeta, SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import { sessionInsights } from '../../src/engine/insights/sessionInsights';
import { IDLE_AS_ABANDONED_MS } from '../../src/engine/browserSafe/sessionStatus';
import { overallInsights } from '../../src/engine/insights/overallInsights';
import { median } from '../../src/engine/insights/statistics';
import { sessionHtml } from '../../src/export/html';
import { sessionMarkdown } from '../../src/export/markdown';

const T0 = Date.UTC(2026, 0, 10, 9, 0, 0);

function thought(seq: number, secondsAfterStart: number, fields: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return {
    seq,
    thought: `thought ${seq + 1}`,
    thoughtNumber: seq + 1,
    totalThoughts: 10,
    nextThoughtNeeded: true,
    timestamp: T0 + secondsAfterStart * 1000,
    ...fields,
  };
}

function meta(id: string, fields: Partial<SessionMeta> = {}): SessionMeta {
  return {
    id,
    strategy: 'linear',
    status: 'complete',
    createdAt: T0,
    updatedAt: T0,
    thoughtCount: 0,
    revisionCount: 0,
    branchIds: [],
    lastThoughtNumber: 0,
    totalThoughts: 0,
    ...fields,
  };
}

// Stages: reception, planning, generation, evaluation, revision, evaluation (loop 1), generation (loop 2, on a
// branch), generation (same run), evaluation (loop 3), final. Gaps: 10, 20, 5, 60, 30, 10, 10, 120, 15 seconds.
const FIXTURE: SessionSnapshot = {
  meta: meta('fixture-1', { thoughtCount: 10, revisionCount: 1, branchIds: ['alt'] }),
  strategySwitches: [],
  thoughts: [
    thought(0, 0, { stage: 'problem_reception' }),
    thought(1, 10, { stage: 'initial_thought_planning' }),
    thought(2, 30, { stage: 'thought_generation' }),
    thought(3, 35, { stage: 'thought_evaluation', extra: { tokens: { input: 100, output: 40, estimated: false } } }),
    thought(4, 95, { stage: 'thought_revision', isRevision: true, revisesThought: 3 }),
    thought(5, 125, { stage: 'thought_evaluation', extra: { tokens: { input: 50, output: 10, estimated: true } } }),
    thought(6, 135, { stage: 'thought_generation', branchFromThought: 3, branchId: 'alt' }),
    thought(7, 145, { stage: 'thought_generation', branchId: 'alt', extra: { tokens: 'not a count' } }),
    thought(8, 265, { stage: 'thought_evaluation' }),
    thought(9, 280, { stage: 'final_response', nextThoughtNeeded: false }),
  ],
  feedback: [
    feedback('f1', 'note', {}),
    feedback('f2', 'reject', { thoughtNumber: 3, deliveredAt: T0 + 90_000, appliedAt: T0 + 95_000, appliedBySeq: 4 }),
    feedback('f3', 'branch', { thoughtNumber: 3, deliveredAt: T0 + 130_000 }),
  ],
};

function feedback(id: string, kind: FeedbackRecord['kind'], fields: Partial<FeedbackRecord>): FeedbackRecord {
  return { id, kind, author: 'user', createdAt: T0, text: 'x', ...fields };
}

describe('sessionInsights', () => {
  it('matches the hand-counted figures of the fixture', () => {
    const insights = sessionInsights(FIXTURE);
    assert.equal(insights.thoughts, 10);
    assert.equal(insights.revisions, 1);
    assert.equal(insights.revisionRate, 0.1);
    assert.equal(insights.branches, 1);
    assert.equal(insights.branchThoughts, 2);
    assert.equal(insights.branchRate, 0.2);
    assert.deepEqual(insights.stagesVisited, [
      'problem_reception',
      'initial_thought_planning',
      'thought_generation',
      'thought_evaluation',
      'thought_revision',
      'final_response',
    ]);
    assert.equal(insights.stageVisits.length, 9);
    assert.deepEqual(insights.stageVisits[6], { stage: 'thought_generation', thoughts: 2 });
    assert.equal(insights.loops, 3);
    assert.equal(insights.durationMs, 280_000);
    // Sorted gaps 5 10 10 10 15 20 30 60 120: the middle one is 15 s.
    assert.deepEqual(insights.timeBetweenThoughts, { medianMs: 15_000, maxMs: 120_000 });
    assert.deepEqual(insights.feedback, { given: 3, delivered: 2, applied: 1, byKind: { note: 1, reject: 1, branch: 1, conclude: 0 } });
    assert.deepEqual(insights.tokens, { thoughts: 2, input: 150, output: 50, estimated: true });
  });

  it('handles an empty session and a session without stages, feedback or tokens', () => {
    const empty = sessionInsights({ meta: meta('empty'), thoughts: [], strategySwitches: [] });
    assert.equal(empty.thoughts, 0);
    assert.equal(empty.revisionRate, 0);
    assert.equal(empty.timeBetweenThoughts, undefined);
    assert.equal(empty.tokens, undefined);
    assert.equal(empty.feedback.given, 0);
    const plain = sessionInsights({ meta: meta('plain'), thoughts: [thought(0, 0), thought(1, 4)], strategySwitches: [] });
    assert.deepEqual(plain.stagesVisited, []);
    assert.equal(plain.loops, 0);
    assert.deepEqual(plain.timeBetweenThoughts, { medianMs: 4000, maxMs: 4000 });
  });
});

describe('overallInsights', () => {
  const NOW = T0 + 10 * 24 * 3600 * 1000;
  const day = (n: number) => T0 + n * 24 * 3600 * 1000;
  // Six sessions: 3 linear (lengths 4, 10, 7), 2 react (lengths 5, 9), 1 tree_of_thoughts (length 2), one unreadable.
  const METAS: SessionMeta[] = [
    meta('a', { createdAt: day(0), updatedAt: day(0), thoughtCount: 4, revisionCount: 1 }),
    meta('b', { createdAt: day(1), updatedAt: day(1), thoughtCount: 10, revisionCount: 2, branchIds: ['x', 'y'] }),
    // Live but idle for 9 days: abandoned.
    meta('c', { createdAt: day(2), updatedAt: day(2), thoughtCount: 7, status: 'live' }),
    meta('d', { strategy: 'react', createdAt: day(3), updatedAt: day(3), thoughtCount: 5, status: 'abandoned' }),
    meta('e', { strategy: 'react', createdAt: day(4), updatedAt: NOW - 1000, thoughtCount: 9, status: 'live', branchIds: ['z'] }),
    meta('f', { strategy: 'tree_of_thoughts', createdAt: day(5), updatedAt: day(5), thoughtCount: 2, revisionCount: 1 }),
    meta('g', { createdAt: day(6), updatedAt: day(6), unreadable: 'torn journal' }),
  ];

  it('matches the hand-counted figures across all sessions', () => {
    const all = overallInsights(METAS, {}, NOW);
    assert.equal(all.sessions, 6);
    assert.equal(all.unreadable, 1);
    assert.equal(all.thoughts, 37);
    // Lengths 2 4 5 7 9 10: (5 + 7) / 2.
    assert.equal(all.medianLength, 6);
    // a, b, f revised: 3 of 6; b, e branched: 2 of 6.
    assert.equal(all.revisionRate, 0.5);
    assert.equal(all.branchRate, 0.3333);
    assert.equal(all.revisionsPerThought, Math.round((4 / 37) * 10_000) / 10_000);
    assert.equal(all.branchesPerSession, 0.5);
    assert.equal(all.abandoned, 2);
    assert.deepEqual(all.byStatus, { live: 1, complete: 3, abandoned: 2 });
    assert.deepEqual(
      all.byStrategy.map((group) => [group.strategy, group.sessions, group.medianLength, group.abandoned]),
      [
        ['linear', 3, 7, 1],
        ['react', 2, 7, 1],
        ['tree_of_thoughts', 1, 2, 0],
      ],
    );
  });

  it('filters by time range and strategy', () => {
    const early = overallInsights(METAS, { since: day(1), until: day(4) }, NOW);
    assert.deepEqual(
      early.byStrategy.map((group) => [group.strategy, group.sessions]),
      [
        ['linear', 2],
        ['react', 1],
      ],
    );
    assert.equal(early.medianLength, 7);
    const react = overallInsights(METAS, { strategy: 'react' }, NOW);
    assert.equal(react.sessions, 2);
    assert.equal(react.branchRate, 0.5);
    assert.equal(react.abandoned, 1);
    assert.equal(overallInsights(METAS, { strategy: 'nope' }, NOW).sessions, 0);
  });

  it('counts a live session as abandoned only after the idle time', () => {
    const fresh = meta('h', { status: 'live', updatedAt: NOW - IDLE_AS_ABANDONED_MS });
    const stale = meta('i', { status: 'live', updatedAt: NOW - IDLE_AS_ABANDONED_MS - 1 });
    assert.deepEqual(overallInsights([fresh, stale], {}, NOW).byStatus, { live: 1, complete: 0, abandoned: 1 });
  });

  it('median of odd, even and empty lists', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([]), 0);
  });
});

describe('Insights section of the exports', () => {
  it('Markdown and HTML carry the hand-counted figures, escaped', () => {
    const markdown = sessionMarkdown(FIXTURE);
    const section = markdown.slice(markdown.indexOf('## Insights'), markdown.indexOf('## Thoughts'));
    assert.match(section, /- \*\*Revisions:\*\* 1 \(10% of thoughts\)/);
    assert.match(section, /- \*\*Branches:\*\* 1 \(2 thoughts on branches, 20%\)/);
    assert.match(section, /- \*\*Stages visited:\*\* 6 \(3 loops back to an earlier stage\): problem\\_reception/);
    assert.match(section, /- \*\*Time between thoughts:\*\* median 15 s, longest 2 min/);
    assert.match(section, /- \*\*Feedback:\*\* 3 given, 2 delivered, 1 applied/);
    assert.match(section, /- \*\*Deliberation tokens:\*\* 150 in, 50 out over 2 thoughts \(partly estimated\)/);
    const html = sessionHtml(FIXTURE, { rendererScript: '/* renderer */' });
    assert.match(html, /<section class="insights"><h2>Insights<\/h2><dl class="summary">|<section class="insights">\s*<h2>Insights<\/h2>/);
    assert.match(html, /<dt>Revisions<\/dt><dd>1 \(10% of thoughts\)<\/dd>/);
    assert.match(html, /<dt>Time between thoughts<\/dt><dd>median 15 s, longest 2 min<\/dd>/);
  });
});
