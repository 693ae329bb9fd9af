// The inline thought graph's data side (mcp-app/), without a browser: reading tool results as hosts deliver them (with
// structuredContent, or text only as VS Code does; deliberate's text names its session) and holding a session from
// pages (only the pages past what is held; another session starts over).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionData } from '../../mcp-app/sessionData';
import { replyOf, thoughtOfArguments } from '../../mcp-app/toolReplies';
import { RESULT_SESSION_META_KEY } from '../../src/shared/thoughtGraph';
import type { PageThought, SessionPage } from '../../src/shared/thoughtGraph';

describe('mcp-app: tool results', () => {
  const reply = {
    thoughtNumber: 2,
    totalThoughts: 5,
    nextThoughtNeeded: true,
    sessionId: 's-1',
    strategy: 'react',
    stage: 'action',
    nextStages: ['observation'],
  };

  it('reads structuredContent, or the same JSON from the text when a host sends text only', () => {
    const full = replyOf({ content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply });
    const textOnly = replyOf({ content: [{ type: 'text', text: JSON.stringify(reply) }] });
    assert.deepEqual(textOnly, full);
    assert.equal(full.sessionId, 's-1');
    assert.deepEqual(full.nextStages, ['observation']);
  });

  it('takes the session from the result’s _meta when the compact reply leaves it out', () => {
    const compact = { thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true, branches: [], thoughtHistoryLength: 2 };
    const read = replyOf({ content: [{ type: 'text', text: JSON.stringify(compact) }], _meta: { [RESULT_SESSION_META_KEY]: 's-2' } });
    assert.equal(read.sessionId, 's-2');
    assert.equal(replyOf({ content: [{ type: 'text', text: JSON.stringify(compact) }] }).sessionId, undefined);
  });

  it("finds deliberate's session in its text", () => {
    const text = 'Deliberation complete in session 2026-01-02-abc (thoughts 1-3); plan hats (sequential), result: last.';
    assert.equal(replyOf({ content: [{ type: 'text', text }] }).sessionId, '2026-01-02-abc');
  });

  it('keeps an error as an error, and ignores text that is not a reply', () => {
    assert.deepEqual(replyOf({ content: [{ type: 'text', text: 'bad thoughtNumber' }], isError: true }), {
      isError: true,
      error: 'bad thoughtNumber',
    });
    assert.deepEqual(replyOf({ content: [{ type: 'text', text: '{not json' }] }), { isError: false, sessionId: undefined });
  });

  it("takes the thought (or deliberate's problem) from a call's arguments", () => {
    assert.equal(thoughtOfArguments({ thought: 'T', thoughtNumber: 1 }), 'T');
    assert.equal(thoughtOfArguments({ problem: 'P' }), 'P');
    assert.equal(thoughtOfArguments({ thoughtNumber: 1 }), undefined);
  });
});

function thought(seq: number): PageThought {
  return { seq, thought: `t${seq}`, thoughtNumber: seq + 1, totalThoughts: 9, nextThoughtNeeded: true, timestamp: seq };
}

/** A page reader over a session of `count` thoughts, `size` per page, recording the offsets asked for. */
function reader(sessionId: string, count: () => number, size: number, asked: number[]) {
  return async (_id: string | undefined, offset: number): Promise<SessionPage> => {
    asked.push(offset);
    const end = Math.min(count(), offset + size);
    const thoughts = Array.from({ length: Math.max(0, end - offset) }, (_, index) => thought(offset + index));
    return {
      sessionId,
      strategy: 'linear',
      status: 'live',
      thoughtCount: count(),
      revisionCount: 0,
      branchIds: [],
      totalThoughts: 9,
      offset,
      thoughts,
      ...(end < count() ? { nextOffset: end } : {}),
    };
  };
}

describe('mcp-app: the held session', () => {
  it('reads every page first, then only the pages past what it holds', async () => {
    let count = 5;
    const asked: number[] = [];
    const data = new SessionData();
    assert.equal(
      await data.refresh(
        'a',
        reader('a', () => count, 2, asked),
      ),
      5,
    );
    assert.deepEqual(asked, [0, 2, 4]);
    count = 6;
    asked.length = 0;
    assert.equal(
      await data.refresh(
        'a',
        reader('a', () => count, 2, asked),
      ),
      1,
    );
    assert.deepEqual(asked, [5]);
    assert.deepEqual(
      data.thoughts.map((held) => held.seq),
      [0, 1, 2, 3, 4, 5],
    );
    assert.equal(data.snapshot().thoughts.length, 6);
    assert.equal(data.latest()?.thought, 't5');
  });

  it('starts over for another session', async () => {
    const data = new SessionData();
    await data.refresh(
      'a',
      reader('a', () => 4, 10, []),
    );
    const asked: number[] = [];
    assert.equal(
      await data.refresh(
        'b',
        reader('b', () => 2, 10, asked),
      ),
      2,
    );
    assert.deepEqual(asked, [0]);
    assert.equal(data.meta?.sessionId, 'b');
    assert.equal(data.thoughts.length, 2);
  });
});
