// The deliberate tool through a real MCP Client that answers sampling/createMessage from a scripted model: every plan
// kind, every resultStrategy, auto routing per band, budgets and time-outs, cancellation, failures, a client without
// sampling, bad input, progress notifications, attaching to a session, and what each thought records.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ThoughtRecord } from '../../src/engine/model';
import type { DeliberationReply } from '../../src/deliberation/deliberate';
import { NO_MODEL_MESSAGE } from '../../src/mcp/tools/deliberate';
import { connectDeliberation, textOf, type DeliberationHarness, type Script } from './support/scriptedModel';
import { waitFor } from './support/waitFor';

const quiet = () => {};
const echo: Script = (call) => ({ text: `${call.role} view #${call.roleIndex}` });
const PROBLEM = 'Should we add a cache in front of the database?';
let harness: DeliberationHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function connect(script: Script, options?: Parameters<typeof connectDeliberation>[1]): Promise<DeliberationHarness> {
  harness = await connectDeliberation(script, options);
  return harness;
}

function replyOf(result: { structuredContent?: unknown; isError?: boolean; content: unknown }): DeliberationReply {
  assert.notEqual(result.isError, true, textOf(result as never));
  return result.structuredContent as DeliberationReply;
}

function thoughtsOf(h: DeliberationHarness, sessionId: string): ThoughtRecord[] {
  return h.engine.getSession(sessionId)?.thoughts ?? [];
}

describe('deliberate: tools/list', () => {
  it('advertises its input fields and an output schema', async () => {
    const h = await connect(echo);
    const tool = (await h.client.listTools()).tools.find((candidate) => candidate.name === 'deliberate') as Tool;
    const properties = tool.inputSchema.properties as Record<string, unknown>;
    for (const field of ['problem', 'plan', 'roles', 'resultStrategy', 'budgets', 'sessionId', 'fromThought'])
      assert.ok(properties[field], field);
    assert.match(tool.description ?? '', /thinking:\/\/deliberation/);
    assert.deepEqual(tool.inputSchema.required, ['problem']);
    assert.ok((tool.outputSchema?.properties as Record<string, unknown> | undefined)?.sessionId);
  });
});

