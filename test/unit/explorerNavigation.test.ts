// The explorer's navigation rules that need no browser: the search language, the announcer's throttle (on a fake
// clock), follow mode's glide-or-jump rule, the zoom/pan arithmetic, reading edge ids back from Mermaid's SVG, node labels and saved navigation state.
// The same behaviour in real Chromium is in test/webview/navigation.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stageEdgeId, stageNodeId } from '../../src/diagrams/stageGraph';
import type { ThoughtRecord } from '../../src/engine/model';
import { edgeEndpoints, pickInDirection } from '../../webview/diagrams/diagramGraph';
import { BURST_MS, followMove } from '../../webview/replay/followMode';
import { LiveAnnouncer, announcementFor, type AnnouncerClock } from '../../webview/replay/liveAnnouncer';
import { readNavigationState } from '../../webview/app/navigationState';
import { thoughtNodeLabel } from '../../webview/replay/nodeLabels';
import { parseSearch, searchThoughts } from '../../webview/search/sessionSearch';
import { MIN_READABLE_SCALE } from '../../src/diagrams/diagramLayout';
import { VIEW_PADDING, autoTransform, centreOn, clampPan, fitTransform, panBy, zoomAt, zoomTo } from '../../webview/diagrams/viewTransform';

function thought(seq: number, fields: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return {
    seq,
    thought: `Thought ${seq + 1} about caching`,
    thoughtNumber: seq + 1,
    totalThoughts: 10,
    nextThoughtNeeded: true,
    timestamp: 1_700_000_000_000 + seq,
    ...fields,
  } as ThoughtRecord;
}

describe('session search', () => {
  const thoughts = [
    thought(0, { stage: 'problem_reception', thought: 'Read the CSS grid bug report' }),
    thought(1, { stage: 'critique', thought: 'The flex fallback is wrong' }),
    thought(2, { stage: 'self_critique', branchId: 'css', branchFromThought: 2, thought: 'Try grid-template-areas' }),
    thought(3, { stage: 'critique', branchId: 'css-alt', branchFromThought: 2, thought: 'Grid areas are fine' }),
    thought(4, { stage: 'final_answer', thought: 'Ship the grid fix', thoughtNumber: 12 }),
  ];

  it('parses fields, phrases, numbers and words', () => {
    assert.deepEqual(parseSearch('stage:Critique branch:CSS "grid areas" #12 fix'), {
      text: ['grid areas', 'fix'],
      stages: ['critique'],
      branches: ['css'],
      numbers: [12],
    });
    assert.deepEqual(parseSearch('stage:"final answer"').stages, ['final_answer']);
    assert.deepEqual(parseSearch('  '), { text: [], stages: [], branches: [], numbers: [] });
  });

  it('matches every criterion, case-insensitively, in session order', () => {
    assert.deepEqual(searchThoughts(thoughts, 'stage:critique'), [1, 2, 3]);
    assert.deepEqual(searchThoughts(thoughts, 'stage:critique branch:css'), [2, 3]);
    assert.deepEqual(searchThoughts(thoughts, 'branch:main'), [0, 1, 4]);
    assert.deepEqual(searchThoughts(thoughts, 'GRID'), [0, 2, 3, 4]);
    assert.deepEqual(searchThoughts(thoughts, '"grid areas"'), [3]);
    assert.deepEqual(searchThoughts(thoughts, '#12'), [4]);
    assert.deepEqual(searchThoughts(thoughts, 'grid stage:nothing'), []);
    assert.deepEqual(searchThoughts(thoughts, ''), [], 'an empty query has no hits');
  });
});

