// The explorer's drawing of a session's thoughts (branch tree and revision links) in every state — live, paused,
// finished, saved, replayed — like a commit graph: one row per thought at a fixed height, one lane per line of thought,
// the thought's text beside the lanes (src/diagrams/thoughtGraphSvg.ts). A new thought appends a row; nothing drawn
// before it moves, resizes or folds, and the view follows the newest row by scrolling, never by zooming. Only the rows
// in view are in the DOM (virtual rendering), so 10,000 thoughts scroll like 10. Rows are buttons in a roving tab
// order: arrows move between rows and along lines, Enter selects, and each row's accessible name carries its text.
import type { ThoughtDiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import {
  FEEDBACK_MARK_KIND_WORDS,
  FEEDBACK_MARK_STATE_WORDS,
  type FeedbackMark,
  type FeedbackMarkKind,
  type FeedbackMarkState,
  type ThoughtGraph,
} from '../../src/diagrams/thoughtGraph';
import { graphWidth, laneColourClass, lanesShownFor, ROW_HEIGHT, rowShapes, thoughtGraphSvg } from '../../src/diagrams/thoughtGraphSvg';
import { collapseLanes, collapsible, type ShownGraph } from '../../src/diagrams/thoughtGraphCollapse';
import type { ThoughtDrawingInput } from './diagramPolicy';
import { ThoughtGraphLines } from './thoughtGraphLines';
import { createRow, fillRow, MARK_ICONS, markIcon, rowVersion, type RowLook } from './thoughtGraphRows';
import { ThoughtGraphOverview } from './thoughtGraphOverview';

/** Rows drawn above and below the visible ones, so a scroll of a few rows shows drawn rows before the next frame. */
const OVERSCAN = 8;
/** Lane chips in the overview before the rest are summed up. */
const MAX_LANE_CHIPS = 12;

export interface ThoughtGraphViewOptions {
  kind: ThoughtDiagramKind;
  title: string;
  /** A row was clicked or activated by keyboard. */
  onSelect: (seq: number) => void;
  /** The person asked to see another part (a lane chip): follow mode pauses. */
  onUserScroll: () => void;
  /** The scroll position changed (the app saves it with the view state). */
  onViewChange: () => void;
  /** "Copy as Mermaid": the host builds the diagram's Mermaid text and puts it on the clipboard. */
  onCopyMermaid: () => void;
}

/** Branches collapsed in a session, by lane (saved with the view state: webview/app/navigationState.ts). */
export interface CollapsedBranches {
  sessionId: string;
  lanes: number[];
}

export class ThoughtGraphView {
  readonly element: HTMLElement;
  readonly kind: ThoughtDiagramKind;
  /** The scroll area; named `diagram-canvas` like the other diagrams' (tests and styles find it so). */
  readonly canvas: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly lines = new ThoughtGraphLines();
  private readonly overview: HTMLElement;
  private content: ThoughtDrawingInput | undefined;
  /** The strip beside the rows that shows the whole session and moves the view (webview/thoughtGraphOverview.ts). */
  private readonly minimap: ThoughtGraphOverview;
  /**
   * Lanes the person collapsed (never collapsed automatically) in the session `collapsedSession`: kept however often
   * that session's snapshot comes again (a re-sent snapshot, the session finishing), and saved with the view state.
   */
  private collapsed = new Set<number>();
  private collapsedSession: string | undefined;
  /** The graph as shown: collapsed branches folded to their first row (thoughtGraphCollapse.ts). */
  private shown: ShownGraph | undefined;
  /** Row elements in the DOM, by seq. */
  private rows = new Map<number, HTMLElement>();
  private drawnRange = { from: 0, to: 0, limit: -1, lanesShown: 0, width: 0, version: -1, scrollTop: 0 };
  /** Bumped by every `show` and mark change, so a redraw of the same window happens only when something changed. */
  private version = 0;
  private visible = true;
  private frame: number | undefined;
  private settledWaiters: (() => void)[] = [];
  private selected: number | undefined;
  private hits = new Set<number>();
  private currentHit: number | undefined;
  /** The row in the tab order (kept across redraws and scrolls). */
  private current: number | undefined;
  /**
   * The scroll area's inner size, taken when its ResizeObserver reports (layout is clean then, so reading it costs
   * nothing); undefined until then or after the view was hidden. Reading clientWidth/clientHeight on every thought
   * forced a layout of the whole page, cards included.
   */
  private viewSize: { width: number; height: number } | undefined;
  /** The newest row to follow, scrolled to in the next frame: a burst of thoughts scrolls once. */
  private pendingFollow: number | undefined;
  renderCount = 0;

  constructor(private readonly options: ThoughtGraphViewOptions) {
    this.kind = options.kind;
    this.element = document.createElement('section');
    this.element.className = `diagram diagram-${options.kind} thought-graph-view`;
    this.element.dataset.diagram = options.kind;

    const bar = document.createElement('div');
    bar.className = 'graph-bar';
    this.overview = document.createElement('div');
    this.overview.className = 'graph-lanes';
    this.overview.setAttribute('role', 'list');
    this.overview.setAttribute('aria-label', 'Lines of thought');
    const copy = document.createElement('vscode-button');
    copy.className = 'copy-mermaid';
    copy.setAttribute('secondary', '');
    copy.setAttribute('icon', 'copy');
    copy.title = 'Copy this diagram as Mermaid text';
    copy.textContent = 'Copy as Mermaid';
    copy.addEventListener('click', () => options.onCopyMermaid());
    bar.append(this.overview, legend(), copy);

    this.canvas = document.createElement('div');
    this.canvas.className = 'diagram-canvas graph-canvas';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'group');
    this.canvas.setAttribute(
      'aria-label',
      `${options.title}. Tab to its rows; up and down move between thoughts, left and right along a line, Enter selects, minus collapses the focused thought's branch and plus expands it, Escape comes back here.`,
    );
    this.spacer = document.createElement('div');
    this.spacer.className = 'graph-spacer';
    this.spacer.append(this.lines.element);
    this.canvas.append(this.spacer);
    this.minimap = new ThoughtGraphOverview({
      onJump: (row) => {
        options.onUserScroll();
        this.canvas.scrollTop = Math.max(0, row * ROW_HEIGHT - this.viewHeight / 2 + ROW_HEIGHT / 2);
      },
      describeRow: (row) => {
        const seq = this.shown?.seqAt(row);
        const node = seq === undefined ? undefined : this.graph?.nodes[seq];
        return node === undefined ? '' : `thought ${node.thoughtNumber}`;
      },
    });
    const body = document.createElement('div');
    body.className = 'graph-body';
    body.append(this.canvas, this.minimap.element);
    this.element.append(bar, body);

    // Whether a scroll was the person's is told by input events (webview/replay/followMode.ts), not by the scroll itself.
    this.canvas.addEventListener('scroll', () => {
      this.draw();
      options.onViewChange();
    });
    this.canvas.addEventListener('click', (event) => {
      const seq = rowSeqOf(event.target);
      if (seq !== undefined) options.onSelect(seq);
    });
    this.canvas.addEventListener('mousedown', (event) => {
      if (rowSeqOf(event.target) !== undefined) event.preventDefault();
    });
    this.canvas.addEventListener('keydown', (event) => this.onKey(event));
    this.canvas.addEventListener('focusin', (event) => {
      const seq = rowSeqOf(event.target);
      if (seq !== undefined && seq !== this.current) {
        this.current = seq;
        this.updateTabStops();
      }
    });
    new ResizeObserver(() => {
      this.viewSize = { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
      this.schedule();
    }).observe(this.canvas);
  }

  get graph(): ThoughtGraph | undefined {
    return this.content?.graph;
  }

  /** Rows shown (a replay's position, else every row). */
  get shownRows(): number {
    const content = this.content;
    return content ? Math.min(content.limit, content.graph.nodes.length) : 0;
  }

  /** New content (a thought appended, a replay step, marks changed): drawn in the next frame, coalesced. */
  show(content: ThoughtDrawingInput): void {
    // Another session starts with every branch expanded.
    if (content.sessionId !== this.collapsedSession) {
      this.collapsed.clear();
      this.collapsedSession = content.sessionId;
    }
    this.content = content;
    this.element.classList.toggle('is-live', content.live);
    if (this.current !== undefined && this.current >= this.shownRows) this.current = undefined;
    this.reshape();
  }

  /** Branches the person collapsed, by lane. */
  get collapsedLanes(): readonly number[] {
    return [...this.collapsed].sort((a, b) => a - b);
  }

  /** The branches the person collapsed and the session they are in, to save with the view state; undefined when none. */
  get collapsedState(): CollapsedBranches | undefined {
    const lanes = this.collapsedLanes;
    return this.collapsedSession === undefined || lanes.length === 0 ? undefined : { sessionId: this.collapsedSession, lanes: [...lanes] };
  }

  /** Puts back saved collapsed branches; they apply while (and once) the drawing shows their session. */
  restoreCollapsed(saved: CollapsedBranches): void {
    if (this.content !== undefined && this.content.sessionId !== saved.sessionId) return;
    this.collapsedSession = saved.sessionId;
    this.collapsed = new Set(saved.lanes);
    this.reshape();
  }

  /** Collapses or expands the branch on `lane` (the person's choice: a lane chip's toggle or the - and + keys). */
  setCollapsed(lane: number, collapse: boolean): void {
    const graph = this.graph;
    if (!graph || !collapsible(graph, lane) || this.collapsed.has(lane) === collapse) return;
    // Keep the row the person looks at in place: the first row in view stays at the top.
    const anchor = this.shown?.seqAt(Math.floor(this.canvas.scrollTop / ROW_HEIGHT));
    const offset = this.canvas.scrollTop % ROW_HEIGHT;
    if (collapse) this.collapsed.add(lane);
    else this.collapsed.delete(lane);
    this.reshape();
    this.options.onViewChange();
    if (anchor !== undefined && this.shown) this.canvas.scrollTop = this.shown.rowOf(anchor) * ROW_HEIGHT + offset;
    if (this.current !== undefined && this.shown?.hidden(this.current)) this.current = this.shown.seqAt(this.shown.rowOf(this.current));
  }

  /** The shown graph recomputed from the content and the collapsed lanes; drawn in the next frame. */
  private reshape(): void {
    const content = this.content;
    if (!content) return;
    this.shown = collapseLanes(content.graph, this.collapsed);
    this.version++;
    this.spacer.style.height = `${this.spacerHeight}px`;
    this.minimap.update(this.shown.graph, this.shown.rowsFor(this.shownRows));
    this.showOverview(content.graph);
    this.schedule();
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    // Shown again: measured afresh (its observer reports the new size only after the next layout).
    this.viewSize = undefined;
    if (visible) this.schedule();
  }

  /** The selected thought's row is marked. */
  setSelected(seq: number | undefined): void {
    this.selected = seq;
    this.version++;
    this.schedule();
  }

  /** Search hits are marked, the current one more strongly. */
  setSearch(hits: readonly number[], current: number | undefined): void {
    this.hits = new Set(hits);
    this.currentHit = current;
    this.version++;
    this.schedule();
  }

  /** Scrolls so row `seq` is in view: at the bottom edge when following, in the middle when revealing a pick. */
  scrollToRow(seq: number, how: 'follow' | 'reveal', behavior: ScrollBehavior = 'auto'): void {
    if (how === 'follow') {
      // Following is done in the next frame, before the draw: nothing is measured while thoughts are being added.
      this.pendingFollow = seq;
      this.schedule();
      return;
    }
    // A pick shows that row, not the newest one asked for earlier in this frame.
    this.pendingFollow = undefined;
    // A pick (a search hit, a card) inside a collapsed branch opens that branch: the person asked to see that thought.
    const lane = this.graph?.nodes[seq]?.lane;
    if (lane !== undefined && this.shown?.hidden(seq)) this.setCollapsed(lane, false);
    this.scrollRowIntoView(seq, how, behavior);
  }

  private scrollRowIntoView(seq: number, how: 'follow' | 'reveal', behavior: ScrollBehavior): void {
    const height = this.viewHeight;
    if (height <= 0) return;
    const top = this.rowOf(seq) * ROW_HEIGHT;
    const current = this.canvas.scrollTop;
    let target = current;
    if (how === 'follow') {
      if (top < current || top + ROW_HEIGHT > current + height) target = top + ROW_HEIGHT - height + ROW_HEIGHT / 2;
    } else if (top < current || top + ROW_HEIGHT > current + height) target = top - height / 2 + ROW_HEIGHT / 2;
    target = Math.max(0, Math.min(target, this.spacerHeight - height));
    if (Math.abs(target - current) < 1) return;
    // The scroll event draws the rows now in view (at most once a frame, however many thoughts arrive in it).
    this.canvas.scrollTo({ top: target, behavior });
  }

  /** Is row `seq` wholly inside the visible part of the drawing? */
  rowInView(seq: number): boolean {
    const top = this.rowOf(seq) * ROW_HEIGHT - this.canvas.scrollTop;
    return top >= 0 && top + ROW_HEIGHT <= this.viewHeight;
  }

  private get viewWidth(): number {
    this.viewSize ??= { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
    return this.viewSize.width;
  }

  private get viewHeight(): number {
    this.viewSize ??= { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
    return this.viewSize.height;
  }

  /** The spacer's height as set by `reshape` (one row per shown thought), known without measuring it. */
  private get spacerHeight(): number {
    return Math.max(1, this.shown?.graph.nodes.length ?? 0) * ROW_HEIGHT;
  }

  get scrollTop(): number {
    return this.canvas.scrollTop;
  }

  set scrollTop(value: number) {
    this.canvas.scrollTop = value;
  }

  /** The row in the tab order (saved with the view state). */
  get currentRow(): number | undefined {
    return this.current;
  }

  set currentRow(seq: number | undefined) {
    this.current = seq;
    this.updateTabStops();
  }

  /** Moves keyboard focus to a row, scrolling it into view first; false when there is no such row. */
  focusRow(target: number): boolean {
    if (target < 0 || target >= this.shownRows) return false;
    // A thought inside a collapsed branch is reached on the row that stands for the branch.
    const seq = this.shown ? this.shown.seqAt(this.shown.rowOf(target)) : target;
    this.current = seq;
    this.scrollToRow(seq, 'reveal');
    this.draw();
    this.updateTabStops();
    const row = this.rows.get(seq);
    row?.focus({ preventScroll: true });
    return row !== undefined;
  }

  /** Resolves when no draw is pending. */
  settled(): Promise<void> {
    if (this.frame === undefined) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** The whole drawing (every row) as a standalone SVG: Export SVG. */
  exportSvg(): string {
    const content = this.content;
    const graph = content?.graph ?? { nodes: [], edges: [], lanes: [] };
    return thoughtGraphSvg(graph, content?.marks ?? new Map(), this.options.title);
  }

  /** The shown row of thought `seq` (its own, or its collapsed branch's). */
  private rowOf(seq: number): number {
    return this.shown ? this.shown.rowOf(seq) : seq;
  }

  private schedule(): void {
    if (this.frame !== undefined) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = undefined;
      const follow = this.pendingFollow;
      this.pendingFollow = undefined;
      // A hidden view does not follow (as before: it has no height); the tab shown later follows on its own.
      if (follow !== undefined && this.visible && follow < this.shownRows) this.scrollRowIntoView(follow, 'follow', 'auto');
      this.draw();
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const resolve of waiters) resolve();
    });
  }

  /** Draws the rows in view (plus a few either side); rows already drawn for this content are kept. */
  private draw(): void {
    const content = this.content;
    const shown = this.shown;
    if (!content || !shown || !this.visible) return;
    const width = this.viewWidth;
    if (width <= 0) return;
    const { graph, marks } = content;
    // In shown rows from here on (collapsed branches take one row); what a row says comes from the whole graph by seq.
    const limit = shown.rowsFor(this.shownRows);
    const lanesShown = lanesShownFor(graph.lanes.length, width);
    const scrollTop = this.canvas.scrollTop;
    const height = this.viewHeight || ROW_HEIGHT * 20;
    const drawn = this.drawnRange;
    // A jump further than the overscan (dragging the scrollbar, Page Down) lands past every row drawn in advance, so
    // drawing more in advance only costs that frame; the extra rows come with the next small scroll.
    const overscan = Math.abs(scrollTop - drawn.scrollTop) > OVERSCAN * ROW_HEIGHT ? 1 : OVERSCAN;
    const from = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - overscan);
    // As many rows as a screen can touch, however its first row is cut: a window whose size went up and down by a row
    // with the scroll offset's fraction removed a row in one frame and built one in the next.
    const to = Math.min(limit, from + Math.ceil(height / ROW_HEIGHT) + 1 + 2 * overscan);
    if (
      drawn.from === from &&
      drawn.to === to &&
      drawn.limit === limit &&
      drawn.lanesShown === lanesShown &&
      drawn.width === width &&
      drawn.version === this.version
    )
      return;
    const sameGeometry = drawn.lanesShown === lanesShown && drawn.width === width;
    this.drawnRange = { from, to, limit, lanesShown, width, version: this.version, scrollTop };
    const textLeft = graphWidth(lanesShown);
    // Set only when it changes: a custom property on the section restyles every row under it.
    if (!sameGeometry) this.element.style.setProperty('--graph-width', `${textLeft}px`);

    // Lines: the drawn rows' lanes, links and dots, in one SVG as tall as the drawing (webview/thoughtGraphLines.ts).
    this.lines.draw(
      rowShapes(shown.graph, from, to, lanesShown, limit),
      textLeft,
      this.spacerHeight,
      (row) => shown.seqAt(row) === this.selected,
    );

    // Rows: a kept row is refilled only when its content changed; rows leaving the window take the entering rows'
    // thoughts (webview/thoughtGraphRows.ts), all but the focused one, which keeps its element until it is removed.
    const focusedSeq = rowSeqOf(document.activeElement);
    const spare: HTMLElement[] = [];
    for (const [seq, row] of this.rows) {
      const at = shown.rowOf(seq);
      if (!shown.hidden(seq) && at >= from && at < to) continue;
      if (seq === focusedSeq) row.remove();
      else spare.push(row);
    }
    const next = new Map<number, HTMLElement>();
    for (let place = from; place < to; place++) {
      const seq = shown.seqAt(place);
      let row = this.rows.get(seq);
      const hiddenUnder = shown.hiddenUnder(place);
      const version = `${this.rowVersion(seq, marks)}|${place}|${hiddenUnder}`;
      if (row && sameGeometry && rowVersion(row) === version) {
        next.set(seq, row);
        continue;
      }
      if (!row) {
        row = spare.pop();
        if (!row) {
          row = createRow();
          this.spacer.append(row);
        }
      }
      fillRow(row, graph, seq, marks.get(seq) ?? [], this.rowLook(seq), version, { place, hiddenUnder });
      next.set(seq, row);
    }
    // Only the rows in the window stay in the DOM.
    for (const row of spare) row.remove();
    this.rows = next;
    this.updateTabStops();
    if (focusedSeq !== undefined && rowSeqOf(document.activeElement) === undefined)
      this.rows.get(focusedSeq)?.focus({ preventScroll: true });
    this.renderCount++;
    // Visible to tests and the benchmark without any hook into the page's scripts.
    this.element.dataset.renders = String(this.renderCount);
    this.element.dataset.rows = String(graph.nodes.length);
    this.element.dataset.shownRows = String(this.shownRows);
    this.minimap.setView(Math.floor(scrollTop / ROW_HEIGHT), Math.floor(height / ROW_HEIGHT));
  }

  /** What a row shows, as one string: a row is rebuilt when this changes (a mark, a selection, a search hit). */
  private rowVersion(seq: number, marks: ReadonlyMap<number, readonly FeedbackMark[]>): string {
    const rowMarks = marks.get(seq);
    return [
      seq === this.selected ? 's' : '',
      this.hits.has(seq) ? (seq === this.currentHit ? 'c' : 'h') : '',
      rowMarks ? rowMarks.map((mark) => `${mark.kind}${mark.state}`).join() : '',
      this.graph?.nodes[seq]?.final ? 'f' : '',
    ].join('|');
  }

  private rowLook(seq: number): RowLook {
    return {
      selected: seq === this.selected,
      hit: !this.hits.has(seq) ? 'none' : seq === this.currentHit ? 'current' : 'hit',
      dim: this.kind === 'revisionChain' && this.graph !== undefined && !takesPartInRevision(this.graph, seq),
    };
  }

  private updateTabStops(): void {
    const target = this.current ?? this.rows.keys().next().value;
    for (const [seq, row] of this.rows) {
      const tabIndex = seq === target ? 0 : -1;
      if (row.tabIndex !== tabIndex) row.tabIndex = tabIndex;
    }
  }

  private onKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const seq = rowSeqOf(event.target);
    const graph = this.graph;
    if (!graph) return;
    const last = this.shownRows - 1;
    if (seq === undefined) {
      if (event.target !== this.canvas || event.key !== 'Enter') return;
      this.focusRow(this.current ?? Math.max(0, Math.floor(this.canvas.scrollTop / ROW_HEIGHT)));
      event.preventDefault();
      return;
    }
    const page = Math.max(1, Math.floor(this.viewHeight / ROW_HEIGHT) - 1);
    // Up, down, pages and the ends move by shown rows (a collapsed branch is one row).
    const shown = this.shown;
    const lastRow = shown ? shown.rowsFor(this.shownRows) - 1 : last;
    const place = this.rowOf(seq);
    const byRow = (row: number): number => (shown ? shown.seqAt(Math.min(lastRow, Math.max(0, row))) : row);
    const lane = graph.nodes[seq].lane;
    let target: number | undefined;
    switch (event.key) {
      case 'ArrowUp':
        target = place > 0 ? byRow(place - 1) : undefined;
        break;
      case 'ArrowDown':
        target = place < lastRow ? byRow(place + 1) : undefined;
        break;
      case 'ArrowLeft':
        // Back along its line: the thought before it, or the fork a branch starts from.
        target = graph.nodes[seq].parent ?? graph.nodes[seq].revises;
        break;
      case 'ArrowRight':
        target = nextOnLane(graph, seq, last);
        break;
      case 'PageUp':
        target = byRow(place - page);
        break;
      case 'PageDown':
        target = byRow(place + page);
        break;
      case 'Home':
        target = byRow(0);
        break;
      case 'End':
        target = byRow(lastRow);
        break;
      case '-':
      case '+':
      case '=':
        // The person folds or unfolds the branch this thought is on; focus stays on the row that shows it.
        if (!collapsible(graph, lane)) return;
        this.setCollapsed(lane, event.key === '-');
        target = seq;
        break;
      case 'Enter':
      case ' ':
        this.options.onSelect(seq);
        break;
      case 'Escape':
        this.canvas.focus({ preventScroll: true });
        break;
      default:
        return;
    }
    if (target !== undefined && target >= 0 && target <= last) this.focusRow(target);
    // Arrow keys would otherwise scroll the page, and the replay's own keys must not fire from inside the drawing.
    event.preventDefault();
    event.stopPropagation();
  }

  /**
   * The lanes as chips: a line's name and size; a click brings its first thought into view. A branch's chip has a
   * toggle beside it that collapses or expands the branch.
   */
  private showOverview(graph: ThoughtGraph): void {
    const key = `${graph.lanes.map((lane) => lane.size).join()}/${this.collapsedLanes.join()}`;
    if (this.overview.dataset.key === key) return;
    const hadFocus = this.overview.contains(document.activeElement) ? document.activeElement : null;
    const focusedToggle = hadFocus instanceof HTMLElement ? hadFocus.dataset.lane : undefined;
    this.overview.dataset.key = key;
    const chips: HTMLElement[] = graph.lanes.slice(0, MAX_LANE_CHIPS).map((lane) => {
      const item = document.createElement('span');
      item.className = 'lane-item';
      item.setAttribute('role', 'listitem');
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = `lane-chip ${laneColourClass(lane.index)}`;
      item.append(chip);
      const name = lane.branchId === undefined ? 'main' : lane.branchId;
      chip.textContent = `${name} · ${lane.size}`;
      // Spoken, not a tooltip: a branch name is the agent's text, shown as text only.
      chip.setAttribute(
        'aria-label',
        `${lane.branchId === undefined ? 'Main line' : `Branch ${lane.branchId}`}: ${lane.size} thought${lane.size === 1 ? '' : 's'}; show its first`,
      );
      chip.addEventListener('click', () => {
        this.options.onUserScroll();
        this.scrollToRow(lane.first, 'reveal');
      });
      if (collapsible(graph, lane.index)) item.append(this.laneToggle(lane.index, lane.branchId ?? '', focusedToggle));
      return item;
    });
    if (graph.lanes.length > MAX_LANE_CHIPS) {
      const more = document.createElement('span');
      more.className = 'lane-more';
      more.textContent = `+${graph.lanes.length - MAX_LANE_CHIPS} more`;
      chips.push(more);
    }
    this.overview.replaceChildren(...chips);
  }

  /** The collapse/expand toggle of a branch's chip (focus kept on it when the chips are rebuilt). */
  private laneToggle(lane: number, branch: string, focused: string | undefined): HTMLElement {
    const collapsed = this.collapsed.has(lane);
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'lane-toggle';
    toggle.dataset.lane = String(lane);
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.setAttribute('aria-label', `${collapsed ? 'Expand' : 'Collapse'} branch ${branch}`);
    toggle.title = collapsed ? 'Expand this branch' : 'Collapse this branch to its first thought';
    const icon = document.createElement('span');
    icon.className = `codicon codicon-${collapsed ? 'chevron-right' : 'chevron-down'}`;
    icon.setAttribute('aria-hidden', 'true');
    toggle.append(icon);
    toggle.addEventListener('click', () => this.setCollapsed(lane, !this.collapsed.has(lane)));
    if (focused === String(lane)) queueMicrotask(() => toggle.focus({ preventScroll: true }));
    return toggle;
  }
}

