// Deliberation without a transport: auto routing on a table of problems (one per band, plus session signals), plan
// validation and resolution (defaults, caps, ThinkSuit's bare-string-is-a-task rule, tools only on task steps),
// result strategies, the hats' prompts and the deliberation strategy's stage flow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUDGET_RULES } from '../../src/deliberation/budgets';
import { resolveNamedPlan } from '../../src/deliberation/namedPlans';
import { PlanError, resolvePlanObject } from '../../src/deliberation/plans';
import { combineResults } from '../../src/deliberation/resultStrategy';
import { HAT_NAMES, RoleBook, hatRoles } from '../../src/deliberation/roles';
import { BAND_SEQUENCES, routeProblem } from '../../src/deliberation/routing';
import { findStrategy } from '../../src/engine/strategies/catalog';
import { decideStage } from '../../src/engine/stageFlow';

const book = new RoleBook([{ name: 'lawyer', instructions: 'Point out legal exposure only.' }]);

describe('auto routing', () => {
  const table: { problem: string; band: string; session?: { branches: number; revisions: number } }[] = [
    { problem: 'What is the capital of France?', band: 'single' },
    { problem: 'Which database should a small team pick for a new internal tool that must run on a single server?', band: 'double' },
    {
      problem:
        'We must cut API latency below 200 ms without raising the budget. Should we add a cache in front of the database, or move the queue to a distributed service?',
      band: 'triple',
    },
    {
      problem:
        'Our distributed payment API must stay compatible with old clients, keep p99 latency under 150 ms and comply with PCI requirements, while the team of four cannot grow and the migration must finish within one quarter. Should we rewrite the monolith as microservices, split only the database schema, or add a caching layer first? What are the trade-offs for consistency, deployment risk and throughput? How do we test idempotency of retries across the queue?',
      band: 'full',
    },
    // The session so far counts: the double-band problem with two open branches and two revisions needs more hats.
    {
      problem: 'Which database should a small team pick for a new internal tool that must run on a single server?',
      band: 'triple',
      session: { branches: 2, revisions: 2 },
    },
  ];
  for (const row of table) {
    it(`routes "${row.problem.slice(0, 40)}…"${row.session ? ' (with session signals)' : ''} to ${row.band}`, () => {
      const decision = routeProblem(row.problem, row.session);
      assert.equal(decision.band, row.band);
      assert.deepEqual(decision.sequence, BAND_SEQUENCES[decision.band]);
      assert.equal(decision.estimatedSavingPercent, Math.round(((6 - decision.sequence.length) / 6) * 100));
      assert.match(decision.reason, new RegExp(`complexity ${decision.score}/100 .* ${row.band} band`));
      assert.equal(
        decision.score,
        Object.values(decision.factors).reduce((a, b) => a + b, 0),
      );
    });
  }

  it('is deterministic and bounded for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), fc.nat(20), fc.nat(20), (text, branches, revisions) => {
        const a = routeProblem(text, { branches, revisions });
        const b = routeProblem(text, { branches, revisions });
        assert.deepEqual(a, b);
        assert.ok(a.score >= 0 && a.score <= 100);
        assert.ok(a.sequence.length >= 1 && a.sequence.length <= 6);
      }),
    );
  });

  it('never routes to fewer hats when signals are added', () => {
    const plain = routeProblem('Should we ship on Friday?');
    const busy = routeProblem('Should we ship on Friday?', { branches: 2, revisions: 2 });
    assert.ok(busy.score > plain.score);
    assert.ok(busy.sequence.length >= plain.sequence.length);
  });
});

