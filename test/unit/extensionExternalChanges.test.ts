// Sessions written by another process (the stdio CLI on the same store) while the extension's engine holds them:
// the store watcher has the engine re-read them, so the Sessions tree, an explorer following the session, exports and
// the status bar show the other process's thoughts; the extension's own writes are not mistaken for external ones.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { ThinkingEngine } from '../../src/engine/engine';
import type { EngineEvent } from '../../src/engine/events';
import { ExplorerConnection } from '../../src/extension/explorer/explorerConnection';
import { registerExportCommand } from '../../src/extension/exportCommand';
import { SessionsTreeProvider } from '../../src/extension/sessionsTree';
import { LiveSessionTracker, registerStatusBar } from '../../src/extension/statusBar';
import type { SessionMeta } from '../../src/engine/model';
import { StoreWatcher } from '../../src/extension/storeWatcher';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { isHostMessage, type HostMessage } from '../../src/shared/protocol';
import { eventually, servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { EventEmitter, extensionContext, resetStub, stub, Uri, type TreeItem } from './support/vscodeStub';

let fixture: ServicesFixture;
let watcher: StoreWatcher;
let cliStore: FileSessionStore;
/** The other process: its own engine over its own store on the extension's storage folder, as the stdio CLI runs. */
let cli: ThinkingEngine;
let events: EngineEvent[];

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  // Driven by calling onChange with the journal's name: fs.watch timing is not what is under test here.
  watcher = new StoreWatcher(fixture.services, { debounceMs: 5 });
  cliStore = new FileSessionStore(fixture.services.storageDirectory, { indexFlushDelayMs: 1, log: () => {} });
  cli = new ThinkingEngine({ store: cliStore, log: () => {} });
  events = [];
  fixture.services.onEngineEvent((event) => events.push(event));
});

afterEach(() => {
  watcher.dispose();
  cliStore.close();
  fixture.cleanup();
});

function started(engine: ThinkingEngine, connection: string, args: Record<string, unknown>): string {
  const outcome = engine.process(connection, args);
  if (!outcome.ok) assert.fail(outcome.error);
  return outcome.reply.sessionId;
}

/** What the fs.watch callback would report for a session's journal. */
function journalChanged(sessionId: string): void {
  watcher.onChange(`${sessionId}.jsonl`);
}

/** Records what an explorer webview is sent. */
class FakeWebview {
  options: unknown;
  html = '';
  readonly cspSource = 'https://webview.test';
  readonly posted: HostMessage[] = [];
  /** VS Code drops the next snapshot (postMessage answers false), as it does for a webview it cannot reach at that moment. */
  dropNextSnapshot = false;
  private readonly incoming = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.incoming.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`https://webview.test${uri.path}`);
  }
  postMessage(message: unknown): Promise<boolean> {
    assert.ok(isHostMessage(message));
    if (this.dropNextSnapshot && message.type === 'snapshot') {
      this.dropNextSnapshot = false;
      return Promise.resolve(false);
    }
    this.posted.push(message);
    return Promise.resolve(true);
  }
  fromWebview(message: unknown): void {
    this.incoming.fire(message);
  }
}

