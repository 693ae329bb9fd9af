// The search field above the diagrams: the query, "n of m", previous/next. Enter steps to the next hit, Shift+Enter to
// the previous one, Escape clears. Only the widget: what a query matches and what gets highlighted is
// searchController.ts's business.

import { toolbarButton } from '../controls';

export interface SearchBarOptions {
  /** The query changed (debounced while typing). */
  onQuery: (query: string) => void;
  /** Step through the hits: +1 next, −1 previous. */
  onStep: (delta: 1 | -1) => void;
}

/** Typing pauses this long before a query runs: one search per word, not per key. */
const TYPING_PAUSE_MS = 120;

export class SearchBar {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: SearchBarOptions) {
    this.element = document.createElement('div');
    this.element.className = 'session-search';
    this.element.setAttribute('role', 'search');
    this.input = document.createElement('input');
    this.input.type = 'search';
    this.input.placeholder = 'Search thoughts';
    this.input.title = 'Words or "a phrase", stage:name, branch:name (branch:main), #number; all must match';
    this.input.setAttribute('aria-label', 'Search thoughts (text, stage:name, branch:name, #number); Enter next, Shift+Enter previous');
    this.input.spellcheck = false;
    this.count = document.createElement('span');
    this.count.className = 'search-count';
    this.count.setAttribute('role', 'status');
    this.count.setAttribute('aria-live', 'polite');
    this.element.append(
      this.input,
      this.count,
      toolbarButton('arrow-up', 'Previous match (Shift+Enter)', 'search-previous', () => this.step(-1)),
      toolbarButton('arrow-down', 'Next match (Enter)', 'search-next', () => this.step(1)),
    );
    this.input.addEventListener('input', () => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.run(), TYPING_PAUSE_MS);
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        // A query typed and entered at once runs before it steps.
        if (this.timer !== undefined) this.run();
        this.step(event.shiftKey ? -1 : 1);
      } else if (event.key === 'Escape' && this.input.value !== '') {
        event.preventDefault();
        this.input.value = '';
        this.run();
      } else {
        return;
      }
      // The replay bar listens to the window's keys; typing here is not for it.
      event.stopPropagation();
    });
    this.input.addEventListener('keyup', (event) => event.stopPropagation());
    this.show(0, undefined, '');
  }

  get query(): string {
    return this.input.value;
  }

  /** Sets the query without typing (restored state). */
  setQuery(query: string): void {
    this.input.value = query;
    this.run();
  }

  /** "3 of 12", "No results" or nothing for an empty query. */
  show(total: number, current: number | undefined, query: string): void {
    const state = query.trim() === '' ? 'empty' : total === 0 ? 'none' : 'hits';
    this.element.dataset.state = state;
    this.count.textContent =
      state === 'empty' ? '' : state === 'none' ? 'No results' : `${current === undefined ? '–' : current + 1} of ${total}`;
  }

  private run(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.options.onQuery(this.input.value);
  }

  private step(delta: 1 | -1): void {
    this.options.onStep(delta);
  }
}