describe('deliberate: plan kinds', () => {
  it('direct: one role thought, which is the final thought', async () => {
    const h = await connect(echo);
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'direct', role: 'critical', maxTokens: 77 } }));
    assert.equal(h.log.calls.length, 1);
    assert.equal(h.log.calls[0].maxTokens, 77);
    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.deepEqual(
      thoughts.map((t) => [t.stage, t.nextThoughtNeeded]),
      [
        ['framing', true],
        ['critical', false],
      ],
    );
    assert.equal(reply.result, 'critical view #0');
    assert.equal(h.engine.getSession(reply.sessionId)?.meta.status, 'complete');
    assert.equal(h.engine.getSession(reply.sessionId)?.meta.strategy, 'deliberation');
  });

  it('sequential: a chain of stages, each role seeing the ones before (buildThread)', async () => {
    const h = await connect(echo);
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'hats' }));
    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.deepEqual(
      thoughts.map((t) => t.stage),
      ['framing', 'factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis'],
    );
    assert.ok(thoughts.every((t) => t.branchId === undefined));
    assert.deepEqual(
      thoughts.map((t) => t.thoughtNumber),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.match(h.log.calls[5].user, /\[factual\]\nfactual view #0[\s\S]*\[creative\]\ncreative view #0/);
    assert.doesNotMatch(h.log.calls[0].user, /Perspectives so far/);
    assert.equal(thoughts[6].nextThoughtNeeded, false);
    assert.equal(reply.result, 'synthesis view #0');
  });

  it('sequential without buildThread: roles see only the problem', async () => {
    const h = await connect(echo);
    await h.deliberate({
      problem: PROBLEM,
      plan: {
        strategy: 'sequential',
        sequence: [
          { role: 'factual', strategy: 'direct' },
          { role: 'critical', strategy: 'direct' },
        ],
        buildThread: false,
      },
    });
    assert.doesNotMatch(h.log.calls[1].user, /factual view/);
  });

  it('parallel: branches from the framing thought, branch id = role, all in flight at once, then the synthesis', async () => {
    const h = await connect((call) => ({ text: `${call.role} view`, delayMs: call.role === 'synthesis' ? 0 : 150 }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'parallel-hats' }));
    assert.equal(h.log.maxInFlight, 5);
    const thoughts = thoughtsOf(h, reply.sessionId);
    const branches = thoughts.filter((t) => t.branchId !== undefined);
    assert.deepEqual(branches.map((t) => t.branchId).sort(), ['creative', 'critical', 'emotional', 'factual', 'optimistic']);
    assert.ok(branches.every((t) => t.branchFromThought === 1 && t.stage === t.branchId));
    const last = thoughts[thoughts.length - 1];
    assert.deepEqual([last.stage, last.branchId, last.nextThoughtNeeded], ['synthesis', undefined, false]);
    assert.match(h.log.calls[5].user, /\[factual\]\nfactual view/);
    assert.deepEqual(h.engine.getSession(reply.sessionId)?.meta.branchIds.sort(), [
      'creative',
      'critical',
      'emotional',
      'factual',
      'optimistic',
    ]);
  });

  it('parallel without roles (/plan parallel): five hats at once, the synthesis hat after they all ended', async () => {
    let othersInFlightAtSynthesis: number | undefined;
    const h = await connect((call) => {
      if (call.role === 'synthesis') othersInFlightAtSynthesis = harness?.log.inFlight;
      return { text: `${call.role} view`, delayMs: call.role === 'synthesis' ? 0 : 150 };
    });
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'parallel' }));
    assert.equal(h.log.maxInFlight, 5);
    assert.equal(h.log.calls.length, 6);
    assert.equal(h.log.calls[5].role, 'synthesis');
    assert.equal(othersInFlightAtSynthesis, 0, 'the synthesis call starts after the others ended');
    assert.match(h.log.calls[5].user, /\[factual\]\nfactual view/);
    assert.equal(reply.result, 'synthesis view');
  });

  it('task: repeated stages while the model asks for more, then done without a convergence call', async () => {
    const h = await connect((call) => ({ text: call.roleIndex < 2 ? `step ${call.roleIndex}\nSTATUS: CONTINUE` : 'answer\nSTATUS: DONE' }));
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', resolution: { maxCycles: 5 } } }),
    );
    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.deepEqual(
      thoughts.map((t) => [t.stage, t.extra?.cycle]),
      [
        ['framing', undefined],
        ['factual', 1],
        ['factual', 2],
        ['factual', 3],
      ],
    );
    assert.equal(thoughts[3].thought, 'answer');
    assert.equal(reply.result, 'answer');
    assert.deepEqual(reply.budgets.cut, []);
  });
});

describe('deliberate: result strategies', () => {
  const plan = (resultStrategy: string) => ({
    strategy: 'sequential',
    sequence: [
      { role: 'factual', strategy: 'direct' },
      { role: 'critical', strategy: 'direct' },
    ],
    resultStrategy,
  });
  const expected: Record<string, string> = {
    last: 'critical view #0',
    concat: 'factual view #0\n\ncritical view #0',
    label: '[factual]\nfactual view #0\n\n[critical]\ncritical view #0',
    formatted: '## Factual (white hat)\n\nfactual view #0\n\n## Critical (black hat)\n\ncritical view #0',
  };
  for (const [strategy, result] of Object.entries(expected)) {
    it(`${strategy}: the reply's result and the final thought`, async () => {
      const h = await connect(echo);
      const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: plan(strategy) }));
      assert.equal(reply.result, result);
      const thoughts = thoughtsOf(h, reply.sessionId);
      const final = thoughts[thoughts.length - 1];
      assert.equal(final.thought, result);
      assert.equal(final.nextThoughtNeeded, false);
      // "last" closes on the role's own thought; the others add a final_response thought with the combination.
      assert.equal(final.stage, strategy === 'last' ? 'critical' : 'final_response');
      assert.equal(thoughts.length, strategy === 'last' ? 3 : 4);
    });
  }
  it('the top-level resultStrategy overrides a named plan', async () => {
    const h = await connect(echo);
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: 'parallel', roles: ['factual', 'critical'], resultStrategy: 'concat' }),
    );
    assert.equal(reply.result, 'factual view #0\n\ncritical view #0');
  });
});