describe('sessions changed by another process', () => {
  test('a CLI thought into a session the engine holds is re-read, announced, drawn in the tree and exported', async () => {
    const engine = fixture.services.engine;
    const id = started(engine, 'copilot', thought(1, 4, 'Held by the extension', { strategy: 'linear' }));
    const tree = new SessionsTreeProvider(fixture.services, { coalesceMs: 1 });
    const context = extensionContext('/extension');
    registerExportCommand(context as unknown as vscode.ExtensionContext, fixture.services);
    try {
      const [live] = tree.getChildren();
      const [session] = tree.getChildren(live);
      assert.equal(tree.getChildren(session).length, 1);

      started(cli, 'claude', thought(2, 4, 'Added by the CLI', { sessionId: id }));
      assert.equal(engine.getSession(id)?.thoughts.length, 1, 'stale until the watcher reports the journal');
      events.length = 0;
      journalChanged(id);
      const added = events.filter((event) => event.type === 'thoughtAdded');
      assert.deepEqual(
        added.map((event) => event.type === 'thoughtAdded' && event.thought.thought),
        ['Added by the CLI'],
      );
      assert.equal(engine.getSession(id)?.thoughts.length, 2);
      await eventually(() => watcher.externalChanges === 1, 2000, 'the change counted as external');
      await eventually(
        () => tree.getChildren(tree.getChildren(tree.getChildren()[0])[0]).length === 2,
        2000,
        'the CLI thought in the tree',
      );
      const labels = tree
        .getChildren(tree.getChildren(tree.getChildren()[0])[0])
        .map((node) => (tree.getTreeItem(node) as unknown as TreeItem).label);
      assert.match(String(labels[1]), /Added by the CLI/);

      const target = join(fixture.directory, '..', 'export.md');
      const handler = stub.commands.get('thoughtExplorer.exportSession');
      assert.ok(handler);
      await handler(id, 'md', target);
      assert.match(readFileSync(target, 'utf8'), /Added by the CLI/);

      // The extension's connection goes on in the same session, after the CLI's thought.
      const reply = engine.process('copilot', thought(3, 4, 'The extension again'));
      assert.ok(reply.ok);
      assert.equal(reply.reply.sessionId, id);
      assert.equal(reply.reply.thoughtHistoryLength, 3);
      // Its own write is reported by fs.watch too, and is recognised as its own.
      events.length = 0;
      journalChanged(id);
      assert.equal(watcher.notificationPending, false, 'nothing to announce');
      assert.equal(watcher.externalChanges, 1);
      assert.deepEqual(events, []);
    } finally {
      context.disposeAll();
      tree.dispose();
    }
  });

  test('an explorer following the session receives the CLI thought once, as a delta', async () => {
    const engine = fixture.services.engine;
    const id = started(engine, 'copilot', thought(1, 4, 'Shown in the explorer'));
    const webview = new FakeWebview();
    const connection = new ExplorerConnection(webview as unknown as vscode.Webview, fixture.services, {
      surface: 'view',
      mode: 'pinned',
      sessionId: id,
      onOpenInPanel: () => {},
    });
    try {
      webview.fromWebview({ type: 'ready' });
      assert.equal(webview.posted.at(-1)?.type, 'snapshot');
      started(cli, 'claude', thought(2, 4, 'From the CLI', { sessionId: id }));
      journalChanged(id);
      await eventually(() => watcher.externalChanges === 1 && !watcher.notificationPending, 2000, 'the disk notification');
      const deltas = webview.posted.filter((message) => message.type === 'thoughtAdded');
      assert.deepEqual(
        deltas.map((message) => message.type === 'thoughtAdded' && [message.thought.seq, message.thought.thought]),
        [[1, 'From the CLI']],
      );
      assert.equal(connection.status.thoughtsSent, 2);
    } finally {
      connection.dispose();
    }
  });

  test('a message VS Code drops is made good: the explorer is sent the whole state again', async () => {
    const engine = fixture.services.engine;
    const first = started(engine, 'copilot', thought(1, 4, 'Shown first'));
    const second = started(engine, 'claude', thought(1, 4, 'Picked next'));
    const webview = new FakeWebview();
    const connection = new ExplorerConnection(webview as unknown as vscode.Webview, fixture.services, {
      surface: 'view',
      mode: 'pinned',
      sessionId: first,
      onOpenInPanel: () => {},
    });
    try {
      webview.fromWebview({ type: 'ready' });
      webview.posted.length = 0;
      webview.dropNextSnapshot = true;
      connection.show(second);
      assert.equal(webview.posted.filter((message) => message.type === 'snapshot').length, 0, 'the snapshot was dropped');
      await eventually(
        () => webview.posted.some((message) => message.type === 'snapshot' && message.session?.meta.id === second),
        2000,
        'the snapshot sent again',
      );
    } finally {
      connection.dispose();
    }
  });

  test('a change notification without a file name re-checks every held session', () => {
    const engine = fixture.services.engine;
    const id = started(engine, 'copilot', thought(1, 3, 'Held'));
    started(cli, 'claude', thought(2, 3, 'Unnamed change', { sessionId: id }));
    watcher.onChange(undefined);
    assert.equal(engine.getSession(id)?.thoughts.length, 2);
  });

  test('the status bar shows a CLI session that was live before the store opened, once it opens', async () => {
    const context = extensionContext('/extension');
    try {
      registerStatusBar(context as unknown as vscode.ExtensionContext, fixture.services);
      const item = stub.statusBarItems.find((candidate) => candidate.id === 'thoughtExplorer.liveSession');
      assert.ok(item);
      const cliSession = started(cli, 'claude', thought(1, 4, 'Started before VS Code looked', { strategy: 'linear' }));
      assert.equal(fixture.services.isEngineBuilt, false);
      assert.equal(item.visible, false, 'nothing is read before the store is needed');
      fixture.services.engine.listSessions();
      await eventually(() => item.visible && item.command?.arguments?.[0] === cliSession, 2000, 'the CLI session in the status bar');
    } finally {
      context.disposeAll();
    }
  });

  test('the status bar keeps one command while thoughts stream in, so a click between two thoughts finds it', () => {
    // VS Code turns a command with arguments into an internal delegate and drops the previous one on each new
    // assignment: a click that landed between two updates failed with "command … not found".
    const context = extensionContext('/extension');
    try {
      registerStatusBar(context as unknown as vscode.ExtensionContext, fixture.services);
      const item = stub.statusBarItems.find((candidate) => candidate.id === 'thoughtExplorer.liveSession');
      assert.ok(item);
      const engine = fixture.services.engine;
      const own = started(engine, 'copilot', thought(1, 6, 'Streaming', { strategy: 'linear' }));
      const command = item.command;
      assert.deepEqual(command?.arguments, [own]);
      for (let number = 2; number <= 5; number++) started(engine, 'copilot', thought(number, 6, `Step ${number}`, { sessionId: own }));
      assert.match(item.text, /5\/6/);
      assert.equal(item.command, command, 'the same command object for the same session');
      const next = started(engine, 'copilot', thought(1, 2, 'Another session', { strategy: 'linear' }));
      assert.deepEqual(item.command?.arguments, [next], 'a new session gets its own command');
    } finally {
      context.disposeAll();
    }
  });

  test('the status bar shows the newest live session of another process, and hides it when that process ends it', async () => {
    const context = extensionContext('/extension');
    try {
      registerStatusBar(context as unknown as vscode.ExtensionContext, fixture.services);
      const item = stub.statusBarItems.find((candidate) => candidate.id === 'thoughtExplorer.liveSession');
      assert.ok(item);
      const own = started(fixture.services.engine, 'copilot', thought(1, 5, 'Ours', { strategy: 'linear' }));
      assert.deepEqual(item.command?.arguments, [own]);

      // Our clock and the CLI's agree; make sure the CLI's session is the newer one.
      const ownTime = Date.now();
      await eventually(() => Date.now() > ownTime, 1000, 'the clock to move on');
      const cliSession = started(cli, 'claude', thought(1, 3, 'Only in the CLI', { strategy: 'linear' }));
      journalChanged(cliSession);
      await eventually(() => item.command?.arguments?.[0] === cliSession, 2000, 'the CLI session in the status bar');
      assert.equal(item.visible, true);
      assert.match(item.text, /1\/3 · linear/);

      started(cli, 'claude', thought(2, 2, 'CLI done'));
      journalChanged(cliSession);
      await eventually(() => item.command?.arguments?.[0] === own, 2000, 'back to our live session once the CLI one ended');

      assert.ok(fixture.services.engine.process('copilot', thought(2, 2, 'Ours done')).ok);
      assert.equal(item.visible, false);
    } finally {
      context.disposeAll();
    }
  });
});

