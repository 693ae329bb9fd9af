// The rows of the thought drawing (webview/thoughtGraphView.ts) as DOM elements, reused rather than rebuilt: a row that
// scrolls out of the window is filled with the thought scrolling in. Scrolling a 10,000-thought session swaps a screen
// of rows per frame when the person drags the scrollbar; making and dropping those elements each frame (and collecting
// them later) cost more than the frame has, so each row keeps its elements and only their text and classes change.
import { FEEDBACK_MARK_STATE_WORDS, type FeedbackMark, type FeedbackMarkKind, type ThoughtGraph } from '../../src/diagrams/thoughtGraph';
import { laneColourClass, markWords, ROW_HEIGHT, rowAccessibleName, rowTags } from '../../src/diagrams/thoughtGraphSvg';

/** How a row is shown besides its thought: picked, a search hit, dimmed (the revision tab's bystanders). */
export interface RowLook {
  selected: boolean;
  hit: 'none' | 'hit' | 'current';
  dim: boolean;
}

/** A row's parts, kept with it so that refilling it touches no other element. */
interface RowParts {
  number: HTMLElement;
  tags: HTMLElement[];
  text: HTMLElement;
  marks: HTMLElement[];
  /** The marks as shown, so a row whose marks are the same keeps its chips. */
  marksKey: string;
}

const parts = new WeakMap<HTMLElement, RowParts>();

/** A new, empty row: a button in the drawing's roving tab order. */
export function createRow(): HTMLElement {
  const row = document.createElement('div');
  row.setAttribute('role', 'button');
  row.tabIndex = -1;
  const number = document.createElement('span');
  number.className = 'row-number';
  const text = document.createElement('span');
  text.className = 'row-text';
  row.append(number, text);
  parts.set(row, { number, tags: [], text, marks: [], marksKey: '' });
  return row;
}

/** Fills `row` (new or reused) with thought `seq`: its place, classes, accessible name, number, tags, text and marks. */
export function fillRow(
  row: HTMLElement,
  graph: ThoughtGraph,
  seq: number,
  rowMarks: readonly FeedbackMark[],
  look: RowLook,
  version: string,
  /** Its shown row (collapsed branches above it take one row each), and the thoughts folded under it. */
  where: { place: number; hiddenUnder: number } = { place: seq, hiddenUnder: 0 },
): void {
  const own = parts.get(row);
  if (!own) throw new Error('fillRow: not a row made by createRow');
  const node = graph.nodes[seq];
  let className = `graph-row node kind-${node.kind} ${laneColourClass(node.lane)}`;
  if (look.selected) className += ' selected-node';
  if (look.hit !== 'none') className += ' search-hit';
  if (look.hit === 'current') className += ' search-current';
  if (node.final) className += ' final';
  if (look.dim) className += ' dim';
  row.className = className;
  row.dataset.nodeId = node.id;
  row.dataset.id = node.id;
  row.dataset.seq = String(seq);
  row.dataset.version = version;
  row.style.top = `${where.place * ROW_HEIGHT}px`;
  const folded = where.hiddenUnder > 0 ? `; branch collapsed, ${hiddenWords(where.hiddenUnder)}` : '';
  row.setAttribute('aria-label', `${rowAccessibleName(node, graph, rowMarks)}${folded}`);
  own.number.textContent = `#${node.thoughtNumber}`;

  const tags = rowTags(node, graph);
  if (where.hiddenUnder > 0) tags.push(`+${hiddenWords(where.hiddenUnder)}`);
  // Chips are added or dropped only when the count changes (rare: most rows have their stage and nothing else).
  while (own.tags.length < tags.length) {
    const chip = document.createElement('span');
    own.text.before(chip);
    own.tags.push(chip);
  }
  while (own.tags.length > tags.length) own.tags.pop()?.remove();
  tags.forEach((tag, index) => {
    const chip = own.tags[index];
    chip.className = tag === 'final' ? 'row-tag row-final' : tag.startsWith('+') ? 'row-tag row-folded' : 'row-tag';
    chip.textContent = tag;
  });
  own.text.textContent = node.text.replace(/\s+/g, ' ').trim();

  const marksKey = rowMarks.map((mark) => `${mark.kind}\u0000${mark.state}\u0000${mark.text ?? ''}`).join('\u0001');
  if (marksKey !== own.marksKey) {
    for (const chip of own.marks) chip.remove();
    own.marks = rowMarks.map(markChip);
    row.append(...own.marks);
    own.marksKey = marksKey;
  }
}

function hiddenWords(count: number): string {
  return `${count} more thought${count === 1 ? '' : 's'} hidden`;
}

function markChip(mark: FeedbackMark): HTMLElement {
  const chip = document.createElement('span');
  chip.className = `graph-mark mark-${mark.kind} state-${mark.state}`;
  // The words give way to the icon in a narrow drawing (media/explorer.css); the tooltip and the row's name keep them.
  const words = document.createElement('span');
  words.className = 'mark-words';
  words.textContent = FEEDBACK_MARK_STATE_WORDS[mark.state];
  chip.append(markIcon(mark.kind), words);
  chip.title = mark.text === undefined ? markWords(mark) : `${markWords(mark)}: ${mark.text}`;
  return chip;
}

/** Each kind of feedback its codicon (the cards' feedback marks use the same ones). */
export const MARK_ICONS: Record<FeedbackMarkKind, string> = {
  note: 'comment',
  reject: 'close',
  explore: 'git-branch',
  conclude: 'pass',
};

export function markIcon(kind: FeedbackMarkKind): HTMLElement {
  const icon = document.createElement('span');
  icon.className = `codicon codicon-${MARK_ICONS[kind]}`;
  icon.setAttribute('aria-hidden', 'true');
  return icon;
}
