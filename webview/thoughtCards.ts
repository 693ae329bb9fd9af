// The thought cards: number, stage, badges and the full text of every thought on screen. Text goes in through
// textContent only: thought text is untrusted and must never become markup.
import type { ThoughtRecord } from '../src/engine/model';
import { badge } from './badge';
import { decorateDeliberationCard } from './deliberationCard';
import { qaToolChips } from './qaToolChips';

export interface ThoughtCardsOptions {
  onSelect: (seq: number) => void;
}

export class ThoughtCards {
  readonly element: HTMLElement;
  private readonly cards: HTMLElement[] = [];
  private selected: number | undefined;
  private finalSeq: number | undefined;

  constructor(options: ThoughtCardsOptions) {
    this.element = document.createElement('ol');
    this.element.className = 'thought-cards';
    this.element.setAttribute('aria-label', 'Thoughts');
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

  get count(): number {
    return this.cards.length;
  }

  /** Shows exactly `thoughts`, reusing the cards already drawn when they are a prefix (live deltas, replay steps). */
  show(thoughts: readonly ThoughtRecord[]): void {
    while (this.cards.length > thoughts.length) this.cards.pop()?.remove();
    const fragment = document.createDocumentFragment();
    for (let index = this.cards.length; index < thoughts.length; index++) {
      const card = buildCard(thoughts[index]);
      this.cards.push(card);
      fragment.append(card);
    }
    if (fragment.childNodes.length > 0) this.element.append(fragment);
    this.markFinal(thoughts);
    if (this.selected !== undefined && this.selected >= thoughts.length) this.selected = undefined;
  }

  clear(): void {
    this.cards.length = 0;
    this.element.replaceChildren();
    this.selected = undefined;
    this.finalSeq = undefined;
  }

  select(seq: number | undefined, scroll: boolean): void {
    const previous = this.selected === undefined ? undefined : this.cards[this.selected];
    previous?.classList.remove('selected');
    previous?.setAttribute('aria-selected', 'false');
    this.selected = seq;
    const card = seq === undefined ? undefined : this.cards[seq];
    if (!card) return;
    card.classList.add('selected');
    card.setAttribute('aria-selected', 'true');
    if (scroll) card.scrollIntoView({ block: 'nearest' });
  }

  cardFor(seq: number): HTMLElement | undefined {
    return this.cards[seq];
  }

  /** The "final" badge belongs to the last thought when it ended the session. */
  private markFinal(thoughts: readonly ThoughtRecord[]): void {
    const last = thoughts[thoughts.length - 1];
    const finalSeq = last && !last.nextThoughtNeeded ? last.seq : undefined;
    if (finalSeq === this.finalSeq) return;
    if (this.finalSeq !== undefined) this.cards[this.finalSeq]?.querySelector('.badge-final')?.remove();
    this.finalSeq = finalSeq;
    if (finalSeq !== undefined) this.cards[finalSeq]?.querySelector('.badges')?.append(badge('final', 'Final', 'pass'));
  }
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
