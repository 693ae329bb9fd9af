// The explorer app: owns the UI state, the session the webview holds and the page's parts, and applies the diagram
// policy to each change. Live order of work for a new thought: its card first (people read the thought, then the
// picture), then the stage graph's classes (no re-render), then one row appended to the thought drawings
// (webview/diagrams/thoughtGraphView.ts), drawn in the next frame.
// The page's structure is in explorerLayout.ts, the protocol's dispatch in hostMessages.ts, exports in svgExport.ts,
// which drawing each diagram gets and what a change redraws in diagramPolicy.ts.
import { DIAGRAM_KINDS, type DiagramKind, isThoughtDiagram, THOUGHT_DIAGRAM_KINDS } from '../../src/engine/browserSafe/diagramKinds';
import type { SessionMeta, SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import { summarizeDeliberation } from '../../src/shared/deliberationView';
import { type ExplorerMode, type SessionView, type StrategyView, type ThemeKind } from '../../src/shared/protocol';
import { snapshotOfView } from '../../src/engine/browserSafe/sessionSnapshot';
import type { LiveDeliberationState } from '../../src/shared/deliberationProtocol';
import { DeliberationStatusView, SessionOffer } from '../header';
import {
  configureMermaid,
  currentThemeKind,
  followAction,
  GrownThoughtGraph,
  nodesById,
  redrawFor,
  renderExportSvgs,
  revealsSelection,
  serializeDiagram,
  stageGraphDefinition,
  thoughtDrawingInput,
  watchTheme,
  type DiagramChange,
  type SelectSource,
} from '../diagrams';
import { buildLayout, type ExplorerLayout } from './explorerLayout';
import { FeedbackControls } from '../cards';
import { FollowMode, LiveAnnouncer, scrollIntoContainer } from '../replay';
import type { FeedbackRecord } from '../../src/engine/model';
import type { FeedbackHostMessage } from '../../src/shared/feedbackProtocol';
import { listenToHost, type HostMessageHandler } from './hostMessages';
import type { InsightsMessage } from '../../src/shared/insightsView';
import { SessionModel } from './sessionModel';
import { applyNavigationState, collectNavigationState, type NavigationState } from './navigationState';
import { SearchController } from '../search';
import { restoreUiState, tabIndex, type UiState } from './uiState';
import type { ExplorerHost } from './vscodeApi';
import { ROW_HEIGHT } from '../../src/diagrams/thoughtGraphSvg';

/** Rows at the bottom of a thought drawing's view that following the cards keeps on screen: the newest is among them. */
const FOLLOWED_ROWS_KEPT = 2;

export class ExplorerApp implements HostMessageHandler {
  private readonly ui: UiState;
  private readonly model = new SessionModel();
  private readonly layout: ExplorerLayout;
  private theme: ThemeKind;
  private readonly deliberation: DeliberationStatusView;
  private deliberationState: LiveDeliberationState | undefined;
  /** The thought graph of the session held, grown one thought at a time (diagramPolicy.ts). */
  private readonly graph = new GrownThoughtGraph();
  private readonly search: SearchController;
  private readonly announcer: LiveAnnouncer;
  private readonly feedback: FeedbackControls;
  private readonly offer: SessionOffer;
  private readonly follow: FollowMode;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Following done in the next frame, once however many thoughts arrive in it (the newest asked for wins): the card to
   * scroll to and whether the stage graph pans (gliding). Measuring right after a thought was added forced a layout
   * of the whole page on every thought.
   */
  private pendingCard: { seq: number; behavior: ScrollBehavior } | undefined;
  private pendingStagePan: { glide: boolean } | undefined;
  private followFrame: number | undefined;

  constructor(
    private readonly host: ExplorerHost<UiState>,
    private readonly document: Document,
  ) {
    this.ui = restoreUiState(host.getState());
    const body = document.body;
    const surface = body.dataset.surface === 'panel' ? 'panel' : 'view';
    this.theme = currentThemeKind(body);
    configureMermaid(this.theme);

    const root = document.getElementById('app') ?? body.appendChild(document.createElement('div'));
    root.id = 'app';
    root.classList.add(`surface-${surface}`);
    this.layout = buildLayout(
      root,
      this.ui.activeTab,
      {
        onOpenInPanel: surface === 'view' ? () => host.post({ type: 'openInPanel', sessionId: this.model.session?.meta.id }) : undefined,
        onExportSvg: () => this.exportSvgInView(),
        onReplaySeek: (position) => this.seek(position),
        onReplayChange: (state) => {
          this.ui.replaySpeed = state.speed;
        },
        onRendered: (svg) => this.afterStageRender(svg),
        onRenderFailed: (kind, message) => host.post({ type: 'renderFailed', diagram: kind, message }),
        onNodeClick: (nodeId) => this.onStageNodeClick(nodeId),
        onSelectRow: (seq) => this.select(seq, 'diagram'),
        onCopyMermaid: (kind) => host.post({ type: 'copyMermaid', diagram: kind, sessionId: this.model.session?.meta.id }),
        onSelectCard: (seq) => this.select(seq, 'card'),
        onViewChange: () => this.saveStateSoon(),
        onUserViewChange: () => this.follow.pause(),
        // Cards built for the new window have no search or feedback marks yet.
        onCardsWindowMoved: () => {
          this.search.refresh();
          this.refreshFeedback();
        },
        onSelectTab: (kind) => this.setActiveTab(kind),
        onSelectInsights: () => {
          this.ui.insightsShown = true;
          this.saveState();
        },
        onRequestInsights: (filter, requestId) =>
          host.post({ type: 'requestInsights', requestId, sessionId: this.model.session?.meta.id, filter }),
      },
      this.ui.insightsShown,
    );
    this.follow = new FollowMode(root, { onResume: () => this.followNewest(false) });
    this.layout.header.addAction(this.follow.button);
    this.deliberation = new DeliberationStatusView((sessionId) => host.post({ type: 'stopDeliberation', sessionId }));
    this.layout.header.element.after(this.deliberation.element);
    this.offer = new SessionOffer({ onSwitch: (sessionId) => host.post({ type: 'switchToSession', sessionId }) });
    this.layout.header.element.before(this.offer.element);
    this.search = new SearchController({
      thoughts: () => this.model.shownThoughts(),
      cardFor: (seq) => this.layout.cards.renderedCard(seq),
      diagrams: () => [this.layout.stageView],
      graphs: () => THOUGHT_DIAGRAM_KINDS.map((kind) => this.layout.graphs[kind]),
      onCurrent: (seq) => this.select(seq, 'search'),
    });
    this.layout.body.before(this.search.element);
    // A stage-graph node stands for every thought written in its stage.
    this.layout.stageView.nodeIdForSeq = (seq) => {
      const stage = this.model.shownThoughts()[seq]?.stage;
      return stage === undefined ? undefined : this.layout.stageGraph.nodeIdFor(stage);
    };
    this.feedback = new FeedbackControls({
      post: (message) => host.post(message),
      cardFor: (seq) => this.layout.cards.renderedCard(seq),
      cardList: this.layout.cards.element,
    });
    this.layout.cardsColumn.append(this.feedback.element);
    this.announcer = LiveAnnouncer.inRegion(root).announcer;
    if (this.ui.navigation) this.restoreNavigation(this.ui.navigation);
  }

  /** Zoom and pan per diagram, the keyboard's node per diagram and the search query, as plain data to save. */
  navigationState(): NavigationState {
    return collectNavigationState(this.layout.stageView, this.layout.graphs, this.search);
  }

  /** Puts back what navigationState() returned (read defensively: it comes from saved state). */
  restoreNavigation(saved: unknown): void {
    applyNavigationState(saved, this.layout.stageView, this.layout.graphs, this.search);
  }

  /** Starts listening to the host, the keyboard and the theme, then tells the host the webview is ready. */
  start(): void {
    const window = this.document.defaultView;
    if (window) {
      listenToHost(window, this);
      window.addEventListener('keydown', (event) => {
        if (this.layout.replay.handleKey(event)) event.preventDefault();
      });
    }
    watchTheme((kind) => this.changeTheme(kind), this.document.body);
    this.host.post({ type: 'ready' });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Host messages

  showSnapshot(session: SessionView | null, isReplay: boolean, mode?: ExplorerMode): void {
    const { ui, model, layout } = this;
    if (mode !== undefined) ui.mode = mode;
    const sameSession = session !== null && session.meta.id === ui.sessionId;
    model.load(session, isReplay);
    layout.cards.clear();
    this.invalidateDiagrams('snapshot');
    if (!sameSession) {
      ui.selectedSeq = undefined;
      ui.replayPosition = undefined;
    }
    ui.sessionId = session?.meta.id;
    this.offer.shown(ui.sessionId);
    // The host re-sends the live state after a snapshot; until then, keep what belongs to this session only.
    this.deliberation.show(isReplay ? undefined : this.deliberationState, session?.meta.id);
    if (isReplay && session) {
      layout.replay.start(model.total, ui.replayPosition ?? 0, ui.replaySpeed ?? 1);
    } else {
      layout.replay.stop();
      this.redrawAll('snapshot');
      // Joining a session in progress: where its own scroll area allows (the wide panel), start at the newest card.
      const column = layout.cardsColumn;
      if (ui.selectedSeq === undefined && column.scrollHeight > column.clientHeight) column.scrollTop = column.scrollHeight;
    }
    if (ui.selectedSeq !== undefined) this.select(ui.selectedSeq, 'restore');
    this.refreshFeedback();
    this.saveState();
    layout.insights.sessionChanged();
  }

  offerSession(session: { id: string; title: string } | null): void {
    this.offer.show(session);
  }

  showInsights(message: InsightsMessage): void {
    this.layout.insights.answer(message);
  }

  /** The host asks for a tab and/or a thought (e.g. the in-editor tests, a thought picked elsewhere). */
  showInView(tab: DiagramKind | undefined, seq: number | undefined): void {
    if (tab !== undefined) {
      this.document.querySelector('vscode-tabs')?.setAttribute('selected-index', String(tabIndex(tab)));
      this.setActiveTab(tab);
    }
    if (seq !== undefined) this.select(seq, 'diagram');
  }

  /** A deliberation's live state: drawn when it belongs to the session on screen. */
  showDeliberation(state: LiveDeliberationState): void {
    this.deliberationState = state;
    this.deliberation.show(state, this.model.session?.meta.id);
  }

  showFeedback(sessionId: string, feedback: FeedbackRecord[]): void {
    if (!this.model.setFeedback(sessionId, feedback)) return;
    this.refreshFeedback();
    // The thought drawings mark the thoughts feedback is about.
    if (redrawFor('feedback', this.layout.replay.active).thoughtDrawings) this.drawThoughtGraphs(false);
  }

  showFeedbackResult(message: Extract<FeedbackHostMessage, { type: 'feedbackResult' }>): void {
    this.feedback.answer(message);
  }

  /** The feedback panel, the marks on the cards and the actions on the selected card, from the model. */
  private refreshFeedback(): void {
    const session = this.model.session;
    const replaying = this.layout.replay.active;
    this.feedback.update({
      sessionId: session?.meta.id,
      thoughts: this.model.shownThoughts(),
      feedback: replaying ? [] : (session?.feedback ?? []),
      status: session?.meta.status ?? 'live',
      steerable: session !== null && session.meta.status === 'live' && !replaying,
      selectedSeq: this.ui.selectedSeq,
    });
  }

  addThought(sessionId: string, meta: SessionMeta, thought: ThoughtRecord): void {
    const outcome = this.model.addThought(sessionId, meta, thought);
    if (outcome === 'gap') this.host.post({ type: 'requestFullSession', sessionId });
    if (outcome === 'appended') {
      if (!this.layout.replay.active) this.announcer.thoughtAdded(thought);
      const replay = this.layout.replay;
      if (replay.active) replay.start(this.model.total, this.model.position, replay.state.speed);
      else this.redrawLive();
      this.layout.insights.sessionChanged();
    }
  }

  updateSession(meta: SessionMeta, strategy: StrategyView | undefined): void {
    if (this.model.updateMeta(meta, strategy)) this.redrawAll('meta');
  }

  themeReported(kind: ThemeKind): void {
    // VS Code's body class is the source of truth; the message only matters where the class did not change.
    if (kind !== this.theme) this.changeTheme(kind);
  }

  applyReplayState(state: { playing?: boolean; position?: number; speed?: number }): void {
    this.layout.replay.apply(state);
  }

  /** Full (unwindowed) SVGs of `session`, or of the session held, for an export. */
  async answerSvgRequest(requestId: string, session: SessionView | undefined): Promise<void> {
    const source = session ?? this.model.session ?? undefined;
    if (!source) {
      this.host.post({ type: 'svgRendered', requestId, svgs: {}, errors: ['No session to render'] });
      return;
    }
    const { svgs, errors } = await renderExportSvgs(snapshotOfView(source), source.strategy, this.layout.stageView, this.layout.stageGraph);
    this.host.post({ type: 'svgRendered', requestId, svgs, errors });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Drawing

  /** Everything from the model: snapshots, replay steps, theme changes. */
  private redrawAll(change: Exclude<DiagramChange, 'liveThought' | 'feedback'>): void {
    const { ui, model, layout } = this;
    const redraw = redrawFor(change, layout.replay.active);
    const snapshot = model.shownSnapshot();
    const hasSession = snapshot !== undefined;
    layout.empty.hidden = hasSession;
    layout.body.hidden = !hasSession;
    this.search.element.hidden = !hasSession;
    layout.header.show(
      snapshot?.meta,
      snapshot ? model.strategyNamed(snapshot.meta.strategy) : undefined,
      model.position,
      layout.replay.active,
    );
    this.follow.setLive(snapshot?.meta.status === 'live' && !layout.replay.active);
    this.showDeliberationBudget(snapshot);
    layout.header.steps.show(snapshot?.thoughts ?? []);
    if (!snapshot) return;
    const thoughts = snapshot.thoughts;
    layout.cards.show(thoughts);
    if (ui.selectedSeq !== undefined && ui.selectedSeq >= thoughts.length) ui.selectedSeq = undefined;
    layout.cards.select(ui.selectedSeq, false);
    this.search.refresh();
    // A replay step shows its card without scrolling the page (and the title with it) away.
    if (layout.replay.active && thoughts.length > 0) this.scrollToCard(thoughts.length - 1, 'auto');
    if (redraw.stageGraph) layout.stageGraph.update(snapshot, stageGraphDefinition(snapshot, model.strategyNamed(snapshot.meta.strategy)));
    if (redraw.thoughtDrawings) this.drawThoughtGraphs(this.follow.active || layout.replay.active);
    layout.diff.show(thoughts, ui.selectedSeq);
    this.refreshFeedback();
  }

  /** One new live thought: the card, then the stage graph's classes, then the windowed diagrams (coalesced). */
  private redrawLive(): void {
    const { model, layout } = this;
    const snapshot = model.shownSnapshot();
    if (!snapshot) return;
    const redraw = redrawFor('liveThought', false);
    layout.cards.show(snapshot.thoughts);
    this.search.refresh();
    const strategy = model.strategyNamed(snapshot.meta.strategy);
    layout.header.show(snapshot.meta, strategy, model.position);
    // Taken before the thought that ends the session switches following off: that thought is the answer, shown too.
    const following = this.follow.active;
    this.follow.setLive(snapshot.meta.status === 'live');
    const move = following ? this.follow.nextMove() : 'auto';
    if (following) this.scrollToCard(snapshot.thoughts.length - 1, move);
    this.showDeliberationBudget(snapshot);
    layout.header.steps.show(snapshot.thoughts);
    if (redraw.stageGraph) layout.stageGraph.update(snapshot, stageGraphDefinition(snapshot, strategy));
    if (following) this.followDiagram('stageGraph', move === 'smooth');
    if (redraw.thoughtDrawings) this.drawThoughtGraphs(following);
    this.refreshFeedback();
  }

  /** Follow mode resumed: the newest card, the current stage and the newest nodes, all at once. */
  private followNewest(glide: boolean): void {
    const last = this.model.shownThoughts().length - 1;
    if (last >= 0) this.scrollToCard(last, this.follow.nextMove());
    for (const kind of DIAGRAM_KINDS) this.followDiagram(kind, glide);
  }

  /**
   * Scrolls the cards' own scroll area (the panel's card column; in the sidebar, the page) to thought `seq`'s card,
   * clear of the sticky header and the steering box pinned under the cards, in the next frame. Where the page is the
   * scroller (the sidebar), the thought drawing shown above the cards wins: the page scrolls no further than keeps the
   * drawing's newest row (at the bottom of its view while following) below the header, and scrolls back up to it if needed.
   */
  private scrollToCard(seq: number, behavior: ScrollBehavior): void {
    this.pendingCard = { seq, behavior };
    this.scheduleFollow();
  }

  private scheduleFollow(): void {
    this.followFrame ??= requestAnimationFrame(() => {
      this.followFrame = undefined;
      const card = this.pendingCard;
      const pan = this.pendingStagePan;
      this.pendingCard = undefined;
      this.pendingStagePan = undefined;
      if (card) this.scrollToCardNow(card.seq, card.behavior);
      if (pan) this.panToCurrentStage(pan.glide);
    });
  }

  private scrollToCardNow(seq: number, behavior: ScrollBehavior): void {
    const card = this.layout.cards.cardFor(seq);
    if (!card) return;
    const column = this.layout.cardsColumn;
    const ownScroll = ['auto', 'scroll'].includes(getComputedStyle(column).overflowY);
    const scroller = ownScroll ? column : ((this.document.scrollingElement as HTMLElement | null) ?? this.document.documentElement);
    const header = this.layout.header.element.getBoundingClientRect();
    const topInset = ownScroll ? 0 : Math.max(0, header.bottom);
    const bottomInset = this.feedback.element.hidden ? 0 : this.feedback.element.offsetHeight;
    const drawing = isThoughtDiagram(this.ui.activeTab) ? this.layout.graphs[this.ui.activeTab].element : undefined;
    const maxDown = ownScroll || !drawing ? Infinity : drawing.getBoundingClientRect().bottom - FOLLOWED_ROWS_KEPT * ROW_HEIGHT - topInset;
    scrollIntoContainer(card, scroller, behavior, topInset, bottomInset, maxDown);
    // Tests read which thought following last brought into view.
    column.dataset.followedSeq = String(seq);
  }

  /**
   * Brings the newest thought into a diagram's view: the stage graph pans (not the page) to the current stage, a
   * thought drawing scrolls to its newest row (never zooms).
   */
  private followDiagram(kind: DiagramKind, glide: boolean): void {
    const action = followAction(kind, this.model.shownThoughts().length);
    if (action.kind === 'scrollToRow' && isThoughtDiagram(kind)) this.layout.graphs[kind].scrollToRow(action.seq, 'follow');
    if (action.kind !== 'panToCurrentStage') return;
    // A hidden stage graph has nothing to pan (showing its tab follows then); a shown one pans in the next frame.
    if (this.ui.activeTab !== 'stageGraph') return;
    this.pendingStagePan = { glide: glide || (this.pendingStagePan?.glide ?? false) };
    this.scheduleFollow();
  }

  private panToCurrentStage(glide: boolean): void {
    const node = this.layout.stageView.svg?.querySelector('g.node.current');
    if (node) this.layout.stageView.panZoom.ensureVisible(node, glide);
  }

  /** The header's budget line: derived from the thoughts shown, with whatever the host knows (running roles) on top. */
  private showDeliberationBudget(snapshot: SessionSnapshot | undefined): void {
    const derived = snapshot ? summarizeDeliberation(snapshot.thoughts) : undefined;
    const fromHost = this.model.session?.deliberation;
    this.layout.header.showDeliberation(derived && fromHost && !this.layout.replay.active ? { ...derived, ...fromHost } : derived);
  }

  /**
   * The thought drawings from the session held: its whole graph (a replay reveals the rows up to its position in
   * place), its feedback marks, and, when `follow`, the newest shown row scrolled into view.
   */
  private drawThoughtGraphs(follow: boolean): void {
    const session = this.model.session;
    if (!session) return;
    const replay = { active: this.layout.replay.active, position: this.model.position };
    const input = thoughtDrawingInput(session, this.graph.graphOf(session.thoughts), replay);
    for (const kind of THOUGHT_DIAGRAM_KINDS) {
      const view = this.layout.graphs[kind];
      view.show(input);
      view.setSelected(this.ui.selectedSeq);
      const action = followAction(kind, input.limit);
      if (follow && action.kind === 'scrollToRow') view.scrollToRow(action.seq, 'follow');
    }
  }

  private changeTheme(kind: ThemeKind): void {
    this.theme = kind;
    configureMermaid(kind);
    this.invalidateDiagrams('theme');
    this.redrawAll('theme');
  }

  private invalidateDiagrams(change: DiagramChange): void {
    if (!redrawFor(change, this.layout.replay.active).invalidateMermaid) return;
    this.layout.stageView.invalidate();
    this.layout.stageGraph.invalidate();
  }

  private afterStageRender(svg: SVGSVGElement): void {
    this.layout.stageGraph.afterRender(svg);
    this.markSelectedStage(svg);
    this.search.markDiagram(svg, this.layout.stageView.nodeIdForSeq);
    // A new drawing: jump (no glide) to the current stage, the old drawing is gone anyway.
    if (this.follow.active) this.followDiagram('stageGraph', false);
  }

  /** Marks the stage node of the selected thought in the stage graph; returns it when drawn. */
  private markSelectedStage(svg: SVGSVGElement): SVGGElement | undefined {
    for (const node of svg.querySelectorAll('.selected-node')) node.classList.remove('selected-node');
    const seq = this.ui.selectedSeq;
    if (seq === undefined) return undefined;
    const thought = this.model.shownThoughts()[seq];
    if (!thought) return undefined;
    const nodeId = thought.stage === undefined ? undefined : this.layout.stageGraph.nodeIdFor(thought.stage);
    if (nodeId === undefined) return undefined;
    const node = nodesById(svg).get(nodeId);
    node?.classList.add('selected-node');
    return node;
  }

  // -------------------------------------------------------------------------------------------------------------
  // What the person does

  private seek(position: number): void {
    this.model.seek(position);
    this.ui.replayPosition = position;
    this.saveState();
    this.redrawAll('seek');
  }

  private setActiveTab(kind: DiagramKind): void {
    this.ui.activeTab = kind;
    delete this.ui.insightsShown;
    this.layout.stageView.setVisible(kind === 'stageGraph');
    for (const other of THOUGHT_DIAGRAM_KINDS) this.layout.graphs[other].setVisible(other === kind);
    // After the view's own re-layout in the next frame (a hidden tab had no size to pan in).
    requestAnimationFrame(() => {
      if (this.follow.active) this.followDiagram(kind, false);
    });
    this.saveState();
  }

  private select(seq: number, source: SelectSource): void {
    const { ui, layout } = this;
    const thoughts = this.model.shownThoughts();
    if (seq < 0 || seq >= thoughts.length) return;
    ui.selectedSeq = seq;
    // The picked card is scrolled to now; a follow asked for earlier in this frame would scroll it away.
    this.pendingCard = undefined;
    // The person picked a thought to look at: following the newest one would take it away.
    if (source !== 'restore') this.follow.pause();
    layout.cards.select(seq, source !== 'card');
    const svg = layout.stageView.svg;
    const node = svg ? this.markSelectedStage(svg) : undefined;
    // Tab into a diagram lands on the selected thought.
    if (node) layout.stageView.keyboard.currentNodeId = node.dataset.nodeId;
    // Picked from a card: show where it sits in the diagram (the diagram scrolls, the card list stays).
    if (node && revealsSelection('stageGraph', ui.activeTab, source)) layout.stageView.reveal(node);
    for (const kind of THOUGHT_DIAGRAM_KINDS) {
      const graph = layout.graphs[kind];
      graph.setSelected(seq);
      graph.currentRow = seq;
      if (revealsSelection(kind, ui.activeTab, source)) graph.scrollToRow(seq, 'reveal');
    }
    layout.diff.show(thoughts, seq);
    this.refreshFeedback();
    this.saveState();
    const sessionId = this.model.session?.meta.id;
    if (sessionId !== undefined && source !== 'restore') this.host.post({ type: 'selectThought', sessionId, seq });
  }

  private onStageNodeClick(nodeId: string): void {
    const stage = this.layout.stageGraph.stageFor(nodeId);
    if (stage === undefined) return;
    // A stage node marks its thoughts through the search (`stage:name`, shown in the search box so the person can
    // step through them or clear it) and goes to the first.
    this.search.bar.setQuery(/\s/.test(stage) ? `stage:"${stage}"` : `stage:${stage}`);
    this.search.step(1);
  }

  private exportSvgInView(): void {
    const kind = this.ui.activeTab;
    const svg = kind === 'stageGraph' ? this.layout.stageView.svg : undefined;
    const text = kind === 'stageGraph' ? (svg ? serializeDiagram(svg) : undefined) : this.layout.graphs[kind].exportSvg();
    if (text === undefined) return;
    this.host.post({ type: 'exportSvg', diagram: kind, svg: text, sessionId: this.model.session?.meta.id });
  }

  /** Zoom and pan change at every wheel step and drag frame: saved once they settle. */
  private saveStateSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveState(), 300);
  }

  private saveState(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.ui.navigation = { ...this.navigationState() };
    this.host.setState({ ...this.ui });
    const { sessionId, activeTab, selectedSeq } = this.ui;
    this.host.post({ type: 'uiState', sessionId, activeTab, selectedSeq });
  }
}