function rowSeqOf(target: EventTarget | null): number | undefined {
  if (!(target instanceof Element)) return undefined;
  const row = target.closest<HTMLElement>('.graph-row');
  return row?.dataset.seq === undefined ? undefined : Number(row.dataset.seq);
}

function nextOnLane(graph: ThoughtGraph, seq: number, last: number): number | undefined {
  const lane = graph.nodes[seq].lane;
  for (let next = seq + 1; next <= last; next++) if (graph.nodes[next].lane === lane) return next;
  return undefined;
}

/** A revision, or a thought a revision revises: the revision tab draws the rest dimmed. */
function takesPartInRevision(graph: ThoughtGraph, seq: number): boolean {
  const node = graph.nodes[seq];
  if (node.kind === 'revision') return true;
  return revisedSet(graph).has(seq);
}

const revisedSets = new WeakMap<ThoughtGraph, { size: number; set: Set<number> }>();
function revisedSet(graph: ThoughtGraph): Set<number> {
  const cached = revisedSets.get(graph);
  if (cached && cached.size === graph.edges.length) return cached.set;
  const set = new Set<number>();
  for (const edge of graph.edges) if (edge.kind === 'revision') set.add(edge.to);
  revisedSets.set(graph, { size: graph.edges.length, set });
  return set;
}

