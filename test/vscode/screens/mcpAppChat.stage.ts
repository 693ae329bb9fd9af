// Screenshot staging, not a test: loaded by `npm run screenshots -- --mcp-app` (scripts/screenshots.mjs) as the
// extensionTestsPath, it leaves the chat showing @thinker's three sequentialthinking calls with the inline thought
// graph (our MCP App) beside them, and the script then captures the workbench: docs/mcp-app-chat.png.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { HELPER_ID, type HelperApi } from '../suite/scriptedChat';
import { EXTENSION_ID, eventually, isolateStorage } from '../suite/support';
import { runStaging } from './staging';

export function run(): Promise<void> {
  return runStaging('MCP App', stageInlineGraph);
}

async function stageInlineGraph(): Promise<void> {
  const helper = await vscode.extensions.getExtension<HelperApi>(HELPER_ID)?.activate();
  if (!helper) throw new Error(`${HELPER_ID} is not installed`);
  const api = await vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID)?.activate();
  if (!api) throw new Error(`${EXTENSION_ID} is not installed`);
  // The window is left as it is for the picture; its profile and this store are temporary.
  await isolateStorage(api, 'screens-mcp-app-');
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  const marker = `build-${randomUUID().slice(0, 4)}`;
  const calls = [
    { thought: `${marker}: what makes the build slow?`, thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true },
    { thought: 'The type check runs twice: once in the build, once in lint.', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true },
    {
      thought: 'Run it once, in the lint step, and let the build only bundle.',
      thoughtNumber: 3,
      totalThoughts: 3,
      nextThoughtNeeded: false,
    },
  ];
  helper.setScript({ toolNameSuffix: 'sequentialthinking', calls, finalText: 'Run the type check once, in lint.' });
  const before = api.mcpStatus().requests['tools/call'] ?? 0;
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: '@thinker Why is the build slow? Think step by step.',
    mode: 'ask',
    modelSelector: { vendor: helper.vendor, id: helper.modelId },
    blockOnResponse: true,
  });
  // The whole window for the chat, so the inline graph reads as it does in a wide chat view.
  await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar').then(undefined, () => undefined);
  // The inline views have drawn once they read the session through the app-only page tool (calls beyond the model's).
  await eventually(
    () => ((api.mcpStatus().requests['tools/call'] ?? 0) - before > calls.length ? true : undefined),
    'the inline graph to read its session',
    45_000,
  );
  // The chat's DOM is out of the extension host's reach: scripts/screenshots.mjs waits for the graphs to be drawn.
}
