// The agent loop without Copilot: a chat request in the real chat view, answered by the test-only scripted language
// model (test/vscode/helper-extension), whose replies are tool calls of our MCP tool. VS Code's own MCP client
// carries each call to the extension's in-host MCP server, and the thoughts land in the engine the views read.
//
// What this suite drives: the chat participant "@thinker" (helper extension) runs the model → tool → model loop with the
// request's toolInvocationToken, so every call goes through vscode.lm.invokeTool and VS Code's MCP client, exactly
// as agent mode does it. What it cannot drive: Copilot's own agent mode (mode: 'agent'). In code-server 4.139.1
// (VS Code 1.139.1) the built-in Copilot Chat extension 0.67.0 provides the agent; without a GitHub sign-in the chat
// view answers an agent-mode request with the "Sign in to use GitHub Copilot" dialog (Continue with GitHub / Google
// / Apple / GHE) and the request never reaches any language model — not even one picked with `modelSelector` — so
// the scripted model is never called. Signing in needs a GitHub account and network access to github.com, which tests do not
// have. That test is kept below, skipped unless THOUGHT_EXPLORER_TEST_AGENT_MODE=1 (with a signed-in Copilot).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { sequentialThinkingTool } from './support';

const EXTENSION_ID = 'thought-explorer.thought-explorer';
const HELPER_ID = 'thought-explorer-tests.scripted-model';
const TOOL_SUFFIX = 'sequentialthinking';

interface ScriptedModelApi {
  readonly vendor: string;
  readonly modelId: string;
  setScript(script: { toolNameSuffix: string; calls: readonly Record<string, unknown>[]; finalText: string }): void;
  readonly requests: readonly {
    readonly offeredTools: readonly string[];
    readonly toolResultsSeen: number;
    readonly answered: { readonly kind: string };
  }[];
  readonly participantRuns: readonly {
    readonly toolCalls: readonly { readonly tool: string; readonly input: unknown; readonly resultText: string }[];
    readonly finalText: string;
    readonly error?: string;
  }[];
  reset(): void;
}

/** The slice of the extension's test API this file uses. */
interface ThoughtExplorerTestApi {
  engine(): {
    getSession(
      id: string,
    ):
      | { meta: { status: string }; thoughts: { thought: string; thoughtNumber: number; isRevision?: boolean; revisesThought?: number }[] }
      | undefined;
  };
}

/** The tool's reply is JSON text (the MCP result's text content). */
function parseReply(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`The tool result is not the JSON reply: ${text.slice(0, 300)}`);
  }
}

/** Four thoughts: two plain ones, a revision of the second, and a final one. Marked so this run's session is unique. */
function scriptedThoughts(marker: string): Record<string, unknown>[] {
  return [
    { thought: `${marker}: list what the migration must keep working`, thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true },
    { thought: `${marker}: move the tables in one step`, thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true },
    {
      thought: `${marker}: move them in two steps behind a flag instead`,
      thoughtNumber: 3,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 2,
    },
    { thought: `${marker}: ship the two-step plan`, thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: false },
  ];
}

suite('harness: agent loop without Copilot', () => {
  let helper: ScriptedModelApi;
  let explorer: ThoughtExplorerTestApi;

  suiteSetup(async function () {
    this.timeout(120_000);
    const helperExtension = vscode.extensions.getExtension<ScriptedModelApi>(HELPER_ID);
    assert.ok(helperExtension, `${HELPER_ID} is not installed: run the suite through npm run test:vscode`);
    helper = await helperExtension.activate();
    const extension = vscode.extensions.getExtension<ThoughtExplorerTestApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    explorer = await extension.activate();
    // Tool confirmations are dialogs, and dialogs throw in test mode: approve tool calls for this run.
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    await sequentialThinkingTool(90_000);
  });

  setup(() => helper.reset());

  test("a chat request drives four thoughts through the scripted model, VS Code's MCP client and the engine", async function () {
    this.timeout(120_000);
    const marker = `agent-loop-${randomUUID()}`;
    const calls = scriptedThoughts(marker);
    helper.setScript({ toolNameSuffix: TOOL_SUFFIX, calls, finalText: 'Plan: migrate in two steps behind a flag.' });
    const [model] = await vscode.lm.selectChatModels({ vendor: helper.vendor, id: helper.modelId });
    assert.ok(model, 'the scripted model is not registered');

    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: '@thinker Plan a database migration step by step',
      mode: 'ask',
      modelSelector: { vendor: helper.vendor, id: helper.modelId },
      blockOnResponse: true,
    });

    assert.equal(helper.participantRuns.length, 1, 'the chat request did not reach @thinker');
    const run = helper.participantRuns[0];
    assert.equal(run.error, undefined, `the loop failed: ${run.error}`);
    assert.equal(run.finalText, 'Plan: migrate in two steps behind a flag.');
    assert.equal(run.toolCalls.length, calls.length);
    // The model was asked once per step plus once for the final answer, and saw one more tool result each time.
    assert.deepEqual(
      helper.requests.map((request) => request.toolResultsSeen),
      [0, 1, 2, 3, 4],
    );
    assert.ok(helper.requests.every((request) => request.offeredTools.some((name) => name.endsWith(TOOL_SUFFIX))));

    const replies = run.toolCalls.map((call) => parseReply(call.resultText));
    replies.forEach((reply, index) => {
      assert.equal(reply.thoughtNumber, index + 1, `reply ${index + 1}: ${JSON.stringify(reply)}`);
    });
    assert.equal(replies[3].nextThoughtNeeded, false);
    const sessionId = replies[0].sessionId;
    assert.equal(typeof sessionId, 'string');
    // Compact replies name the session on its first reply only; the engine's session below holds all four.
    assert.ok(
      replies.slice(1).every((reply) => reply.sessionId === undefined),
      'later replies do not repeat the session id',
    );

    const session = explorer.engine().getSession(sessionId as string);
    assert.ok(session, `session ${String(sessionId)} is not in the engine`);
    assert.deepEqual(
      session.thoughts.map((thought) => thought.thought),
      calls.map((call) => call.thought),
    );
    const revision = session.thoughts[2];
    assert.equal(revision.isRevision, true);
    assert.equal(revision.revisesThought, 2);
    assert.equal(session.meta.status, 'complete');
  });

  test('Copilot agent mode drives the scripted model (needs a signed-in Copilot; see the header)', async function () {
    if (process.env.THOUGHT_EXPLORER_TEST_AGENT_MODE !== '1') {
      // Blocked in code-server without a GitHub sign-in: the agent-mode request opens "Sign in to use GitHub
      // Copilot" and no model is called. Set THOUGHT_EXPLORER_TEST_AGENT_MODE=1 where Copilot is signed in.
      this.skip();
    }
    this.timeout(180_000);
    const marker = `agent-mode-${randomUUID()}`;
    const calls = scriptedThoughts(marker);
    helper.setScript({ toolNameSuffix: TOOL_SUFFIX, calls, finalText: 'Done thinking.' });
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: 'Think step by step with sequentialthinking about a database migration',
      mode: 'agent',
      modelSelector: { vendor: helper.vendor, id: helper.modelId },
      blockOnResponse: true,
    });
    const toolCalls = helper.requests.filter((request) => request.answered.kind === 'toolCall');
    assert.equal(toolCalls.length, calls.length, `agent mode made ${toolCalls.length} tool calls`);
    const last = helper.requests.at(-1);
    assert.ok(last && last.toolResultsSeen === calls.length, 'the model saw every tool result');
  });
});
