// Largest, smallest and append over arrays longer than a call's argument list may be (the spread form overflows).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendAll, largest, smallest } from '../../src/engine/browserSafe/arrayMath';

describe('array math for any length', () => {
  it('gives the largest and smallest value, or the given value for none', () => {
    assert.equal(largest([3, 9, 2]), 9);
    assert.equal(smallest([3, 9, 2]), 2);
    assert.equal(largest([], 0), 0);
    assert.equal(largest([-4], 0), 0, 'the empty value is also the floor');
    assert.equal(smallest(new Set([5, 7])), 5);
  });

  it('handles 500,000 values, which Math.max(...values) and push(...values) cannot', () => {
    const values = Array.from({ length: 500_000 }, (_, index) => index);
    assert.throws(() => Math.max(...values), RangeError);
    assert.equal(largest(values), 499_999);
    assert.equal(smallest(values), 0);
    const target = [-1];
    appendAll(target, values);
    assert.equal(target.length, 500_001);
    assert.equal(target[500_000], 499_999);
  });
});
