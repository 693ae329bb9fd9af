// Steering a live session inside a real VS Code: thoughts go through VS Code's own MCP client (vscode.lm.invokeTool →
// the in-host server); a note typed in the sidebar explorer, a rejection and an alternative asked from a card (typed
// and clicked in the webview by the test runner's webview driver, scripts/webviewDriver.mjs) each reach the next
// invokeTool reply exactly once, and the explorer then shows them delivered and applied; a note typed for a session the
// stdio CLI serves reaches the CLI's next reply through the shared journal. The Sessions tree's
// commands are checked to refuse a finished session.
//
// The file name sorts after extension.test.ts on purpose: that suite asserts that the MCP server has not been started
// yet when it begins, and the suites of one run share one window, loaded in file-name order.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import {
  EXTENSION_ID,
  StdioClient,
  drive,
  eventually,
  invokeJson,
  isolateStorage,
  sequentialThinkingTool,
  spawnCli,
  type DriverStep,
  type IsolatedStorage,
} from './support';

/** Performs `steps` in the sidebar explorer's frame, through the test runner (a person's mouse and keyboard). */
async function inExplorer(steps: DriverStep[]): Promise<void> {
  await drive('view', steps);
}

/**
 * A thought of this suite's session. After the first, the session is named: VS Code may reconnect to the server
 * between calls (it does after an earlier suite's settings change rebuilt the engine), and a new MCP connection has
 * no current session; feedback belongs to the session, whichever connection carries its next thought.
 */
function thought(marker: string, thoughtNumber: number, extra: Record<string, unknown> = {}, sessionId?: string): Record<string, unknown> {
  return {
    ...(sessionId === undefined ? {} : { sessionId }),
    thought: `${marker}: step ${thoughtNumber}`,
    thoughtNumber,
    totalThoughts: 8,
    nextThoughtNeeded: true,
    ...extra,
  };
}

/** One sequentialthinking call through the stdio CLI; the reply's structuredContent. */
async function think(client: StdioClient, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await client.request('tools/call', { name: 'sequentialthinking', arguments: args });
  const result = answer.result as { structuredContent?: Record<string, unknown>; isError?: boolean } | undefined;
  assert.ok(result?.structuredContent && !result.isError, JSON.stringify(answer));
  return result.structuredContent;
}

