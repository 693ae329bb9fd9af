// The one rule for cutting text to a length. Lengths are UTF-16 code units (`string.length`, what every limit here
// counts), and a cut never falls inside a surrogate pair: an emoji or other astral character is kept whole or left out
// whole, never halved into a lone surrogate (shown as �, and not valid UTF-8 on the wire or in a file).

/** Where a cut of `text` at most `max` code units long ends: `max`, or one less where `max` would split a pair. */
export function cutEnd(text: string, max: number): number {
  if (max <= 0) return 0;
  if (max >= text.length) return text.length;
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}

/** `text` at most `max` code units long: as it is when it fits, else its start followed by "…". */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  return `${text.slice(0, cutEnd(text, max - 1))}…`;
}

/**
 * `text` on one line (each run of white space one space, trimmed) and shortened to `max` code units. A long text's
 * head is flattened first: a 20,000-character thought costs no more than a short one unless its head is mostly space.
 */
export function shortenedLine(text: string, max: number): string {
  const trimmed = text.trim();
  const head = trimmed.slice(0, cutEnd(trimmed, Math.max(0, max) * 4 + 64));
  // The flattened head is a start of the flattened whole: when it is already too long, the whole need not be read.
  let flat = flatLine(head);
  if (head.length < trimmed.length && flat.length <= max) flat = flatLine(trimmed);
  return shortened(flat, max);
}

/**
 * `text` with each run of white space one space. Most text is flat already and is returned as it is: a replace makes
 * a new string every time, and the thought drawing flattens a screen of rows every frame while it is scrolled.
 */
function flatLine(text: string): string {
  return /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ') : text;
}
