// Tool recommendations inside a real VS Code: a `sequentialthinking` call through VS Code's own MCP client
// (vscode.lm.invokeTool on the mcp_… tool) with a QA step and NO available-tools list gets recommendations drawn from
// this editor's tools (vscode.lm.tools) — including the one the test helper extension registers — and none of ours;
// the reply and the journal both say which list was used (toolsFrom: "editor").
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { isOwnToolName } from '../../../src/engine/toolGateway';
import { EXTENSION_ID, eventually, invokeJson, isolateStorage, sequentialThinkingTool, type IsolatedStorage } from './support';

/** Registered by test/vscode/helper-extension (src/recsProbeTool.ts). */
const PROBE_TOOL = 'recs_probe_read_package_json';

interface Recommended {
  toolName: string;
  confidence: number;
  rationale?: string;
  generic?: boolean;
}

suite("tool recommendations from the editor's tools", () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;

  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'thought-explorer-recs-');
    // As the other suites do: auto-approve is on in the test profile; this says the workbench need not ask about it.
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  });

  suiteTeardown(async () => {
    await storage?.restore();
  });

  test("no tool list sent: recommendations name tools of vscode.lm.tools, the helper's included, none of ours", async function () {
    this.timeout(150_000);
    await eventually(
      () => (vscode.lm.tools.some((tool) => tool.name === PROBE_TOOL) ? true : undefined),
      `${PROBE_TOOL} in vscode.lm.tools`,
      30_000,
    );
    const toolName = await sequentialThinkingTool();
    const reply = await invokeJson(toolName, {
      thought: 'First check which Tailwind version is installed before touching the config.',
      thoughtNumber: 1,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      verificationTarget: 'Tailwind CSS version',
      currentStep: {
        stepDescription: 'Read package.json to find the installed Tailwind version',
        expectedOutcome: 'The installed version',
      },
    });
    const recommendation = reply.recommendation as { toolsFrom: string; recommendedTools: Recommended[] };
    assert.ok(recommendation, `no recommendation in the reply: ${JSON.stringify(reply)}`);
    assert.equal(recommendation.toolsFrom, 'editor');

    const editorTools = new Set(vscode.lm.tools.map((tool) => tool.name));
    const names = recommendation.recommendedTools.map((tool) => tool.toolName);
    console.log(`    ${editorTools.size} editor tools; recommended: ${names.join(', ')}`);
    assert.ok(names.length > 0);
    for (const tool of recommendation.recommendedTools) {
      assert.ok(editorTools.has(tool.toolName), `${tool.toolName} is not in vscode.lm.tools`);
      assert.ok(!isOwnToolName(tool.toolName), `${tool.toolName} is one of ours`);
      assert.notEqual(tool.generic, true);
      assert.ok(tool.confidence > 0 && tool.confidence <= 1);
    }
    const probe = recommendation.recommendedTools.find((tool) => tool.toolName === PROBE_TOOL);
    assert.ok(probe, `${PROBE_TOOL} not recommended (got ${names.join(', ')})`);
    assert.match(probe.rationale ?? '', /read files/);
    // Our own tools are in vscode.lm.tools, and still never recommended.
    assert.ok([...editorTools].some((name) => name === toolName));

    // The journal records the same recommendation and the list it came from.
    const session = api.engine().getSession(reply.sessionId as string);
    assert.ok(session, 'the session is not in the engine');
    const qa = session.thoughts[0].extra?.qa as {
      toolsFrom: string;
      toolCount: number;
      recommendation: { recommendedTools: Recommended[] };
    };
    assert.equal(qa.toolsFrom, 'editor');
    assert.ok(
      qa.toolCount > 0 && qa.toolCount < editorTools.size,
      `toolCount ${qa.toolCount} should count the editor's tools minus ours (${editorTools.size})`,
    );
    assert.deepEqual(
      qa.recommendation.recommendedTools.map((tool) => tool.toolName),
      names,
    );
  });

  test("a tool list sent with the call wins over the editor's (toolsFrom: request)", async function () {
    this.timeout(60_000);
    const toolName = await sequentialThinkingTool();
    const reply = await invokeJson(toolName, {
      thought: 'Check the installed version.',
      thoughtNumber: 1,
      totalThoughts: 1,
      nextThoughtNeeded: false,
      availableTools: [{ name: 'my_read_file', description: 'Read a file' }],
      currentStep: { stepDescription: 'Read package.json' },
    });
    const recommendation = reply.recommendation as { toolsFrom: string; recommendedTools: Recommended[] };
    assert.equal(recommendation.toolsFrom, 'request');
    assert.deepEqual(
      recommendation.recommendedTools.map((tool) => tool.toolName),
      ['my_read_file'],
    );
  });
});
