// The thought cards: number, stage, badges and the full text of every thought on screen (in a big session, a window
// of them: cardWindow.ts). Text goes in through textContent only: thought text is untrusted, never markup.
import type { ThoughtRecord } from '../../src/engine/model';
import { badge } from './badge';
import { followRange, growEarlier, growLater, initialRange, rangeAround, type CardRange } from './cardWindow';
import { decorateDeliberationCard } from './deliberationCard';
import { qaToolChips } from './qaToolChips';
import { appendAll } from '../../src/engine/browserSafe/arrayMath';

export interface ThoughtCardsOptions {
  onSelect: (seq: number) => void;
  /** The window moved to other thoughts (not a live append): marks kept outside the cards (search, feedback) redraw. */
  onWindowMoved?: () => void;
}

export class ThoughtCards {
  readonly element: HTMLElement;
  /** `cards[i]` is the card of thought `range.start + i`. */
  private cards: HTMLElement[] = [];
  private range: CardRange = { start: 0, end: 0 };
  private thoughts: readonly ThoughtRecord[] = [];
  /**
   * How many thoughts the last `show` had. Not `thoughts.length`: the app appends live thoughts to the same array, so
   * by the time `show` runs the array is already longer.
   */
  private shownTotal = 0;
  private selected: number | undefined;
  private finalSeq: number | undefined;
  /** Rows before and after the cards of a windowed list: "Show earlier/later thoughts". */
  private readonly earlier: HTMLElement;
  private readonly later: HTMLElement;

  constructor(private readonly options: ThoughtCardsOptions) {
    this.element = document.createElement('ol');
    this.element.className = 'thought-cards';
    this.element.setAttribute('aria-label', 'Thoughts');
    this.earlier = moreRow('earlier', () => this.showEarlier());
    this.later = moreRow('later', () => this.showLater());
    this.element.append(this.earlier, this.later);
    this.element.addEventListener('click', (event) => {
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.thought-card') : null;
      if (card?.dataset.seq !== undefined) options.onSelect(Number(card.dataset.seq));
    });
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.thought-card') : null;
      if (card?.dataset.seq === undefined) return;
      event.preventDefault();
      options.onSelect(Number(card.dataset.seq));
    });
  }

  /** Cards in the DOM (all thoughts of a small session; a window of a big one). */
  get count(): number {
    return this.cards.length;
  }

  /** The thoughts that have cards: `start` inclusive, `end` exclusive. */
  get shownRange(): CardRange {
    return { ...this.range };
  }

  /**
   * Shows `thoughts`, reusing the cards already drawn (live deltas, replay steps). A big session gets a window of
   * cards that follows the newest thought while it is at the end (cardWindow.ts).
   */
  show(thoughts: readonly ThoughtRecord[]): void {
    const previousTotal = this.shownTotal;
    this.thoughts = thoughts;
    this.shownTotal = thoughts.length;
    const next =
      this.cards.length === 0 && previousTotal === 0
        ? initialRange(thoughts.length)
        : followRange(this.range, previousTotal, thoughts.length);
    this.applyRange(next);
    this.markFinal(thoughts);
    if (this.selected !== undefined && this.selected >= thoughts.length) this.selected = undefined;
  }

  clear(): void {
    for (const card of this.cards) card.remove();
    this.cards = [];
    this.range = { start: 0, end: 0 };
    this.thoughts = [];
    this.shownTotal = 0;
    this.selected = undefined;
    this.finalSeq = undefined;
    this.updateMoreRows();
  }

  select(seq: number | undefined, scroll: boolean): void {
    const previous = this.selected === undefined ? undefined : this.renderedCard(this.selected);
    previous?.classList.remove('selected');
    previous?.setAttribute('aria-selected', 'false');
    this.selected = seq;
    if (seq === undefined) return;
    // Jumping to a thought outside the window (a diagram node, a restored selection) moves the window there.
    if (scroll) this.moveWindow(rangeAround(this.range, seq, this.thoughts.length));
    const card = this.renderedCard(seq);
    if (!card) return;
    card.classList.add('selected');
    card.setAttribute('aria-selected', 'true');
    if (scroll) card.scrollIntoView({ block: 'nearest' });
  }

  /** The card of thought `seq`, moving the window to it when needed; undefined for a seq the list does not hold. */
  cardFor(seq: number): HTMLElement | undefined {
    if (seq < 0 || seq >= this.thoughts.length) return undefined;
    this.moveWindow(rangeAround(this.range, seq, this.thoughts.length));
    return this.renderedCard(seq);
  }

  /** The card of thought `seq` if it is in the DOM now (never moves the window). */
  renderedCard(seq: number): HTMLElement | undefined {
    return seq >= this.range.start && seq < this.range.end ? this.cards[seq - this.range.start] : undefined;
  }

  /** Grows the window one page towards the first thought. */
  showEarlier(): void {
    if (this.range.start > 0) this.moveWindow(growEarlier(this.range));
  }

  /** Grows the window one page towards the newest thought. */
  showLater(): void {
    if (this.range.end < this.thoughts.length) this.moveWindow(growLater(this.range, this.thoughts.length));
  }

  /** A move the person (or a jump to a thought) asked for: applied, then announced if the window changed. */
  private moveWindow(next: CardRange): void {
    if (next.start === this.range.start && next.end === this.range.end) return;
    this.applyRange(next);
    this.options.onWindowMoved?.();
  }

  /** Makes the DOM hold exactly the cards of `next`, keeping the cards the two windows share. */
  private applyRange(next: CardRange): void {
    const current = this.range;
    if (next.start >= current.end || next.end <= current.start) {
      for (const card of this.cards) card.remove();
      this.cards = [];
      this.range = { start: next.start, end: next.start };
    } else {
      const dropFront = Math.max(0, next.start - current.start);
      for (const card of this.cards.splice(0, dropFront)) card.remove();
      const dropBack = Math.max(0, current.end - next.end);
      for (const card of this.cards.splice(this.cards.length - dropBack, dropBack)) card.remove();
      this.range = { start: current.start + dropFront, end: current.end - dropBack };
    }
    if (next.start < this.range.start) {
      const before = this.buildCards(next.start, this.range.start);
      (this.cards[0] ?? this.later).before(...before);
      this.cards = [...before, ...this.cards];
    }
    if (next.end > this.range.end) {
      const after = this.buildCards(this.range.end, next.end);
      this.later.before(...after);
      appendAll(this.cards, after);
    }
    this.range = { start: next.start, end: next.end };
    this.updateMoreRows();
  }

  private buildCards(from: number, to: number): HTMLElement[] {
    const built: HTMLElement[] = [];
    for (let seq = from; seq < to; seq++) {
      const card = buildCard(this.thoughts[seq]);
      if (seq === this.selected) {
        card.classList.add('selected');
        card.setAttribute('aria-selected', 'true');
      }
      if (seq === this.finalSeq) card.querySelector('.badges')?.append(badge('final', 'Final', 'pass'));
      built.push(card);
    }
    return built;
  }

  private updateMoreRows(): void {
    const hiddenBefore = this.range.start;
    const hiddenAfter = this.thoughts.length - this.range.end;
    setMoreRow(this.earlier, hiddenBefore, `Show earlier thoughts (${groupDigits(hiddenBefore)} more)`);
    setMoreRow(this.later, hiddenAfter, `Show later thoughts (${groupDigits(hiddenAfter)} more)`);
  }

  /** The "final" badge belongs to the last thought when it ended the session. */
  private markFinal(thoughts: readonly ThoughtRecord[]): void {
    const last = thoughts[thoughts.length - 1];
    const finalSeq = last && !last.nextThoughtNeeded ? last.seq : undefined;
    if (finalSeq === this.finalSeq) return;
    if (this.finalSeq !== undefined) this.renderedCard(this.finalSeq)?.querySelector('.badge-final')?.remove();
    this.finalSeq = finalSeq;
    if (finalSeq !== undefined)
      this.renderedCard(finalSeq)
        ?.querySelector('.badges')
        ?.append(badge('final', 'Final', 'pass'));
  }
}

