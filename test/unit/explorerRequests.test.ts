// The host ↔ webview protocol as schemas: what each side refuses (and says about it), the bounds on what the webview
// may send; and the one helper that matches answers to requests, with its timeout on an injected clock.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SVG_LENGTH, parseHostMessage, parseWebviewMessage, REQUESTS } from '../../src/shared/protocol';
import { PendingRequests, RequestFailedError } from '../../src/shared/requests';
import { MAX_SHORT_TEXT } from '../../src/shared/wireSchemas';
import { ManualTimers } from './support/manualTimers';

function refusal(value: unknown): string {
  const parsed = parseWebviewMessage(value);
  assert.equal(parsed.ok, false, `accepted ${JSON.stringify(value)?.slice(0, 80)}`);
  return parsed.ok ? '' : parsed.problem;
}

describe('webview messages, as the host reads them', () => {
  it('refuses malformed messages, naming the type and the field at fault', () => {
    assert.equal(refusal({ type: 'selectThought', sessionId: 's', seq: -1 }), '"selectThought" (seq: too_small)');
    assert.equal(refusal({ type: 'openInPanel', sessionId: 42 }), '"openInPanel" (sessionId: invalid_type)');
    assert.match(refusal({ type: 'exec', command: 'rm -rf /' }), /^"exec" \(type: invalid_union\)/);
    assert.match(refusal('ready'), /^a message without a type/);
    assert.match(refusal(null), /^a message without a type/);
    assert.match(refusal({ type: 'svgRendered', requestId: 'r', svgs: { evil: '<svg/>' }, errors: [] }), /svgs/);
  });

  it('bounds every string and list the webview sends', () => {
    const long = 'x'.repeat(MAX_SHORT_TEXT + 1);
    assert.match(refusal({ type: 'requestFullSession', sessionId: long }), /sessionId: too_big/);
    assert.match(refusal({ type: 'svgRendered', requestId: long, svgs: {}, errors: [] }), /requestId: too_big/);
    assert.match(refusal({ type: 'svgRendered', requestId: 'r', svgs: {}, errors: Array(101).fill('e') }), /errors: too_big/);
    assert.match(refusal({ type: 'renderFailed', diagram: 'branchTree', message: 'm'.repeat(10_001) }), /message: too_big/);
    assert.match(refusal({ type: 'exportSvg', diagram: 'stageGraph', svg: 's'.repeat(MAX_SVG_LENGTH + 1) }), /svg: too_big/);
    assert.match(refusal({ type: 'giveFeedback', requestId: 'r', sessionId: 's', kind: 'shout' }), /kind: invalid_value/);
    assert.match(refusal({ type: 'requestInsights', filter: { range: 'year' } }), /filter.range/);
  });

  it('hands the handler only the fields of the message type', () => {
    const parsed = parseWebviewMessage({ type: 'openInPanel', sessionId: 'a', extra: { deep: true } });
    assert.deepEqual(parsed, { ok: true, message: { type: 'openInPanel', sessionId: 'a' } });
    const svgs = parseWebviewMessage({ type: 'svgRendered', requestId: 'r', svgs: { branchTree: '<svg/>' }, errors: [] });
    assert.deepEqual(svgs, { ok: true, message: { type: 'svgRendered', requestId: 'r', svgs: { branchTree: '<svg/>' }, errors: [] } });
  });
});

describe('host messages, as the webview reads them', () => {
  it('passes the engine\u2019s meta and thoughts on whole, and refuses what lacks the fields the explorer uses', () => {
    const meta = { id: 's', strategy: 'linear', status: 'live', thoughtCount: 1, branchIds: [], extraField: 1 };
    const thought = { seq: 0, thought: 't', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, timestamp: 1 };
    const parsed = parseHostMessage({ type: 'thoughtAdded', sessionId: 's', meta, thought });
    assert.ok(parsed.ok && parsed.message.type === 'thoughtAdded');
    assert.equal(parsed.message.meta, meta);
    assert.equal(parseHostMessage({ type: 'thoughtAdded', sessionId: 's', meta: { id: 's' }, thought }).ok, false);
    assert.equal(parseHostMessage({ type: 'replayState', speed: 16 }).ok, false);
    assert.equal(parseHostMessage({ type: 'theme', kind: 'sepia' }).ok, false);
  });

  it('names the answer of each request', () => {
    assert.deepEqual(REQUESTS, { requestSvg: 'svgRendered', giveFeedback: 'feedbackResult', requestInsights: 'insights' });
  });
});

describe('PendingRequests', () => {
  function requests(timers = new ManualTimers()) {
    return { timers, pending: new PendingRequests<string>({ what: 'The answer', prefix: 'q', timeoutMs: 5_000, timers }) };
  }

  it('resolves a request with the answer that carries its id, once; other ids are not matched', async () => {
    const { pending, timers } = requests();
    const sent: string[] = [];
    const first = pending.request((id) => sent.push(id));
    const second = pending.request((id) => sent.push(id));
    assert.equal(sent.length, 2);
    assert.notEqual(sent[0], sent[1]);
    assert.match(sent[0], /^q-[0-9a-f]{16}$/);
    assert.equal(pending.answer('q-unknown', 'stray'), false);
    assert.equal(pending.answer(sent[1], 'two'), true);
    assert.equal(pending.answer(sent[1], 'again'), false, 'a repeated answer is not matched');
    assert.equal(pending.answer(sent[0], 'one'), true);
    assert.deepEqual(await Promise.all([first, second]), ['one', 'two']);
    assert.equal(pending.size, 0);
    assert.deepEqual(timers.waiting(), [], 'an answered request clears its timer');
  });

  it('rejects with a clear error when no answer comes in time; a late answer is dropped', async () => {
    const { pending, timers } = requests();
    let id = '';
    const waiting = pending.request((requestId) => (id = requestId));
    assert.deepEqual(timers.waiting(), [5_000]);
    timers.fire();
    await assert.rejects(waiting, (error: unknown) => {
      assert.ok(error instanceof RequestFailedError);
      assert.equal(error.reason, 'timeout');
      assert.equal(error.message, 'The answer: no answer within 5 s.');
      return true;
    });
    assert.equal(pending.answer(id, 'late'), false);
  });

  it('closeAll ends every waiting request; a send that throws leaves nothing waiting', async () => {
    const { pending, timers } = requests();
    const one = pending.request(() => undefined);
    const two = pending.request(() => undefined);
    pending.closeAll('the view closed');
    for (const request of [one, two]) {
      await assert.rejects(request, { name: 'RequestFailedError', message: 'The answer: no answer, the view closed.' });
    }
    await assert.rejects(
      pending.request(() => {
        throw new Error('not delivered');
      }),
      /not delivered/,
    );
    assert.equal(pending.size, 0);
    assert.deepEqual(timers.waiting(), []);
  });
});
