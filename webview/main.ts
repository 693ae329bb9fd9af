// The explorer webview's entry: builds the UI, speaks the shared protocol with the host, and decides what to redraw
// for each message. Live order of work for a new thought: its card first (people read the thought, then the
// picture), then the stage graph's classes (no re-render), then one coalesced render of the visible windowed diagram.
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { branchTreeSource } from '../src/engine/diagrams/branchTree';
import { revisionChainSource } from '../src/engine/diagrams/revisionChain';
import type { SessionSnapshot } from '../src/engine/model';
import {
  DIAGRAM_KINDS,
  assertNever,
  isHostMessage,
  type DiagramKind,
  type HostMessage,
  type RenderedSvgs,
  type SessionView,
} from '../src/shared/protocol';
import { DiagramView, type DiagramRequest } from './diagramView';
import { ExplorerHeader } from './header';
import { MAX_EDGES, MAX_TEXT_SIZE, configureMermaid } from './mermaidSetup';
import { ReplayController } from './replayController';
import { RevisionDiffView } from './revisionDiffView';
import { SessionModel } from './sessionModel';
import { StageGraphView } from './stageGraphView';
import { nodesById } from './svgNodes';
import { currentThemeKind, watchTheme } from './theme';
import { ThoughtCards } from './thoughtCards';
import { restoreUiState, tabIndex, type UiState } from './uiState';
import { connectToHost } from './vscodeApi';

/**
 * Thoughts drawn live in the branch tree. Mermaid's flowchart cost grows about linearly with nodes and label text
 * (≈10 ms a node on a 2-core machine without GPU), so a small window with short labels keeps a live redraw within
 * the 100 ms budget (bench/webviewRender.ts); "Show all" draws the whole session with longer labels on request.
 */
export const LIVE_BRANCH_WINDOW = 5;
/** Characters of thought text in a live node label; the card beside it shows the whole text. */
export const LIVE_EXCERPT = 28;
/** Revision chains whose latest revision is among this many recent thoughts are drawn live. */
export const LIVE_REVISION_WINDOW = 40;

const TITLES: Record<DiagramKind, string> = {
  stageGraph: 'Stage graph',
  branchTree: 'Branch tree',
  revisionChain: 'Revision chain',
};

/** Tab labels: short, so all three fit a narrow sidebar. */
const TAB_LABELS: Record<DiagramKind, string> = {
  stageGraph: 'Stages',
  branchTree: 'Branches',
  revisionChain: 'Revisions',
};

const host = connectToHost<UiState>();
const ui = restoreUiState(host.getState());
const model = new SessionModel();
const surface = document.body.dataset.surface === 'panel' ? 'panel' : 'view';

let theme = currentThemeKind();
configureMermaid(theme);

const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
app.id = 'app';
app.classList.add(`surface-${surface}`);

const header = new ExplorerHeader({
  onOpenInPanel: surface === 'view' ? () => host.post({ type: 'openInPanel', sessionId: model.session?.meta.id }) : undefined,
  onExportSvg: () => exportSvgInView(),
});

const replay = new ReplayController({
  onSeek: (position) => {
    model.seek(position);
    ui.replayPosition = position;
    saveState();
    redrawAll();
  },
  onChange: (state) => {
    ui.replaySpeed = state.speed;
  },
});

const views = {} as Record<DiagramKind, DiagramView>;
for (const kind of DIAGRAM_KINDS) {
  views[kind] = new DiagramView({
    kind,
    title: TITLES[kind],
    onRendered: (view, svg) => afterRender(view.kind, svg),
    onFailed: (view, message) => host.post({ type: 'renderFailed', diagram: view.kind, message }),
    onNodeClick: (nodeId) => onDiagramNodeClick(nodeId),
  });
  const note = views[kind].noteElement;
  const text = document.createElement('span');
  text.className = 'diagram-note-text';
  const toggle = document.createElement('vscode-button');
  toggle.setAttribute('secondary', '');
  toggle.className = 'show-all';
  toggle.dataset.diagram = kind;
  toggle.addEventListener('click', () => toggleShowAll(kind));
  note.append(text, toggle);
  note.hidden = true;
}

const stageGraph = new StageGraphView(views.stageGraph);
const diff = new RevisionDiffView();
const cards = new ThoughtCards({ onSelect: (seq) => select(seq, 'card') });