describe('live announcer', () => {
  function fakeClock(): AnnouncerClock & { advance: (ms: number) => void } {
    let now = 0;
    let timers: { at: number; run: () => void }[] = [];
    return {
      now: () => now,
      setTimeout: (run, ms) => timers.push({ at: now + ms, run }),
      advance(ms) {
        const until = now + ms;
        for (;;) {
          const next = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
          if (!next) break;
          timers = timers.filter((timer) => timer !== next);
          now = next.at;
          next.run();
        }
        now = until;
      },
    };
  }

  it('speaks at once, then at most once per interval, summarising each burst', () => {
    const clock = fakeClock();
    const said: { at: number; text: string }[] = [];
    const announcer = new LiveAnnouncer((text) => said.push({ at: clock.now(), text }), 2_000, clock);
    announcer.thoughtAdded(thought(0, { stage: 'planning' }));
    clock.advance(0);
    assert.deepEqual(said, [{ at: 0, text: 'New thought 1, planning' }]);
    for (let seq = 1; seq <= 5; seq++) {
      clock.advance(100);
      announcer.thoughtAdded(thought(seq, { stage: 'critique', revisesThought: seq === 5 ? 2 : undefined, isRevision: seq === 5 }));
    }
    clock.advance(1_000);
    assert.equal(said.length, 1, 'nothing inside the interval');
    clock.advance(1_000);
    assert.deepEqual(said[1], { at: 2_000, text: '5 new thoughts, latest thought 6, critique, revises 2' });
    clock.advance(10_000);
    assert.equal(said.length, 2, 'silence when nothing new came');
    announcer.thoughtAdded(thought(6));
    clock.advance(0);
    assert.equal(said.length, 3, 'a thought after a quiet spell is spoken at once');
  });

  it('words a burst from its thoughts', () => {
    assert.equal(announcementFor([]), '');
    assert.equal(
      announcementFor([thought(0), thought(1, { branchId: 'css', branchFromThought: 1, nextThoughtNeeded: false })]),
      '2 new thoughts, latest thought 2, branch css from 1, final',
    );
    assert.equal(
      thoughtNodeLabel(thought(11, { stage: 'reasoning_update', revisesThought: 6, isRevision: true })),
      'thought 12, reasoning update, revises 6',
    );
  });
});

describe('zoom and pan arithmetic', () => {
  const content = { width: 1_000, height: 4_000 };
  const viewport = { width: 500, height: 400 };

  it('auto shows the whole drawing when it is readable, else fits the width down to a readable scale; fit shows everything', () => {
    const auto = autoTransform(content, viewport);
    assert.equal(auto.mode, 'auto');
    assert.equal(auto.scale, MIN_READABLE_SCALE, 'never below the readable scale: the rest scrolls');
    assert.equal(auto.y, VIEW_PADDING, 'from the top');
    const wide = autoTransform({ width: 600, height: 5_000 }, viewport);
    assert.equal(wide.scale, (500 - 2 * VIEW_PADDING) / 600, 'the width fitted when that is readable');
    const whole = autoTransform({ width: 600, height: 450 }, viewport);
    assert.equal(whole.scale, Math.min((500 - 2 * VIEW_PADDING) / 600, (400 - 2 * VIEW_PADDING) / 450), 'all of it in view');
    assert.ok(whole.scale >= MIN_READABLE_SCALE);
    assert.equal(autoTransform({ width: 100, height: 50 }, viewport).scale, 1, 'small drawings stay 1:1');
    assert.equal(autoTransform(content, viewport, true).scale, 1, 'natural size');
    const fit = fitTransform(content, viewport);
    assert.equal(fit.scale, (400 - 2 * VIEW_PADDING) / 4_000);
    assert.ok(fit.x >= VIEW_PADDING && fit.x + content.width * fit.scale <= viewport.width - VIEW_PADDING + 1e-9);
    assert.ok(fit.y >= VIEW_PADDING - 1e-9 && fit.y + content.height * fit.scale <= viewport.height - VIEW_PADDING + 1e-9);
  });

  it('zooms about a point, which stays put', () => {
    const start = { mode: 'free' as const, scale: 1, x: -100, y: -300 };
    const at = { x: 200, y: 150 };
    const zoomed = zoomAt(start, 1.5, at, content, viewport);
    const before = { x: (at.x - start.x) / start.scale, y: (at.y - start.y) / start.scale };
    assert.ok(Math.abs(zoomed.x + before.x * zoomed.scale - at.x) < 1e-9);
    assert.ok(Math.abs(zoomed.y + before.y * zoomed.scale - at.y) < 1e-9);
    assert.equal(zoomTo(zoomed, 99, content, viewport).scale, 4, 'clamped to the largest zoom');
  });

  it('never lets the drawing leave the canvas, and centring moves only an axis that overflows', () => {
    const far = panBy({ mode: 'free', scale: 1, x: 0, y: 0 }, -10_000, 10_000, content, viewport);
    assert.equal(far.x, viewport.width - VIEW_PADDING - content.width);
    assert.equal(far.y, VIEW_PADDING);
    const small = { width: 200, height: 5_000 };
    const view = { mode: 'auto' as const, scale: 1, x: 150, y: 6 };
    const centred = centreOn(view, { x: 190, y: 2_500 }, small, viewport);
    assert.equal(centred.x, 150, 'the width fits: no sideways move');
    assert.equal(centred.y, 200 - 2_500);
    assert.equal(centred.mode, 'auto');
    assert.deepEqual(clampPan(view, small, viewport), view);
  });
});

