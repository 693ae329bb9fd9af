// Task steps with tools through a real MCP Client: the model (scripted, answering sampling/createMessage with
// tool_use content) asks for tools, a scripted ToolGateway answers, every call is a tool_call thought counted exactly
// against maxToolCalls, and the results reach the model in the next cycle. Also: unknown and own tool names reported,
// a client without sampling.tools, no tool gateway, a failing and a hanging tool, cancellation during a tool call.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliberationReply } from '../../src/deliberation/deliberate';
import type { ThoughtRecord } from '../../src/engine/model';
import { connectDeliberation, ScriptedToolGateway, textOf, type DeliberationHarness, type Script } from './support/scriptedModel';
import { waitFor } from './support/waitFor';

let harness: DeliberationHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function replyOf(result: { structuredContent?: unknown; isError?: boolean; content: unknown }): DeliberationReply {
  assert.notEqual(result.isError, true, textOf(result as never));
  return result.structuredContent as DeliberationReply;
}

function thoughtsOf(h: DeliberationHarness, sessionId: string): ThoughtRecord[] {
  return h.engine.getSession(sessionId)?.thoughts ?? [];
}

function tools(): ScriptedToolGateway {
  return new ScriptedToolGateway({
    search: {
      tool: { inputSchema: { type: 'object', properties: { query: { type: 'string' } } } },
      answer: (input) => ({ text: `3 hits for ${String(input.query)}`, isError: false }),
    },
    readFile: { answer: (input) => ({ text: `contents of ${String(input.path)}`, isError: false }) },
    broken: { answer: () => ({ text: 'disk on fire', isError: true }) },
    slow: { answer: () => 'hang' },
    // A host that lists our own tool must still never see a deliberation call it.
    deliberate: { answer: () => ({ text: 'recursion!', isError: false }) },
  });
}

const PROBLEM = 'Where is the cache configured?';