describe('plans', () => {
  it('runs a bare-string step as a task and gives tools only to task steps', () => {
    const plan = resolvePlanObject(
      { strategy: 'sequential', sequence: ['factual', { role: 'critical', strategy: 'direct' }], tools: ['read_file'], buildThread: false },
      book,
      {},
    );
    assert.equal(plan.steps[0].strategy, 'task');
    assert.deepEqual(plan.steps[0].tools, ['read_file']);
    assert.deepEqual(plan.steps[0].resolution, {
      maxCycles: BUDGET_RULES.maxCycles.default,
      maxTokens: BUDGET_RULES.taskMaxTokens.default,
      maxToolCalls: BUDGET_RULES.maxToolCalls.default,
      timeoutMs: BUDGET_RULES.taskTimeoutMs.default,
    });
    assert.equal(plan.steps[1].strategy, 'direct');
    assert.deepEqual(plan.steps[1].tools, []);
    assert.equal(plan.steps[1].resolution, undefined);
    assert.equal(plan.buildThread, false);
    assert.equal(plan.resultStrategy, 'last');
  });

  it('caps absurd budgets and says which', () => {
    const plan = resolvePlanObject(
      { strategy: 'task', role: 'critical', resolution: { maxCycles: 1e9, maxTokens: 5e8 }, maxTokens: 999_999 },
      book,
      { timeoutMs: 1e9 },
    );
    assert.equal(plan.steps[0].resolution?.maxCycles, BUDGET_RULES.maxCycles.cap);
    assert.equal(plan.steps[0].resolution?.maxTokens, BUDGET_RULES.taskMaxTokens.cap);
    assert.equal(plan.steps[0].maxTokens, BUDGET_RULES.maxTokens.cap);
    assert.equal(plan.timeoutMs, BUDGET_RULES.timeoutMs.cap);
    assert.equal(plan.capped.length, 4);
    assert.ok(plan.capped.some((note) => note.startsWith('plan.resolution.maxCycles: asked 1000000000, capped at 12')));
  });

  it("prefers the plan's own budgets over request-wide ones", () => {
    const plan = resolvePlanObject({ strategy: 'task', role: 'factual', resolution: { maxCycles: 2 } }, book, {
      maxCycles: 5,
      maxToolCalls: 3,
    });
    assert.equal(plan.steps[0].resolution?.maxCycles, 2);
    assert.equal(plan.steps[0].resolution?.maxToolCalls, 3);
  });

  const refusals: [string, unknown, RegExp][] = [
    [
      'unknown strategy',
      { strategy: 'tree' },
      /^Invalid plan\.strategy: got "tree"; expected strategy to be one of direct, sequential, parallel, task/,
    ],
    [
      'unknown role',
      { strategy: 'direct', role: 'wizard' },
      /^Invalid plan\.role: unknown role "wizard"; expected one of the hats factual, .* or the custom roles lawyer/,
    ],
    [
      'nested plan',
      { strategy: 'sequential', sequence: [{ role: 'factual', sequence: ['critical'] }] },
      /^Invalid plan\.sequence\[0\]: unknown field "sequence"; plans do not nest/,
    ],
    [
      'nested strategy',
      { strategy: 'parallel', roles: [{ role: 'factual', strategy: 'sequential' }] },
      /^Invalid plan\.roles\[0\]\.strategy: got "sequential"; a step runs "direct" .* plans do not nest/,
    ],
    [
      'negative cycles',
      { strategy: 'task', role: 'factual', resolution: { maxCycles: -3 } },
      /^Invalid plan\.resolution\.maxCycles: got -3; expected a whole number of cycles, at least 1/,
    ],
    [
      'fractional tokens',
      { strategy: 'direct', role: 'factual', maxTokens: 10.5 },
      /^Invalid plan\.maxTokens: got 10\.5; expected a whole number of output tokens/,
    ],
    [
      'bad result strategy',
      { strategy: 'parallel', roles: ['factual'], resultStrategy: 'vote' },
      /^Invalid plan\.resultStrategy: got "vote"; expected one of last, concat, label, formatted/,
    ],
    ['duplicate parallel role', { strategy: 'parallel', roles: ['factual', 'factual'] }, /^Invalid plan\.roles: each role may appear once/],
    [
      'resolution on a direct step',
      { strategy: 'sequential', sequence: [{ role: 'factual', strategy: 'direct', resolution: { maxCycles: 2 } }] },
      /^Invalid plan\.sequence\[0\]\.resolution: only task steps/,
    ],
    ['empty sequence', { strategy: 'sequential', sequence: [] }, /^Invalid plan\.sequence: got \[\]; expected at least one step/],
  ];
  for (const [name, raw, expected] of refusals) {
    it(`refuses a plan with ${name}, naming the field`, () => {
      assert.throws(
        () => resolvePlanObject(raw, book, {}),
        (error: unknown) => error instanceof PlanError && expected.test(error.message),
      );
    });
  }

  it('names plans: unknown names list the valid ones; hats plans refuse role choices', () => {
    assert.throws(
      () => resolveNamedPlan('brainstorm', { roles: [], customRoles: [], book, budgets: {} }),
      /Invalid plan: unknown plan "brainstorm"; expected one of auto, hats, parallel-hats/,
    );
    assert.throws(
      () => resolveNamedPlan('hats', { roles: ['critical'], customRoles: [], book, budgets: {} }),
      /Invalid roles: plan "hats" picks its own hats/,
    );
    assert.throws(
      () => resolveNamedPlan('direct', { roles: ['critical', 'factual'], customRoles: [], book, budgets: {} }),
      /Invalid roles: plan "direct" runs one role, got 2/,
    );
    const parallel = resolveNamedPlan('parallel-hats', { roles: [], customRoles: [], book, budgets: {} });
    assert.deepEqual(
      parallel.steps.map((step) => step.role.name),
      ['factual', 'emotional', 'critical', 'optimistic', 'creative'],
    );
    assert.equal(parallel.synthesis?.role.name, 'synthesis');
    const sequential = resolveNamedPlan('sequential', { roles: ['lawyer', 'critical'], customRoles: ['lawyer'], book, budgets: {} });
    assert.deepEqual(
      sequential.steps.map((step) => [step.role.name, step.strategy]),
      [
        ['lawyer', 'direct'],
        ['critical', 'direct'],
      ],
    );
  });
});

