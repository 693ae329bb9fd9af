// The Sessions tree provider over the real engine and store: groups, live updates from engine events, branch nesting,
// filtering, and sessions written by another process (the stdio CLI) appearing through the store watcher.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ThinkingEngine } from '../../src/engine/engine';
import type * as vscode from 'vscode';
import { registerSessionsTree, SessionsTreeProvider, type SessionsTreeNode } from '../../src/extension/sessionsTree';
import { StoreWatcher } from '../../src/extension/storeWatcher';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { eventually, servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import {
  extensionContext,
  MarkdownString,
  resetStub,
  setConfiguration,
  stub,
  useL10nBundle,
  type ThemeIcon,
  type TreeItem,
} from './support/vscodeStub';

let fixture: ServicesFixture;
let tree: SessionsTreeProvider;
let changes: (SessionsTreeNode | undefined)[];

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  tree = new SessionsTreeProvider(fixture.services, { coalesceMs: 5 });
  changes = [];
  tree.onDidChangeTreeData((node) => changes.push(node));
});

afterEach(() => {
  tree.dispose();
  fixture.cleanup();
});

function item(node: SessionsTreeNode): TreeItem {
  return tree.getTreeItem(node) as unknown as TreeItem;
}

function labels(nodes: SessionsTreeNode[]): string[] {
  return nodes.map((node) => item(node).label);
}

/** The tree as text, every node expanded: `label — description` indented by depth. */
function render(nodes: SessionsTreeNode[] = tree.getChildren(), depth = 0): string[] {
  return nodes.flatMap((node) => {
    const shown = item(node);
    return [
      `${'  '.repeat(depth)}${shown.label}${shown.description ? ` — ${shown.description}` : ''}`,
      ...render(tree.getChildren(node), depth + 1),
    ];
  });
}