suite('feedback: steering a live session from the explorer in real VS Code', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;
  let toolName: string;
  let sessionId: string;
  const marker = `steer-${randomUUID().slice(0, 8)}`;

  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'te-vscode-feedback-store-');
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    toolName = await sequentialThinkingTool();
  });

  suiteTeardown(async () => {
    api?.services.selectSession(undefined);
    await storage?.restore();
  });

  test('a note typed in the explorer of a live session reaches the next invokeTool reply, once', async function () {
    this.timeout(120_000);
    const first = await invokeJson(toolName, thought(marker, 1));
    sessionId = first.sessionId as string;
    assert.equal(typeof sessionId, 'string', JSON.stringify(first));
    await invokeJson(toolName, thought(marker, 2, {}, sessionId));
    await invokeJson(toolName, thought(marker, 3, {}, sessionId));
    await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
    await vscode.commands.executeCommand('thoughtExplorer.explorer.focus');
    api.services.selectSession(sessionId);
    await eventually(() => {
      const view = api.explorer.status().find((status) => status.surface === 'view');
      return view?.ready && view.sessionId === sessionId && view.thoughtsSent === 3 ? true : undefined;
    }, 'the sidebar explorer to show the live session');

    const note = `${marker}: consider the Windows runners too`;
    await inExplorer([
      { op: 'waitFor', selector: '.feedback-panel:not([hidden]) .feedback-note-input' },
      { op: 'fill', selector: '.feedback-panel:not([hidden]) .feedback-note-input', text: note },
      { op: 'click', selector: 'vscode-button.feedback-send-note' },
    ]);
    const recorded = await eventually(() => api.engine().getSession(sessionId)?.feedback?.[0], 'the note to be recorded');
    assert.equal(recorded.kind, 'note');
    assert.equal(recorded.text, note);

    const reply = await invokeJson(toolName, thought(marker, 4, {}, sessionId));
    assert.deepEqual(
      reply.userFeedback,
      [{ id: recorded.id, kind: 'note', text: note }],
      `tool ${toolName}, reply ${JSON.stringify(reply)}; session ${sessionId}: ${JSON.stringify(api.engine().getSession(sessionId)?.feedback)}`,
    );
    assert.match(reply.guidance as string, /^The user sent a note: /);
    // Compact replies name the session only on its first reply; the feedback itself proves which session it went to.
    assert.ok(reply.sessionId === undefined || reply.sessionId === sessionId, JSON.stringify(reply));
    const after = await invokeJson(toolName, thought(marker, 5, {}, sessionId));
    assert.equal(after.userFeedback, undefined, 'delivered once');
    // The explorer shows it delivered.
    await inExplorer([{ op: 'waitFor', selector: '.feedback-general .feedback-mark.feedback-note.feedback-delivered' }]);
  });

  test('reject and explore-an-alternative from a card reach the next replies, and show as applied', async function () {
    this.timeout(120_000);
    assert.ok(sessionId, 'the previous test recorded a session');
    const reason = `${marker}: thought 2 assumes a single runner`;
    await inExplorer([
      { op: 'click', selector: '.thought-card[data-seq="1"] .thought-text' },
      { op: 'click', selector: '.thought-card[data-seq="1"] vscode-button.feedback-reject' },
      { op: 'fill', selector: '.thought-card[data-seq="1"] .feedback-input-reject', text: reason },
      { op: 'click', selector: '.thought-card[data-seq="1"] vscode-button.feedback-submit-reject' },
    ]);
    const rejection = await eventually(
      () =>
        api
          .engine()
          .getSession(sessionId)
          ?.feedback?.find((record) => record.kind === 'reject'),
      'the rejection to be recorded',
    );
    const rejected = await invokeJson(toolName, thought(marker, 6, {}, sessionId));
    assert.deepEqual(rejected.userFeedback, [{ id: rejection.id, kind: 'reject', thoughtNumber: 2, text: reason }]);
    assert.match(rejected.guidance as string, /^The user asked you to revise thought 2 .*send isRevision true, revisesThought 2\./);
    await invokeJson(toolName, thought(marker, 7, { isRevision: true, revisesThought: 2 }, sessionId));
    await inExplorer([{ op: 'waitFor', selector: '.thought-card[data-seq="1"] .feedback-mark.feedback-reject.feedback-applied' }]);

    await inExplorer([
      { op: 'click', selector: '.thought-card[data-seq="0"] .thought-text' },
      { op: 'click', selector: '.thought-card[data-seq="0"] vscode-button.feedback-branch' },
      { op: 'fill', selector: '.thought-card[data-seq="0"] .feedback-input-branch', text: 'alt-remote-cache' },
      { op: 'press', selector: '.thought-card[data-seq="0"] .feedback-input-branch', key: 'Enter' },
    ]);
    const branch = await eventually(
      () =>
        api
          .engine()
          .getSession(sessionId)
          ?.feedback?.find((record) => record.kind === 'branch'),
      'the alternative to be recorded',
    );
    const branched = await invokeJson(toolName, thought(marker, 8, {}, sessionId));
    assert.deepEqual(branched.userFeedback, [{ id: branch.id, kind: 'branch', thoughtNumber: 1, branchId: 'alt-remote-cache' }]);
    await invokeJson(toolName, thought(marker, 9, { branchFromThought: 1, branchId: 'alt-remote-cache' }, sessionId));
    const states = api
      .engine()
      .getSession(sessionId)
      ?.feedback?.map((record) => [record.kind, record.deliveredAt !== undefined, record.appliedAt !== undefined]);
    assert.deepEqual(states, [
      ['note', true, false],
      ['reject', true, true],
      ['branch', true, true],
    ]);
  });

  test('the Sessions tree command refuses feedback on a completed session, and nothing is stored', async function () {
    this.timeout(60_000);
    await invokeJson(toolName, thought(marker, 10, { nextThoughtNeeded: false }, sessionId));
    const before = api.engine().getSession(sessionId)?.feedback?.length;
    await vscode.commands.executeCommand('thoughtExplorer.feedback.concludeNow', sessionId);
    assert.equal(api.engine().getSession(sessionId)?.feedback?.length, before);
    const outcome = api.engine().addFeedback(sessionId, { kind: 'conclude' });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.match(outcome.error, /is complete; feedback goes to live sessions/);
    // The explorer offers no controls on it any more; the note given earlier stays listed, with how it ended.
    await inExplorer([
      { op: 'waitFor', selector: '.feedback-panel:not([hidden]) .feedback-steer[hidden]' },
      { op: 'waitFor', selector: '.feedback-general .feedback-mark.feedback-note.feedback-delivered' },
    ]);
  });

  test('a note typed in VS Code reaches the next reply of a session the stdio CLI serves; the delivery shows in VS Code', async function () {
    this.timeout(120_000);
    const child = spawnCli(storage.directory);
    try {
      const client = new StdioClient(child);
      const init = await client.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'another-mcp-client', version: '1' },
      });
      assert.ok(init.result, JSON.stringify(init));
      client.notify('notifications/initialized');
      const cliMarker = `${marker}-cli`;
      const first = await think(client, thought(cliMarker, 1));
      const cliSession = first.sessionId as string;
      await think(client, thought(cliMarker, 2));
      // VS Code shows the CLI's session (read from the shared store) in the sidebar explorer, opened here too so that
      // this test runs on its own (--grep) as well as after the others.
      await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
      await vscode.commands.executeCommand('thoughtExplorer.explorer.focus');
      api.services.selectSession(cliSession);
      await eventually(() => {
        const view = api.explorer.status().find((status) => status.surface === 'view');
        return view?.ready && view.sessionId === cliSession && view.thoughtsSent === 2 ? true : undefined;
      }, "the sidebar explorer to show the CLI's session");
      const note = `${cliMarker}: the cache must work offline too`;
      await inExplorer([
        // What the page shows, not only what the host sent: the CLI's second thought on its card.
        { op: 'waitFor', selector: `.thought-card:has-text(${JSON.stringify(`${cliMarker}: step 2`)})` },
        { op: 'waitFor', selector: '.feedback-panel:not([hidden]) .feedback-note-input' },
        { op: 'fill', selector: '.feedback-panel:not([hidden]) .feedback-note-input', text: note },
        { op: 'click', selector: 'vscode-button.feedback-send-note' },
      ]);
      const recorded = await eventually(() => api.engine().getSession(cliSession)?.feedback?.[0], 'the note to be journaled by VS Code');
      // The CLI's next reply carries it: it read VS Code's record from the journal.
      const reply = await think(client, thought(cliMarker, 3));
      assert.deepEqual(reply.userFeedback, [{ id: recorded.id, kind: 'note', text: note }], JSON.stringify(reply));
      assert.equal(reply.thoughtHistoryLength, 3);
      assert.equal((await think(client, thought(cliMarker, 4))).userFeedback, undefined, 'delivered once');
      // The CLI's delivery mark comes back to VS Code through the store watcher: the explorer shows it delivered.
      await inExplorer([{ op: 'waitFor', selector: '.feedback-general .feedback-mark.feedback-note.feedback-delivered' }]);
      assert.equal(typeof api.engine().getSession(cliSession)?.feedback?.[0].deliveredAt, 'number');
    } finally {
      child.kill();
    }
  });
});