describe('deliberate: auto routing', () => {
  const table: [string, string[]][] = [
    ['What is the capital of France?', ['factual']],
    ['Which database should a small team pick for a new internal tool that must run on a single server?', ['factual', 'synthesis']],
    [
      'We must cut API latency below 200 ms without raising the budget. Should we add a cache in front of the database, or move the queue to a distributed service?',
      ['factual', 'critical', 'synthesis'],
    ],
    [
      'Our distributed payment API must stay compatible with old clients, keep p99 latency under 150 ms and comply with PCI requirements, while the team of four cannot grow and the migration must finish within one quarter. Should we rewrite the monolith as microservices, split only the database schema, or add a caching layer first? What are the trade-offs for consistency, deployment risk and throughput? How do we test idempotency of retries across the queue?',
      ['factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis'],
    ],
  ];
  for (const [problem, sequence] of table) {
    it(`runs ${sequence.length} hat(s) for "${problem.slice(0, 30)}…" and reports score, band, reason and saving`, async () => {
      const h = await connect(echo);
      const reply = replyOf(await h.deliberate({ problem }));
      assert.deepEqual(
        h.log.calls.map((call) => call.role),
        sequence,
      );
      assert.deepEqual(reply.routing?.sequence, sequence);
      assert.equal(reply.routing?.estimatedSavingPercent, Math.round(((6 - sequence.length) / 6) * 100));
      assert.match(reply.routing?.reason ?? '', /complexity \d+\/100/);
      assert.match(textOf((await h.client.callTool({ name: 'deliberate', arguments: { problem } })) as never), /Routing: complexity/);
    });
  }
});

describe('deliberate: budgets', () => {
  it('maxCycles holds exactly, then one convergence call with what was gathered', async () => {
    const h = await connect((call) => ({
      text: call.user.includes('Your budget ran out') ? 'converged' : `step ${call.roleIndex}\nSTATUS: CONTINUE`,
    }));
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'critical', resolution: { maxCycles: 3 } } }),
    );
    assert.equal(h.log.calls.length, 4);
    assert.match(h.log.calls[3].user, /maxCycles \(3 of 3 cycles\)[\s\S]*Your cycle 3 said:\nstep 2/);
    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.deepEqual(
      thoughts.map((t) => [t.stage, t.extra?.phase]),
      [
        ['framing', undefined],
        ['critical', 'cycle'],
        ['critical', 'cycle'],
        ['critical', 'cycle'],
        ['synthesis', 'convergence'],
      ],
    );
    assert.equal(reply.result, 'converged');
    assert.deepEqual(reply.budgets.cut, ['critical: maxCycles (3 of 3 cycles)']);
  });

  it("a task's maxTokens holds exactly: each cycle may use only what is left", async () => {
    const h = await connect((call) => ({
      text: `step\nSTATUS: CONTINUE`,
      usage: { inputTokens: 10, outputTokens: Math.min(40, call.maxTokens) },
    }));
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', resolution: { maxCycles: 10, maxTokens: 100 } } }),
    );
    assert.deepEqual(
      h.log.calls.map((call) => call.maxTokens),
      [100, 60, 20, 1024],
    );
    assert.match(reply.budgets.cut[0], /maxTokens \(100 of 100 task tokens\)/);
    assert.equal(reply.usage.outputTokens, 140);
    assert.equal(reply.usage.estimated, false);
  });

  it('maxTotalTokens: roles past the budget are recorded as budget-exhausted, not run', async () => {
    const h = await connect((call) => ({ text: 'x', usage: { inputTokens: 5, outputTokens: call.maxTokens } }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'hats', budgets: { maxTokens: 100, maxTotalTokens: 250 } }));
    assert.deepEqual(
      h.log.calls.map((call) => call.maxTokens),
      [100, 100, 50],
    );
    assert.deepEqual(
      reply.roles.map((role) => role.status),
      ['ok', 'ok', 'ok', 'budget-exhausted', 'budget-exhausted', 'budget-exhausted'],
    );
    assert.equal(reply.status, 'partial');
    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.equal(thoughts[4].extra?.status, 'budget-exhausted');
    assert.equal(thoughts[thoughts.length - 1].stage, 'final_response');
  });

  it('absurd budgets run at their caps and the reply says so', async () => {
    const h = await connect(echo);
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: 'task', budgets: { maxCycles: 1_000_000_000, maxTokens: 10_000_000 } }),
    );
    assert.deepEqual(reply.budgets.capped.sort(), [
      'maxTokens: asked 10000000, capped at 8192 tokens per call',
      'plan.resolution.maxCycles: asked 1000000000, capped at 12 cycles per task',
    ]);
    assert.match(
      textOf((await h.deliberate({ problem: PROBLEM, plan: 'task', budgets: { maxCycles: 1e9 } })) as never),
      /Capped: plan\.resolution\.maxCycles: asked 1000000000, capped at 12/,
    );
    // The call may use the capped 8192, but no more than the task's own 8000 tokens (its default).
    assert.equal(h.log.calls[0].maxTokens, 8000);
  });
});