const tabs = document.createElement('vscode-tabs');
tabs.className = 'diagram-tabs';
for (const kind of DIAGRAM_KINDS) {
  const tabHeader = document.createElement('vscode-tab-header');
  tabHeader.setAttribute('slot', 'header');
  tabHeader.dataset.diagram = kind;
  tabHeader.textContent = TAB_LABELS[kind];
  tabHeader.title = TITLES[kind];
  const panel = document.createElement('vscode-tab-panel');
  panel.dataset.diagram = kind;
  panel.append(views[kind].element);
  if (kind === 'revisionChain') panel.append(diff.element);
  tabs.append(tabHeader, panel);
}
tabs.setAttribute('selected-index', String(tabIndex(ui.activeTab)));
tabs.addEventListener('vsc-tabs-select', (event) => {
  const detail = (event as CustomEvent<{ selectedIndex: number }>).detail;
  const kind = DIAGRAM_KINDS[detail.selectedIndex];
  if (kind) setActiveTab(kind);
});

const empty = document.createElement('div');
empty.className = 'empty-state';
const emptyText = document.createElement('p');
emptyText.textContent = 'No thinking session to show yet. Ask your agent to "think step by step with sequentialthinking", or pick a session in the Sessions view.';
empty.append(emptyText);

const diagramsColumn = document.createElement('div');
diagramsColumn.className = 'diagrams-column';
diagramsColumn.append(tabs);
const cardsColumn = document.createElement('div');
cardsColumn.className = 'cards-column';
cardsColumn.append(cards.element);
const body = document.createElement('main');
body.className = 'explorer-body';
body.append(diagramsColumn, cardsColumn);
app.append(header.element, replay.element, empty, body);

for (const kind of DIAGRAM_KINDS) views[kind].setVisible(kind === ui.activeTab);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // Only the host posts into a webview; anything that is not a protocol message is ignored.
  if (!isHostMessage(event.data)) return;
  handle(event.data);
});

window.addEventListener('keydown', (event) => {
  if (replay.handleKey(event)) event.preventDefault();
});

watchTheme((kind) => {
  theme = kind;
  configureMermaid(kind);
  for (const view of Object.values(views)) view.invalidate();
  stageGraph.invalidate();
  redrawAll();
});

host.post({ type: 'ready' });

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'snapshot':
      return showSnapshot(message.session, message.mode === 'replay');
    case 'thoughtAdded': {
      const outcome = model.addThought(message.sessionId, message.meta, message.thought);
      if (outcome === 'gap') host.post({ type: 'requestFullSession', sessionId: message.sessionId });
      if (outcome === 'appended') {
        if (replay.active) replay.start(model.total, model.position, replay.state.speed);
        else redrawLive();
      }
      return;
    }
    case 'sessionUpdated':
      if (model.updateMeta(message.meta, message.strategy)) redrawAll();
      return;
    case 'theme':
      // VS Code's body class is the source of truth; the message only matters where the class did not change.
      if (message.kind !== theme) {
        theme = message.kind;
        configureMermaid(theme);
        for (const view of Object.values(views)) view.invalidate();
        stageGraph.invalidate();
        redrawAll();
      }
      return;
    case 'replayState':
      replay.apply(message);
      return;
    case 'requestSvg':
      void answerSvgRequest(message.requestId, message.session);
      return;
    default:
      assertNever(message, 'host message');
  }
}

function showSnapshot(session: SessionView | null, isReplay: boolean): void {
  const sameSession = session !== null && session.meta.id === ui.sessionId;
  model.load(session, isReplay);
  cards.clear();
  for (const view of Object.values(views)) view.invalidate();
  stageGraph.invalidate();
  if (!sameSession) {
    ui.selectedSeq = undefined;
    ui.replayPosition = undefined;
  }
  ui.sessionId = session?.meta.id;
  if (isReplay && session) {
    replay.start(model.total, ui.replayPosition ?? 0, ui.replaySpeed ?? 1);
  } else {
    replay.stop();
    redrawAll();
    // Joining a session in progress: where its own scroll area allows (the wide panel), start at the newest card.
    if (ui.selectedSeq === undefined && cardsColumn.scrollHeight > cardsColumn.clientHeight) cardsColumn.scrollTop = cardsColumn.scrollHeight;
  }
  if (ui.selectedSeq !== undefined) select(ui.selectedSeq, 'restore');
  saveState();
}