/** A "Show earlier/later thoughts" row of a windowed list. */
function moreRow(direction: 'earlier' | 'later', onClick: () => void): HTMLElement {
  const row = document.createElement('li');
  row.className = `cards-more cards-${direction}`;
  row.hidden = true;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'cards-more-button';
  button.addEventListener('click', onClick);
  row.append(button);
  return row;
}

/** 9900 → "9,900"; not toLocaleString, whose first call costs tens of milliseconds of ICU set-up in the webview. */
function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function setMoreRow(row: HTMLElement, hidden: number, label: string): void {
  row.hidden = hidden === 0;
  row.dataset.hidden = String(hidden);
  const button = row.firstElementChild;
  if (button && button.textContent !== label) button.textContent = label;
}

function buildCard(thought: ThoughtRecord): HTMLElement {
  const card = document.createElement('li');
  card.className = 'thought-card';
  card.dataset.seq = String(thought.seq);
  card.tabIndex = 0;
  card.setAttribute('aria-selected', 'false');

  const head = document.createElement('div');
  head.className = 'thought-head';
  const number = document.createElement('span');
  number.className = 'thought-number';
  number.textContent = `#${thought.thoughtNumber}`;
  const of = document.createElement('span');
  of.className = 'thought-total';
  of.textContent = `/${thought.totalThoughts}`;
  head.append(number, of);
  if (thought.stage) {
    const stage = document.createElement('span');
    stage.className = 'thought-stage';
    stage.textContent = thought.stage.replace(/_/g, ' ');
    head.append(stage);
  }
  const badges = document.createElement('span');
  badges.className = 'badges';
  if (thought.isRevision) {
    badges.append(badge('revision', thought.revisesThought === undefined ? 'Revision' : `Revises #${thought.revisesThought}`, 'edit'));
  }
  if (thought.branchId !== undefined) {
    const from = thought.branchFromThought === undefined ? '' : ` from #${thought.branchFromThought}`;
    badges.append(badge('branch', `${thought.branchId}${from}`, 'git-branch'));
  }
  head.append(badges);

  const text = document.createElement('div');
  text.className = 'thought-text';
  text.textContent = thought.thought;
  card.append(head, text);
  decorateDeliberationCard(card, badges, thought);
  const tools = qaToolChips(thought);
  if (tools) card.append(tools);
  return card;
}
