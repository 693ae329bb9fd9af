// The navigation part of the explorer's view state as one plain, serialisable object: the stage graph's zoom and pan
// (with its mode), how far each thought drawing is scrolled and which of its branches the person collapsed, the node
// that holds keyboard focus per diagram, and the search query. The app hands it out and takes it
// back (ExplorerApp.navigationState / restoreNavigation) so panel restore can keep it with the rest of the UI state;
// what comes back is read defensively, as anything from saved state is.
import {
  type DiagramKind,
  isDiagramKind,
  isThoughtDiagram,
  THOUGHT_DIAGRAM_KINDS as THOUGHT_KINDS,
  type ThoughtDiagramKind,
} from '../../src/engine/browserSafe/diagramKinds';
import { cutEnd } from '../../src/engine/browserSafe/textCut';
import { restoreTransform, type CollapsedBranches, type ViewTransform } from '../diagrams';

/** What this module needs of the stage graph's DiagramView (structural, so pure tests need not load Mermaid). */
interface NavigableView {
  panZoom: { readonly transform: ViewTransform; restore(view: ViewTransform): void };
  keyboard: { currentNodeId: string | undefined };
}

/** What this module needs of a thought drawing (webview/diagrams/thoughtGraphView.ts). */
interface ScrollableView {
  scrollTop: number;
  currentRow: number | undefined;
  readonly collapsedState: CollapsedBranches | undefined;
  restoreCollapsed(saved: CollapsedBranches): void;
}

/** What this module needs of the SearchController. */
interface SearchQueryHolder {
  readonly text: string;
  bar: { setQuery(query: string): void };
}

export interface NavigationState {
  views: Partial<Record<DiagramKind, ViewTransform>>;
  /** How far each thought drawing is scrolled, in CSS px. */
  scroll: Partial<Record<ThoughtDiagramKind, number>>;
  focusedNode: Partial<Record<DiagramKind, string>>;
  /** The branches the person collapsed in each thought drawing, and their session. */
  collapsed: Partial<Record<ThoughtDiagramKind, CollapsedBranches>>;
  search: string;
}

/** Node ids are ours (`t12`, `run_3_40`, `s_planning`); anything else in saved state is dropped. */
const NODE_ID = /^[\w-]{1,200}$/;
/** The longest saved search query kept (UTF-16 units), cut as every text is (textCut). */
const MAX_SEARCH_LENGTH = 500;
/** Collapsed branches kept per drawing; a session with more lanes than this is unlikely to have them all collapsed. */
const MAX_COLLAPSED_LANES = 1_000;
/** The longest session id kept with collapsed branches (ids are far shorter; a longer one is not ours). */
const MAX_SESSION_ID_LENGTH = 200;

export function readNavigationState(saved: unknown): NavigationState {
  const state: NavigationState = { views: {}, scroll: {}, focusedNode: {}, collapsed: {}, search: '' };
  if (typeof saved !== 'object' || saved === null) return state;
  const value = saved as Record<string, unknown>;
  if (typeof value.views === 'object' && value.views !== null) {
    for (const [kind, view] of Object.entries(value.views)) {
      const transform = restoreTransform(view);
      if (isDiagramKind(kind) && transform) state.views[kind] = transform;
    }
  }
  if (typeof value.scroll === 'object' && value.scroll !== null) {
    for (const [kind, top] of Object.entries(value.scroll)) {
      if (isThoughtDiagram(kind) && typeof top === 'number' && Number.isFinite(top) && top >= 0) state.scroll[kind] = top;
    }
  }
  if (typeof value.focusedNode === 'object' && value.focusedNode !== null) {
    for (const [kind, id] of Object.entries(value.focusedNode)) {
      if (isDiagramKind(kind) && typeof id === 'string' && NODE_ID.test(id)) state.focusedNode[kind] = id;
    }
  }
  if (typeof value.collapsed === 'object' && value.collapsed !== null) {
    for (const [kind, saved] of Object.entries(value.collapsed)) {
      const branches = readCollapsed(saved);
      if (isThoughtDiagram(kind) && branches) state.collapsed[kind] = branches;
    }
  }
  if (typeof value.search === 'string') state.search = value.search.slice(0, cutEnd(value.search, MAX_SEARCH_LENGTH));
  return state;
}

function readCollapsed(saved: unknown): CollapsedBranches | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const { sessionId, lanes } = saved as Record<string, unknown>;
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH || !Array.isArray(lanes))
    return undefined;
  const kept = lanes.slice(0, MAX_COLLAPSED_LANES).filter((lane): lane is number => Number.isSafeInteger(lane) && lane > 0);
  return kept.length === 0 ? undefined : { sessionId, lanes: kept };
}

export function collectNavigationState(
  stage: NavigableView,
  graphs: Record<ThoughtDiagramKind, ScrollableView>,
  search: SearchQueryHolder,
): NavigationState {
  const state: NavigationState = {
    views: { stageGraph: stage.panZoom.transform },
    scroll: {},
    focusedNode: {},
    collapsed: {},
    search: search.text,
  };
  const focused = stage.keyboard.currentNodeId;
  if (focused !== undefined) state.focusedNode.stageGraph = focused;
  for (const kind of THOUGHT_KINDS) {
    state.scroll[kind] = graphs[kind].scrollTop;
    const row = graphs[kind].currentRow;
    if (row !== undefined) state.focusedNode[kind] = `t${row}`;
    const collapsed = graphs[kind].collapsedState;
    if (collapsed) state.collapsed[kind] = collapsed;
  }
  return state;
}

export function applyNavigationState(
  saved: unknown,
  stage: NavigableView,
  graphs: Record<ThoughtDiagramKind, ScrollableView>,
  search: SearchQueryHolder,
): void {
  const state = readNavigationState(saved);
  const transform = state.views.stageGraph;
  if (transform) stage.panZoom.restore(transform);
  const focused = state.focusedNode.stageGraph;
  if (focused !== undefined) stage.keyboard.currentNodeId = focused;
  for (const kind of THOUGHT_KINDS) {
    // Collapsed branches first: they decide which row the saved scroll position shows.
    const collapsed = state.collapsed[kind];
    if (collapsed) graphs[kind].restoreCollapsed(collapsed);
    const top = state.scroll[kind];
    if (top !== undefined) graphs[kind].scrollTop = top;
    const row = /^t(\d+)$/.exec(state.focusedNode[kind] ?? '')?.[1];
    if (row !== undefined) graphs[kind].currentRow = Number(row);
  }
  if (state.search !== search.text) search.bar.setQuery(state.search);
}
