// Panels that survive a window reload: the state a webview saved comes back untrusted and is validated field by
// field (panelState.ts); the serializers registered at activation reconnect a revived explorer panel on the session it
// showed (or live again when that session is gone), a revived replay panel on its session without replaying from the
// start, and the sidebar view goes back to the session it showed.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { activate, deactivate, type ThoughtExplorerApi } from '../../src/extension/extension';
import { EXPLORER_PANEL_VIEW_TYPE, REPLAY_PANEL_VIEW_TYPE } from '../../src/extension/explorer/panelSerializer';
import { parseRestoredState, restoredExplorerTarget } from '../../src/extension/explorer/panelState';
import { isHostMessage, type HostMessage } from '../../src/shared/protocol';
import { EventEmitter, extensionContext, resetStub, stub, Uri } from './support/vscodeStub';

describe('restored webview state', () => {
  test('keeps a valid session id and mode, drops everything malformed', () => {
    assert.deepEqual(parseRestoredState({ sessionId: 'abc-1', mode: 'pinned', activeTab: 'branchTree' }), {
      sessionId: 'abc-1',
      mode: 'pinned',
    });
    for (const raw of [undefined, null, 'abc', 42, [], ['abc']]) assert.deepEqual(parseRestoredState(raw), {});
    assert.deepEqual(parseRestoredState({ sessionId: '../../etc/passwd', mode: 'admin' }), {});
    assert.deepEqual(parseRestoredState({ sessionId: 'x'.repeat(65) }), {});
    assert.deepEqual(parseRestoredState({ sessionId: { toString: () => 'abc' }, mode: ['live'] }), {});
    assert.deepEqual(parseRestoredState({ sessionId: '.hidden', mode: 'replay' }), { mode: 'replay' });
  });

  test('reconnects pinned on a session that still exists, live otherwise', () => {
    const exists = (id: string) => id === 'kept';
    assert.deepEqual(restoredExplorerTarget({ sessionId: 'kept', mode: 'pinned' }, exists), { mode: 'pinned', sessionId: 'kept' });
    assert.deepEqual(restoredExplorerTarget({ sessionId: 'kept' }, exists), { mode: 'pinned', sessionId: 'kept' });
    assert.deepEqual(restoredExplorerTarget({ sessionId: 'gone', mode: 'pinned' }, exists), { mode: 'live' });
    assert.deepEqual(restoredExplorerTarget({ sessionId: 'kept', mode: 'live' }, exists), { mode: 'live' });
    assert.deepEqual(restoredExplorerTarget({}, exists), { mode: 'live' });
  });
});

