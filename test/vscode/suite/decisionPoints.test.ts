// Asking at decision points inside a real VS Code: with `thoughtExplorer.steering.askAtDecisionPoints` on, an early
// finish sent through VS Code's own MCP client (vscode.lm.invokeTool) makes the in-host server ask VS Code through MCP
// elicitation. Nobody answers in a test, so the bounded wait (decisionTimeoutSeconds: 2) runs out and the reply says
// so; the thought is recorded either way. With the setting off, nothing is asked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { EXTENSION_ID, invokeJson, isolateStorage, sequentialThinkingTool, type IsolatedStorage } from './support';

suite('ask at decision points through VS Code', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;
  let toolName: string;
  const configuration = () => vscode.workspace.getConfiguration('thoughtExplorer');

  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'thought-explorer-decisions-');
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    toolName = await sequentialThinkingTool();
  });

  suiteTeardown(async () => {
    await configuration().update('steering.askAtDecisionPoints', undefined, vscode.ConfigurationTarget.Global);
    await configuration().update('steering.decisionTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await storage?.restore();
  });

  test('setting off: an early finish is not asked about', async function () {
    this.timeout(60_000);
    const reply = await invokeJson(toolName, { thought: 'Done already.', thoughtNumber: 1, totalThoughts: 8, nextThoughtNeeded: false });
    assert.equal(reply.userDecision, undefined);
  });

  test('setting on: VS Code is asked (elicitation); unanswered, the bounded wait ends and the reply says so', async function () {
    this.timeout(90_000);
    await configuration().update('steering.askAtDecisionPoints', true, vscode.ConfigurationTarget.Global);
    await configuration().update('steering.decisionTimeoutSeconds', 2, vscode.ConfigurationTarget.Global);
    const started = Date.now();
    const reply = await invokeJson(toolName, { thought: 'Finished early.', thoughtNumber: 1, totalThoughts: 8, nextThoughtNeeded: false });
    console.log(
      `    reply after ${Date.now() - started} ms: userDecision ${JSON.stringify(reply.userDecision)}; warnings ${JSON.stringify(reply.warnings)}`,
    );
    const decision = reply.userDecision as { action?: string; about?: string } | undefined;
    assert.ok(decision, `VS Code was asked: ${JSON.stringify(reply)}`);
    assert.equal(decision.about, 'earlyFinish');
    assert.ok(['timeout', 'cancel', 'decline'].includes(String(decision.action)), JSON.stringify(decision));
    const sessionId = String(reply.sessionId);
    assert.equal(api.services.engine.getSession(sessionId)?.thoughts.length, 1, 'the thought was recorded');
  });
});