describe('deliberate: time-outs, failures and cancellation', () => {
  it('a model that never answers is cut at timeoutMs, recorded as failed, and the plan goes on', async () => {
    // The hanging call is not the connection's first request: the SDK (1.32) ignores notifications/cancelled for
    // request id 0 (typescript-sdk issue #2283), so the client would not hear that call was cut.
    const h = await connect((call) => (call.role === 'factual' ? { hang: true } : { text: 'fine' }));
    const started = Date.now();
    const sequence = ['critical', 'factual', 'synthesis'].map((role) => ({ role, strategy: 'direct' }));
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: { strategy: 'sequential', sequence }, budgets: { timeoutMs: 300 } }),
    );
    const elapsed = Date.now() - started;
    // Without the cut the plan would wait forever; the upper bound only has to be generous on a loaded machine.
    assert.ok(elapsed >= 300 && elapsed < 10_000, `took ${elapsed} ms`);
    assert.deepEqual(
      reply.roles.map((role) => [role.role, role.status]),
      [
        ['critical', 'ok'],
        ['factual', 'failed'],
        ['synthesis', 'ok'],
      ],
    );
    assert.ok(reply.roles[1].durationMs >= 299 && reply.roles[1].durationMs < 5_000, `${reply.roles[1].durationMs}`);
    assert.equal(reply.roles[1].error, 'timed out after 300 ms');
    assert.deepEqual(reply.failed, ['factual']);
    assert.equal(h.log.cancelled.length, 1, 'the client was told to stop the cut call');
    assert.equal(thoughtsOf(h, reply.sessionId)[2].extra?.status, 'failed');
  });

  it("a task's timeoutMs cuts its cycles, then it converges", async () => {
    const h = await connect((call) =>
      call.user.includes('Your budget ran out') ? { text: 'best effort' } : { text: 'more\nSTATUS: CONTINUE', delayMs: 120 },
    );
    const reply = replyOf(
      await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', resolution: { maxCycles: 12, timeoutMs: 300 } } }),
    );
    const cycles = reply.roles.filter((role) => role.phase === 'cycle');
    assert.ok(cycles.length >= 1 && cycles.length <= 3, `${cycles.length} cycles`);
    // The cut ends the cycles at the budget; the bound leaves room for a loaded machine's scheduling, not more.
    assert.ok(cycles.reduce((sum, role) => sum + role.durationMs, 0) <= 300 + 200);
    assert.match(reply.budgets.cut[0], /timeoutMs/);
    assert.equal(reply.result, 'best effort');
  });

  it('a failing role is recorded as failed and the others still run', async () => {
    const h = await connect((call) => (call.role === 'critical' ? { fail: 'model overloaded' } : { text: `${call.role} ok` }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'parallel', roles: ['factual', 'critical', 'creative'] }));
    assert.deepEqual(reply.failed, ['critical']);
    assert.equal(reply.status, 'partial');
    const failed = thoughtsOf(h, reply.sessionId).find((t) => t.branchId === 'critical');
    assert.equal(failed?.extra?.status, 'failed');
    assert.match(failed?.thought ?? '', /^\[failed\] critical failed: .*model overloaded/);
    assert.equal(reply.result, '[factual]\nfactual ok\n\n[creative]\ncreative ok');
    assert.match(textOf((await h.deliberate({ problem: PROBLEM, plan: 'direct', roles: ['critical'] })) as never), /Failed: critical/);
  });

  it('cancellation mid-plan aborts the model call in flight, records what finished and marks the rest cancelled', async () => {
    const h = await connect(() => ({ text: 'done', delayMs: 150 }));
    const controller = new AbortController();
    const call = h.deliberate({ problem: PROBLEM, plan: 'hats' }, { signal: controller.signal });
    // Cancelled while the third call is in flight (two finished).
    await waitFor(() => h.log.calls.length === 3, 'the third model call');
    controller.abort();
    await assert.rejects(call);
    // The server finishes recording (the final thought completes the session) once the cancellation reaches it.
    await waitFor(() => h.engine.listSessions().sessions[0]?.status === 'complete', 'the cancelled deliberation to be recorded');
    const [meta] = h.engine.listSessions().sessions;
    const thoughts = thoughtsOf(h, meta.id);
    assert.deepEqual(
      thoughts.map((t) => t.extra?.status),
      [undefined, 'ok', 'ok', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled'],
    );
    assert.equal(thoughts[7].stage, 'final_response');
    assert.equal(h.log.calls.length, 3, 'no call started after the cancellation');
    assert.equal(h.log.cancelled.length, 1);
    assert.equal(meta.status, 'complete');
  });
});

