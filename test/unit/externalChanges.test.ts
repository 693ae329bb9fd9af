// Specification of sessions shared with another process: two engines, each over its own FileSessionStore on the same
// directory (the extension and the stdio CLI). A store tells another process's journal changes from its own with one
// stat; an engine re-reads a held session the other process wrote to, tells its listeners what is new, and goes on
// writing it with consistent sequence numbers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThinkingEngine } from '../../src/engine/engine';
import type { EngineEvent } from '../../src/engine/events';
import type { SessionMeta } from '../../src/engine/model';
import { FileSessionStore } from '../../src/storage/fileSessionStore';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'thought-explorer-external-'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
});

let directories = 0;
/** Two stores (and engines) on one fresh directory; `close()` closes both stores. */
function twoProcesses() {
  const directory = join(root, `shared-${++directories}`);
  const quiet = () => {};
  const storeA = new FileSessionStore(directory, { indexFlushDelayMs: 1, log: quiet });
  const storeB = new FileSessionStore(directory, { indexFlushDelayMs: 1, log: quiet });
  const engineA = new ThinkingEngine({ store: storeA, log: quiet });
  const engineB = new ThinkingEngine({ store: storeB, log: quiet });
  const eventsA: EngineEvent[] = [];
  engineA.onEvent((event) => eventsA.push(event));
  return {
    directory,
    storeA,
    storeB,
    engineA,
    engineB,
    eventsA,
    close() {
      storeA.close();
      storeB.close();
    },
  };
}

function thought(thoughtNumber: number, totalThoughts: number, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { thought: text, thoughtNumber, totalThoughts, nextThoughtNeeded: thoughtNumber < totalThoughts, ...extra };
}

function newMeta(id: string): SessionMeta {
  return {
    id,
    strategy: 'linear',
    status: 'live',
    createdAt: 1,
    updatedAt: 1,
    thoughtCount: 0,
    revisionCount: 0,
    branchIds: [],
    lastThoughtNumber: 0,
    totalThoughts: 3,
  };
}

function mustSucceed(outcome: ReturnType<ThinkingEngine['process']>): string {
  if (!outcome.ok) assert.fail(`thought refused: ${outcome.error}`);
  return outcome.reply.sessionId;
}

describe('FileSessionStore.externalChange', () => {
  it('counts neither our creation, appends and meta records nor our deletion as external', () => {
    const shared = twoProcesses();
    try {
      const { storeA } = shared;
      storeA.createSession(newMeta('mine'));
      assert.equal(storeA.externalChange('mine'), 'none');
      storeA.appendThought(
        { ...newMeta('mine'), thoughtCount: 1, lastThoughtNumber: 1 },
        { seq: 0, thought: 'ä ünïcode 思考', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, timestamp: 2 },
      );
      storeA.updateMeta({ ...newMeta('mine'), title: 'Renamed', thoughtCount: 1, lastThoughtNumber: 1 });
      assert.equal(storeA.externalChange('mine'), 'none');
      assert.equal(storeA.deleteSession('mine'), true);
      assert.equal(storeA.externalChange('mine'), 'none');
    } finally {
      shared.close();
    }
  });

  it('sees another store’s appends, new sessions, replacements and deletions; a re-read catches up', () => {
    const shared = twoProcesses();
    try {
      const { storeA, storeB } = shared;
      storeA.createSession(newMeta('shared'));
      assert.equal(storeB.externalChange('shared'), 'changed', 'never seen by B: news to it');
      assert.ok(storeB.loadSession('shared'));
      assert.equal(storeB.externalChange('shared'), 'none');

      storeB.appendThought(
        { ...newMeta('shared'), thoughtCount: 1, lastThoughtNumber: 1 },
        { seq: 0, thought: 'from B', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, timestamp: 2 },
      );
      assert.equal(storeA.externalChange('shared'), 'changed');
      assert.equal(storeB.externalChange('shared'), 'none');
      assert.equal(storeA.loadSession('shared')?.thoughts.length, 1);
      assert.equal(storeA.externalChange('shared'), 'none');

      // A listing advances the index past B's appends; A still reports them until it re-reads the session itself.
      storeB.appendThought(
        { ...newMeta('shared'), thoughtCount: 2, lastThoughtNumber: 2 },
        { seq: 1, thought: 'again B', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true, timestamp: 3 },
      );
      assert.equal(storeA.listSessions().sessions[0].thoughtCount, 2);
      assert.equal(storeA.externalChange('shared'), 'changed');
      storeA.loadSession('shared');

      // B replaces the journal (an import renames a new file over it).
      storeB.saveSession({ meta: { ...newMeta('shared'), title: 'Imported' }, thoughts: [], strategySwitches: [] });
      assert.equal(storeA.externalChange('shared'), 'changed');
      storeA.loadSession('shared');
      assert.equal(storeA.externalChange('shared'), 'none');

      assert.equal(storeB.deleteSession('shared'), true);
      assert.equal(storeA.externalChange('shared'), 'removed');
      assert.equal(storeB.externalChange('shared'), 'none');
    } finally {
      shared.close();
    }
  });

  it('after a journal is replaced, our next append goes to the new file, not the unlinked one', () => {
    const shared = twoProcesses();
    try {
      const { storeA, storeB, directory } = shared;
      storeA.createSession(newMeta('swap'));
      storeA.appendThought(
        { ...newMeta('swap'), thoughtCount: 1, lastThoughtNumber: 1 },
        { seq: 0, thought: 'first', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, timestamp: 2 },
      );
      storeB.saveSession({ meta: { ...newMeta('swap'), title: 'Imported' }, thoughts: [], strategySwitches: [] });
      const reread = storeA.loadSession('swap');
      assert.equal(reread?.meta.title, 'Imported');
      storeA.appendThought(
        { ...newMeta('swap'), title: 'Imported', thoughtCount: 1, lastThoughtNumber: 1 },
        { seq: 0, thought: 'after the import', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, timestamp: 3 },
      );
      assert.match(readFileSync(join(directory, 'swap.jsonl'), 'utf8'), /after the import/);
      assert.equal(storeA.externalChange('swap'), 'none');
    } finally {
      shared.close();
    }
  });

  it('refuses an invalid id as any other store call does', () => {
    const shared = twoProcesses();
    try {
      assert.throws(() => shared.storeA.externalChange('../escape'));
    } finally {
      shared.close();
    }
  });
});

