// Keyboard and screen-reader access to a Mermaid drawing (the stage graph): every node is a button with a spoken label,
// one node at a time is in the tab order (roving tabindex), arrow keys move along the drawing's edges, Home/End jump to
// the first and last node, Enter or Space does what a click does (mark the stage's thoughts), Escape goes back to the
// canvas, where arrows pan. The focused node survives redraws by its id. The thought drawing has its own
// (webview/diagrams/thoughtGraphView.ts).
import { directionOfKey, pickInDirection, readDiagramGraph, type DiagramGraph } from './diagramGraph';
import type { PanZoom } from './panZoom';

export interface DiagramKeyboardOptions {
  title: string;
  /** Enter/Space on a node: the same as a click on it. */
  onActivate: (nodeId: string) => void;
}

export class DiagramKeyboard {
  private graph: DiagramGraph = { order: [], nodes: new Map(), neighbours: new Map() };
  /** The node in the tab order, kept by id across redraws. */
  private current: string | undefined;
  /** Where the focused node was on the canvas before a redraw, for when its id is gone (another strategy drawn). */
  private focusedAt: { x: number; y: number } | undefined;

  constructor(
    private readonly canvas: HTMLElement,
    private readonly panZoom: PanZoom,
    private readonly options: DiagramKeyboardOptions,
  ) {
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'group');
    canvas.setAttribute(
      'aria-label',
      `${options.title}. Tab to its nodes; arrow keys move along the edges, Enter selects, Escape comes back here; here the arrow keys pan and plus and minus zoom.`,
    );
    canvas.addEventListener('keydown', (event) => this.onKey(event));
    // A mouse press does not move keyboard focus into the diagram: the page's own keys (the replay's Space, arrows,
    // Home/End) keep working after a click on a node, as before; the keyboard comes in by Tab.
    canvas.addEventListener('mousedown', (event) => event.preventDefault());
    canvas.addEventListener('focusin', (event) => {
      const node = nodeOf(event.target);
      if (node) this.makeCurrent(node, false);
    });
  }

  /** The node id with keyboard focus, if focus is in this diagram. */
  get focusedNodeId(): string | undefined {
    const active = document.activeElement;
    return active && this.canvas.contains(active) ? nodeOf(active)?.dataset.nodeId : undefined;
  }

  /** The node that Tab lands on (kept across redraws); saved with the view state. */
  get currentNodeId(): string | undefined {
    return this.current;
  }

  set currentNodeId(id: string | undefined) {
    this.current = id;
    this.updateTabStops();
  }

  /** True when keyboard focus is on a node of this diagram (checked before a redraw replaces the nodes). */
  hasNodeFocus(): boolean {
    const id = this.focusedNodeId;
    const node = id === undefined ? undefined : this.graph.nodes.get(id);
    this.focusedAt = node ? this.onCanvas(centre(node)) : undefined;
    return id !== undefined;
  }

  /** Labels the nodes of a freshly swapped-in drawing and restores the tab stop (and focus, if it was on a node). */
  attach(svg: SVGSVGElement, refocus: boolean): void {
    this.graph = readDiagramGraph(svg);
    svg.setAttribute('aria-label', `${this.options.title}, ${this.graph.order.length} nodes`);
    for (const [id, node] of this.graph.nodes) {
      node.dataset.nodeId = id;
      node.setAttribute('role', 'button');
      node.setAttribute('tabindex', '-1');
      node.setAttribute('aria-label', this.label(id, node));
    }
    if (this.current !== undefined && !this.graph.nodes.has(this.current)) {
      // The node went (expanded, or left the window): keyboard focus goes to the node drawn nearest to where it was.
      this.current = refocus && this.focusedAt ? this.nearestTo(this.focusedAt) : undefined;
    }
    this.updateTabStops();
    if (refocus && this.current !== undefined) this.graph.nodes.get(this.current)?.focus({ preventScroll: true });
  }

  /** Moves keyboard focus to a node (used by search and tests); false when it is not drawn. */
  focusNode(id: string): boolean {
    const node = this.graph.nodes.get(id);
    if (!node) return false;
    this.makeCurrent(node, true);
    return true;
  }

  private onCanvas(point: { x: number; y: number }): { x: number; y: number } {
    const box = this.canvas.getBoundingClientRect();
    return { x: point.x - box.left, y: point.y - box.top };
  }

  private nearestTo(point: { x: number; y: number }): string | undefined {
    let best: string | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const [id, node] of this.graph.nodes) {
      const at = this.onCanvas(centre(node));
      const distance = Math.hypot(at.x - point.x, at.y - point.y);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = id;
      }
    }
    return best;
  }

  /** What a screen reader says for a node: its drawn text (a stage's name and count), else its id. */
  private label(id: string, node: SVGGElement): string {
    const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text || id;
  }

  private updateTabStops(): void {
    const target = this.current ?? this.graph.order[0];
    for (const [id, node] of this.graph.nodes) node.setAttribute('tabindex', id === target ? '0' : '-1');
  }

  private makeCurrent(node: SVGGElement, focus: boolean): void {
    const id = node.dataset.nodeId;
    if (id === undefined) return;
    if (this.current !== id) {
      this.current = id;
      this.updateTabStops();
    }
    if (focus) node.focus({ preventScroll: true });
    this.panZoom.ensureVisible(node);
  }

  private onKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const node = nodeOf(event.target);
    if (!node) {
      if (event.target !== this.canvas) return;
      if (event.key === 'Enter') {
        const target = this.current ?? this.graph.order[0];
        const entry = target === undefined ? undefined : this.graph.nodes.get(target);
        if (entry) this.makeCurrent(entry, true);
      } else if (!this.panZoom.handleCanvasKey(event)) return;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const id = node.dataset.nodeId;
    if (id === undefined) return;
    const direction = directionOfKey(event.key);
    if (direction) {
      const next = this.neighbourInDirection(id, direction);
      if (next) this.makeCurrent(next, true);
    } else if (event.key === 'Home' || event.key === 'End') {
      const order = this.graph.order;
      const target = event.key === 'Home' ? order[0] : order[order.length - 1];
      const entry = target === undefined ? undefined : this.graph.nodes.get(target);
      if (entry) this.makeCurrent(entry, true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      this.options.onActivate(id);
    } else if (event.key === 'Escape') {
      this.canvas.focus({ preventScroll: true });
    } else {
      return;
    }
    // Arrow keys would otherwise scroll the page, and the replay's own keys must not fire from inside a diagram.
    event.preventDefault();
    event.stopPropagation();
  }

  /** The edge neighbour lying best in `direction` on screen; failing that, the nearest drawn node that way. */
  private neighbourInDirection(id: string, direction: NonNullable<ReturnType<typeof directionOfKey>>): SVGGElement | undefined {
    const from = this.graph.nodes.get(id);
    if (!from) return undefined;
    const at = centre(from);
    const around = (ids: Iterable<string>): { key: string; at: { x: number; y: number } }[] =>
      [...ids].flatMap((key) => {
        const node = this.graph.nodes.get(key);
        return node && key !== id ? [{ key, at: centre(node) }] : [];
      });
    const pick =
      pickInDirection(at, direction, around(this.graph.neighbours.get(id) ?? [])) ??
      pickInDirection(at, direction, around(this.graph.order));
    return pick === undefined ? undefined : this.graph.nodes.get(pick);
  }
}

function nodeOf(target: EventTarget | null): SVGGElement | undefined {
  if (!(target instanceof Element)) return undefined;
  const node = target.closest<SVGGElement>('g.node');
  return node && node.dataset.nodeId !== undefined ? node : undefined;
}

function centre(element: Element): { x: number; y: number } {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}
