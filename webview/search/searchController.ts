// Search state for the session on screen: the query, its hits (thought seqs) and the current one; marks the hits on
// the cards and on every drawn diagram (the stage graph through its nodeIdForSeq, the thought drawings on their rows),
// and keeps both up to date as the session grows and diagrams redraw.
import type { ThoughtRecord } from '../../src/engine/model';
import { SearchBar } from './searchBar';
import { searchThoughts } from './sessionSearch';

export interface SearchTargets {
  thoughts: () => readonly ThoughtRecord[];
  cardFor: (seq: number) => HTMLElement | undefined;
  /** The drawn Mermaid diagrams (the stage graph): their SVG (if any) and the node id standing for a thought. */
  diagrams: () => { svg: SVGSVGElement | null; nodeIdForSeq: (seq: number) => string | undefined }[];
  /** The thought drawings (webview/diagrams/thoughtGraphView.ts): they mark the hits on their rows themselves. */
  graphs: () => { setSearch(hits: readonly number[], current: number | undefined): void }[];
  /** Stepping onto a hit shows it: the app selects the thought (card and node revealed). */
  onCurrent: (seq: number) => void;
}

export class SearchController {
  readonly bar: SearchBar;
  private query = '';
  private hits: number[] = [];
  private current: number | undefined;
  private markedCards: HTMLElement[] = [];

  constructor(private readonly targets: SearchTargets) {
    this.bar = new SearchBar({ onQuery: (query) => this.setQuery(query), onStep: (delta) => this.step(delta) });
  }

  get element(): HTMLElement {
    return this.bar.element;
  }

  get text(): string {
    return this.query;
  }

  /** The hits in session order and the index of the current one (tests and saved state). */
  get state(): { query: string; hits: number[]; current: number | undefined } {
    return { query: this.query, hits: [...this.hits], current: this.current };
  }

  setQuery(query: string): void {
    this.query = query;
    this.current = undefined;
    this.refresh();
  }

  /** Recomputes the hits (new thoughts, replay step, another session), keeping the current hit when it still matches. */
  refresh(): void {
    const currentSeq = this.current === undefined ? undefined : this.hits[this.current];
    this.hits = searchThoughts(this.targets.thoughts(), this.query);
    const kept = currentSeq === undefined ? -1 : this.hits.indexOf(currentSeq);
    this.current = kept === -1 ? undefined : kept;
    this.markCards();
    this.markDiagrams();
    this.bar.show(this.hits.length, this.current, this.query);
  }

  step(delta: 1 | -1): void {
    if (this.hits.length === 0) return;
    const count = this.hits.length;
    this.current = this.current === undefined ? (delta === 1 ? 0 : count - 1) : (this.current + delta + count) % count;
    this.markCards();
    this.markDiagrams();
    this.bar.show(count, this.current, this.query);
    this.targets.onCurrent(this.hits[this.current]);
  }

  private markDiagrams(): void {
    for (const diagram of this.targets.diagrams()) if (diagram.svg) this.markDiagram(diagram.svg, diagram.nodeIdForSeq);
    const current = this.current === undefined ? undefined : this.hits[this.current];
    for (const graph of this.targets.graphs()) graph.setSearch(this.hits, current);
  }

  /** Marks the hits on a freshly drawn diagram (the app calls it after every render). */
  markDiagram(svg: SVGSVGElement, nodeIdForSeq: (seq: number) => string | undefined): void {
    for (const node of svg.querySelectorAll('g.node.search-hit, g.node.search-current'))
      node.classList.remove('search-hit', 'search-current');
    if (this.hits.length === 0) return;
    const nodes = new Map<string, Element>();
    for (const node of svg.querySelectorAll('g.node[data-node-id]')) nodes.set((node as SVGGElement).dataset.nodeId ?? '', node);
    const currentSeq = this.current === undefined ? undefined : this.hits[this.current];
    for (const seq of this.hits) {
      const id = nodeIdForSeq(seq);
      const node = id === undefined ? undefined : nodes.get(id);
      if (!node) continue;
      node.classList.add('search-hit');
      if (seq === currentSeq) node.classList.add('search-current');
    }
  }

  private markCards(): void {
    for (const card of this.markedCards) card.classList.remove('search-hit', 'search-current');
    this.markedCards = [];
    const currentSeq = this.current === undefined ? undefined : this.hits[this.current];
    for (const seq of this.hits) {
      const card = this.targets.cardFor(seq);
      if (!card) continue;
      card.classList.add('search-hit');
      card.classList.toggle('search-current', seq === currentSeq);
      this.markedCards.push(card);
    }
  }
}
