// The explorer app: owns the UI state, the session the webview holds and the page's parts, and decides what to
// redraw for each change. Live order of work for a new thought: its card first (people read the thought, then the
// picture), then the stage graph's classes (no re-render), then one coalesced render of the visible windowed diagram.
// The page's structure is in explorerLayout.ts, the protocol's dispatch in hostMessages.ts, exports in svgExport.ts.
import { DIAGRAM_KINDS, type DiagramKind, isThoughtDiagram, type ThoughtDiagramKind } from '../src/engine/browserSafe/diagramKinds';
import { EARLIER_NODE_ID } from '../src/diagrams/branchTree';
import type { SessionMeta, SessionSnapshot, ThoughtRecord } from '../src/engine/model';
import { summarizeDeliberation } from '../src/shared/deliberationView';
import { type ExplorerMode, type SessionView, type StrategyView, type ThemeKind } from '../src/shared/protocol';
import { snapshotOfView } from '../src/shared/sessionSnapshot';
import { stageGraphDefinition } from './deliberationGraph';
import type { LiveDeliberationState } from '../src/shared/deliberationProtocol';
import { DeliberationStatusView } from './deliberationStatus';
import { DiagramFolding } from './diagramFolding';
import { buildLayout, setShowAllButton, type ExplorerLayout } from './explorerLayout';
import { FeedbackControls } from './feedbackControls';
import { FollowMode, scrollIntoContainer } from './followMode';
import type { FeedbackRecord } from '../src/engine/model';
import type { FeedbackHostMessage } from '../src/shared/feedbackProtocol';
import { listenToHost, type HostMessageHandler } from './hostMessages';
import type { InsightsMessage } from '../src/shared/insightsView';
import { configureMermaid } from './mermaidSetup';
import { SessionModel } from './sessionModel';
import { SessionOffer } from './sessionOffer';
import { renderExportSvgs, serializeDiagram } from './svgExport';
import { LiveAnnouncer } from './liveAnnouncer';
import { applyNavigationState, collectNavigationState, type NavigationState } from './navigationState';
import { describeThoughtNode } from './nodeLabels';
import { SearchController } from './searchController';
import { nodesById } from './svgNodes';
import { currentThemeKind, watchTheme } from './theme';
import { revealAll, revealUpTo } from './replayReveal';
import { liveThoughtDiagram, REFINE_AFTER_MS, type LiveDiagram, type LiveDiagramOptions } from './thoughtDiagrams';
import { restoreUiState, tabIndex, type UiState } from './uiState';
import type { ExplorerHost } from './vscodeApi';

type SelectSource = 'card' | 'diagram' | 'restore' | 'search';