describe('LiveSessionTracker.syncFromStore', () => {
  const NOW = Date.UTC(2026, 0, 1);
  function meta(id: string, updatedAt: number, status: SessionMeta['status'] = 'live'): SessionMeta {
    return {
      id,
      strategy: 'linear',
      status,
      createdAt: NOW,
      updatedAt,
      thoughtCount: 1,
      revisionCount: 0,
      branchIds: [],
      lastThoughtNumber: 1,
      totalThoughts: 3,
    };
  }

  test('the store’s newest live session wins when newer; one tracked here that is newer but not it has ended', () => {
    const tracker = new LiveSessionTracker(() => NOW + 10);
    tracker.apply({ type: 'sessionStarted', meta: meta('older', NOW + 1) });
    tracker.apply({ type: 'sessionStarted', meta: meta('ours', NOW + 3) });
    assert.equal(tracker.current()?.id, 'ours');

    // Another process's session is newer: shown; ours stays as the fallback.
    assert.equal(tracker.syncFromStore(meta('cli', NOW + 5)), true);
    assert.equal(tracker.current()?.id, 'cli');
    tracker.apply({ type: 'sessionEnded', meta: meta('cli', NOW + 6, 'complete') });
    assert.equal(tracker.current()?.id, 'ours');

    // The store's newest live one is older than "ours": ours is no longer live (ended elsewhere), "older" is.
    assert.equal(tracker.syncFromStore(meta('older', NOW + 1)), true);
    assert.equal(tracker.current()?.id, 'older');

    // Nothing live in the store at all: nothing shown.
    assert.equal(tracker.syncFromStore(undefined), true);
    assert.equal(tracker.current(), undefined);
    assert.equal(tracker.syncFromStore(undefined), false);
    // A listing entry that is not live is no live session.
    assert.equal(tracker.syncFromStore(meta('done', NOW + 9, 'complete')), false);
    assert.equal(tracker.current(), undefined);
  });
});
