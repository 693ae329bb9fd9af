// Screenshot staging, not a test: loaded by `npm run screenshots -- --hats chat|explorer` (scripts/screenshots.mjs) as
// the extensionTestsPath, it leaves the window showing a six-hats deliberation on the helper extension's scripted model,
// and the script then captures the workbench: THOUGHT_EXPLORER_SCREENSHOT=chat the chat view once the hats answered
// (docs/chat-hats.png), =explorer the explorer panel while the synthesis hat still runs, with its role states and the
// Stop button (docs/explorer-hats.png).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { HELPER_ID, answered, ask, hatOf, sessionWith, warmUpChat, type HelperApi } from '../suite/scriptedChat';
import { EXTENSION_ID, eventually, isolateStorage } from '../suite/support';
import { runStaging } from './staging';

const ANSWERS: Record<string, string> = {
  factual: 'Billing handles 40k invoices a day; the current p99 is 140 ms; the queue would add one network hop per invoice.',
  emotional: 'The team is wary: the last migration broke month-end invoicing, and finance will notice any delay first.',
  critical: 'Risks: duplicate invoices on redelivery, lost events if the broker fails over, and a longer tail latency.',
  optimistic: 'Events decouple billing from checkout, so peak traffic stops slowing the storefront; retries become cheap.',
  creative: 'Run both paths for a month: write invoices synchronously and publish events, then compare before switching.',
  synthesis: 'Go event-driven behind a flag: idempotent invoice ids, an outbox table, and a one-month shadow run before the switch.',
};

export function run(): Promise<void> {
  return runStaging('hats', stageHats);
}

async function stageHats(): Promise<void> {
  const stage = process.env.THOUGHT_EXPLORER_SCREENSHOT;
  if (stage !== 'chat' && stage !== 'explorer') throw new Error(`THOUGHT_EXPLORER_SCREENSHOT must be chat or explorer, got ${stage}`);
  const helper = await vscode.extensions.getExtension<HelperApi>(HELPER_ID)?.activate();
  if (!helper) throw new Error(`${HELPER_ID} is not installed`);
  const api = await vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID)?.activate();
  if (!api) throw new Error(`${EXTENSION_ID} is not installed`);
  // The window is left as it is for the picture; its profile and this store are temporary.
  await isolateStorage(api, 'screens-hats-');
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  await warmUpChat(api);
  const marker = `screens-${randomUUID().slice(0, 4)}`;
  let calls = 0;
  helper.setResponder(async (request) => {
    calls += 1;
    const hat = hatOf(request);
    // Paced, deliberately: the roles stream in one by one, as they do on a real model.
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (stage === 'explorer' && hat === 'synthesis')
      await new Promise<void>((resolve) => request.token.onCancellationRequested(() => resolve()));
    return { text: ANSWERS[hat] ?? 'Scripted answer.' };
  });
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const query = `@thinking /hats --full ${marker}: should billing move to an event-driven architecture?`;
  if (stage === 'chat') {
    await ask(query);
    // The whole window for the chat, so the roles read as they do in a wide chat view.
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar').then(undefined, () => undefined);
    await answered(api, marker);
    return;
  }
  void ask(query);
  const sessionId = await eventually(() => (calls >= 6 ? sessionWith(api, marker)?.id : undefined), 'the synthesis hat to start', 60_000);
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await vscode.commands.executeCommand('thoughtExplorer.openExplorer', sessionId);
  await eventually(
    () => api.explorer.status().find((status) => status.surface === 'panel' && status.ready && status.deliberation?.status === 'running'),
    'the panel to show the running deliberation',
    30_000,
  );
  // Drawn once the panel can hand back its diagrams.
  await eventually(async () => ((await api.explorer.renderedSvgs(sessionId)).stageGraph ? true : undefined), 'the panel to draw', 30_000);
}