export class ExplorerApp implements HostMessageHandler {
  private readonly ui: UiState;
  private readonly model = new SessionModel();
  private readonly layout: ExplorerLayout;
  private theme: ThemeKind;
  private readonly deliberation: DeliberationStatusView;
  private deliberationState: LiveDeliberationState | undefined;
  private readonly folding: DiagramFolding;
  private readonly nodeBudget: number | undefined;
  /** Pending redraw at the full node budget once thoughts stop arriving (live redraws use a smaller one). */
  private refineTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly foldedDiagrams = new Map<
    ThoughtDiagramKind,
    { key: string; thoughts: readonly ThoughtRecord[]; feedback: SessionSnapshot['feedback']; diagram: LiveDiagram }
  >();
  private readonly search: SearchController;
  private readonly announcer: LiveAnnouncer;
  private readonly feedback: FeedbackControls;
  private readonly offer: SessionOffer;
  private readonly follow: FollowMode;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ExplorerHost<UiState>,
    private readonly document: Document,
  ) {
    this.ui = restoreUiState(host.getState());
    this.folding = new DiagramFolding(this.ui);
    const body = document.body;
    this.nodeBudget = nodeBudgetOf(body);
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
        onRendered: (kind, svg) => this.afterRender(kind, svg),
        onRenderFailed: (kind, message) => host.post({ type: 'renderFailed', diagram: kind, message }),
        onNodeClick: (nodeId) => this.onDiagramNodeClick(nodeId),
        // The whole session, not shownThoughts(): during a replay that is a fresh slice per call, and drawn nodes are in it.
        describeNode: (nodeId) => describeThoughtNode(nodeId, this.model.session?.thoughts ?? []),
        onToggleShowAll: (kind) => this.toggleShowAll(kind),
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
      diagrams: () => DIAGRAM_KINDS.map((kind) => this.layout.views[kind]),
      onCurrent: (seq) => this.select(seq, 'search'),
    });
    this.layout.body.before(this.search.element);
    // A folded node stands for the thoughts it holds, so search and selection find a thought inside one.
    for (const kind of ['branchTree', 'revisionChain'] as const)
      this.layout.views[kind].nodeIdForSeq = (seq) => this.folding.nodeHolding(kind, seq);
    // A stage-graph node stands for every thought written in its stage.
    this.layout.views.stageGraph.nodeIdForSeq = (seq) => {
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
    return collectNavigationState(this.layout.views, this.search);
  }

  /** Puts back what navigationState() returned (read defensively: it comes from saved state). */
  restoreNavigation(saved: unknown): void {
    applyNavigationState(saved, this.layout.views, this.search);
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
    this.invalidateDiagrams();
    if (!sameSession) {
      this.folding.forget();
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
      this.redrawAll();
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
    const snapshot = this.model.shownSnapshot();
    // The branch tree marks the thoughts feedback is about.
    if (snapshot && !this.layout.replay.active) this.requestThoughtDiagram('branchTree', snapshot);
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
    if (this.model.updateMeta(meta, strategy)) this.redrawAll();
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
    const { svgs, errors } = await renderExportSvgs(
      snapshotOfView(source),
      source.strategy,
      this.layout.views,
      this.layout.stageGraph,
      this.nodeBudget,
    );
    this.host.post({ type: 'svgRendered', requestId, svgs, errors });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Drawing

  /** Everything from the model: snapshots, replay steps, theme changes. */
  private redrawAll(): void {
    const { ui, model, layout } = this;
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
    layout.stageGraph.update(snapshot, stageGraphDefinition(snapshot, model.strategyNamed(snapshot.meta.strategy)));
    this.requestThoughtDiagrams(this.diagramSnapshot() ?? snapshot);
    this.revealThoughtDiagrams();
    layout.diff.show(thoughts, ui.selectedSeq);
    this.refreshFeedback();
  }

  /** One new live thought: the card, then the stage graph's classes, then the windowed diagrams (coalesced). */
  private redrawLive(): void {
    const { model, layout } = this;
    const snapshot = model.shownSnapshot();
    if (!snapshot) return;
    layout.cards.show(snapshot.thoughts);
    this.search.refresh();
    const strategy = model.strategyNamed(snapshot.meta.strategy);
    layout.header.show(snapshot.meta, strategy, model.position);
    this.follow.setLive(snapshot.meta.status === 'live');
    const move = this.follow.active ? this.follow.nextMove() : 'auto';
    if (this.follow.active) this.scrollToCard(snapshot.thoughts.length - 1, move);
    this.showDeliberationBudget(snapshot);
    layout.header.steps.show(snapshot.thoughts);
    layout.stageGraph.update(snapshot, stageGraphDefinition(snapshot, strategy));
    if (this.follow.active) this.followDiagram('stageGraph', move === 'smooth');
    this.requestThoughtDiagrams(snapshot, true);
    // When the session pauses, draw it again with the full node budget.
    clearTimeout(this.refineTimer);
    this.refineTimer = setTimeout(() => {
      this.refineTimer = undefined;
      const settled = this.model.shownSnapshot();
      if (settled && !this.layout.replay.active) this.requestThoughtDiagrams(settled);
    }, REFINE_AFTER_MS);
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
   * clear of the sticky header and the steering box pinned under the cards.
   */
  private scrollToCard(seq: number, behavior: ScrollBehavior): void {
    const card = this.layout.cards.cardFor(seq);
    if (!card) return;
    const column = this.layout.cardsColumn;
    const ownScroll = ['auto', 'scroll'].includes(getComputedStyle(column).overflowY);
    const scroller = ownScroll ? column : ((this.document.scrollingElement as HTMLElement | null) ?? this.document.documentElement);
    const header = this.layout.header.element.getBoundingClientRect();
    const topInset = ownScroll ? 0 : Math.max(0, header.bottom);
    const bottomInset = this.feedback.element.hidden ? 0 : this.feedback.element.offsetHeight;
    scrollIntoContainer(card, scroller, behavior, topInset, bottomInset);
    // Tests read which thought following last brought into view.
    column.dataset.followedSeq = String(seq);
  }

  /** Pans a diagram (not the page) so its newest node, or the stage graph's current stage, is inside its canvas. */
  private followDiagram(kind: DiagramKind, glide: boolean): void {
    const svg = this.layout.views[kind].svg;
    if (!svg) return;
    let node: Element | null | undefined;
    if (kind === 'stageGraph') node = svg.querySelector('g.node.current');
    else {
      const last = this.model.shownThoughts().length - 1;
      const nodeId = last < 0 ? undefined : this.folding.nodeHolding(kind, last);
      node = nodeId === undefined ? undefined : nodesById(svg).get(nodeId);
    }
    if (node) this.layout.views[kind].panZoom.ensureVisible(node, glide);
  }

  /** What the thought diagrams draw: the whole session during a replay (revealed up to its position), else what is shown. */
  private diagramSnapshot(): SessionSnapshot | undefined {
    return this.layout.replay.active ? this.model.wholeSnapshot() : this.model.shownSnapshot();
  }

  /** During a replay, each thought diagram shows what the thoughts up to the position drew; otherwise all of it. */
  private revealThoughtDiagrams(): void {
    for (const kind of ['branchTree', 'revisionChain'] as const) {
      const svg = this.layout.views[kind].svg;
      if (!svg) continue;
      if (this.layout.replay.active) revealUpTo(svg, this.folding.members(kind), this.model.position);
      else revealAll(svg);
    }
  }

  /** The header's budget line: derived from the thoughts shown, with whatever the host knows (running roles) on top. */
  private showDeliberationBudget(snapshot: SessionSnapshot | undefined): void {
    const derived = snapshot ? summarizeDeliberation(snapshot.thoughts) : undefined;
    const fromHost = this.model.session?.deliberation;
    this.layout.header.showDeliberation(derived && fromHost && !this.layout.replay.active ? { ...derived, ...fromHost } : derived);
  }

  private requestThoughtDiagrams(snapshot: SessionSnapshot, streaming = false): void {
    this.requestThoughtDiagram('branchTree', snapshot, streaming);
    this.requestThoughtDiagram('revisionChain', snapshot, streaming);
  }

  private requestThoughtDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, streaming = false): void {
    const folding = this.folding;
    const showAll = folding.showAll(kind);
    const view = this.layout.views[kind];
    setShowAllButton(view, showAll, folding.isOpened(kind));
    const expanded = folding.expanded(kind);
    const pinned = this.ui.selectedSeq === undefined ? [] : [this.ui.selectedSeq];
    const options = { showAll, expanded, pinned, nodeBudget: this.nodeBudget, streaming, room: view.roomWidth };
    // While the session is live, every thought redraws: the quick drawing keeps up (webview/sketchDrawing.ts), the
    // thought that ends it included (Mermaid's first render in a page takes ~0.7 s). A finished, saved or replayed
    // session is drawn by Mermaid, as the exports are: once it pauses, or when it is opened.
    const sketch = !this.layout.replay.active && (streaming || snapshot.meta.status === 'live');
    // Built at render time, so a burst of requests builds the text once.
    view.request({
      sketch,
      source: () => {
        const diagram = this.foldedDiagram(kind, snapshot, options);
        folding.remember(kind, diagram.members);
        return diagram;
      },
    });
  }

  /**
   * The folded diagram, computed again only when the session or the options changed: a replay step asks for the same
   * whole-session drawing each time, and folding 10,000 thoughts takes 30–40 ms, most of a frame.
   */
  private foldedDiagram(kind: ThoughtDiagramKind, snapshot: SessionSnapshot, options: LiveDiagramOptions): LiveDiagram {
    const key = JSON.stringify([snapshot.thoughts.length, options]);
    const cached = this.foldedDiagrams.get(kind);
    if (cached && cached.key === key && cached.thoughts === snapshot.thoughts && cached.feedback === snapshot.feedback)
      return cached.diagram;
    const diagram = liveThoughtDiagram(kind, snapshot, options);
    this.foldedDiagrams.set(kind, { key, thoughts: snapshot.thoughts, feedback: snapshot.feedback, diagram });
    return diagram;
  }

  /** Opens a folded node of a thought diagram in place (click, or Enter from keyboard navigation); false if not one. */
  expandFoldedNode(kind: DiagramKind, nodeId: string): boolean {
    if (!isThoughtDiagram(kind) || !this.folding.expand(kind, nodeId)) return false;
    this.saveState();
    const snapshot = this.diagramSnapshot();
    if (snapshot) this.requestThoughtDiagram(kind, snapshot);
    return true;
  }

  private changeTheme(kind: ThemeKind): void {
    this.theme = kind;
    configureMermaid(kind);
    this.invalidateDiagrams();
    this.redrawAll();
  }

  private invalidateDiagrams(): void {
    for (const view of Object.values(this.layout.views)) view.invalidate();
    this.layout.stageGraph.invalidate();
  }

  private afterRender(kind: DiagramKind, svg: SVGSVGElement): void {
    if (kind === 'stageGraph') this.layout.stageGraph.afterRender(svg);
    else if (this.layout.replay.active) revealUpTo(svg, this.folding.members(kind), this.model.position);
    const selected = this.markSelectedNode(kind, svg);
    this.search.markDiagram(svg, this.layout.views[kind].nodeIdForSeq);
    // A new drawing: jump (no glide) to the newest node, the old drawing is gone anyway.
    if (this.follow.active) this.followDiagram(kind, false);
    // A whole diagram at natural size can be thousands of pixels wide and tall: bring the selected thought, else the
    // latest one, into view instead of leaving the view on an empty corner.
    if (kind !== 'stageGraph' && this.ui.showAll.includes(kind) && this.layout.views[kind].viewMode !== 'free') {
      const last = this.model.shownThoughts().length - 1;
      const target = selected ?? (last >= 0 ? nodesById(svg).get(`t${last}`) : undefined);
      if (target) this.layout.views[kind].reveal(target);
    }
  }

  /** Marks the selected thought's node (its stage's node in the stage graph); returns it when drawn. */
  private markSelectedNode(kind: DiagramKind, svg: SVGSVGElement): SVGGElement | undefined {
    for (const node of svg.querySelectorAll('.selected-node')) node.classList.remove('selected-node');
    const seq = this.ui.selectedSeq;
    if (seq === undefined) return undefined;
    const thought = this.model.shownThoughts()[seq];
    if (!thought) return undefined;
    // A thought inside a folded node marks that node.
    const nodeId =
      kind === 'stageGraph'
        ? thought.stage === undefined
          ? undefined
          : this.layout.stageGraph.nodeIdFor(thought.stage)
        : this.folding.nodeHolding(kind, seq);
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
    this.redrawAll();
  }

  private toggleShowAll(kind: DiagramKind): void {
    if (!isThoughtDiagram(kind)) return;
    this.folding.toggle(kind);
    // Another drawing altogether: the view follows it again instead of keeping a zoom chosen for the other one.
    this.layout.views[kind].panZoom.reset();
    this.saveState();
    const snapshot = this.diagramSnapshot();
    if (snapshot && isThoughtDiagram(kind)) this.requestThoughtDiagram(kind, snapshot);
  }

  private setActiveTab(kind: DiagramKind): void {
    this.ui.activeTab = kind;
    delete this.ui.insightsShown;
    for (const other of DIAGRAM_KINDS) this.layout.views[other].setVisible(other === kind);
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
    // The person picked a thought to look at: following the newest one would take it away.
    if (source !== 'restore') this.follow.pause();
    layout.cards.select(seq, source !== 'card');
    for (const kind of DIAGRAM_KINDS) {
      const svg = layout.views[kind].svg;
      const node = svg ? this.markSelectedNode(kind, svg) : undefined;
      // Tab into a diagram lands on the selected thought.
      if (node) layout.views[kind].keyboard.currentNodeId = node.dataset.nodeId;
      // Picked from a card: show where it sits in the diagram (the diagram scrolls, the card list stays).
      if (node && (source === 'card' || source === 'search') && kind === ui.activeTab) layout.views[kind].reveal(node);
    }
    layout.diff.show(thoughts, seq);
    this.refreshFeedback();
    this.saveState();
    const sessionId = this.model.session?.meta.id;
    if (sessionId !== undefined && source !== 'restore') this.host.post({ type: 'selectThought', sessionId, seq });
  }

  private onDiagramNodeClick(nodeId: string): void {
    const thoughtMatch = /^t(\d+)$/.exec(nodeId);
    if (thoughtMatch) return this.select(Number(thoughtMatch[1]), 'diagram');
    if (nodeId === EARLIER_NODE_ID) return this.toggleShowAll('branchTree');
    if (this.expandFoldedNode(this.ui.activeTab, nodeId)) return;
    const stage = this.layout.stageGraph.stageFor(nodeId);
    if (stage === undefined) return;
    // A stage node marks its thoughts through the search (`stage:name`, shown in the search box so the person can
    // step through them or clear it) and goes to the first.
    this.search.bar.setQuery(/\s/.test(stage) ? `stage:"${stage}"` : `stage:${stage}`);
    this.search.step(1);
  }

  private exportSvgInView(): void {
    const svg = this.layout.views[this.ui.activeTab].svg;
    if (!svg) return;
    this.host.post({ type: 'exportSvg', diagram: this.ui.activeTab, svg: serializeDiagram(svg), sessionId: this.model.session?.meta.id });
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

/** The node budget the host put on the page (setting `thoughtExplorer.diagrams.nodeBudget`), if valid. */
function nodeBudgetOf(body: HTMLElement): number | undefined {
  const value = Number(body.dataset.nodeBudget);
  return Number.isInteger(value) && value >= 1 ? value : undefined;
}
