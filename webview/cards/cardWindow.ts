// Which thoughts have a card in the DOM. A session up to FULL_LIST_LIMIT thoughts gets every card (the path small
// sessions always had); a bigger one gets a window of at most MAX_CARDS_IN_DOM consecutive cards, starting on the
// newest page, grown a page at a time towards older or newer thoughts and moved to wherever a selection jumps.
// Building and laying out 10,000 cards took over a second in Chromium; a window keeps the first paint flat. Pure
// range arithmetic (no DOM), so it is tested in plain Node.

/** Sessions up to this size show every card, as before windowing existed. */
export const FULL_LIST_LIMIT = 300;
/** Cards added per step when the window grows, and the size of a fresh window. */
export const CARD_PAGE = 100;
/** The most cards the window holds; growing past it drops cards from the far end. */
export const MAX_CARDS_IN_DOM = 3 * CARD_PAGE;

/** Thoughts `start` (inclusive) to `end` (exclusive) have cards. */
export interface CardRange {
  start: number;
  end: number;
}

/** A fresh window for a session of `total` thoughts: all of a small session, the newest page of a big one. */
export function initialRange(total: number): CardRange {
  if (total <= FULL_LIST_LIMIT) return { start: 0, end: total };
  return { start: total - CARD_PAGE, end: total };
}

/**
 * The window after the session on screen became `total` thoughts long (a live thought, a replay step or seek).
 * A window that reached the newest thought keeps following it; one left on older thoughts stays where it is.
 */
export function followRange(range: CardRange, previousTotal: number, total: number): CardRange {
  if (total <= FULL_LIST_LIMIT) return { start: 0, end: total };
  if (range.end > total || range.start >= total) {
    // Stepped back (a replay seek): keep the window's size, ending at the new last thought.
    const size = Math.max(CARD_PAGE, Math.min(MAX_CARDS_IN_DOM, range.end - range.start));
    return { start: Math.max(0, total - size), end: total };
  }
  if (range.end < previousTotal) return range;
  const end = total;
  // Dropped a page at a time, so a live session does not remove one card per new thought.
  let start = range.start;
  while (end - start > MAX_CARDS_IN_DOM) start += CARD_PAGE;
  return { start, end };
}

/** One page more towards the first thought; the far end gives way when the window is full. */
export function growEarlier(range: CardRange): CardRange {
  const start = Math.max(0, range.start - CARD_PAGE);
  return { start, end: Math.min(range.end, start + MAX_CARDS_IN_DOM) };
}

/** One page more towards the newest thought. */
export function growLater(range: CardRange, total: number): CardRange {
  const end = Math.min(total, range.end + CARD_PAGE);
  return { start: Math.max(range.start, end - MAX_CARDS_IN_DOM), end };
}

/** A window that holds `seq` (unchanged when it already does): a page centred on it. */
export function rangeAround(range: CardRange, seq: number, total: number): CardRange {
  if (seq >= range.start && seq < range.end) return range;
  if (total <= FULL_LIST_LIMIT) return { start: 0, end: total };
  const start = Math.max(0, Math.min(total - CARD_PAGE, seq - CARD_PAGE / 2));
  return { start, end: Math.min(total, start + CARD_PAGE) };
}