/** Everything from the model: snapshots, replay steps, theme changes. */
function redrawAll(): void {
  const snapshot = model.shownSnapshot();
  const hasSession = snapshot !== undefined;
  empty.hidden = hasSession;
  body.hidden = !hasSession;
  header.show(snapshot?.meta, model.strategy, model.position);
  if (!snapshot) return;
  const thoughts = snapshot.thoughts;
  cards.show(thoughts);
  if (ui.selectedSeq !== undefined && ui.selectedSeq >= thoughts.length) ui.selectedSeq = undefined;
  cards.select(ui.selectedSeq, false);
  if (replay.active && thoughts.length > 0) cards.cardFor(thoughts.length - 1)?.scrollIntoView({ block: 'nearest' });
  stageGraph.update(snapshot);
  requestThoughtDiagrams(snapshot);
  diff.show(thoughts, ui.selectedSeq);
}

/** One new live thought: the card, then the stage graph's classes, then the windowed diagrams (coalesced). */
function redrawLive(): void {
  const snapshot = model.shownSnapshot();
  if (!snapshot) return;
  const followLatest = isNearBottom(cardsColumn);
  cards.show(snapshot.thoughts);
  if (followLatest) cards.cardFor(snapshot.thoughts.length - 1)?.scrollIntoView({ block: 'nearest' });
  header.show(snapshot.meta, model.strategy, model.position);
  stageGraph.update(snapshot);
  requestThoughtDiagrams(snapshot);
}

function requestThoughtDiagrams(snapshot: SessionSnapshot): void {
  views.branchTree.request(thoughtDiagramRequest('branchTree', snapshot));
  views.revisionChain.request(thoughtDiagramRequest('revisionChain', snapshot));
}

function thoughtDiagramRequest(kind: 'branchTree' | 'revisionChain', snapshot: SessionSnapshot): DiagramRequest {
  const showAll = ui.showAll.includes(kind);
  const maxThoughts = showAll ? undefined : kind === 'branchTree' ? LIVE_BRANCH_WINDOW : LIVE_REVISION_WINDOW;
  const build = kind === 'branchTree' ? branchTreeSource : revisionChainSource;
  setShowAllButton(kind, showAll);
  views[kind].element.classList.toggle('natural-size', showAll);
  return {
    source: () => {
      // The tree grows downwards (a sidebar is tall and narrow); each revision chain reads as one row.
      const direction = kind === 'branchTree' ? 'TB' : 'LR';
      const excerptLength = showAll ? undefined : LIVE_EXCERPT;
      const source = build(snapshot, { maxThoughts, excerptLength, maxTextSize: MAX_TEXT_SIZE, maxEdges: MAX_EDGES, direction });
      let note = '';
      if (source.truncated) {
        const what = kind === 'branchTree' ? `Last ${source.shown} of ${source.total} thoughts` : `Revisions among the last ${source.shown} of ${source.total} thoughts`;
        // "Show all" that still had to leave thoughts out says why, instead of silently drawing less.
        note = showAll ? `${what} (the most Mermaid can draw)` : what;
      } else if (showAll) {
        note = `All ${source.total} thoughts`;
      }
      return { text: source.text, note };
    },
  };
}

function setShowAllButton(kind: DiagramKind, showAll: boolean): void {
  const note = views[kind].noteElement;
  const button = note.querySelector<HTMLElement>('.show-all');
  if (button) {
    button.textContent = showAll ? 'Show recent' : 'Show all';
    button.setAttribute('icon', showAll ? 'fold' : 'unfold');
  }
}

function toggleShowAll(kind: DiagramKind): void {
  ui.showAll = ui.showAll.includes(kind) ? ui.showAll.filter((entry) => entry !== kind) : [...ui.showAll, kind];
  saveState();
  const snapshot = model.shownSnapshot();
  if (snapshot && (kind === 'branchTree' || kind === 'revisionChain')) views[kind].request(thoughtDiagramRequest(kind, snapshot));
}

function setActiveTab(kind: DiagramKind): void {
  ui.activeTab = kind;
  for (const other of DIAGRAM_KINDS) views[other].setVisible(other === kind);
  saveState();
}

function afterRender(kind: DiagramKind, svg: SVGSVGElement): void {
  if (kind === 'stageGraph') stageGraph.afterRender(svg);
  const selected = markSelectedNode(kind, svg);
  // A whole diagram at natural size can be thousands of pixels wide and tall: bring the selected thought, else the
  // latest one, into view instead of leaving the view on an empty corner.
  if (kind !== 'stageGraph' && ui.showAll.includes(kind)) {
    const last = model.shownThoughts().length - 1;
    const target = selected ?? (last >= 0 ? nodesById(svg).get(`t${last}`) : undefined);
    if (target) views[kind].reveal(target);
  }
}