describe('ThinkingEngine.refreshSession', () => {
  it('re-reads a held session another process appended to, announces the new thoughts, and continues it consistently', () => {
    const shared = twoProcesses();
    try {
      const { engineA, engineB, eventsA } = shared;
      const id = mustSucceed(engineA.process('copilot', thought(1, 5, 'A starts', { strategy: 'linear' })));
      mustSucceed(engineA.process('copilot', thought(2, 5, 'A goes on')));
      assert.equal(engineA.refreshSession(id), false, 'our own writes are not external');

      mustSucceed(engineB.process('claude', thought(3, 5, 'B joins in', { sessionId: id })));
      mustSucceed(engineB.process('claude', thought(4, 5, 'B again')));
      assert.equal(engineA.getSession(id)?.thoughts.length, 2, 'held copy before the refresh');

      eventsA.length = 0;
      assert.equal(engineA.refreshSession(id), true);
      const added = eventsA.filter((event) => event.type === 'thoughtAdded');
      assert.deepEqual(
        added.map((event) => [event.thought.seq, event.thought.thought]),
        [
          [2, 'B joins in'],
          [3, 'B again'],
        ],
      );
      assert.equal(eventsA.at(-1)?.type, 'sessionUpdated', 'sessionUpdated comes last');
      const session = engineA.getSession(id);
      assert.deepEqual(
        session?.thoughts.map((record) => record.thought),
        ['A starts', 'A goes on', 'B joins in', 'B again'],
      );
      assert.equal(session?.meta.thoughtCount, 4);

      // Nothing new: no second reload and no events.
      eventsA.length = 0;
      assert.equal(engineA.refreshSession(id), false);
      assert.deepEqual(eventsA, []);

      // A's connection still writes to the same session, after B's thoughts.
      const reply = engineA.process('copilot', thought(5, 5, 'A concludes'));
      assert.ok(reply.ok);
      assert.equal(reply.reply.sessionId, id);
      assert.equal(reply.reply.thoughtHistoryLength, 5);
      assert.equal(engineA.refreshSession(id), false);
      assert.equal(engineB.refreshSession(id), true);
      const seenByB = engineB.getSession(id);
      assert.deepEqual(
        seenByB?.thoughts.map((record) => record.seq),
        [0, 1, 2, 3, 4],
      );
      assert.deepEqual(
        seenByB?.thoughts.map((record) => record.thoughtNumber),
        [1, 2, 3, 4, 5],
      );
      assert.equal(seenByB?.meta.status, 'complete');

      // A third process reading the journal cold sees the same session.
      const cold = new FileSessionStore(shared.directory, { log: () => {} });
      try {
        assert.deepEqual(
          cold.loadSession(id)?.thoughts.map((record) => `${record.seq}:${record.thought}`),
          ['0:A starts', '1:A goes on', '2:B joins in', '3:B again', '4:A concludes'],
        );
      } finally {
        cold.close();
      }
    } finally {
      shared.close();
    }
  });

  it('announces the end of a session another process completed', () => {
    const shared = twoProcesses();
    try {
      const { engineA, engineB, eventsA } = shared;
      const id = mustSucceed(engineA.process('copilot', thought(1, 2, 'Start')));
      const stageBefore = engineA.getSession(id)?.meta.stage;
      mustSucceed(engineB.process('claude', thought(2, 2, 'Done elsewhere', { sessionId: id })));
      const stageAfter = engineB.getSession(id)?.meta.stage;
      assert.notEqual(stageAfter, stageBefore, 'finishing moves the session to its final stage');
      eventsA.length = 0;
      assert.equal(engineA.refreshSession(id), true);
      assert.deepEqual(
        eventsA.map((event) => event.type),
        ['thoughtAdded', 'stageChanged', 'sessionEnded', 'sessionUpdated'],
      );
      const stageChange = eventsA.find((event) => event.type === 'stageChanged');
      assert.deepEqual(stageChange?.type === 'stageChanged' ? [stageChange.from, stageChange.to] : [], [stageBefore, stageAfter]);
      assert.equal(engineA.getSession(id)?.meta.status, 'complete');
      // A completed session cannot be switched to another strategy: A now knows it is complete.
      const refused = engineA.process('copilot', thought(3, 3, 'Switch', { sessionId: id, strategy: 'react' }));
      assert.equal(refused.ok, false);
    } finally {
      shared.close();
    }
  });

  it('drops a held session another process deleted, and the connection moves on to a new one', () => {
    const shared = twoProcesses();
    try {
      const { engineA, engineB, eventsA } = shared;
      const id = mustSucceed(engineA.process('copilot', thought(1, 3, 'Soon gone')));
      assert.equal(engineB.deleteSession(id), true);
      eventsA.length = 0;
      assert.equal(engineA.refreshSession(id), true);
      assert.deepEqual(eventsA, [{ type: 'sessionDeleted', sessionId: id }]);
      assert.equal(engineA.getSession(id), undefined);
      assert.equal(engineA.currentSessionId('copilot'), undefined);
      const next = mustSucceed(engineA.process('copilot', thought(2, 3, 'Carry on')));
      assert.notEqual(next, id);
      assert.equal(engineA.getSession(next)?.thoughts.length, 1);
    } finally {
      shared.close();
    }
  });

  it('when both processes wrote at once, the journal is the truth: a reload without deltas, then consistent seqs', () => {
    const shared = twoProcesses();
    try {
      const { engineA, engineB, eventsA } = shared;
      const id = mustSucceed(engineA.process('copilot', thought(1, 6, 'One')));
      mustSucceed(engineB.process('claude', thought(2, 6, 'B second', { sessionId: id })));
      // A has not refreshed yet and appends its own thought with a now stale position.
      mustSucceed(engineA.process('copilot', thought(2, 6, 'A second')));
      eventsA.length = 0;
      assert.equal(engineA.refreshSession(id), true);
      assert.deepEqual(
        eventsA.map((event) => event.type),
        ['sessionUpdated'],
        'the held thoughts are not a prefix of the journal: no deltas that would misplace a thought',
      );
      assert.deepEqual(
        engineA.getSession(id)?.thoughts.map((record) => `${record.seq}:${record.thought}`),
        ['0:One', '1:B second', '2:A second'],
      );
      const reply = engineA.process('copilot', thought(3, 6, 'A third'));
      assert.ok(reply.ok);
      assert.equal(reply.reply.thoughtHistoryLength, 4);
      assert.equal(engineA.getSession(id)?.thoughts.at(-1)?.seq, 3);
    } finally {
      shared.close();
    }
  });

  it('refreshHeldSessions checks every held session and returns the ones changed elsewhere', () => {
    const shared = twoProcesses();
    try {
      const { engineA, engineB } = shared;
      const first = mustSucceed(engineA.process('one', thought(1, 3, 'First session')));
      const second = mustSucceed(engineA.process('two', thought(1, 3, 'Second session')));
      mustSucceed(engineB.process('claude', thought(2, 3, 'Into the second', { sessionId: second })));
      assert.deepEqual(engineA.refreshHeldSessions(), [second]);
      assert.deepEqual(engineA.refreshHeldSessions(), []);
      assert.equal(engineA.getSession(first)?.thoughts.length, 1);
      assert.equal(engineA.getSession(second)?.thoughts.length, 2);
    } finally {
      shared.close();
    }
  });

  it('keeps the held copy when the journal became unreadable, and says the store changed', () => {
    const shared = twoProcesses();
    try {
      const { engineA, directory } = shared;
      const id = mustSucceed(engineA.process('copilot', thought(1, 3, 'Survives')));
      // Another process garbles the file's first line: nothing can be read from it.
      rmSync(join(directory, `${id}.jsonl`));
      appendFileSync(join(directory, `${id}.jsonl`), 'not json at all\n');
      assert.equal(engineA.refreshSession(id), true);
      assert.equal(engineA.getSession(id)?.meta.id, id);
    } finally {
      shared.close();
    }
  });

  it('is a no-op for engines without a store, unknown sessions and invalid ids', () => {
    const memory = new ThinkingEngine({ log: () => {} });
    const id = mustSucceed(memory.process('c', thought(1, 2, 'In memory')));
    assert.equal(memory.refreshSession(id), false);
    assert.deepEqual(memory.refreshHeldSessions(), []);
    const shared = twoProcesses();
    try {
      assert.equal(shared.engineA.refreshSession('../escape'), false);
      assert.equal(
        shared.engineA.refreshSession('never-existed'),
        true,
        'a missing journal this store did not delete counts as removed elsewhere',
      );
    } finally {
      shared.close();
    }
  });
});
