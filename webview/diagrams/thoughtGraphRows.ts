// The rows of the thought drawing (webview/thoughtGraphView.ts) as DOM elements, reused rather than rebuilt: a row that
// scrolls out of the window is filled with the thought scrolling in. Scrolling a 10,000-thought session swaps a screen
// of rows per frame when the person drags the scrollbar; making and dropping those elements each frame (and collecting
// them later) cost more than the frame has, so each row keeps its elements and only their text and classes change.
import { FEEDBACK_MARK_STATE_WORDS, type FeedbackMark, type FeedbackMarkKind, type ThoughtGraph } from '../../src/diagrams/thoughtGraph';
import { shortened, shortenedLine } from '../../src/engine/browserSafe/textCut';
import { laneColourClass, markWords, ROW_HEIGHT, rowAccessibleName, rowTags } from '../../src/diagrams/thoughtGraphSvg';

/** How a row is shown besides its thought: picked, a search hit, dimmed (the revision tab's bystanders). */
export interface RowLook {
  selected: boolean;
  hit: 'none' | 'hit' | 'current';
  dim: boolean;
}

/** A row's parts and what they show, kept with it so that refilling it touches only what differs. */
interface RowParts {
  numberHolder: HTMLElement;
  number: Text;
  tags: { chip: HTMLElement; text: Text }[];
  textHolder: HTMLElement;
  text: Text;
  marks: HTMLElement[];
  /** The marks as shown, so a row whose marks are the same keeps its chips. */
  marksKey: string;
  /** What the row shows as one string (the caller's): a row whose version is unchanged is not refilled. */
  version: string;
  seq: number;
  className: string;
  place: number;
  name: string;
}

const parts = new WeakMap<HTMLElement, RowParts>();

/**
 * A row's text is cut here (its accessible name and the thought's card keep more): 500 characters fill a row some 3,000
 * px wide, and a thought of thousands would be shaped whole for every row that shows it, then clipped by the ellipsis.
 */
const ROW_TEXT_MAX = 500;
/** A tag is cut here (a branch's name can be long); the row's accessible name keeps it whole. */
const TAG_MAX = 40;

/** A new, empty row: a button in the drawing's roving tab order. */
export function createRow(): HTMLElement {
  const row = document.createElement('div');
  row.setAttribute('role', 'button');
  row.tabIndex = -1;
  const numberHolder = document.createElement('span');
  numberHolder.className = 'row-number';
  const number = numberHolder.appendChild(document.createTextNode(''));
  const textHolder = document.createElement('span');
  textHolder.className = 'row-text';
  const text = textHolder.appendChild(document.createTextNode(''));
  row.append(numberHolder, textHolder);
  parts.set(row, {
    numberHolder,
    number,
    tags: [],
    textHolder,
    text,
    marks: [],
    marksKey: '',
    version: '',
    seq: -1,
    className: '',
    place: -1,
    name: '',
  });
  return row;
}

/** What row `row` was last filled with (`fillRow`'s `version`); '' for a new row. */
export function rowVersion(row: HTMLElement): string {
  return parts.get(row)?.version ?? '';
}

/**
 * Fills `row` (new or reused) with thought `seq`: its place, classes, accessible name, number, tags, text and marks.
 * Only what differs from what the row showed is written: dragging the scrollbar of a 10,000-thought session refills a
 * screen of rows every frame, and each write is work for the page (an attribute change is a DOM mutation; new text in
 * the same Text node is laid out in place, where new text content would replace the node).
 */
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
  own.version = version;
  const node = graph.nodes[seq];
  let className = `graph-row node kind-${node.kind} ${laneColourClass(node.lane)}`;
  if (look.selected) className += ' selected-node';
  if (look.hit !== 'none') className += ' search-hit';
  if (look.hit === 'current') className += ' search-current';
  if (node.final) className += ' final';
  if (look.dim) className += ' dim';
  if (own.className !== className) row.className = own.className = className;
  if (own.seq !== seq) {
    own.seq = seq;
    row.dataset.nodeId = node.id;
    row.dataset.id = node.id;
    row.dataset.seq = String(seq);
  }
  if (own.place !== where.place) {
    own.place = where.place;
    row.style.top = `${where.place * ROW_HEIGHT}px`;
  }
  const tags = rowTags(node, graph);
  const folded = where.hiddenUnder > 0 ? `; branch collapsed, ${hiddenWords(where.hiddenUnder)}` : '';
  const name = `${rowAccessibleName(node, graph, rowMarks, tags)}${folded}`;
  if (own.name !== name) row.setAttribute('aria-label', (own.name = name));
  setText(own.number, `#${node.thoughtNumber}`);

  if (where.hiddenUnder > 0) tags.push(`+${hiddenWords(where.hiddenUnder)}`);
  // Chips are added or dropped only when the count changes (rare: most rows have their stage and nothing else).
  while (own.tags.length < tags.length) {
    const chip = document.createElement('span');
    const text = chip.appendChild(document.createTextNode(''));
    own.textHolder.before(chip);
    own.tags.push({ chip, text });
  }
  while (own.tags.length > tags.length) own.tags.pop()?.chip.remove();
  tags.forEach((tag, index) => {
    const { chip, text } = own.tags[index];
    const chipClass = tag === 'final' ? 'row-tag row-final' : tag.startsWith('+') ? 'row-tag row-folded' : 'row-tag';
    if (chip.className !== chipClass) chip.className = chipClass;
    setText(text, shortened(tag, TAG_MAX));
  });
  setText(own.text, shortenedLine(node.text, ROW_TEXT_MAX));

  const marksKey = rowMarks.map((mark) => `${mark.kind}\u0000${mark.state}\u0000${mark.text ?? ''}`).join('\u0001');
  if (marksKey !== own.marksKey) {
    for (const chip of own.marks) chip.remove();
    own.marks = rowMarks.map(markChip);
    // First in the row: a float takes its place at the right end of the line only when it comes before the text.
    own.numberHolder.before(...own.marks);
    own.marksKey = marksKey;
  }
}

function setText(node: Text, value: string): void {
  if (node.data !== value) node.data = value;
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
