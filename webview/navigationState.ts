// The navigation part of the explorer's view state as one plain, serialisable object: each diagram's zoom and pan (with
// its mode), the node that holds keyboard focus per diagram, and the search query. The app hands it out and takes it
// back (ExplorerApp.navigationState / restoreNavigation) so panel restore can keep it with the rest of the UI state;
// what comes back is read defensively, as anything from saved state is.
import { DIAGRAM_KINDS, type DiagramKind, isDiagramKind } from '../src/engine/browserSafe/diagramKinds';
import { restoreTransform, type ViewTransform } from './viewTransform';

/** What this module needs of a DiagramView (structural, so pure tests need not load Mermaid). */
interface NavigableView {
  panZoom: { readonly transform: ViewTransform; restore(view: ViewTransform): void };
  keyboard: { currentNodeId: string | undefined };
}

/** What this module needs of the SearchController. */
interface SearchQueryHolder {
  readonly text: string;
  bar: { setQuery(query: string): void };
}

export interface NavigationState {
  views: Partial<Record<DiagramKind, ViewTransform>>;
  focusedNode: Partial<Record<DiagramKind, string>>;
  search: string;
}

/** Node ids are ours (`t12`, `run_3_40`, `s_planning`); anything else in saved state is dropped. */
const NODE_ID = /^[\w-]{1,200}$/;

export function readNavigationState(saved: unknown): NavigationState {
  const state: NavigationState = { views: {}, focusedNode: {}, search: '' };
  if (typeof saved !== 'object' || saved === null) return state;
  const value = saved as Record<string, unknown>;
  if (typeof value.views === 'object' && value.views !== null) {
    for (const [kind, view] of Object.entries(value.views)) {
      const transform = restoreTransform(view);
      if (isDiagramKind(kind) && transform) state.views[kind] = transform;
    }
  }
  if (typeof value.focusedNode === 'object' && value.focusedNode !== null) {
    for (const [kind, id] of Object.entries(value.focusedNode)) {
      if (isDiagramKind(kind) && typeof id === 'string' && NODE_ID.test(id)) state.focusedNode[kind] = id;
    }
  }
  if (typeof value.search === 'string') state.search = value.search.slice(0, 500);
  return state;
}

export function collectNavigationState(views: Record<DiagramKind, NavigableView>, search: SearchQueryHolder): NavigationState {
  const state: NavigationState = { views: {}, focusedNode: {}, search: search.text };
  for (const kind of DIAGRAM_KINDS) {
    state.views[kind] = views[kind].panZoom.transform;
    const focused = views[kind].keyboard.currentNodeId;
    if (focused !== undefined) state.focusedNode[kind] = focused;
  }
  return state;
}

export function applyNavigationState(saved: unknown, views: Record<DiagramKind, NavigableView>, search: SearchQueryHolder): void {
  const state = readNavigationState(saved);
  for (const kind of DIAGRAM_KINDS) {
    const transform = state.views[kind];
    if (transform) views[kind].panZoom.restore(transform);
    const focused = state.focusedNode[kind];
    if (focused !== undefined) views[kind].keyboard.currentNodeId = focused;
  }
  if (state.search !== search.text) search.bar.setQuery(state.search);
}