describe('Sessions tree', () => {
  test('is empty (so the welcome content shows) until a session exists', () => {
    assert.deepEqual(tree.getChildren(), []);
  });

  test('shows a live session with its thoughts, a revision and a branch nested under its fork point', async () => {
    const engine = fixture.services.engine;
    tree.getChildren();
    assert.equal(engine.process('c1', thought(1, 4, 'Restate the problem', { strategy: 'linear' })).ok, true);
    assert.equal(engine.process('c1', thought(2, 4, 'Plan the approach')).ok, true);
    assert.equal(engine.process('c1', thought(3, 4, 'Better plan', { isRevision: true, revisesThought: 2 })).ok, true);
    assert.equal(engine.process('c1', thought(4, 5, 'Try the other way', { branchFromThought: 2, branchId: 'alt' })).ok, true);
    await eventually(() => changes.length > 0, 2000, 'a tree change');

    const roots = tree.getChildren();
    assert.deepEqual(labels(roots), ['Live']);
    const [session] = tree.getChildren(roots[0]);
    const sessionItem = item(session);
    assert.equal(sessionItem.label, 'Restate the problem');
    assert.equal(sessionItem.description, 'linear · 4 thoughts · 1 branch · 1 revision');
    assert.equal(sessionItem.contextValue, 'session.live');
    assert.equal((sessionItem.iconPath as ThemeIcon).id, 'pulse');
    assert.ok(sessionItem.tooltip instanceof MarkdownString);
    assert.equal(sessionItem.tooltip.isTrusted, false);
    assert.equal(sessionItem.tooltip.supportHtml, false);

    const text = render().slice(2);
    assert.equal(text.length, 5, text.join('\n'));
    assert.match(text[0], /^    1\. Restate the problem — problem_reception$/);
    assert.match(text[1], /^    2\. Plan the approach/);
    assert.match(text[2], /^      ⎇ alt — from #2 · 1 thought$/);
    assert.match(text[3], /^        4\. Try the other way/);
    assert.match(text[4], /^    3\. Better plan — .*revises #2/);
    assert.equal(tree.getParent(session), roots[0]);
  });

  test('a thought for a session already shown refreshes that session node only (same object), coalesced', async () => {
    const engine = fixture.services.engine;
    engine.process('c1', thought(1, 5, 'First'));
    tree.getChildren();
    const [session] = tree.getChildren(tree.getChildren()[0]);
    changes.length = 0;
    engine.process('c1', thought(2, 5, 'Second'));
    engine.process('c1', thought(3, 5, 'Third'));
    await eventually(() => changes.length > 0 && !tree.refreshPending, 2000, 'a tree change, and nothing more pending');
    assert.deepEqual(changes, [session]);
    assert.equal(item(session).description, 'linear · 3 thoughts');
    assert.equal(tree.getChildren(session).length, 3);
  });

  test('a new session is drawn by a whole-tree refresh even when the tree was read (a reveal) before the refresh', async () => {
    const engine = fixture.services.engine;
    engine.process('c1', thought(1, 5, 'Shown first'));
    tree.getChildren(tree.getChildren()[0]);
    changes.length = 0;
    engine.process('c2', thought(1, 5, 'Started meanwhile'));
    // A reveal (Open in Explorer, the status bar) reads the tree before the coalesced refresh: the new session's node
    // exists now, but VS Code has not drawn it; only a refresh from the root shows it.
    tree.nodeToReveal('another session');
    await eventually(() => changes.length > 0 && !tree.refreshPending, 2000, 'a tree change, and nothing more pending');
    assert.deepEqual(changes, [undefined]);
  });

  test('a session that completes moves from Live to Recent (expanded), and to Saved › Today an hour later', async () => {
    let now = Date.now();
    tree.dispose();
    tree = new SessionsTreeProvider(fixture.services, { coalesceMs: 5, now: () => now });
    tree.onDidChangeTreeData((node) => changes.push(node));
    const engine = fixture.services.engine;
    engine.process('c1', thought(1, 2, 'Only two steps'));
    tree.getChildren();
    changes.length = 0;
    engine.process('c1', thought(2, 2, 'Done'));
    await eventually(() => changes.includes(undefined), 2000, 'a full refresh');
    let roots = tree.getChildren();
    assert.deepEqual(labels(roots), ['Live', 'Recent']);
    assert.equal(item(roots[0]).description, 'no session in progress');
    assert.equal(item(roots[1]).collapsibleState, 2, 'Recent is expanded');
    assert.equal((item(roots[1]).iconPath as ThemeIcon).id, 'history');
    const [session] = tree.getChildren(roots[1]);
    assert.equal(item(session).contextValue, 'session.complete');
    assert.equal((item(session).iconPath as ThemeIcon).id, 'pass');
    assert.equal(tree.getParent(session), roots[1]);

    now += 61 * 60 * 1000;
    tree.refresh();
    await eventually(() => !tree.refreshPending, 2000, 'the refresh');
    roots = tree.getChildren();
    assert.deepEqual(labels(roots), ['Live', 'Saved']);
    const [day] = tree.getChildren(roots[1]);
    assert.equal(tree.getChildren(day)[0], session, 'the same node, now under its day');
  });

  test('sessions with the same title are told apart by start time before the title (seconds only when the minute is shared)', () => {
    const store = fixture.services.engine;
    for (const connection of ['a', 'b', 'c']) store.process(connection, thought(1, 3, 'Demo: CI caching'));
    store.process('d', thought(1, 3, 'Something else'));
    const [live] = tree.getChildren();
    const descriptions = tree.getChildren(live).map((node) => `${item(node).label} — ${item(node).description}`);
    // The three demo runs started within a second or so: their start times carry seconds; the odd one out has none.
    assert.equal(
      descriptions.filter((text) => /^\d\d:\d\d(:\d\d)? · Demo: CI caching — linear · 1 thought$/.test(text)).length,
      3,
      descriptions.join('\n'),
    );
    assert.ok(descriptions.includes('Something else — linear · 1 thought'), descriptions.join('\n'));
  });

  test("a session's tooltip lists its feedback and where it stands when hovered", () => {
    const engine = fixture.services.engine;
    const started = engine.process('c1', thought(1, 3, 'Steered'));
    assert.ok(started.ok);
    const id = started.reply.sessionId;
    assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 1, text: 'No.' }).ok);
    engine.process('c1', thought(2, 3, 'Went on'));
    engine.process('c1', thought(3, 3, 'Finished', { nextThoughtNeeded: false }));
    const session = tree.getChildren(tree.getChildren().find((node) => item(node).label === 'Recent'));
    const node = session.find((candidate) => candidate.kind === 'session' && candidate.sessionId === id);
    assert.ok(node);
    const shown = tree.resolveTreeItem(tree.getTreeItem(node), node) as unknown as TreeItem;
    assert.ok(shown.tooltip instanceof MarkdownString);
    assert.match(shown.tooltip.value, /\*\*Your feedback\*\*\n\n- Reject #1: not acted on\\: session ended$/);
  });

  test('the session a person watched stays selected when it finishes and moves to Recent', async () => {
    const context = extensionContext('/extension');
    try {
      const { provider } = registerSessionsTree(context as unknown as vscode.ExtensionContext, fixture.services, { coalesceMs: 5 });
      const engine = fixture.services.engine;
      const started = engine.process('c1', thought(1, 2, 'Watch me'));
      assert.ok(started.ok);
      provider.getChildren();
      engine.process('c1', thought(2, 2, 'Finished'));
      // VS Code draws the root again after the full refresh; the reveal follows that drawing.
      await eventually(
        () => {
          if (!provider.refreshPending) provider.getChildren();
          return stub.reveals.length > 0;
        },
        2000,
        'the finished session revealed',
      );
      const [reveal] = stub.reveals as { node: SessionsTreeNode; options: unknown }[];
      assert.equal(reveal.node.kind === 'session' && reveal.node.sessionId, started.reply.sessionId);
      assert.equal(reveal.node.kind === 'session' && reveal.node.placement, 'recent');
      assert.deepEqual(reveal.options, { select: true, focus: false });
    } finally {
      context.disposeAll();
    }
  });

  test('filter keeps matching sessions only; clearing it shows all again', async () => {
    const engine = fixture.services.engine;
    engine.process('a', thought(1, 3, 'Design the cache'));
    engine.process('b', thought(1, 3, 'Plan the trip'));
    assert.equal(tree.getChildren(tree.getChildren()[0]).length, 2);
    tree.setFilter('trip');
    await eventually(() => changes.length > 0, 2000, 'a refresh');
    assert.deepEqual(labels(tree.getChildren(tree.getChildren()[0])), ['Plan the trip']);
    tree.setFilter('');
    assert.equal(tree.filter, undefined);
    assert.equal(tree.getChildren(tree.getChildren()[0]).length, 2);
  });

  test('rename and delete show up', async () => {
    const engine = fixture.services.engine;
    const reply = engine.process('a', thought(1, 3, 'Original'));
    assert.ok(reply.ok);
    tree.getChildren();
    engine.renameSession(reply.reply.sessionId, 'Renamed');
    await eventually(() => item(tree.getChildren(tree.getChildren()[0])[0]).label === 'Renamed', 2000, 'the new name');
    engine.deleteSession(reply.reply.sessionId);
    await eventually(() => changes.includes(undefined), 2000, 'a full refresh');
    assert.deepEqual(tree.getChildren(), []);
  });

  test('a session written by another process (the stdio CLI) appears through the store watcher', async () => {
    const watcher = new StoreWatcher(fixture.services, { debounceMs: 20 });
    try {
      tree.getChildren();
      watcher.start();
      // Another engine over its own store on the same folder: what the CLI does.
      const otherStore = new FileSessionStore(fixture.services.storageDirectory, { indexFlushDelayMs: 1 });
      const other = new ThinkingEngine({ store: otherStore });
      try {
        const reply = other.process('cli', thought(1, 3, 'Thought from the CLI'));
        assert.ok(reply.ok);
        await eventually(
          () =>
            labels(tree.getChildren(tree.getChildren()[0] ?? { kind: 'group', group: 'live', count: 0 })).includes('Thought from the CLI'),
          3000,
          'the CLI session in the tree',
        );
        const before = watcher.externalChanges;
        other.process('cli', thought(2, 3, 'Second from the CLI'));
        await eventually(() => watcher.externalChanges > before, 3000, 'the second change noticed');
        const [session] = tree.getChildren(tree.getChildren()[0]);
        await eventually(() => tree.getChildren(session).length === 2, 3000, 'the second CLI thought in the tree');
      } finally {
        otherStore.close();
      }
    } finally {
      watcher.dispose();
    }
  });

  test('writes by this extension’s own engine do not count as external changes', async () => {
    const watcher = new StoreWatcher(fixture.services, { debounceMs: 10 });
    try {
      tree.getChildren();
      watcher.start();
      fixture.services.engine.process('c1', thought(1, 3, 'Mine'));
      fixture.services.engine.process('c1', thought(2, 3, 'Still mine'));
      // fs.watch reports our own journal writes; each is checked and recognised as ours, so nothing is announced.
      await eventually(() => watcher.journalNotificationsChecked > 0, 5000, 'fs.watch to report the journal write');
      assert.equal(watcher.notificationPending, false);
      assert.equal(watcher.externalChanges, 0);
      // index.json and other non-journal names are ignored outright (not even checked).
      const checked = watcher.journalNotificationsChecked;
      watcher.onChange('index.json');
      watcher.onChange('.index.json.tmp');
      assert.equal(watcher.journalNotificationsChecked, checked);
      assert.equal(watcher.notificationPending, false);
      assert.equal(watcher.externalChanges, 0);
    } finally {
      watcher.dispose();
    }
  });

  test('a storage path change rebuilds the engine on the new folder and redraws the tree', async () => {
    fixture.services.engine.process('c1', thought(1, 3, 'In the first store'));
    assert.equal(tree.getChildren().length, 1);
    const resets: number[] = [];
    fixture.services.onDidResetEngine(() => resets.push(1));
    setConfiguration('storagePath', `${fixture.directory}-other`);
    fixture.services.reloadSettings();
    assert.equal(resets.length, 1);
    await eventually(() => changes.includes(undefined), 2000, 'a full refresh');
    assert.deepEqual(tree.getChildren(), []);
    assert.equal(fixture.services.storageDirectory, `${fixture.directory}-other`);
  });

  test('the view message tells when a filter is on, how many match, or that none does', async () => {
    const context = extensionContext('/extension');
    try {
      const { provider, view } = registerSessionsTree(context as unknown as vscode.ExtensionContext, fixture.services);
      fixture.services.engine.process('a', thought(1, 3, 'Plan the trip'));
      provider.getChildren();
      assert.equal(view.message, undefined);
      provider.setFilter('trip');
      provider.getChildren();
      assert.equal(view.message, 'Filtered by “trip” (1 session)');
      assert.deepEqual(stub.executed.at(-1), { command: 'setContext', args: ['thoughtExplorer.sessionsFiltered', true] });
      provider.setFilter('zebra');
      provider.getChildren();
      assert.equal(view.message, 'No session matches “zebra”.');
      provider.setFilter(undefined);
      provider.getChildren();
      assert.equal(view.message, undefined);
      assert.deepEqual(stub.executed.at(-1), { command: 'setContext', args: ['thoughtExplorer.sessionsFiltered', false] });
    } finally {
      context.disposeAll();
    }
  });

  test("its groups, descriptions, tooltip and filter message are read from the display language's bundle", async () => {
    useL10nBundle({
      Live: 'En cours',
      Recent: 'Récentes',
      'no session in progress': 'aucune session en cours',
      'Sessions finished in the last hour': 'Sessions terminées dans l’heure',
      'from #{0} · 1 thought': 'depuis #{0} · 1 pensée',
      'Filtered by “{0}” (1 session)': 'Filtrées par « {0} » (1 session)',
      'No session matches “{0}”.': 'Aucune session ne correspond à « {0} ».',
    });
    const context = extensionContext('/extension');
    try {
      const { provider, view } = registerSessionsTree(context as unknown as vscode.ExtensionContext, fixture.services);
      const engine = fixture.services.engine;
      engine.process('c1', thought(1, 3, 'Plan the trip'));
      engine.process('c1', thought(2, 3, 'Try another way', { branchFromThought: 1, branchId: 'alt' }));
      engine.process('c1', thought(3, 3, 'Done'));
      const roots = provider.getChildren();
      assert.deepEqual(
        roots.map((node) => (provider.getTreeItem(node) as unknown as TreeItem).label),
        ['En cours', 'Récentes'],
      );
      const [live, recent] = roots.map((node) => provider.getTreeItem(node) as unknown as TreeItem);
      assert.equal(live.description, 'aucune session en cours');
      assert.equal(recent.tooltip, 'Sessions terminées dans l’heure');
      const branch = render(provider.getChildren(roots[1])).find((line) => line.includes('⎇ alt'));
      assert.match(branch ?? '', /⎇ alt — depuis #1 · 1 pensée$/);
      provider.setFilter('trip');
      provider.getChildren();
      assert.equal(view.message, 'Filtrées par « trip » (1 session)');
      provider.setFilter('zebra');
      provider.getChildren();
      assert.equal(view.message, 'Aucune session ne correspond à « zebra ».');
    } finally {
      context.disposeAll();
    }
  });
});