describe('deliberate: task steps with tools', () => {
  it('offers the named tools, runs the calls, records each as a tool_call thought, feeds results back, and holds maxToolCalls exactly', async () => {
    const gateway = tools();
    const script: Script = (call) => {
      if (call.roleIndex === 0)
        return {
          text: 'Let me search.',
          toolCalls: [
            { name: 'search', input: { query: 'cache' } },
            { name: 'search', input: { query: 'ttl' } },
          ],
        };
      if (call.roleIndex === 1)
        return {
          text: '',
          toolCalls: [
            { name: 'readFile', input: { path: 'a.ts' } },
            { name: 'readFile', input: { path: 'b.ts' } },
          ],
        };
      return { text: 'It is in a.ts.\nSTATUS: DONE' };
    };
    const h = (harness = await connectDeliberation(script, { samplingTools: true, toolGateway: gateway }));
    const reply = replyOf(
      await h.deliberate({
        problem: PROBLEM,
        plan: {
          strategy: 'task',
          role: 'factual',
          tools: ['search', 'readFile', 'nope', 'deliberate'],
          resolution: { maxCycles: 5, maxToolCalls: 3 },
        },
      }),
    );
    // Exactly three calls ran: two searches, one readFile; the fourth was cut by maxToolCalls.
    assert.deepEqual(
      gateway.calls.map((call) => [call.name, call.input]),
      [
        ['search', { query: 'cache' }],
        ['search', { query: 'ttl' }],
        ['readFile', { path: 'a.ts' }],
      ],
    );
    assert.deepEqual(
      h.log.calls.map((call) => call.tools),
      [['search', 'readFile'], ['search', 'readFile'], []],
      'no tools offered once maxToolCalls is spent',
    );
    // Results come back as a message of their own in the next cycle.
    assert.equal(h.log.calls[1].messages.length, 2);
    assert.match(
      h.log.calls[1].messages[1],
      /Results of the tools you called[\s\S]*search\(\{"query":"cache"\}\)\] returned:\n3 hits for cache[\s\S]*3 hits for ttl/,
    );
    assert.match(
      h.log.calls[2].messages[1],
      /contents of a\.ts[\s\S]*Not run \(maxToolCalls \(3 tool calls for the task\) spent\): readFile/,
    );

    const thoughts = thoughtsOf(h, reply.sessionId);
    assert.deepEqual(
      thoughts.map((thought) => thought.stage),
      ['framing', 'factual', 'tool_call', 'tool_call', 'factual', 'tool_call', 'factual'],
    );
    const toolThoughts = thoughts.filter((thought) => thought.stage === 'tool_call');
    assert.deepEqual(
      toolThoughts.map((thought) => (thought.extra?.tool as { name: string }).name),
      ['search', 'search', 'readFile'],
    );
    assert.ok(
      toolThoughts.every(
        (thought) => thought.extra?.role === 'factual' && thought.extra?.phase === 'tool_call' && thought.extra?.status === 'ok',
      ),
    );
    assert.match(toolThoughts[0].thought, /^search\(\{"query":"cache"\}\) → result:\n3 hits for cache$/);
    assert.deepEqual(thoughts[1].extra?.toolCallsAsked, ['search', 'search']);
    assert.equal(thoughts[4].thought, '(asked for readFile, readFile)');
    assert.equal(thoughts.at(-1)?.thought, 'It is in a.ts.');
    assert.equal(thoughts.at(-1)?.nextThoughtNeeded, false);

    assert.deepEqual(reply.tools?.offered, ['search', 'readFile']);
    assert.deepEqual(reply.tools?.unknown, ['nope']);
    assert.equal(reply.tools?.calls, 3);
    assert.ok(reply.tools?.notes.some((note) => /unknown tools "nope" \(available: search, readFile, broken, slow\)/.test(note)));
    assert.ok(reply.tools?.notes.some((note) => /refused "deliberate"/.test(note)));
    assert.ok(reply.budgets.cut.some((cut) => /maxToolCalls .* 1 tool call asked for in cycle 2 not run/.test(cut)));
    assert.deepEqual(
      reply.roles.filter((role) => role.phase === 'tool_call').map((role) => role.tool),
      ['search', 'search', 'readFile'],
    );
    assert.match(
      textOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', tools: ['search'] } })),
      /Tools: offered search/,
    );
  });

  it('a failing tool is a failed tool_call thought whose error reaches the model; a model asking for a tool not offered is not obeyed', async () => {
    const gateway = tools();
    const script: Script = (call) =>
      call.roleIndex === 0
        ? { text: 'Trying.', toolCalls: [{ name: 'broken' }, { name: 'readFile', input: { path: 'secret' } }] }
        : { text: 'Gave up on the tool.\nSTATUS: DONE' };
    const h = (harness = await connectDeliberation(script, { samplingTools: true, toolGateway: gateway }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'critical', tools: ['broken'] } }));
    assert.deepEqual(
      gateway.calls.map((call) => call.name),
      ['broken'],
      'readFile was not offered, so it is not called',
    );
    const toolThought = thoughtsOf(h, reply.sessionId).find((thought) => thought.stage === 'tool_call');
    assert.equal(toolThought?.extra?.status, 'failed');
    assert.equal(toolThought?.extra?.error, 'disk on fire');
    assert.match(h.log.calls[1].messages[1], /\[broken\(\)\] failed:\ndisk on fire/);
    assert.equal(reply.status, 'complete');
  });

  it('a tool that never answers is cut at the task time-out and the task converges', async () => {
    const gateway = tools();
    const script: Script = (call) =>
      call.roleIndex === 0 ? { text: 'Waiting on slow.', toolCalls: [{ name: 'slow' }] } : { text: 'Best answer without it.' };
    const h = (harness = await connectDeliberation(script, { samplingTools: true, toolGateway: gateway }));
    const started = Date.now();
    const reply = replyOf(
      await h.deliberate({
        problem: PROBLEM,
        plan: { strategy: 'task', role: 'factual', tools: ['slow'], resolution: { timeoutMs: 400 } },
      }),
    );
    assert.ok(Date.now() - started < 3000);
    assert.equal(gateway.aborted.length, 1, 'the tool call was aborted');
    const thoughts = thoughtsOf(h, reply.sessionId);
    const toolThought = thoughts.find((thought) => thought.stage === 'tool_call');
    assert.equal(toolThought?.extra?.status, 'failed');
    assert.match(String(toolThought?.extra?.error), /timed out after \d+ ms \(the task's time-out\)/);
    assert.equal(thoughts.at(-1)?.extra?.phase, 'convergence');
    assert.equal(reply.result, 'Best answer without it.');
  });

  it('cancelling during a tool call aborts it and records it as cancelled', async () => {
    const gateway = tools();
    const script: Script = () => ({ text: 'Waiting.', toolCalls: [{ name: 'slow' }] });
    const h = (harness = await connectDeliberation(script, { samplingTools: true, toolGateway: gateway }));
    const controller = new AbortController();
    const call = h.deliberate(
      { problem: PROBLEM, plan: { strategy: 'task', role: 'factual', tools: ['slow'] } },
      { signal: controller.signal },
    );
    await waitFor(() => gateway.calls.length > 0, 'the tool call');
    controller.abort();
    await assert.rejects(call);
    const sessionId = h.engine.listSessions().sessions[0].id;
    await waitFor(() => h.engine.getSession(sessionId)?.meta.status === 'complete', 'the cancelled deliberation to be recorded');
    const thoughts = thoughtsOf(h, sessionId);
    assert.equal(gateway.aborted.length, 1);
    assert.equal(thoughts.find((thought) => thought.stage === 'tool_call')?.extra?.status, 'cancelled');
    assert.equal(thoughts.at(-1)?.extra?.status, 'cancelled');
  });

  it('a sampling client without sampling.tools: the task step runs without tools and the reply says so', async () => {
    const gateway = tools();
    const h = (harness = await connectDeliberation(() => ({ text: 'Done.', toolCalls: [{ name: 'search' }] }), { toolGateway: gateway }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', tools: ['search'] } }));
    assert.deepEqual(h.log.calls[0].tools, []);
    assert.equal(gateway.calls.length, 0);
    assert.deepEqual(reply.tools?.offered, []);
    assert.ok(
      reply.tools?.notes.some((note) => /MCP sampling.*cannot be offered tools natively, so task steps ran without tools/.test(note)),
    );
    assert.ok(!thoughtsOf(h, reply.sessionId).some((thought) => thought.stage === 'tool_call'));
  });

  it('no tool gateway: every name is reported and the step runs without tools', async () => {
    const h = (harness = await connectDeliberation(() => ({ text: 'Done.' }), { samplingTools: true }));
    const reply = replyOf(await h.deliberate({ problem: PROBLEM, plan: { strategy: 'task', role: 'factual', tools: ['search'] } }));
    assert.deepEqual(h.log.calls[0].tools, []);
    assert.deepEqual(reply.tools?.unknown, ['search']);
    assert.ok(reply.tools?.notes.some((note) => /no tools are available to deliberations here/.test(note)));
  });

  it('tools reach only task steps: direct steps of the same plan are never offered them', async () => {
    const gateway = tools();
    const h = (harness = await connectDeliberation(() => ({ text: 'Fine.' }), { samplingTools: true, toolGateway: gateway }));
    await h.deliberate({
      problem: PROBLEM,
      plan: { strategy: 'sequential', sequence: [{ role: 'factual', strategy: 'direct' }, 'critical'], tools: ['search'] },
    });
    assert.deepEqual(
      h.log.calls.map((call) => [call.role, call.tools]),
      [
        ['factual', []],
        ['critical', ['search']],
      ],
    );
  });
});
