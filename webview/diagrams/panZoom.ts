// Zoom and pan of one diagram canvas: ctrl+wheel and trackpad pinch (Chromium reports a pinch as ctrl+wheel), the
// wheel alone pans where the drawing overflows (and lets the page scroll where it does not), drag pans, arrows pan when
// the canvas itself has focus, and the toolbar's −, +, fit and 1:1. Applied as a CSS transform on the element that
// holds the SVG, without a layer of its own: on a 1,000-node drawing (a former bench, bench/diagramZoom.ts) it measured smoother than
// rewriting the SVG's viewBox (which re-lays out every label: ~30 ms a zoom step) and than the same transform with
// will-change (every step re-rastered the whole tall layer). The view's mode decides what a redraw does: `auto`
// refits the width, `fit` refits the whole drawing, `free` keeps what the person chose.
import { toolbarButton } from '../controls';
import {
  IDENTITY,
  ZOOM_STEP,
  autoTransform,
  centreOn,
  clampPan,
  fitTransform,
  naturalCanvasHeight,
  overflows,
  panBy,
  zoomAt,
  zoomTo,
  type Size,
  type ViewTransform,
} from './viewTransform';

/** Pixels one arrow press pans; with Shift, most of a canvas height. */
const KEY_PAN = 40;
/** Width changes up to this are a page scrollbar, not a new layout (see resized). */
const SCROLLBAR_SLACK = 24;
/** Movement after which a press on the canvas is a drag, not a click on a node. */
const DRAG_THRESHOLD = 4;

export interface PanZoomOptions {
  /** The diagram's title, for the toolbar's accessible names. */
  title: string;
  /** True while the diagram is shown whole at natural size ("Show all"): `auto` then keeps 1:1. */
  natural: () => boolean;
  /** Called after every change of the transform (the app may save it). */
  onChange?: (view: ViewTransform) => void;
  /** The person zoomed or panned (wheel, drag, keys, toolbar): not called for the view's own moves (follow mode). */
  onUserChange?: () => void;
}

/** How long a follow-mode glide lasts; the CSS transition on `.diagram-stage.gliding` matches it. */
const GLIDE_MS = 250;

