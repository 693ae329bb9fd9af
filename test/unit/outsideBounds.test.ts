// The pure bounds on outside input (issue 24): hidden controls written out, texts cut with a marker, token counts
// checked, model responses read against a byte limit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cutText, feedbackRefusal, outsideErrorText, visibleText } from '../../src/engine/fieldRules';
import { checkedUsage, tokenCount } from '../../src/engine/modelGateway';
import { boundedFetch, ResponseTooLargeError } from '../../src/deliberation/boundedFetch';

describe('visibleText', () => {
  it('writes out bidi controls, C0 (but tab, newline, CR), C1 and the line separators; leaves other text as it is', () => {
    assert.equal(visibleText('a\u202Eb\u2066c\u2069\u200F\u061C'), 'a\\u202Eb\\u2066c\\u2069\\u200F\\u061C');
    assert.equal(
      visibleText('nul\u0000 bel\u0007 esc\u001B del\u007F c1\u0085 ls\u2028 ps\u2029'),
      'nul\\u0000 bel\\u0007 esc\\u001B del\\u007F c1\\u0085 ls\\u2028 ps\\u2029',
    );
    const plain = 'tab\tline\nreturn\r\n😀 ümlaut';
    assert.equal(visibleText(plain), plain);
  });
});

describe('cutText and outsideErrorText', () => {
  it('cuts with a marker saying how much and where the rest is, never inside a surrogate pair', () => {
    assert.equal(cutText('abcdef', 10), 'abcdef');
    assert.equal(cutText('abcdef', 3, 'see thought 2'), 'abc… [3 more characters cut; see thought 2]');
    assert.equal(cutText('ab😀cd', 3), 'ab… [4 more characters cut]');
    assert.ok(outsideErrorText(new Error('x'.repeat(100_000))).length < 600);
    assert.equal(outsideErrorText('short'), 'short');
  });
});

describe('token counts from outside', () => {
  it('are whole numbers from 0 to 2^53-1, anything else unknown', () => {
    for (const bad of [-1, 1.5, Number.NaN, Infinity, '7', null, undefined, 2 ** 53]) assert.equal(tokenCount(bad), undefined, String(bad));
    assert.equal(tokenCount(0), 0);
    assert.equal(tokenCount(42), 42);
  });

  it('reported usage with a non-count is estimated, with a note; valid usage is kept', () => {
    const messages = [{ role: 'user' as const, text: 'x'.repeat(40) }];
    assert.deepEqual(checkedUsage({ input: 10, output: 3 }, messages, 'answer'), { inputTokens: 10, outputTokens: 3, estimated: false });
    const unknown = checkedUsage({ input: undefined, output: -1_000_000 }, messages, 'x'.repeat(8));
    assert.deepEqual([unknown.inputTokens, unknown.outputTokens, unknown.estimated], [10, 2, true]);
    assert.match(unknown.note ?? '', /unknown .*-1000000/);
    assert.equal(checkedUsage(undefined, messages, '').note, undefined);
  });
});

describe('feedbackRefusal', () => {
  it('is the live rule: live sessions only, about a thought they hold', () => {
    const place = { id: 's', status: 'live' as const, thoughtNumbers: new Set([1, 2, 3]) };
    assert.equal(feedbackRefusal(place, 2), undefined);
    assert.equal(feedbackRefusal(place, undefined), undefined);
    assert.match(feedbackRefusal(place, 99) ?? '', /Unknown thought 99: session "s" holds thoughts 1-3/);
    assert.match(feedbackRefusal({ ...place, status: 'complete' }, 1) ?? '', /is complete; feedback goes to live sessions/);
  });
});

describe('boundedFetch', () => {
  const stream = (chunks: number, size: number) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (chunks-- <= 0) controller.close();
        else controller.enqueue(new Uint8Array(size));
      },
    });

  it('passes a response within the limit unchanged', async () => {
    const fetch = boundedFetch(1000, async () => new Response(stream(3, 100), { status: 200, headers: { 'x-test': 'kept' } }));
    const response = await fetch('http://127.0.0.1/');
    assert.equal(response.headers.get('x-test'), 'kept');
    assert.equal((await response.arrayBuffer()).byteLength, 300);
  });

  it('errors the body once it passes the limit, and cancels the source', async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(1024)),
      cancel: () => {
        cancelled = true;
      },
    });
    const fetch = boundedFetch(10_000, async () => new Response(endless, { status: 200 }));
    const response = await fetch('http://127.0.0.1/');
    await assert.rejects(
      response.text(),
      (error: unknown) => error instanceof ResponseTooLargeError && /more than 10000 bytes/.test(error.message),
    );
    assert.equal(cancelled, true);
  });

  it('refuses a declared length over the limit before reading', async () => {
    const fetch = boundedFetch(100, async () => new Response(stream(1, 10), { status: 200, headers: { 'content-length': '5000' } }));
    await assert.rejects(fetch('http://127.0.0.1/'), ResponseTooLargeError);
  });
});