describe('diagram graph from Mermaid edge ids', () => {
  it('splits an edge id where both halves are drawn nodes, even with underscores in ids', () => {
    const drawn = new Set(['t1', 't2', 'run_3_40', 'branch_css_x', 's_action_planning', 's_action']);
    assert.deepEqual(edgeEndpoints('L_t1_t2_0', drawn), ['t1', 't2']);
    assert.deepEqual(edgeEndpoints('L_run_3_40_branch_css_x_2', drawn), ['run_3_40', 'branch_css_x']);
    assert.deepEqual(edgeEndpoints('L_s_action_s_action_planning_0', drawn), ['s_action', 's_action_planning']);
    assert.equal(edgeEndpoints('L_t1_t9_0', drawn), undefined, 'an end not drawn');
    assert.equal(edgeEndpoints('t1', drawn), undefined);
    // The stage graph names its edges itself.
    const stages = new Set([stageNodeId('problem_reception'), stageNodeId('initial-reasoning')]);
    assert.deepEqual(edgeEndpoints(stageEdgeId('problem_reception', 'initial-reasoning'), stages), [
      stageNodeId('problem_reception'),
      stageNodeId('initial-reasoning'),
    ]);
    assert.equal(edgeEndpoints(stageEdgeId('problem_reception', 'elsewhere'), stages), undefined);
  });

  it('picks the neighbour ahead and closest to the arrow axis', () => {
    const from = { x: 100, y: 100 };
    const candidates = [
      { key: 'below-far-right', at: { x: 300, y: 180 } },
      { key: 'below', at: { x: 110, y: 250 } },
      { key: 'above', at: { x: 100, y: 0 } },
      { key: 'level', at: { x: 400, y: 100 } },
    ];
    assert.equal(pickInDirection(from, 'down', candidates), 'below');
    assert.equal(pickInDirection(from, 'up', candidates), 'above');
    assert.equal(pickInDirection(from, 'right', candidates), 'level');
    assert.equal(pickInDirection(from, 'left', candidates), undefined);
  });
});

describe('saved navigation state', () => {
  it('keeps what is well-formed and drops the rest', () => {
    const state = readNavigationState({
      views: { branchTree: { mode: 'free', scale: 2, x: -10, y: 5 }, stageGraph: { mode: 'zoomy', scale: 1, x: 0, y: 0 }, nope: {} },
      scroll: { branchTree: 520, revisionChain: -4, stageGraph: 10 },
      focusedNode: { branchTree: 't12', revisionChain: '<img src=x>' },
      collapsed: {
        branchTree: { sessionId: 'abc', lanes: [2, 0, -1, 1.5, '3', 5] },
        revisionChain: { sessionId: 'x'.repeat(201), lanes: [1] },
        stageGraph: { sessionId: 'abc', lanes: [1] },
      },
      search: 'stage:critique',
    });
    assert.deepEqual(state, {
      views: { branchTree: { mode: 'free', scale: 2, x: -10, y: 5 } },
      scroll: { branchTree: 520 },
      focusedNode: { branchTree: 't12' },
      collapsed: { branchTree: { sessionId: 'abc', lanes: [2, 5] } },
      search: 'stage:critique',
    });
    assert.deepEqual(readNavigationState('garbage'), { views: {}, scroll: {}, focusedNode: {}, collapsed: {}, search: '' });
    assert.deepEqual(readNavigationState({ collapsed: { branchTree: { sessionId: 'abc', lanes: [0] } } }).collapsed, {});
    assert.equal(
      readNavigationState({ collapsed: { branchTree: { sessionId: 'abc', lanes: Array.from({ length: 5_000 }, (_, i) => i + 1) } } })
        .collapsed.branchTree?.lanes.length,
      1_000,
    );
    assert.equal(readNavigationState({ views: { branchTree: { mode: 'fit', scale: 1e9, x: 0, y: 0 } } }).views.branchTree?.scale, 4);
  });

  it('cuts a long saved search without halving a character', () => {
    // An emoji (two UTF-16 units) straddling the 500-unit bound is left out whole, never kept as a lone surrogate.
    assert.equal(readNavigationState({ search: `${'a'.repeat(499)}😀tail` }).search, 'a'.repeat(499));
    assert.equal(readNavigationState({ search: 'b'.repeat(600) }).search, 'b'.repeat(500));
  });
});

describe('follow mode moves', () => {
  it('glides to a thought that comes alone, jumps within a burst, and always jumps with reduced motion', () => {
    assert.equal(followMove(Number.POSITIVE_INFINITY, false), 'smooth', 'the first thought');
    assert.equal(followMove(BURST_MS, false), 'smooth');
    assert.equal(followMove(BURST_MS - 1, false), 'auto', 'a thought right after another');
    assert.equal(followMove(0, false), 'auto');
    assert.equal(followMove(Number.POSITIVE_INFINITY, true), 'auto', 'prefers-reduced-motion');
  });
});