export class PanZoom {
  readonly toolbar: HTMLElement;
  private view: ViewTransform = { ...IDENTITY };
  private content: Size = { width: 0, height: 0 };
  private readonly readout: HTMLElement;
  private drag: { pointer: number; x: number; y: number; start: ViewTransform; moved: boolean } | undefined;
  private swallowClick = false;
  private lastWidth = 0;
  private glideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly canvas: HTMLElement,
    private readonly stage: HTMLElement,
    private readonly options: PanZoomOptions,
  ) {
    this.toolbar = document.createElement('div');
    this.toolbar.className = 'diagram-toolbar';
    this.toolbar.setAttribute('role', 'toolbar');
    this.toolbar.setAttribute('aria-label', `${options.title} zoom`);
    this.readout = document.createElement('span');
    this.readout.className = 'zoom-readout';
    this.readout.setAttribute('aria-live', 'off');
    this.toolbar.append(
      toolbarButton('zoom-out', `Zoom out (${options.title})`, 'zoom-out', () => this.byUser(() => this.zoomBy(1 / ZOOM_STEP))),
      this.readout,
      toolbarButton('zoom-in', `Zoom in (${options.title})`, 'zoom-in', () => this.byUser(() => this.zoomBy(ZOOM_STEP))),
      toolbarButton('screen-full', `Fit to view (${options.title})`, 'fit', () => this.byUser(() => this.fit())),
      // Text, not an icon: the ruler codicon drew as a thin bar.
      toolbarButton('', `Actual size 1:1 (${options.title})`, 'actual-size', () => this.byUser(() => this.actualSize()), '1:1'),
    );
    this.listen();
    this.apply();
  }

  get transform(): ViewTransform {
    return { ...this.view };
  }

  get mode(): ViewTransform['mode'] {
    return this.view.mode;
  }

  /** A new drawing was swapped in: size the canvas for it and re-apply the view by its mode. */
  contentChanged(svg: SVGSVGElement): void {
    this.content = drawingSize(svg);
    this.layout();
  }

  /** Re-applies the view after the canvas was shown or resized (a hidden tab has no size to fit to). */
  layout(resizeCanvas = true): void {
    const width = this.canvas.clientWidth;
    if (width === 0 || this.content.width === 0) return;
    this.lastWidth = width;
    if (resizeCanvas) this.canvas.style.height = `${naturalCanvasHeight(this.content, width, this.options.natural())}px`;
    const viewport = this.viewport();
    if (this.view.mode === 'auto') this.set(autoTransform(this.content, viewport, this.options.natural()));
    else if (this.view.mode === 'fit') this.set(fitTransform(this.content, viewport));
    else this.set(clampPan(this.view, this.content, viewport));
  }

  /**
   * Called by a ResizeObserver: only a change of width refits (the height is ours). A small change (a page scrollbar
   * coming or going) refits the drawing but keeps the canvas height, which could otherwise bring the scrollbar back.
   */
  resized(): void {
    const change = Math.abs(this.canvas.clientWidth - this.lastWidth);
    if (change > 0) this.layout(change > SCROLLBAR_SLACK);
  }

  zoomBy(factor: number, at?: { x: number; y: number }): void {
    const viewport = this.viewport();
    this.set(zoomAt(this.view, factor, at ?? { x: viewport.width / 2, y: viewport.height / 2 }, this.content, viewport));
  }

  fit(): void {
    this.set(fitTransform(this.content, this.viewport()));
  }

  actualSize(): void {
    this.set(zoomTo(this.view, 1, this.content, this.viewport()));
  }

  /** Back to the default view that follows the drawing (used when the person asks for "Show all"/"Show recent"). */
  reset(): void {
    this.view = { ...IDENTITY };
    this.layout();
  }

  panBy(dx: number, dy: number): void {
    this.set(panBy(this.view, dx, dy, this.content, this.viewport()));
  }

  /** Puts `element` (inside the drawing) in the middle of the canvas at the current scale; the mode is kept. */
  reveal(element: Element): void {
    const stageBox = this.stage.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const point = {
      x: (box.left + box.width / 2 - stageBox.left) / this.view.scale,
      y: (box.top + box.height / 2 - stageBox.top) / this.view.scale,
    };
    this.set(centreOn(this.view, point, this.content, this.viewport()));
  }

  /**
   * Brings `element` into view only when it is (partly) outside the canvas: keyboard focus must stay visible. `glide`
   * animates the move (follow mode; the CSS drops the transition under prefers-reduced-motion).
   */
  ensureVisible(element: Element, glide = false): void {
    if (this.canvas.clientWidth === 0) return;
    const canvas = this.canvas.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const inside = box.left >= canvas.left && box.right <= canvas.right && box.top >= canvas.top && box.bottom <= canvas.bottom;
    if (inside) return;
    if (glide) {
      this.stage.classList.add('gliding');
      clearTimeout(this.glideTimer);
      this.glideTimer = setTimeout(() => this.stage.classList.remove('gliding'), GLIDE_MS + 50);
    }
    this.reveal(element);
  }

  /** A view saved earlier (restored panel, tab switch); it stays in its mode. */
  restore(view: ViewTransform): void {
    this.view = { ...view };
    this.layout();
    this.apply();
  }

  /** Arrow keys and +/−/0/1 when the canvas itself (not a node) has focus; true when the key was used. */
  handleCanvasKey(event: KeyboardEvent): boolean {
    const used = this.canvasKey(event);
    if (used) this.options.onUserChange?.();
    return used;
  }

  private canvasKey(event: KeyboardEvent): boolean {
    const step = event.shiftKey ? Math.max(KEY_PAN, this.canvas.clientHeight * 0.8) : KEY_PAN;
    switch (event.key) {
      case 'ArrowLeft':
        this.panBy(step, 0);
        return true;
      case 'ArrowRight':
        this.panBy(-step, 0);
        return true;
      case 'ArrowUp':
        this.panBy(0, step);
        return true;
      case 'ArrowDown':
        this.panBy(0, -step);
        return true;
      case '+':
      case '=':
        this.zoomBy(ZOOM_STEP);
        return true;
      case '-':
      case '_':
        this.zoomBy(1 / ZOOM_STEP);
        return true;
      case '0':
        this.fit();
        return true;
      case '1':
        this.actualSize();
        return true;
      default:
        return false;
    }
  }

  private byUser(change: () => void): void {
    this.options.onUserChange?.();
    change();
  }

  private viewport(): Size {
    return { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
  }

  private set(view: ViewTransform): void {
    this.view = view;
    this.apply();
    this.options.onChange?.(this.transform);
  }

  private apply(): void {
    const { x, y, scale, mode } = this.view;
    this.stage.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    const percent = `${Math.round(scale * 100)}%`;
    this.readout.textContent = percent;
    this.canvas.dataset.zoom = String(scale);
    this.canvas.dataset.viewMode = mode;
  }

  private listen(): void {
    const canvas = this.canvas;
    canvas.addEventListener(
      'wheel',
      (event) => {
        if (this.content.width === 0) return;
        const box = canvas.getBoundingClientRect();
        if (event.ctrlKey || event.metaKey) {
          event.preventDefault();
          // Mouse wheels send ±100 per notch, pinches a few units per event: clamp so a notch is one modest step.
          const delta = Math.max(-50, Math.min(50, event.deltaY * (event.deltaMode === 1 ? 16 : 1)));
          this.options.onUserChange?.();
          this.zoomBy(Math.exp(-delta * 0.0045), { x: event.clientX - box.left, y: event.clientY - box.top });
          return;
        }
        const can = overflows(this.view, this.content, this.viewport());
        const dx = can.x ? -event.deltaX : 0;
        const dy = can.y ? -event.deltaY : 0;
        const next = panBy(this.view, dx, dy, this.content, this.viewport());
        // Only a wheel that moved the drawing is ours; at an edge the page scrolls as before.
        if (Math.abs(next.x - this.view.x) < 0.5 && Math.abs(next.y - this.view.y) < 0.5) return;
        event.preventDefault();
        this.options.onUserChange?.();
        this.set(next);
      },
      { passive: false },
    );
    canvas.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || this.content.width === 0) return;
      this.drag = { pointer: event.pointerId, x: event.clientX, y: event.clientY, start: this.transform, moved: false };
    });
    canvas.addEventListener('pointermove', (event) => {
      const drag = this.drag;
      if (!drag || drag.pointer !== event.pointerId) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      if (!drag.moved) {
        drag.moved = true;
        canvas.setPointerCapture(event.pointerId);
        canvas.classList.add('panning');
        this.options.onUserChange?.();
      }
      this.set(panBy(drag.start, dx, dy, this.content, this.viewport()));
    });
    const end = (event: PointerEvent): void => {
      const drag = this.drag;
      if (!drag || drag.pointer !== event.pointerId) return;
      this.drag = undefined;
      canvas.classList.remove('panning');
      // The click that ends a drag must not select the node under the pointer.
      if (drag.moved) this.swallowClick = true;
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener(
      'click',
      (event) => {
        if (!this.swallowClick) return;
        this.swallowClick = false;
        event.stopPropagation();
        event.preventDefault();
      },
      { capture: true },
    );
  }
}

/** The drawing's own size: Mermaid writes it as width/height attributes (useMaxWidth is off), else its viewBox. */
function drawingSize(svg: SVGSVGElement): Size {
  const width = Number.parseFloat(svg.getAttribute('width') ?? '');
  const height = Number.parseFloat(svg.getAttribute('height') ?? '');
  if (width > 0 && height > 0) return { width, height };
  const box = svg.viewBox.baseVal;
  if (box && box.width > 0 && box.height > 0) return { width: box.width, height: box.height };
  const rect = svg.getBoundingClientRect();
  return { width: Math.max(1, rect.width), height: Math.max(1, rect.height) };
}
