// The one text-cutting rule: at most the length asked, "…" when cut, and never half of a surrogate pair.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cutEnd, shortened, shortenedLine } from '../../src/engine/browserSafe/textCut';
import { cutText } from '../../src/engine/fieldRules';
import type { ThoughtRecord } from '../../src/engine/model';
import { deliberationFacts } from '../../src/shared/deliberationView';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMOJI = '😀'; // two code units

describe('shortened', () => {
  it('leaves text that fits as it is, up to exactly the limit', () => {
    assert.equal(shortened('abc', 3), 'abc');
    assert.equal(shortened('', 0), '');
  });

  it('cuts longer text to the limit, the last unit an ellipsis', () => {
    assert.equal(shortened('abcdef', 4), 'abc…');
    assert.equal(shortened('abcdef', 1), '…');
    assert.equal(shortened('abcdef', 0), '');
  });

  it('never splits an emoji at the boundary: the whole emoji is left out instead', () => {
    // "ab😀cd": cutting to 4 would keep a, b and the emoji's first half before the ellipsis.
    assert.equal(shortened(`ab${EMOJI}cd`, 4), 'ab…');
    assert.equal(shortened(`ab${EMOJI}cd`, 5), `ab${EMOJI}…`);
  });

  it('never returns a lone surrogate for any limit over astral text', () => {
    const text = `${EMOJI}a${EMOJI}${EMOJI}𝄞b${EMOJI}`;
    for (let max = 0; max <= text.length + 1; max++) {
      const cut = shortened(text, max);
      assert.ok(cut.length <= max, `${max}: ${cut.length} units`);
      assert.doesNotMatch(cut, LONE_SURROGATE, `${max}: ${JSON.stringify(cut)}`);
    }
  });
});

describe('shortenedLine', () => {
  it('flattens white space and trims before measuring', () => {
    assert.equal(shortenedLine('  a\n\n b\tc  ', 10), 'a b c');
    assert.equal(shortenedLine('a\u00a0b c', 10), 'a b c', 'a lone white space other than a space is one space too');
    assert.equal(shortenedLine('one two three', 8), 'one two…');
  });

  it('reads past a head that is mostly space, so a short text is not cut', () => {
    const spaced = `a${' '.repeat(1000)}b`;
    assert.equal(shortenedLine(spaced, 10), 'a b');
  });

  it('never splits an emoji at the boundary of a long thought', () => {
    const thought = `${'x'.repeat(8)}${EMOJI.repeat(20_000)}`;
    for (let max = 1; max <= 14; max++) {
      const cut = shortenedLine(thought, max);
      assert.ok(cut.endsWith('…') && cut.length <= max, `${max}: ${JSON.stringify(cut)}`);
      assert.doesNotMatch(cut, LONE_SURROGATE, `${max}: ${JSON.stringify(cut)}`);
    }
  });
});

describe('cutEnd and cutText', () => {
  it('steps back one unit where the limit falls inside a pair', () => {
    assert.equal(cutEnd(`a${EMOJI}`, 2), 1);
    assert.equal(cutEnd(`a${EMOJI}`, 3), 3);
    assert.equal(cutEnd('abc', 10), 3);
  });

  it('cutText keeps its marker and never splits a pair', () => {
    const cut = cutText(`a${EMOJI}bc`, 2);
    assert.match(cut, /^a… \[4 more characters cut\]$/);
  });
});

describe('callers that cut by it', () => {
  it("a deliberation card's role and model, read from a thought's extra, never end in half an emoji", () => {
    const thought = {
      seq: 1,
      thoughtNumber: 1,
      totalThoughts: 1,
      thought: 'x',
      nextThoughtNeeded: false,
      timestamp: 0,
      extra: { role: `${'r'.repeat(63)}${EMOJI}`, model: `${'m'.repeat(119)}${EMOJI}` },
    } as ThoughtRecord;
    const facts = deliberationFacts(thought);
    assert.equal(facts?.role, 'r'.repeat(63));
    assert.equal(facts?.model, 'm'.repeat(119));
  });
});