describe('deliberate: no model, bad input', () => {
  it('is not offered to a client without sampling when the server has no model; a call anyway records nothing', async () => {
    const h = await connect(echo, { sampling: false });
    const listed = (await h.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(!listed.includes('deliberate'), listed.join(', '));
    assert.ok(listed.includes('sequentialthinking'));
    await assert.rejects(h.deliberate({ problem: PROBLEM }), /deliberate/);
    assert.match(NO_MODEL_MESSAGE, /sampling[\s\S]*--model-endpoint/);
    assert.equal(h.engine.listSessions().total, 0);
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown plan', { problem: PROBLEM, plan: 'brainstorm' }, /Invalid plan: unknown plan "brainstorm"; expected one of auto, hats/],
    [
      'an unknown role',
      { problem: PROBLEM, plan: 'sequential', roles: ['factual', 'wizard'] },
      /Invalid roles\[1\]: unknown role "wizard"; expected one of the hats factual, emotional/,
    ],
    [
      'an unknown role in a plan',
      { problem: PROBLEM, plan: { strategy: 'direct', role: 'wizard' } },
      /Invalid plan\.role: unknown role "wizard"/,
    ],
    [
      'a negative budget',
      { problem: PROBLEM, budgets: { maxCycles: -1 } },
      /^Invalid budgets\.maxCycles: got -1; expected a whole number of cycles, at least 1\. Nothing was recorded/,
    ],
    [
      'a zero time-out',
      { problem: PROBLEM, budgets: { timeoutMs: 0 } },
      /^Invalid budgets\.timeoutMs: got 0; expected a whole number of milliseconds, at least 1\. Nothing was recorded/,
    ],
    ['a 1 MB problem', { problem: 'x'.repeat(1 << 20) }, /^Invalid problem: got 1048576 characters; expected at most 16000/],
    ['an empty problem', { problem: '  ' }, /^Invalid problem: got "  "; expected a non-empty problem/],
    [
      'extra nesting',
      {
        problem: PROBLEM,
        plan: {
          strategy: 'sequential',
          sequence: [
            { role: 'factual', strategy: 'direct' },
            { strategy: 'parallel', roles: ['critical'] },
          ],
        },
      },
      /Invalid plan\.sequence\[1\]: unknown fields? .*plans do not nest/,
    ],
    ['an unknown session', { problem: PROBLEM, sessionId: 'nope' }, /Invalid sessionId: no session "nope" exists/],
    [
      'fromThought with no session',
      { problem: PROBLEM, fromThought: 2 },
      /Invalid fromThought: got 2, but this connection has no current session/,
    ],
    [
      'a custom role named like a hat',
      { problem: PROBLEM, plan: 'sequential', roles: [{ name: 'critical', instructions: 'x' }] },
      /Invalid roles\[0\]\.name: got "critical", the name of a hat/,
    ],
  ];
  for (const [name, args, expected] of bad) {
    it(`refuses ${name}, naming the field; nothing is recorded`, async () => {
      const h = await connect(echo);
      const result = await h.deliberate(args);
      assert.equal(result.isError, true);
      assert.match(textOf(result), expected);
      assert.equal(h.log.calls.length, 0);
      assert.equal(h.engine.listSessions().total, 0);
    });
  }
});

/** An engine holding one live session of three thoughts, the session a deliberation attaches to. */
function sessionOfThreeThoughts(): { engine: ThinkingEngine; sessionId: string } {
  const engine = new ThinkingEngine({ log: quiet });
  for (let n = 1; n <= 3; n++)
    engine.process('test-connection', { thought: `step ${n}`, thoughtNumber: n, totalThoughts: 5, nextThoughtNeeded: true });
  return { engine, sessionId: engine.currentSessionId('test-connection')! };
}

describe('deliberate: sessions, progress and records', () => {
  it('sends a progress notification per finished role', async () => {
    const h = await connect(echo);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    replyOf(await h.deliberate({ problem: PROBLEM, plan: 'hats' }, { onprogress: (event) => progress.push(event) }));
    assert.deepEqual(
      progress.map((event) => event.progress),
      [1, 2, 3, 4, 5, 6],
    );
    assert.ok(progress.every((event) => event.total === 6));
    assert.match(progress[2].message ?? '', /^critical: ok \(thought 4, \d+ ms\)$/);
  });

  it('takes a whole number as text and null for absent, as every tool does', async () => {
    const { engine, sessionId } = sessionOfThreeThoughts();
    const h = await connect(echo, { engine });
    replyOf(
      await h.deliberate({ problem: PROBLEM, sessionId, fromThought: '2', resultStrategy: null, plan: 'direct', roles: ['critical'] }),
    );
    const added = engine.getSession(sessionId)!.thoughts.slice(3);
    assert.deepEqual(
      added.map((t) => [t.thoughtNumber, t.branchFromThought]),
      [
        [4, 2],
        [5, 2],
      ],
    );
  });

  it('attaches to an existing session: a strategy switch, then the roles; fromThought makes it a branch', async () => {
    const { engine, sessionId } = sessionOfThreeThoughts();
    const h = await connect(echo, { engine });
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, sessionId, plan: 'direct', roles: ['critical'] }));
    assert.equal(reply.sessionId, sessionId);
    let snapshot = engine.getSession(sessionId)!;
    assert.deepEqual(
      snapshot.thoughts.slice(3).map((t) => [t.thoughtNumber, t.stage]),
      [
        [4, 'framing'],
        [5, 'critical'],
      ],
    );
    assert.deepEqual(
      snapshot.strategySwitches.map((s) => [s.from, s.to]),
      [['linear', 'deliberation']],
    );
    assert.match(h.log.calls[0].user, /The thinking session so far:\n#1 .*step 1[\s\S]*#3/);

    const branched = replyOf(
      await h.deliberate({ problem: 'Again from thought 2', sessionId, fromThought: 2, plan: 'direct', roles: ['creative'] }),
    );
    snapshot = engine.getSession(sessionId)!;
    const added = snapshot.thoughts.slice(5);
    assert.deepEqual(
      added.map((t) => [t.thoughtNumber, t.stage, t.branchFromThought, t.branchId]),
      [
        [6, 'framing', 2, 'deliberation-6'],
        [7, 'creative', 2, 'deliberation-6'],
      ],
    );
    assert.doesNotMatch(h.log.calls[1].user, /#3/);
    assert.deepEqual(branched.thoughts, { first: 6, last: 7 });
  });

  it('records role, model, tokens, duration and status on every role thought', async () => {
    const h = await connect((call) => ({
      text: 'x',
      ...(call.role === 'optimistic' ? { usage: { inputTokens: 11, outputTokens: 7 } } : {}),
    }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'direct', roles: ['optimistic'] }));
    const thought = thoughtsOf(h, reply.sessionId)[1];
    assert.equal(thought.extra?.role, 'optimistic');
    assert.equal(thought.extra?.hat, 'yellow');
    assert.equal(thought.extra?.model, 'scripted-1');
    assert.deepEqual(thought.extra?.tokens, { input: 11, output: 7, estimated: false });
    assert.equal(thought.extra?.status, 'ok');
    assert.equal(typeof thought.extra?.durationMs, 'number');
    const estimated = replyOf(await h.deliberate({ problem: PROBLEM, plan: 'direct' }));
    assert.equal(
      thoughtsOf(h, estimated.sessionId)[1].extra?.tokens &&
        (thoughtsOf(h, estimated.sessionId)[1].extra?.tokens as { estimated: boolean }).estimated,
      true,
    );
  });
});

