// Big sessions in the Sessions tree: a level with more thoughts than a page holds is listed as pages (pure paging
// logic, then the tree provider over the real engine and store), so expanding a big session never builds an item per
// thought.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ThoughtRecord } from '../../src/engine/model';
import { SessionsTreeProvider, type SessionsTreeNode } from '../../src/extension/sessionsTree';
import { layoutThoughts, type ThoughtEntry } from '../../src/extension/sessionTreeModel';
import { THOUGHT_PAGE_SIZE, thoughtPages } from '../../src/extension/thoughtPaging';
import { servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { resetStub, type TreeItem } from './support/vscodeStub';

function record(seq: number, extra: Partial<ThoughtRecord> = {}): ThoughtRecord {
  return {
    seq,
    thought: `thought ${seq + 1}`,
    thoughtNumber: seq + 1,
    totalThoughts: 1_000,
    nextThoughtNeeded: true,
    timestamp: seq,
    ...extra,
  } as ThoughtRecord;
}

function entries(count: number): ThoughtEntry[] {
  return layoutThoughts(Array.from({ length: count }, (_, seq) => record(seq)));
}

describe('thought pages', () => {
  test('a level that fits one page is not paged', () => {
    assert.equal(thoughtPages(entries(THOUGHT_PAGE_SIZE)), undefined);
    assert.equal(thoughtPages([]), undefined);
  });

  test('pages cover every entry exactly once, in order, with the thought numbers as labels', () => {
    const level = entries(1_001);
    const pages = thoughtPages(level);
    assert.ok(pages);
    assert.deepEqual(
      pages.map((page) => [page.from, page.to, page.label, page.description]),
      [
        [0, 200, 'Thoughts 1–200', '200 thoughts'],
        [200, 400, 'Thoughts 201–400', '200 thoughts'],
        [400, 600, 'Thoughts 401–600', '200 thoughts'],
        [600, 800, 'Thoughts 601–800', '200 thoughts'],
        [800, 1000, 'Thoughts 801–1000', '200 thoughts'],
        [1000, 1001, 'Thought 1001', '1 thought'],
      ],
    );
  });

  test('a page counts the thoughts of the branches forking from it', () => {
    const thoughts = Array.from({ length: 12 }, (_, seq) => record(seq));
    thoughts.push(record(12, { thoughtNumber: 4, branchId: 'alt', branchFromThought: 3 }));
    thoughts.push(record(13, { thoughtNumber: 5, branchId: 'alt', branchFromThought: 3 }));
    const pages = thoughtPages(layoutThoughts(thoughts), 5);
    assert.ok(pages);
    assert.deepEqual(
      pages.map((page) => page.description),
      ['5 thoughts · 2 in branches', '5 thoughts', '2 thoughts'],
    );
  });

  test('refuses a page size that is not a positive integer', () => {
    assert.throws(() => thoughtPages(entries(3), 0), /positive integer/);
    assert.throws(() => thoughtPages(entries(3), 1.5), /positive integer/);
  });
});

describe('Sessions tree with a big session', () => {
  let fixture: ServicesFixture;
  let tree: SessionsTreeProvider;

  beforeEach(() => {
    resetStub();
    fixture = servicesFixture();
    tree = new SessionsTreeProvider(fixture.services, { coalesceMs: 5 });
  });

  afterEach(() => {
    tree.dispose();
    fixture.cleanup();
  });

  const item = (node: SessionsTreeNode): TreeItem => tree.getTreeItem(node) as unknown as TreeItem;

  test('expanding a 450-thought session builds three page items, the newest expanded; a page lists its thoughts', () => {
    const engine = fixture.services.engine;
    const total = 450;
    for (let n = 1; n <= total; n++) {
      const extra = n === 300 ? { branchFromThought: 299, branchId: 'alt' } : {};
      assert.equal(engine.process('c1', thought(n, total + 10, `Step ${n}`, extra)).ok, true);
    }
    const [live] = tree.getChildren();
    const [session] = tree.getChildren(live);
    const pages = tree.getChildren(session);
    assert.deepEqual(
      pages.map((node) => [node.kind, item(node).label, item(node).description, item(node).collapsibleState]),
      [
        ['page', 'Thoughts 1–200', '200 thoughts', 1],
        ['page', 'Thoughts 201–401', '200 thoughts · 1 in branches', 1],
        ['page', 'Thoughts 402–450', '49 thoughts', 2],
      ],
    );
    const newest = tree.getChildren(pages[2]);
    assert.equal(newest.length, 49);
    assert.equal(item(newest[0]).label, '402. Step 402');
    assert.equal(item(newest[48]).label, '450. Step 450');
    assert.equal(tree.getParent(newest[0]), pages[2]);
    assert.equal(tree.getParent(pages[2]), session);
    // The branch still hangs under its fork point, inside the page that holds it.
    const fork = tree.getChildren(pages[1]).find((node) => item(node).label.startsWith('299.'));
    assert.ok(fork);
    const [branch] = tree.getChildren(fork);
    assert.equal(item(branch).label, '⎇ alt');
    // Ids are stable across refreshes, so VS Code keeps what a person expanded.
    const again = tree.getChildren(session);
    assert.deepEqual(
      again.map((node) => item(node).id),
      pages.map((node) => item(node).id),
    );
  });

  test('a session that fits one page lists its thoughts directly, as before', () => {
    const engine = fixture.services.engine;
    for (let n = 1; n <= 5; n++) engine.process('c1', thought(n, 5, `Step ${n}`));
    // Just finished: under Recent.
    const [recent] = tree.getChildren().slice(-1);
    const [session] = tree.getChildren(recent);
    assert.deepEqual(
      tree.getChildren(session).map((node) => node.kind),
      ['thought', 'thought', 'thought', 'thought', 'thought'],
    );
  });
});