type SelectSource = 'card' | 'diagram' | 'restore';

function select(seq: number, source: SelectSource): void {
  const thoughts = model.shownThoughts();
  if (seq < 0 || seq >= thoughts.length) return;
  ui.selectedSeq = seq;
  cards.select(seq, source !== 'card');
  for (const kind of DIAGRAM_KINDS) {
    const svg = views[kind].svg;
    const node = svg ? markSelectedNode(kind, svg) : undefined;
    // Picked from a card: show where it sits in the diagram (the diagram scrolls, the card list stays).
    if (node && source === 'card' && kind === ui.activeTab) views[kind].reveal(node);
  }
  diff.show(thoughts, seq);
  saveState();
  const sessionId = model.session?.meta.id;
  if (sessionId !== undefined && source !== 'restore') host.post({ type: 'selectThought', sessionId, seq });
}

/** Marks the selected thought's node (its stage's node in the stage graph); returns it when drawn. */
function markSelectedNode(kind: DiagramKind, svg: SVGSVGElement): SVGGElement | undefined {
  for (const node of svg.querySelectorAll('.selected-node')) node.classList.remove('selected-node');
  const seq = ui.selectedSeq;
  if (seq === undefined) return undefined;
  const thought = model.shownThoughts()[seq];
  if (!thought) return undefined;
  const nodeId = kind === 'stageGraph' ? (thought.stage === undefined ? undefined : stageGraph.nodeIdFor(thought.stage)) : `t${seq}`;
  if (nodeId === undefined) return undefined;
  const node = nodesById(svg).get(nodeId);
  node?.classList.add('selected-node');
  return node;
}

function onDiagramNodeClick(nodeId: string): void {
  const thoughtMatch = /^t(\d+)$/.exec(nodeId);
  if (thoughtMatch) return select(Number(thoughtMatch[1]), 'diagram');
  if (nodeId === 'earlier') return toggleShowAll('branchTree');
  const stage = stageGraph.stageFor(nodeId);
  if (stage === undefined) return;
  // A stage node selects the latest thought written in that stage.
  const thoughts = model.shownThoughts();
  for (let index = thoughts.length - 1; index >= 0; index--) {
    if (thoughts[index].stage === stage) return select(index, 'diagram');
  }
}

function exportSvgInView(): void {
  const svg = views[ui.activeTab].svg;
  if (!svg) return;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.querySelectorAll('.selected-node').forEach((node) => node.classList.remove('selected-node'));
  host.post({ type: 'exportSvg', diagram: ui.activeTab, svg: new XMLSerializer().serializeToString(clone), sessionId: model.session?.meta.id });
}

/** Full (unwindowed) SVGs for an export; rendered off-screen, the views on screen are left alone. */
async function answerSvgRequest(requestId: string, session: SessionView | undefined): Promise<void> {
  const snapshot: SessionSnapshot | undefined = session
    ? { meta: session.meta, thoughts: session.thoughts, strategySwitches: session.strategySwitches }
    : model.session
      ? { meta: model.session.meta, thoughts: model.session.thoughts, strategySwitches: model.session.strategySwitches }
      : undefined;
  const svgs: RenderedSvgs = {};
  const errors: string[] = [];
  if (snapshot) {
    const limits = { maxTextSize: MAX_TEXT_SIZE, maxEdges: MAX_EDGES };
    const sources: [DiagramKind, () => string][] = [
      ['stageGraph', () => stageGraph.sourceFor(snapshot)],
      ['branchTree', () => branchTreeSource(snapshot, { ...limits, direction: 'TB' }).text],
      ['revisionChain', () => revisionChainSource(snapshot, { ...limits, direction: 'LR' }).text],
    ];
    for (const [kind, source] of sources) {
      try {
        svgs[kind] = await views[kind].renderDetached(source());
      } catch (error) {
        errors.push(`${TITLES[kind]}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } else {
    errors.push('No session to render');
  }
  host.post({ type: 'svgRendered', requestId, svgs, errors });
}

function isNearBottom(element: HTMLElement): boolean {
  const scroller = document.scrollingElement ?? document.documentElement;
  const target = element.scrollHeight > element.clientHeight ? element : scroller;
  return target.scrollHeight - target.scrollTop - target.clientHeight < 80;
}

function saveState(): void {
  host.setState({ ...ui });
}