describe('deliberate: concurrency (counted in flight; bench/deliberation.ts measures the time)', () => {
  it('six roles: parallel has all six calls in flight at once, sequential one at a time', async () => {
    // A second per call: ample for six calls to start together even on a loaded machine.
    const h = await connect(() => ({ text: 'x', delayMs: 1000 }));
    const six = ['factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis'].map((role) => ({ role, strategy: 'direct' }));
    replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'parallel', roles: six } }));
    assert.equal(h.log.maxInFlight, 6);
    h.log.maxInFlight = 0;
    replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'sequential', sequence: six.map((step) => ({ ...step })) } }));
    assert.equal(h.log.maxInFlight, 1);
  });
});

describe('deliberate: prompt and documentation resource', () => {
  it('createServer serves thinking://deliberation and the deliberate prompt next to the tool', async () => {
    const { client } = await connect(echo);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'deliberate'));
    assert.ok((await client.listPrompts()).prompts.some((prompt) => prompt.name === 'deliberate'));
    assert.ok((await client.listResources()).resources.some((resource) => resource.uri === 'thinking://deliberation'));
    try {
      const page = await client.readResource({ uri: 'thinking://deliberation' });
      const text = (page.contents[0] as { text: string }).text;
      for (const expected of [
        '## Named plans',
        '`parallel-hats`',
        '## Roles',
        '`critical` | black',
        '## Budgets',
        '| `maxCycles` | 4 | 12 |',
        '`auto` routing',
        '## Examples',
      ]) {
        assert.ok(text.includes(expected), expected);
      }
      const prompt = await client.getPrompt({ name: 'deliberate', arguments: { problem: 'Cache or not?', plan: 'hats' } });
      assert.match(
        (prompt.messages[0].content as { text: string }).text,
        /Call the deliberate tool with plan "hats"[\s\S]*Problem: Cache or not\?/,
      );
      await assert.rejects(client.getPrompt({ name: 'deliberate', arguments: { problem: 'x', plan: 'nope' } }), /Unknown plan "nope"/);
    } finally {
      await client.close();
    }
  });

  it("createServer's modelGateway is used instead of sampling, even for a client that can sample", async () => {
    const gateway = {
      description: 'host model',
      complete: async () => ({
        text: 'from the host model',
        usage: { inputTokens: 1, outputTokens: 2, estimated: false },
        model: 'host-1',
      }),
    };
    const h = await connect(echo, { gateway });
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'direct', role: 'factual' } }));
    assert.equal(h.log.calls.length, 0, 'no sampling request');
    assert.equal(reply.gateway, 'host model');
    assert.equal(reply.result, 'from the host model');
  });
});