const STATES: FeedbackMarkState[] = ['waiting', 'delivered', 'applied', 'not-acted-on'];

/** What the dots and marks mean. */
function legend(): HTMLElement {
  const details = document.createElement('details');
  details.className = 'graph-legend';
  const summary = document.createElement('summary');
  summary.textContent = 'Legend';
  const list = document.createElement('div');
  list.className = 'legend-items';
  const item = (className: string, content: string | HTMLElement, label: string): void => {
    const entry = document.createElement('span');
    entry.className = 'legend-item';
    const sample = document.createElement('span');
    sample.className = className;
    sample.append(content);
    entry.append(sample, label === '' ? '' : ` ${label}`);
    list.append(entry);
  };
  item('legend-dot kind-main', '', 'thought');
  item('legend-dot kind-revision', '', 'revision (dashed link to what it revises)');
  item('legend-dot final', '', 'final thought');
  for (const kind of Object.keys(MARK_ICONS) as FeedbackMarkKind[])
    item(`graph-mark mark-${kind} state-delivered`, markIcon(kind), `${FEEDBACK_MARK_KIND_WORDS[kind]} (your feedback)`);
  for (const state of STATES) item(`graph-mark mark-note state-${state}`, FEEDBACK_MARK_STATE_WORDS[state], '');
  details.append(summary, list);
  return details;
}
