// Panels survive a window reload, in a real VS Code: an explorer panel pinned to a session and showing the revision
// chain tab is open when the window reloads (workbench.action.reloadWindow); after the reload the panel is back,
// reconnected by our serializer on the same session, and its webview shows the same tab (it reports what it shows).
//
// A reload ends the extension host that runs this suite, so the test has two phases, told apart by a marker file next
// to the run's storage: before the reload it records a session, sets the panel up, writes the marker and reloads;
// VS Code then starts the suite again in the new window (extensionTestsPath is part of the workbench URL), index.ts
// sees the marker and runs only this file, and the second phase checks the restored panel. The file name sorts last:
// the reload must come after every other suite of the run. The first window's mocha run never reports (the reload
// ends it), so its failures so far travel in the marker and index.ts adds them to the second window's count.
//
// It fails without our serializer: VS Code then does not keep the panel across the reload at all (checked by
// removing the registration: phase 2 times out waiting for the extension, which nothing activates).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ExplorerConnectionStatus } from '../../../src/extension/explorer/explorerConnection';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { EXTENSION_ID, eventually, isolateStorage } from './support';
import { RELOAD_MARKER, SUITE_FAILURES_KEY, type ReloadMarker } from './reloadMarker';

const PANEL_VIEW_TYPE = 'thoughtExplorer.explorerPanel';

function panelStatus(api: ThoughtExplorerApi): ExplorerConnectionStatus | undefined {
  return api.explorer.status().find((status) => status.surface === 'panel');
}

function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(PANEL_VIEW_TYPE));
}

suite('window reload: the explorer panel is restored', () => {
  test('after reloadWindow the panel is back on the same session and tab', async function () {
    this.timeout(120_000);
    if (!RELOAD_MARKER) throw new Error('THOUGHT_EXPLORER_STORAGE is not set: run through npm run test:vscode');

    if (!existsSync(RELOAD_MARKER)) {
      // Phase 1: a pinned panel on a session of its own store, on the revision chain tab, then reload.
      const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
      assert.ok(extension);
      const api = await extension.activate();
      for (const tab of panelTabs()) await vscode.window.tabGroups.close(tab);
      const storage = await isolateStorage(api, 'te-vscode-reload-store-');
      let sessionId: string | undefined;
      for (let n = 1; n <= 3; n++) {
        const outcome = api.engine().process('reload-test', {
          sessionId,
          thought: `Reload test thought ${n}`,
          thoughtNumber: n,
          totalThoughts: 3,
          nextThoughtNeeded: n < 3,
        });
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
        sessionId = outcome.reply.sessionId;
      }
      assert.ok(sessionId);
      // A newer session, so "pinned" and "following the live session" would show different sessions after the reload.
      const newer = api
        .engine()
        .process('reload-test-2', { thought: 'A newer session', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
      assert.ok(newer.ok);
      await vscode.commands.executeCommand('thoughtExplorer.openExplorer', { sessionId });
      await eventually(() => (panelStatus(api)?.ready ? true : undefined), 'the explorer panel to say ready', 30_000);
      api.explorer.showInPanel({ tab: 'revisionChain', seq: 1 });
      await eventually(
        () => (panelStatus(api)?.view?.activeTab === 'revisionChain' && panelStatus(api)?.view?.selectedSeq === 1 ? true : undefined),
        'the panel to show the revision chain with thought 2 selected',
        20_000,
      );
      const failuresSoFar = (globalThis as Record<string, unknown>)[SUITE_FAILURES_KEY];
      const marker: ReloadMarker = {
        sessionId,
        tab: 'revisionChain',
        selectedSeq: 1,
        storage: storage.directory,
        failuresBefore: typeof failuresSoFar === 'function' ? Number(failuresSoFar()) : 0,
      };
      writeFileSync(RELOAD_MARKER, JSON.stringify(marker));
      console.log(`    phase 1: panel on ${sessionId}, revision chain tab; reloading the window`);
      // VS Code saves the open editors (and each webview's saved state) as the window unloads.
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      // The reload ends this extension host; if it does not happen, the test times out and fails.
      await new Promise(() => undefined);
      return;
    }

    // Phase 2, in the reloaded window.
    const marker = JSON.parse(readFileSync(RELOAD_MARKER, 'utf8')) as ReloadMarker;
    rmSync(RELOAD_MARKER, { force: true });
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension);
    try {
      // The revived panel activates the extension (onWebviewPanel); wait for it rather than activating it here.
      await eventually(() => (extension.isActive ? true : undefined), 'the extension to activate for the restored panel', 60_000);
      const api = extension.exports;
      const restored = await eventually(
        () => {
          const status = panelStatus(api);
          return status?.ready && status.view ? status : undefined;
        },
        'the restored explorer panel to connect and say what it shows',
        60_000,
      );
      assert.equal(panelTabs().length, 1, 'one explorer panel tab after the reload');
      assert.equal(restored.sessionId, marker.sessionId, 'the same session');
      assert.equal(restored.mode, 'pinned', 'still pinned, not following the newer session');
      assert.equal(restored.thoughtsSent, 3);
      assert.equal(restored.view?.activeTab, marker.tab, 'the same tab');
      assert.equal(restored.view?.selectedSeq, marker.selectedSeq, 'the same selection');
      console.log(`    phase 2: panel restored on ${restored.sessionId}, tab ${restored.view?.activeTab}`);
    } finally {
      for (const tab of panelTabs()) await vscode.window.tabGroups.close(tab);
      await vscode.workspace.getConfiguration('thoughtExplorer').update('storagePath', undefined, vscode.ConfigurationTarget.Global);
      rmSync(marker.storage, { recursive: true, force: true });
    }
  });
});
