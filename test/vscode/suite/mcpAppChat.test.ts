// The inline thought graph (MCP App) in VS Code's chat: the @thinker participant (test helper) runs its scripted
// model's sequentialthinking calls through vscode.lm.invokeTool with the request's toolInvocationToken, so each call
// is a tool invocation in the chat response, and VS Code's MCP Apps host (chat.mcp.apps.enabled, on by default) shows
// our ui:// resource beside it. The extension host cannot see the chat's DOM, so the proof is what the view does
// through VS Code: VS Code reads the resource (resources/read) and the view, running in the chat, calls the app-only
// page tool (tools/call beyond the model's own calls) — which it does only once its script runs and the host relays.
// `npm run screenshots -- --mcp-app` pictures such a chat (test/vscode/screens/mcpAppChat.stage.ts).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { EXTENSION_ID, eventually, sequentialThinkingTool } from './support';

const HELPER_ID = 'thought-explorer-tests.scripted-model';
const TOOL_SUFFIX = 'sequentialthinking';

interface ScriptedModelApi {
  readonly vendor: string;
  readonly modelId: string;
  setScript(script: { toolNameSuffix: string; calls: readonly Record<string, unknown>[]; finalText: string }): void;
  readonly participantRuns: readonly { readonly toolCalls: readonly unknown[]; readonly error?: string }[];
  reset(): void;
}

interface ThoughtExplorerTestApi {
  mcpStatus(): { requests: Record<string, number> };
}

suite('MCP App: the thought graph inline in chat', () => {
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
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    await sequentialThinkingTool();
  });

  test('VS Code reads the ui:// resource and the view in the chat reads the session through the app-only tool', async function () {
    this.timeout(120_000);
    assert.notEqual(vscode.workspace.getConfiguration('chat.mcp.apps').get('enabled'), false, 'chat.mcp.apps.enabled is off');
    helper.reset();
    const marker = `inline-graph-${randomUUID().slice(0, 8)}`;
    const calls = [
      { thought: `${marker}: what makes the build slow?`, thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true },
      { thought: `${marker}: the type check runs twice`, thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true },
      { thought: `${marker}: run it once, in the lint step`, thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: false },
    ];
    helper.setScript({ toolNameSuffix: TOOL_SUFFIX, calls, finalText: 'Run the type check once.' });
    const before = { ...explorer.mcpStatus().requests };
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: '@thinker Why is the build slow? Think step by step.',
      mode: 'ask',
      modelSelector: { vendor: helper.vendor, id: helper.modelId },
      blockOnResponse: true,
    });
    const run = helper.participantRuns[0];
    assert.ok(run, 'the chat request did not reach @thinker');
    assert.equal(run.error, undefined, `the loop failed: ${run.error}`);
    assert.equal(run.toolCalls.length, calls.length);

    // The views load after the tool calls complete; give them time to read the resource and call the page tool.
    const since = (method: string) => (explorer.mcpStatus().requests[method] ?? 0) - (before[method] ?? 0);
    // A time-out here is reported by the assertions below, which say what never happened.
    await eventually(
      () => (since('resources/read') > 0 && since('tools/call') > calls.length ? true : undefined),
      'the view to read the resource and call the page tool',
      45_000,
    ).catch(() => undefined);
    assert.ok(
      since('resources/read') > 0,
      `VS Code never read the ui:// resource (requests: ${JSON.stringify(explorer.mcpStatus().requests)})`,
    );
    assert.ok(
      since('tools/call') > calls.length,
      `the view never called the page tool: ${since('tools/call')} tools/call for ${calls.length} thoughts`,
    );
  });
});