describe('result strategies', () => {
  const outputs = [
    { role: 'factual', title: 'Factual (white hat)', text: 'F', status: 'ok' as const },
    { role: 'critical', title: 'Critical (black hat)', text: '', status: 'failed' as const },
    { role: 'synthesis', title: 'Synthesis (blue hat)', text: 'S', status: 'ok' as const },
  ];
  it('last, concat, label and formatted', () => {
    assert.equal(combineResults('last', outputs), 'S');
    assert.equal(combineResults('concat', outputs), 'F\n\nS');
    assert.equal(combineResults('label', outputs), '[factual]\nF\n\n[synthesis]\nS');
    assert.equal(
      combineResults('formatted', outputs),
      '## Factual (white hat)\n\nF\n\n## Critical (black hat)\n\n_(failed: no contribution)_\n\n## Synthesis (blue hat)\n\nS',
    );
  });
});

describe('roles', () => {
  it('has six hats, each prompt saying what it does and what it does not do', () => {
    assert.deepEqual(HAT_NAMES, ['factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis']);
    for (const role of hatRoles()) {
      assert.match(role.systemPrompt, new RegExp(`Your role: the ${role.name} ${role.hat} hat`));
      assert.match(role.systemPrompt, /\bDo not\b/);
      assert.equal(role.stage, role.name);
    }
    assert.equal(book.find('lawyer')?.stage, 'custom_role');
    assert.match(book.find('lawyer')?.systemPrompt ?? '', /legal exposure/);
  });

  it('the deliberation strategy lets any role follow any other, and a new deliberation follow a finished one', () => {
    const strategy = findStrategy('deliberation')!;
    for (const from of [...HAT_NAMES, 'custom_role', 'framing']) {
      for (const to of [...HAT_NAMES, 'custom_role', 'final_response']) {
        if (from === to) continue;
        assert.equal(decideStage(strategy, { current: from, thoughtsInCurrent: 1, requested: to }).ok, true, `${from} -> ${to}`);
      }
    }
    assert.equal(decideStage(strategy, { current: 'final_response', thoughtsInCurrent: 1, requested: 'framing' }).ok, true);
  });
});