/** A stand-in for a revived vscode.WebviewPanel: records what the host posts, lets the test speak as the webview. */
class FakePanel {
  iconPath: unknown;
  disposed = false;
  visible = true;
  readonly posted: HostMessage[] = [];
  private readonly incoming = new EventEmitter<unknown>();
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly onDidChangeViewState = new EventEmitter<void>().event;
  readonly webview = {
    options: {} as unknown,
    html: '',
    cspSource: 'https://webview.test',
    asWebviewUri: (uri: Uri) => Uri.parse(`https://webview.test${uri.path}`),
    onDidReceiveMessage: this.incoming.event,
    postMessage: (message: unknown) => {
      assert.ok(isHostMessage(message));
      this.posted.push(message);
      return Promise.resolve(true);
    },
  };
  ready(): void {
    this.incoming.fire({ type: 'ready' });
  }
  /** A message from the webview (a selection, …). */
  say(message: unknown): void {
    this.incoming.fire(message);
  }
  dispose(): void {
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

interface Serializer {
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

describe('panel serializers', () => {
  let folder: string;
  let context: ReturnType<typeof extensionContext>;
  let api: ThoughtExplorerApi;

  beforeEach(() => {
    resetStub();
    folder = mkdtempSync(join(tmpdir(), 'te-restore-'));
    stub.configuration.set('storagePath', join(folder, 'sessions'));
    context = extensionContext(join(__dirname, '..', '..'));
    api = activate(context as unknown as vscode.ExtensionContext);
  });

  afterEach(async () => {
    await deactivate();
    context.disposeAll();
    rmSync(folder, { recursive: true, force: true });
  });

  async function revive(viewType: string, state: unknown): Promise<FakePanel> {
    const serializer = stub.webviewPanelSerializers.get(viewType) as Serializer | undefined;
    assert.ok(serializer, `a serializer for ${viewType}`);
    const panel = new FakePanel();
    await serializer.deserializeWebviewPanel(panel as unknown as vscode.WebviewPanel, state);
    return panel;
  }

  function session(text: string, count: number): string {
    let id: string | undefined;
    for (let n = 1; n <= count; n++) {
      const outcome = api.engine().process(`c-${text}`, {
        sessionId: id,
        thought: `${text} ${n}`,
        thoughtNumber: n,
        totalThoughts: count,
        nextThoughtNeeded: n < count,
      });
      assert.ok(outcome.ok);
      id = outcome.reply.sessionId;
    }
    assert.ok(id);
    return id;
  }

  test('an explorer panel comes back pinned on the session it showed, not on the newer live one', async () => {
    const older = session('older', 3);
    session('newer', 2);
    const panel = await revive(EXPLORER_PANEL_VIEW_TYPE, { sessionId: older, mode: 'pinned', activeTab: 'revisionChain' });
    panel.ready();
    const snapshot = panel.posted.find((message) => message.type === 'snapshot');
    assert.ok(snapshot && snapshot.type === 'snapshot');
    assert.equal(snapshot.mode, 'pinned');
    assert.equal(snapshot.session?.meta.id, older);
    assert.match(panel.webview.html, /Content-Security-Policy/);
    const status = api.explorer.status().find((entry) => entry.surface === 'panel');
    assert.deepEqual([status?.sessionId, status?.mode, status?.thoughtsSent], [older, 'pinned', 3]);
  });

  test('an explorer panel whose session is gone, or whose state is garbage, comes back following the live session', async () => {
    const live = session('live', 2);
    const panel = await revive(EXPLORER_PANEL_VIEW_TYPE, { sessionId: 'deleted-session', mode: 'pinned' });
    panel.ready();
    const snapshot = panel.posted.find((message) => message.type === 'snapshot');
    assert.ok(snapshot && snapshot.type === 'snapshot');
    assert.equal(snapshot.mode, 'live');
    assert.equal(snapshot.session?.meta.id, live);
    panel.dispose();
    const garbage = await revive(EXPLORER_PANEL_VIEW_TYPE, '<script>alert(1)</script>');
    garbage.ready();
    assert.equal(garbage.disposed, false);
    assert.equal(garbage.posted.find((message) => message.type === 'snapshot')?.type, 'snapshot');
  });

  test('the sidebar view goes back to the session its webview saved, or follows the live one when it did', async () => {
    const older = session('older', 3);
    // The live view follows the most recently updated session: make "newer" later by the clock, not only by order.
    const olderAt = Date.now();
    while (Date.now() === olderAt) await new Promise((resolve) => setImmediate(resolve));
    const newer = session('newer', 2);
    const provider = stub.webviewViewProviderObjects.get('thoughtExplorer.explorer') as {
      resolveWebviewView(view: unknown, context: { state: unknown }): void;
    };
    assert.ok(provider);
    const resolveWith = (state: unknown): FakePanel => {
      const view = new FakePanel();
      provider.resolveWebviewView(
        { webview: view.webview, visible: true, onDidChangeVisibility: new EventEmitter<void>().event, onDidDispose: view.onDidDispose },
        { state },
      );
      view.ready();
      return view;
    };
    const pinned = resolveWith({ sessionId: older, mode: 'pinned', activeTab: 'branchTree' });
    const first = pinned.posted.find((message) => message.type === 'snapshot');
    assert.ok(first && first.type === 'snapshot');
    assert.deepEqual([first.mode, first.session?.meta.id], ['pinned', older]);
    const following = resolveWith({ sessionId: older, mode: 'live' });
    const second = following.posted.find((message) => message.type === 'snapshot');
    assert.ok(second && second.type === 'snapshot');
    assert.deepEqual([second.mode, second.session?.meta.id], ['live', newer]);
  });

  test('a thought selected in the sidebar explorer is selected in the panel on the same session, and back, without echo', async () => {
    const id = session('shared', 3);
    const panel = await revive(EXPLORER_PANEL_VIEW_TYPE, { sessionId: id, mode: 'pinned' });
    panel.ready();
    const provider = stub.webviewViewProviderObjects.get('thoughtExplorer.explorer') as {
      resolveWebviewView(view: unknown, context: { state: unknown }): void;
    };
    const view = new FakePanel();
    provider.resolveWebviewView(
      { webview: view.webview, visible: true, onDidChangeVisibility: new EventEmitter<void>().event, onDidDispose: view.onDidDispose },
      { state: { sessionId: id, mode: 'pinned' } },
    );
    view.ready();
    const shown = (target: FakePanel) => target.posted.filter((message) => message.type === 'showInView');

    view.say({ type: 'selectThought', sessionId: id, seq: 1 });
    assert.deepEqual(shown(panel), [{ type: 'showInView', seq: 1 }]);
    // The panel selects it and says so: that echo is not passed back to the view.
    panel.say({ type: 'selectThought', sessionId: id, seq: 1 });
    assert.deepEqual(shown(view), []);
    panel.say({ type: 'selectThought', sessionId: id, seq: 2 });
    assert.deepEqual(shown(view), [{ type: 'showInView', seq: 2 }]);
    // A thought of another session is not pushed onto an explorer showing something else.
    const other = session('other', 2);
    view.say({ type: 'selectThought', sessionId: other, seq: 0 });
    assert.deepEqual(shown(panel), [{ type: 'showInView', seq: 1 }]);
    // Opening an explorer counts for the walkthrough, and is remembered.
    const contextKeys = stub.executed.filter((call) => call.command === 'setContext').map((call) => call.args[0]);
    assert.ok(contextKeys.includes('thoughtExplorer.explorerOpened'), contextKeys.join(', '));
    assert.ok((stub.globalState.get('thoughtExplorer.walkthroughMilestones') as string[]).includes('thoughtExplorer.explorerOpened'));
  });

  test('a replay panel comes back on its session, paused (no autoplay from the start); a gone session closes it', async () => {
    const id = session('replayed', 4);
    const panel = await revive(REPLAY_PANEL_VIEW_TYPE, { sessionId: id, mode: 'replay', replayPosition: 2 });
    panel.ready();
    const snapshot = panel.posted.find((message) => message.type === 'snapshot');
    assert.ok(snapshot && snapshot.type === 'snapshot');
    assert.deepEqual([snapshot.mode, snapshot.session?.meta.id], ['replay', id]);
    assert.equal(
      panel.posted.some((message) => message.type === 'replayState'),
      false,
      'a revived replay does not restart playing',
    );
    const gone = await revive(REPLAY_PANEL_VIEW_TYPE, { sessionId: 'deleted-session', mode: 'replay' });
    assert.equal(gone.disposed, true);
    assert.match(stub.messages.at(-1)?.message ?? '', /no longer exists/);
  });
});
