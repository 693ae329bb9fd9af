// @thinking and deliberate inside a real VS Code, on the scripted language model the helper extension registers
// (vscode.lm.registerLanguageModelChatProvider): chat requests go through the real chat view to our participant, which
// runs each role on the model through vscode.lm; the roles land as thoughts in the engine the explorer draws. Also:
// a task plan calling a tool registered with vscode.lm.registerTool, cancelling a request mid-plan, the deliberate MCP
// tool called through VS Code's own MCP client, and no model at all.
//
// File name sorts after extension.test.ts (which asserts the MCP server has not started yet when it begins).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { routeProblem } from '../../../src/deliberation/routing';
import type { ThoughtRecord } from '../../../src/engine/model';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { HELPER_ID, answered, ask, hatOf, sessionWith, warmUpChat, type HelperApi } from './scriptedChat';
import { EXTENSION_ID, eventually, isolateStorage, sequentialThinkingTool, type IsolatedStorage } from './support';

const TEST_TOOL = 'thought_explorer_test_lookup';

const roleOf = (thought: ThoughtRecord) => (thought.extra as { role?: string } | undefined)?.role;
const statusOf = (thought: ThoughtRecord) => (thought.extra as { status?: string } | undefined)?.status;

suite('@thinking: deliberation on VS Code models', () => {
  let helper: HelperApi;
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;

  suiteSetup(async function () {
    this.timeout(120_000);
    const helperExtension = vscode.extensions.getExtension<HelperApi>(HELPER_ID);
    assert.ok(helperExtension, `${HELPER_ID} is not installed: run the suite through npm run test:vscode`);
    helper = await helperExtension.activate();
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension);
    api = await extension.activate();
    storage = await isolateStorage(api, 'thinking-participant-');
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    await warmUpChat(api);
  });

  suiteTeardown(async () => {
    helper.registerModel();
    helper.reset();
    for (const key of ['deliberation.maxToolCalls', 'deliberation.maxCycles']) {
      await vscode.workspace.getConfiguration('thoughtExplorer').update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await storage.restore();
  });

  setup(() => {
    helper.reset();
    helper.registerModel();
  });

  test('/hats runs the routed hats and a synthesis, records each as a thought, and the explorer draws them', async function () {
    this.timeout(120_000);
    const marker = `hats-${randomUUID().slice(0, 8)}`;
    // Long enough, with questions and constraints, to route past a single hat (so a synthesis is part of it).
    const problem =
      `${marker}: Should we move the billing service to an event-driven architecture? It must keep p99 latency under 200 ms, ` +
      'must not lose invoices, and the migration cannot take longer than one quarter. What are the risks, and how do we roll back if the queue fails?';
    const routing = routeProblem(problem);
    assert.ok(routing.sequence.includes('synthesis') && routing.sequence.length >= 2, `routing picked ${routing.sequence.join(',')}`);
    helper.setResponder((request) => ({ text: `The ${hatOf(request)} view of ${marker}: scripted answer.` }));

    await ask(`@thinking /hats ${problem}`);

    const record = await answered(api, marker);
    assert.equal(record.command, 'hats');
    const metadata = record.result.metadata as { status?: string; sessionId?: string; roles?: { role: string; status: string }[] };
    assert.equal(record.result.errorDetails, undefined, JSON.stringify(record.result));
    assert.equal(metadata.status, 'complete');
    assert.deepEqual(
      metadata.roles?.map((role) => role.role),
      routing.sequence,
    );
    assert.equal(helper.responded, routing.sequence.length, 'one model call per routed hat');

    const session = sessionWith(api, marker);
    assert.ok(session && session.id === metadata.sessionId, 'the deliberation is a session of the engine');
    const roleThoughts = session.thoughts.filter((thought) => routing.sequence.includes(roleOf(thought) ?? ''));
    assert.deepEqual(roleThoughts.map(roleOf), routing.sequence);
    for (const thought of roleThoughts) {
      assert.equal(thought.thought, `The ${roleOf(thought)} view of ${marker}: scripted answer.`);
      assert.equal(statusOf(thought), 'ok');
      assert.match(String((thought.extra as { model?: string }).model), new RegExp(helper.modelId));
    }
    assert.equal(session.thoughts.at(-1)?.nextThoughtNeeded, false, 'the synthesis closes the deliberation');

    // The explorer: open it on the session, it holds every thought and draws a branch-tree node for each.
    await vscode.commands.executeCommand('thoughtExplorer.openInExplorer', session.id);
    await eventually(
      () =>
        api.explorer
          .status()
          .find((status) => status.sessionId === session.id && status.ready && status.thoughtsSent === session.thoughts.length),
      'an explorer showing the deliberation',
      30_000,
    );
    const svgs = await api.explorer.renderedSvgs(session.id);
    assert.ok(svgs.branchTree, 'the branch tree rendered');
    for (const thought of session.thoughts)
      assert.ok(svgs.branchTree.includes(`data-id="t${thought.seq}"`), `branch tree node t${thought.seq}`);
    assert.ok(svgs.stageGraph?.includes('synthesis'), 'the stage graph shows the synthesis stage');
    const live = api.services.deliberations.state(session.id);
    assert.equal(live?.status, 'complete');
    assert.deepEqual(
      live?.roles.map((role) => `${role.role}:${role.state}`),
      routing.sequence.map((hat) => `${hat}:done`),
    );
  });

  test('/plan task calls a tool registered with vscode.lm.registerTool through invokeTool and stops at maxToolCalls', async function () {
    this.timeout(120_000);
    await vscode.workspace.getConfiguration('thoughtExplorer').update('deliberation.maxToolCalls', 2, vscode.ConfigurationTarget.Global);
    const marker = `task-${randomUUID().slice(0, 8)}`;
    let offered: readonly string[] = [];
    helper.setResponder((request) => {
      // Every tool offered in any call: once maxToolCalls is spent, the later calls are offered none.
      offered = [...new Set([...offered, ...request.offeredTools])];
      // Always asks for the tool again: only the budget stops it.
      if (request.offeredTools.includes(TEST_TOOL))
        return { text: 'Looking it up.\nSTATUS: CONTINUE', toolCalls: [{ name: TEST_TOOL, input: { word: marker } }] };
      return { text: `Answer about ${marker}.\nSTATUS: DONE` };
    });
    await ask(`@thinking /plan task --tools ${TEST_TOOL} ${marker}: how long is this word?`);
    const record = await answered(api, marker);
    assert.equal(record.command, 'plan');
    assert.ok(offered.includes(TEST_TOOL), `the model was offered ${offered.join(', ')}`);
    assert.ok(!offered.some((name) => /_(sequentialthinking|thinking_sessions|deliberate)$/.test(name)), 'our own tools are never offered');
    assert.equal(helper.toolInvocations.length, 2, 'stopped at maxToolCalls = 2');
    assert.ok(
      helper.toolInvocations.every((call) => call.hadToken),
      "invoked with the chat request's toolInvocationToken",
    );
    const session = sessionWith(api, marker);
    assert.ok(session);
    const toolThoughts = session.thoughts.filter((thought) => thought.stage === 'tool_call');
    assert.equal(toolThoughts.length, 2);
    assert.match(toolThoughts[0].thought, new RegExp(`Fact 1 about ${marker}`));
  });

  test('cancelling the chat request mid-plan stops the model calls and marks the rest cancelled', async function () {
    this.timeout(120_000);
    const marker = `cancel-${randomUUID().slice(0, 8)}`;
    let calls = 0;
    let reachedSecond!: () => void;
    const secondCall = new Promise<void>((resolve) => (reachedSecond = resolve));
    helper.setResponder(async (request) => {
      calls += 1;
      if (calls === 1) return { text: `First view of ${marker}.` };
      reachedSecond();
      // Answers only when cancelled (then VS Code drops the answer).
      await new Promise<void>((resolve) => request.token.onCancellationRequested(() => resolve()));
      return { text: 'too late' };
    });
    const asked = ask(`@thinking /plan sequential --roles factual,critical,optimistic,synthesis ${marker}: should we launch on Friday?`);
    await secondCall;
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await asked;
    const record = await answered(api, marker);
    const metadata = record.result.metadata as { status?: string };
    assert.equal(metadata.status, 'cancelled');
    assert.equal(calls, 2, 'no model call after the cancellation');
    const session = sessionWith(api, marker);
    assert.ok(session);
    const byRole = new Map(
      session.thoughts
        .filter((thought) => roleOf(thought) && roleOf(thought) !== 'framing' && roleOf(thought) !== 'result')
        .map((thought) => [roleOf(thought), statusOf(thought)]),
    );
    assert.deepEqual(
      [...byRole],
      [
        ['factual', 'ok'],
        ['critical', 'cancelled'],
        ['optimistic', 'cancelled'],
        ['synthesis', 'cancelled'],
      ],
    );
    const live = api.services.deliberations.state(session.id);
    assert.equal(live?.status, 'cancelled');
  });

  test("the deliberate MCP tool, called through VS Code's own MCP client, runs on the vscode.lm model", async function () {
    this.timeout(150_000);
    await sequentialThinkingTool();
    const tool = await eventually(
      () => vscode.lm.tools.find((entry) => entry.name.startsWith('mcp_') && entry.name.endsWith('_deliberate'))?.name,
      'the mcp_…_deliberate tool',
      60_000,
    );
    const marker = `mcp-${randomUUID().slice(0, 8)}`;
    helper.setResponder((request) => ({ text: `MCP ${hatOf(request)} on ${marker}.` }));
    const result = await vscode.lm.invokeTool(
      tool,
      { input: { problem: `${marker}: pick a queue`, plan: 'direct' }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    // VS Code's MCP client hands back the structured reply as JSON text.
    const reply = JSON.parse(text) as { status: string; gateway: string; roles: { model?: string }[] };
    assert.equal(reply.status, 'complete');
    assert.match(reply.gateway, new RegExp(`^VS Code model .*\\(${helper.vendor}/`));
    assert.equal(reply.roles[0].model, `${helper.vendor}/${helper.modelId}`);
    assert.equal(helper.responded, 1);
    const session = sessionWith(api, marker);
    assert.ok(session);
    assert.ok(session.thoughts.some((thought) => thought.thought === `MCP factual on ${marker}.`));
  });

  test('no model available: a clear message, nothing recorded (chat with a model setting nothing matches; MCP tool with the provider gone)', async function () {
    this.timeout(120_000);
    const before = api.engine().listSessions({}).total;
    const marker = `nomodel-${randomUUID().slice(0, 8)}`;
    // With no model at all VS Code's chat view itself refuses to send ("Language model unavailable"): the chat case
    // is a setting naming a model nobody provides.
    await vscode.workspace
      .getConfiguration('thoughtExplorer')
      .update('deliberation.model', 'no-such-vendor/none', vscode.ConfigurationTarget.Global);
    try {
      await ask(`@thinking /hats ${marker}: anything`);
      const record = await answered(api, marker);
      const message = record.result.errorDetails?.message ?? '';
      assert.match(
        message,
        /No VS Code language model matches thoughtExplorer\.deliberation\.model "no-such-vendor\/none"\. Install and sign in to GitHub Copilot/,
      );
      assert.match(message, new RegExp(`Available: .*${helper.vendor}/`));
      assert.match(message, /Nothing was run or recorded/);
    } finally {
      await vscode.workspace.getConfiguration('thoughtExplorer').update('deliberation.model', undefined, vscode.ConfigurationTarget.Global);
    }

    helper.unregisterModel();
    await eventually(
      async () => ((await vscode.lm.selectChatModels({ vendor: helper.vendor })).length === 0 ? true : undefined),
      'the scripted model to go away',
      10_000,
    );
    const available = await vscode.lm.selectChatModels();
    const tool = await eventually(
      () => vscode.lm.tools.find((entry) => entry.name.startsWith('mcp_') && entry.name.endsWith('_deliberate'))?.name,
      'the mcp_…_deliberate tool',
      60_000,
    );
    const result = await vscode.lm.invokeTool(
      tool,
      { input: { problem: `${marker}: via MCP` }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    if (available.length === 0) assert.match(text, /No language model is available in VS Code\. Install and sign in to GitHub Copilot/);
    assert.match(text, /Nothing was run or recorded/);
    assert.equal(api.engine().listSessions({}).total, before, 'nothing recorded');
    assert.equal(helper.responded, 0);
  });
});
