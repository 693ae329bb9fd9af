// The thought drawing as a person watches a session grow, in real VS Code: thoughts recorded one at a time through VS
// Code's own MCP client (an agent's turn: the next call goes out once the last thought is on screen), the Branches tab
// of the editor panel and of the sidebar sampled after every thought through the test runner's webview driver. No row
// drawn before moves, resizes or disappears while the session is live; the label size stays the same and at least
// 12 px; the newest row is inside the drawing's view and on screen (the page's
// scroll does not carry it away); the thought that ends the session moves nothing.
//
// The file name sorts after extension.test.ts on purpose: that suite asserts that the MCP server has not been started
// yet when it begins, and the suites of one run share one window, loaded in file-name order.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { EXTENSION_ID, eventually, drive, invokeJson, isolateStorage, sequentialThinkingTool, type IsolatedStorage } from './support';

interface GraphRow {
  seq: number;
  top: number;
  left: number;
  height: number;
  fontPx: number;
}

interface GraphMeasure {
  rows: GraphRow[];
  newestInView: boolean;
  /** The newest row is where a person sees it: inside the window, not under the sticky header or the steering box. */
  newestOnScreen: boolean;
  overflow: number;
}

const TOTAL = 12;

/** A session with a revision and two branches, as the demo has them. */
function thoughtInput(marker: string, index: number, sessionId: string | undefined): Record<string, unknown> {
  const number = index + 1;
  const base: Record<string, unknown> = {
    ...(sessionId === undefined ? {} : { sessionId }),
    thought: `${marker}: thought ${number} weighs the next step of the investigation in a sentence of ordinary length`,
    thoughtNumber: number,
    totalThoughts: TOTAL,
    nextThoughtNeeded: number < TOTAL,
  };
  if (number === 7) return { ...base, branchFromThought: 6, branchId: 'cache-key' };
  if (number === 8) return { ...base, branchFromThought: 6, branchId: 'runner-image' };
  if (number === 10) return { ...base, isRevision: true, revisesThought: 6 };
  return base;
}

const SECTION = 'section.diagram-branchTree';

async function measure(surface: 'view' | 'panel', seq: number): Promise<GraphMeasure> {
  const [, answer] = await drive(surface, [
    { op: 'waitFor', selector: `${SECTION} .graph-row[data-seq="${seq}"]` },
    { op: 'measureGraph', selector: SECTION },
  ]);
  return answer as GraphMeasure;
}

suite('thought drawing in real VS Code: append-only while live', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;

  suiteSetup(async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'te-vscode-graph-store-');
    api.services.selectSession(undefined);
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  });

  suiteTeardown(async () => {
    api?.services.selectSession(undefined);
    await storage?.restore();
  });

  test('panel and sidebar: no row moves, labels stay ≥ 12 px, the newest row is in view, the finish moves nothing', async function () {
    this.timeout(240_000);
    const status = (surface: 'view' | 'panel') => api.explorer.status().find((candidate) => candidate.surface === surface);
    await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
    await vscode.commands.executeCommand('thoughtExplorer.explorer.focus');
    await eventually(() => (status('view')?.ready ? true : undefined), 'the sidebar explorer to say ready', 30_000);
    await vscode.commands.executeCommand('thoughtExplorer.openExplorer');
    await eventually(() => (status('panel')?.ready ? true : undefined), 'the explorer panel to say ready', 30_000);

    const toolName = await sequentialThinkingTool();
    const marker = `graph-${randomUUID().slice(0, 8)}`;
    const first = await invokeJson(toolName, thoughtInput(marker, 0, undefined));
    const sessionId = first.sessionId as string;
    assert.equal(typeof sessionId, 'string', JSON.stringify(first));
    api.services.selectSession(sessionId);
    for (const surface of ['view', 'panel'] as const) {
      await eventually(() => (status(surface)?.sessionId === sessionId ? true : undefined), `the ${surface} to show the session`);
      await drive(surface, [{ op: 'click', selector: 'vscode-tab-header[data-diagram="branchTree"]' }]);
    }

    const seen = { view: new Map<number, GraphRow>(), panel: new Map<number, GraphRow>() };
    const fontPx: Partial<Record<'view' | 'panel', number>> = {};
    for (let index = 0; index < TOTAL; index++) {
      if (index > 0) await invokeJson(toolName, thoughtInput(marker, index, sessionId));
      for (const surface of ['panel', 'view'] as const) {
        const now = await measure(surface, index);
        assert.ok(now.newestInView, `${surface}: after thought ${index + 1} the newest row is in the drawing's view`);
        // Following the newest card must not scroll the page (the sidebar's one scroller) past the drawing.
        assert.ok(now.newestOnScreen, `${surface}: after thought ${index + 1} the newest row is on screen`);
        assert.ok(now.overflow <= 0, `${surface}: no sideways scroll (${now.overflow} px)`);
        for (const row of now.rows) {
          fontPx[surface] ??= row.fontPx;
          assert.equal(row.fontPx, fontPx[surface], `${surface}: row ${row.seq}'s label size stays the same`);
          assert.ok(row.fontPx >= 12, `${surface}: row ${row.seq}'s label is ${row.fontPx} px`);
          const earlier = seen[surface].get(row.seq);
          if (earlier) assert.deepEqual(row, earlier, `${surface}: row ${row.seq} did not move after thought ${index + 1}`);
          else seen[surface].set(row.seq, row);
        }
        for (const seq of seen[surface].keys())
          assert.ok(
            now.rows.some((row) => row.seq === seq),
            `${surface}: row ${seq} is still drawn after thought ${index + 1}`,
          );
      }
    }
    // The finish: the final row carries its badge, in both.
    for (const surface of ['panel', 'view'] as const)
      await drive(surface, [{ op: 'waitFor', selector: `${SECTION} .graph-row.final[data-seq="${TOTAL - 1}"]` }]);
    assert.equal(api.engine().getSession(sessionId)?.meta.status, 'complete');
  });
});
