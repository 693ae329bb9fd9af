// The explorer's window of thought cards for big sessions (webview/cards/cardWindow.ts): small sessions get every card, big
// ones a bounded window that follows the newest thought, grows a page at a time and jumps to a selection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CARD_PAGE,
  FULL_LIST_LIMIT,
  MAX_CARDS_IN_DOM,
  followRange,
  growEarlier,
  growLater,
  initialRange,
  rangeAround,
  type CardRange,
} from '../../webview/cards/cardWindow';

const size = (range: CardRange): number => range.end - range.start;

describe('card window', () => {
  test('a session up to the full-list limit shows every card; a bigger one its newest page', () => {
    assert.deepEqual(initialRange(0), { start: 0, end: 0 });
    assert.deepEqual(initialRange(FULL_LIST_LIMIT), { start: 0, end: FULL_LIST_LIMIT });
    assert.deepEqual(initialRange(10_000), { start: 10_000 - CARD_PAGE, end: 10_000 });
  });

  test('a window at the newest thought follows live thoughts and never holds more than the cap', () => {
    let range = initialRange(10_000);
    for (let total = 10_001; total <= 10_500; total++) {
      range = followRange(range, total - 1, total);
      assert.equal(range.end, total);
      assert.ok(size(range) <= MAX_CARDS_IN_DOM, `${size(range)} cards at ${total}`);
    }
  });

  test('a small live session that grows past the limit keeps its newest cards', () => {
    let range = initialRange(FULL_LIST_LIMIT);
    range = followRange(range, FULL_LIST_LIMIT, FULL_LIST_LIMIT + 1);
    assert.equal(range.end, FULL_LIST_LIMIT + 1);
    assert.ok(size(range) <= MAX_CARDS_IN_DOM);
  });

  test('a window left on older thoughts stays there while the session grows', () => {
    const older = { start: 100, end: 300 };
    assert.deepEqual(followRange(older, 10_000, 10_001), older);
  });

  test('a replay stepping back keeps the window ending at the new last thought', () => {
    const range = followRange({ start: 9_700, end: 10_000 }, 10_000, 5_000);
    assert.equal(range.end, 5_000);
    assert.ok(range.start < 5_000 && size(range) <= MAX_CARDS_IN_DOM);
    assert.deepEqual(followRange({ start: 9_700, end: 10_000 }, 10_000, 12), { start: 0, end: 12 });
  });

  test('growing earlier and later moves a page at a time, within the cap, and stops at the ends', () => {
    let range = initialRange(10_000);
    range = growEarlier(range);
    assert.deepEqual(range, { start: 9_800, end: 10_000 });
    range = growEarlier(growEarlier(range));
    assert.deepEqual(range, { start: 9_600, end: 9_900 }, 'the far end gives way at the cap');
    range = growLater(range, 10_000);
    assert.deepEqual(range, { start: 9_700, end: 10_000 });
    assert.deepEqual(growLater(range, 10_000), range);
    assert.deepEqual(growEarlier({ start: 0, end: 100 }), { start: 0, end: 100 });
  });

  test('a selection outside the window moves a page-sized window onto it; inside, nothing moves', () => {
    const range = initialRange(10_000);
    assert.deepEqual(rangeAround(range, 9_950, 10_000), range);
    const moved = rangeAround(range, 1_234, 10_000);
    assert.ok(moved.start <= 1_234 && 1_234 < moved.end);
    assert.equal(size(moved), CARD_PAGE);
    assert.deepEqual(rangeAround(range, 3, 10_000), { start: 0, end: CARD_PAGE });
    assert.deepEqual(rangeAround(range, 9_999, 10_000), range);
  });
});
