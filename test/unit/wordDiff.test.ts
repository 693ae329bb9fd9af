// Specification of the word-level diff: exact reconstruction of both texts, minimal and readable word changes, and
// bounded work on large or completely different texts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffWords, wordDiff, type DiffSegment } from '../../src/engine/browserSafe/wordDiff';

function sides(segments: readonly DiffSegment[]): { before: string; after: string } {
  return {
    before: segments
      .filter((segment) => segment.kind !== 'added')
      .map((segment) => segment.text)
      .join(''),
    after: segments
      .filter((segment) => segment.kind !== 'removed')
      .map((segment) => segment.text)
      .join(''),
  };
}

/** A deterministic pseudo-random generator, so the property test is repeatable (not used for anything secret). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('wordDiff', () => {
  it('marks changed words and keeps whitespace', () => {
    assert.deepEqual(wordDiff('The cache is slow.', 'The cache is fast.'), [
      { kind: 'same', text: 'The cache is ' },
      { kind: 'removed', text: 'slow' },
      { kind: 'added', text: 'fast' },
      { kind: 'same', text: '.' },
    ]);
    assert.deepEqual(wordDiff('use  two\nlines', 'use  two\nlines and more'), [
      { kind: 'same', text: 'use  two\nlines' },
      { kind: 'added', text: ' and more' },
    ]);
  });

  it('joins neighbouring word changes across a space into one replacement', () => {
    assert.deepEqual(wordDiff('the cat sat', 'a dog sat'), [
      { kind: 'removed', text: 'the cat' },
      { kind: 'added', text: 'a dog' },
      { kind: 'same', text: ' sat' },
    ]);
  });

  it('finds insertions and deletions in the middle without disturbing the rest', () => {
    const segments = wordDiff('first we parse, then we validate, then we store', 'first we parse, then we store safely');
    assert.deepEqual(sides(segments), {
      before: 'first we parse, then we validate, then we store',
      after: 'first we parse, then we store safely',
    });
    const changed = segments.filter((segment) => segment.kind !== 'same').map((segment) => `${segment.kind}:${segment.text}`);
    assert.deepEqual(changed, ['removed:validate, then we ', 'added: safely']);
  });

  it('handles empty, equal and unicode texts', () => {
    assert.deepEqual(wordDiff('', ''), []);
    assert.deepEqual(wordDiff('same', 'same'), [{ kind: 'same', text: 'same' }]);
    assert.deepEqual(wordDiff('', 'new'), [{ kind: 'added', text: 'new' }]);
    assert.deepEqual(wordDiff('old', ''), [{ kind: 'removed', text: 'old' }]);
    assert.deepEqual(wordDiff('größe 😀 straße', 'größe 🤔 straße'), [
      { kind: 'same', text: 'größe ' },
      { kind: 'removed', text: '😀' },
      { kind: 'added', text: '🤔' },
      { kind: 'same', text: ' straße' },
    ]);
  });

  it('always reconstructs both texts exactly, with neighbours of one kind merged (randomised)', () => {
    const random = seeded(42);
    const words = ['alpha', 'beta', 'gamma', 'delta', ' ', ' ', '\n', ',', '.'];
    const text = (length: number): string => Array.from({ length }, () => words[Math.floor(random() * words.length)]).join('');
    for (let round = 0; round < 300; round++) {
      const before = text(Math.floor(random() * 40));
      const tokens = before.split(/(\s+)/);
      const after = tokens.map((token) => (random() < 0.15 ? text(2) : token)).join('');
      const result = diffWords(before, after);
      assert.deepEqual(sides(result.segments), { before, after }, JSON.stringify({ before, after }));
      assert.equal(result.precision, 'word');
      for (let index = 1; index < result.segments.length; index++) {
        assert.notEqual(result.segments[index].kind, result.segments[index - 1].kind, 'neighbours of one kind are merged');
      }
    }
  });

  it('falls back to a line diff, then to the whole middle, above its budgets', () => {
    const before = Array.from({ length: 50 }, (_, index) => `line ${index} keeps its words\n`).join('');
    const after = before.replace('line 10 keeps', 'line 10 changes').replace('line 40 keeps', 'line 40 changes');
    const byLine = diffWords(before, after, { maxTokens: 80 });
    assert.equal(byLine.precision, 'line');
    assert.deepEqual(sides(byLine.segments), { before, after });
    assert.deepEqual(
      byLine.segments.filter((segment) => segment.kind === 'removed').map((segment) => segment.text),
      ['line 10 keeps its words\n', 'line 40 keeps its words\n'],
    );

    const whole = diffWords('keep a\nb\nc d keep', 'keep w\nx\ny z keep', { maxEdits: 3 });
    assert.equal(whole.precision, 'whole');
    assert.deepEqual(whole.segments, [
      { kind: 'same', text: 'keep ' },
      { kind: 'removed', text: 'a\nb\nc d' },
      { kind: 'added', text: 'w\nx\ny z' },
      { kind: 'same', text: ' keep' },
    ]);
  });

  it('stays fast on two unrelated 20,000-character thoughts', () => {
    const random = seeded(7);
    const text = (): string =>
      Array.from({ length: 3_000 }, () => `w${Math.floor(random() * 500)} `)
        .join('')
        .slice(0, 20_000);
    const before = text();
    const after = text();
    const started = performance.now();
    const result = diffWords(before, after);
    const elapsed = performance.now() - started;
    assert.deepEqual(sides(result.segments), { before, after });
    assert.ok(elapsed < 2_000, `${elapsed.toFixed(0)} ms`);
  });
});
