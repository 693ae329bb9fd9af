// A person following live sessions in a real VS Code, with the mouse (the test runner's driver clicks in the workbench
// page and in the explorer's frame, scripts/webviewDriver.mjs): the status bar item clicked again and again while
// thoughts stream opens the session and never fails ("Actual command not found" when each thought gave the item a new
// command); the Sessions tree's inline "Open in Editor Tab" opens that session in an editor tab; a sidebar explorer
// pinned to one session offers a new live session from another client in a banner and switches only when asked.
//
// The file name sorts after extension.test.ts on purpose: that suite asserts that the MCP server has not been started
// yet when it begins, and the suites of one run share one window, loaded in file-name order.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { EXTENSION_ID, drive, eventually, isolateStorage, type IsolatedStorage } from './support';

/** The status bar entry: VS Code gives it the id `<extension id>.<item id>`. */
const STATUS_ITEM = `[id="${EXTENSION_ID}.thoughtExplorer.liveSession"]`;
/** Clicks on the status bar item, each racing the updates of two thoughts. */
const CLICKS = 20;
/** The streaming session's planned length: one thought before each click and one while it is on its way, and the first. */
const LAST = 2 * CLICKS + 1;

suite('live sessions: status bar, Sessions tree and the offer to switch, in real VS Code', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;
  const marker = `walk-${randomUUID().slice(0, 8)}`;

  /** One thought from `client` (another MCP connection of the same engine, as a second chat or client is). */
  const think = (client: string, sessionId: string, thoughtNumber: number, total = LAST) => {
    const outcome = api.engine().process(client, {
      sessionId,
      thought: `${marker} ${sessionId}: step ${thoughtNumber}`,
      thoughtNumber,
      totalThoughts: total,
      nextThoughtNeeded: true,
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'te-vscode-live-walk-');
  });

  suiteTeardown(async () => {
    api?.services.selectSession(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await storage?.restore();
  });

  test('the status bar item, clicked while thoughts stream, opens the session every time', async function () {
    this.timeout(120_000);
    const sessionId = `${marker}-streaming`;
    think('agent', sessionId, 1);
    await drive('workbench', [{ op: 'waitFor', selector: STATUS_ITEM }]);
    // Counts what the item's command (Open in Explorer) asks of the services: one per click that worked.
    const services = api.services;
    const showInExplorer = services.showInExplorer.bind(services);
    const opened: string[] = [];
    services.showInExplorer = (id: string) => {
      opened.push(id);
      return showInExplorer(id);
    };
    let next = 2;
    try {
      // An agent at full speed, paced by the clicks rather than by a clock (a loaded machine clicks slowly): each click
      // goes out right after a thought and while the next one is written, so the item is being given a new text (and
      // before the fix, a new command) as the click lands.
      for (let click = 0; click < CLICKS; click++) {
        think('agent', sessionId, next++);
        const clicked = drive('workbench', [{ op: 'click', selector: STATUS_ITEM }]);
        setImmediate(() => think('agent', sessionId, next++));
        await clicked;
      }
      await eventually(() => (opened.length >= CLICKS ? true : undefined), `${CLICKS} clicks to open the session (${opened.length} did)`);
      assert.deepEqual(new Set(opened), new Set([sessionId]));
    } finally {
      services.showInExplorer = showInExplorer;
    }
    await eventually(
      () => (api.explorer.status().some((status) => status.surface === 'view' && status.sessionId === sessionId) ? true : undefined),
      'the sidebar explorer to show the streaming session',
    );
  });

  test('the Sessions tree item’s inline "Open in Editor Tab" opens that session in an editor tab', async function () {
    this.timeout(60_000);
    const sessionId = `${marker}-tree`;
    think('agent', sessionId, 1, 3);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
    // The tree shows a new session after its coalesced refresh, and draws only the rows in view (the streaming session
    // may fill it): scrolled to, as a person would, its row is clicked, then the row's inline action.
    await eventually(
      () =>
        api.revealSession(sessionId).then(
          () => true,
          () => undefined,
        ),
      'the new session in the Sessions tree',
    );
    // The session row: its label starts with the first thought (the thought rows below it start with their number).
    const row = `.monaco-list-row[aria-label^="${marker} ${sessionId}: step 1"]`;
    await drive('workbench', [
      { op: 'waitFor', selector: row },
      { op: 'click', selector: row },
      { op: 'click', selector: `${row} .actions a.action-label[aria-label="Open in Editor Tab"]` },
    ]);
    await eventually(
      () =>
        api.explorer.status().some((status) => status.surface === 'panel' && status.sessionId === sessionId && status.ready)
          ? true
          : undefined,
      'an editor tab explorer on the session',
    );
  });

  test('a sidebar explorer pinned to a session offers a new live session and switches only when asked', async function () {
    this.timeout(60_000);
    const pinned = `${marker}-pinned`;
    const newcomer = `${marker}-newcomer`;
    think('agent', pinned, 1, 5);
    // As the Sessions tree and the status bar do: pick it, and show it in the sidebar explorer (pinned).
    await api.services.showInExplorer(pinned);
    const view = () => api.explorer.status().find((status) => status.surface === 'view');
    await eventually(() => {
      const status = view();
      return status?.ready && status.mode === 'pinned' && status.sessionId === pinned ? true : undefined;
    }, 'the sidebar explorer pinned to its session');
    // Another client starts a session: offered, not switched to.
    think('another-client', newcomer, 1, 5);
    await eventually(() => (view()?.offeredSessionId === newcomer ? true : undefined), 'the offer of the new session');
    await drive('view', [{ op: 'waitFor', selector: '.session-offer:not([hidden])' }]);
    const [title] = (await drive('view', [{ op: 'texts', selector: '.session-offer-title' }])) as string[][];
    assert.deepEqual(title, [`${marker} ${newcomer}: step 1`]);
    assert.equal(view()?.sessionId, pinned, 'the view stayed on its session');
    await drive('view', [{ op: 'click', selector: 'vscode-button.session-offer-switch' }]);
    await eventually(() => (view()?.sessionId === newcomer ? true : undefined), 'the view to show the new session');
    await drive('view', [{ op: 'waitFor', selector: '.session-offer[hidden]' }]);
  });
});
