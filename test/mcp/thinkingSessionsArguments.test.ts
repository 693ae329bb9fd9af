// thinking_sessions' arguments through a real MCP Client, action by action: every refusal's exact text (the field, the
// value as sent, what to send), the first problem in the order the action reads its fields, lenient forms answering as
// the canonical ones do, and a refused configure storing nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine } from '../../src/engine/engine';
import { connectInMemory, jsonOf, sessions, textOf, think, type ConnectedClient } from './support/clients';

const ACTIONS = 'list, get, search, resume, stats, configure';
const COUNT = 'expected a whole number of 0 or more.';
const NEEDS_ID = 'Invalid sessionId: this action needs sessionId (find one with action "list" or "search").';
const NOTHING_TO_CONFIGURE =
  'Nothing to configure: send askAtDecisionPoints (true, false or "default") or replyDetail (compact, standard, full or "default").';

describe('thinking_sessions arguments', () => {
  let connected: ConnectedClient;
  let id: string;
  before(async () => {
    connected = await connectInMemory(new ThinkingEngine({ log: () => {} }));
    await think(connected.client, { thought: 'Find the needle.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    await think(connected.client, { thought: 'Found it.', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true });
    id = jsonOf<{ sessions: { sessionId: string }[] }>(await sessions(connected.client, { action: 'list' })).sessions[0].sessionId;
  });
  after(() => connected.close());

  it('refuses each bad argument with its own text', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, `Invalid action: got nothing; expected one of ${ACTIONS}.`],
      [{ action: null }, `Invalid action: got null; expected one of ${ACTIONS}.`],
      [{ action: 'nope' }, `Invalid action: got "nope"; expected one of ${ACTIONS}.`],
      [{ action: ['list'] }, `Invalid action: got ["list"]; expected one of ${ACTIONS}.`],
      [{ action: 'list', limit: 0 }, 'Invalid limit: got 0; expected 1 to 100.'],
      [{ action: 'list', limit: 101 }, 'Invalid limit: got 101; expected 1 to 100.'],
      [{ action: 'list', limit: 'x' }, `Invalid limit: got "x"; ${COUNT}`],
      [{ action: 'list', limit: 1.5 }, `Invalid limit: got 1.5; ${COUNT}`],
      [{ action: 'list', offset: 'abc' }, `Invalid offset: got "abc"; ${COUNT}`],
      [{ action: 'list', status: 'bogus' }, 'Invalid status: got "bogus"; expected one of live, complete, abandoned.'],
      [{ action: 'list', status: 5 }, 'Invalid status: got 5; expected text.'],
      [{ action: 'list', strategy: 7 }, 'Invalid strategy: got 7; expected text.'],
      [{ action: 'list', text: 7 }, 'Invalid text: got 7; expected text.'],
      [{ action: 'get' }, NEEDS_ID],
      [{ action: 'get', sessionId: '' }, NEEDS_ID],
      [{ action: 'get', sessionId: null }, NEEDS_ID],
      [{ action: 'get', session_id: 5 }, 'Invalid sessionId: got 5; expected text.'],
      [{ action: 'get', sessionId: id, detail: 'bogus' }, 'Invalid detail: got "bogus"; expected "summary" or "full".'],
      [{ action: 'get', sessionId: id, recent: 'x' }, `Invalid recent: got "x"; ${COUNT}`],
      [{ action: 'search' }, 'Invalid query: search needs a non-empty query (the text to look for).'],
      [{ action: 'search', query: '  ' }, 'Invalid query: search needs a non-empty query (the text to look for).'],
      [{ action: 'search', query: 5 }, 'Invalid query: got 5; expected text.'],
      [{ action: 'search', text: 5 }, 'Invalid text: got 5; expected text.'],
      [{ action: 'search', query: 'needle', limit: 0 }, 'Invalid limit: got 0; expected 1 to 100.'],
      [{ action: 'resume' }, NEEDS_ID],
      [{ action: 'resume', sessionId: id, recent: -1 }, `Invalid recent: got -1; ${COUNT}`],
      [{ action: 'stats', sessionId: 5 }, 'Invalid sessionId: got 5; expected text.'],
      [{ action: 'stats', strategy: 5 }, 'Invalid strategy: got 5; expected text.'],
      [
        { action: 'stats', since: true },
        'Invalid since: got true; expected an ISO date or date-time such as "2026-01-31" or "2026-01-31T12:00:00Z", or milliseconds since 1970.',
      ],
      [{ action: 'configure' }, NEEDS_ID],
      [{ action: 'configure', sessionId: id }, NOTHING_TO_CONFIGURE],
      [{ action: 'configure', sessionId: id, askAtDecisionPoints: null, replyDetail: null }, NOTHING_TO_CONFIGURE],
      [
        { action: 'configure', sessionId: id, askAtDecisionPoints: 'maybe' },
        'Invalid askAtDecisionPoints: got "maybe"; expected true, false or "default".',
      ],
      [
        { action: 'configure', sessionId: id, replyDetail: 5 },
        'Invalid replyDetail: got 5; expected compact, standard, full or "default".',
      ],
    ];
    for (const [args, expected] of cases) {
      const result = await sessions(connected.client, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.equal(textOf(result), expected, JSON.stringify(args));
    }
  });

  it('names the first problem in the order the action reads its fields', async () => {
    const result = await sessions(connected.client, { action: 'list', offset: 'x', limit: 'y', status: 'z' });
    assert.equal(textOf(result), `Invalid offset: got "x"; ${COUNT}`);
    const configure = await sessions(connected.client, {
      action: 'configure',
      sessionId: id,
      askAtDecisionPoints: 'maybe',
      replyDetail: 'bogus',
    });
    assert.match(textOf(configure), /^Invalid askAtDecisionPoints:/);
  });

  it('answers lenient forms as it answers the canonical ones', async () => {
    const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { action: 'list', limit: ' 1 ', offset: '0', status: null, colour: 'blue' },
        { action: 'list', limit: 1, offset: 0 },
      ],
      [{ action: 'list', limit: '' }, { action: 'list' }],
      [
        { action: 'get', session_id: id, recent: '1', detail: null },
        { action: 'get', sessionId: id, recent: 1 },
      ],
      [
        { action: 'get', sessionId: null, session_id: id },
        { action: 'get', sessionId: id },
      ],
      [
        { action: 'search', text: 'needle' },
        { action: 'search', query: 'needle' },
      ],
      [
        { action: 'stats', session_id: id },
        { action: 'stats', sessionId: id },
      ],
      [{ action: 'stats', sessionId: '', since: null }, { action: 'stats' }],
    ];
    for (const [lenient, canonical] of pairs) {
      const [got, expected] = [await sessions(connected.client, lenient), await sessions(connected.client, canonical)];
      assert.deepEqual(jsonOf(got), jsonOf(expected), JSON.stringify(lenient));
    }
    const configured = await sessions(connected.client, { action: 'configure', session_id: id, askAtDecisionPoints: 'false' });
    assert.deepEqual(jsonOf(configured), { sessionId: id, askAtDecisionPoints: false });
    const reset = await sessions(connected.client, { action: 'configure', sessionId: id, askAtDecisionPoints: 'default' });
    assert.deepEqual(jsonOf(reset), { sessionId: id });
  });

  it('a configure with one refused value stores neither', async () => {
    const refused = await sessions(connected.client, {
      action: 'configure',
      sessionId: id,
      askAtDecisionPoints: true,
      replyDetail: 'bogus',
    });
    assert.equal(refused.isError, true);
    const stored = jsonOf<{ meta: { askAtDecisionPoints?: boolean } }>(
      await sessions(connected.client, { action: 'get', sessionId: id, detail: 'full' }),
    );
    assert.equal(stored.meta.askAtDecisionPoints, undefined);
  });
});
