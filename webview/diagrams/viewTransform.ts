// The zoom and pan of one diagram as plain numbers: where the drawing's top-left corner sits in the canvas and how much
// it is scaled. Pure functions, no DOM, so the rules (fit, zoom about a point, how far a drawing may be dragged away)
// are testable on their own; panZoom.ts applies the result as a CSS transform.
import { MIN_READABLE_SCALE } from '../../src/diagrams/diagramLayout';

/**
 * How the view follows a redraw: `auto` is the default (the whole drawing if readable, else the width down to a
 * readable scale; never enlarged; top of the drawing),
 * `fit` keeps the whole drawing in view, `free` keeps exactly the scale and pan the person chose.
 */
export type ViewMode = 'auto' | 'fit' | 'free';

export interface ViewTransform {
  mode: ViewMode;
  scale: number;
  /** Offset of the drawing's top-left corner from the canvas's top-left corner, in canvas pixels. */
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 0.05;
export const MAX_SCALE = 4;
/** One press of + or −. */
export const ZOOM_STEP = 1.25;
/** Space kept between the drawing and the canvas border when it is fitted. */
export const VIEW_PADDING = 6;
/** How much of a dragged drawing stays in view at least, so it can always be dragged back. */
const KEEP_VISIBLE = 40;

export function clampScale(scale: number): number {
  if (!Number.isFinite(scale)) return 1;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

export const IDENTITY: ViewTransform = { mode: 'auto', scale: 1, x: VIEW_PADDING, y: VIEW_PADDING };

/**
 * The default view: the whole drawing when it fits at a readable scale (labels ≥ 11 px), else the width fitted but
 * never below that scale, at the top (the rest scrolls); never enlarged. `natural` keeps 1:1 (a diagram shown whole).
 */
export function autoTransform(content: Size, viewport: Size, natural = false): ViewTransform {
  const inner = innerSize(viewport);
  const scale = natural ? 1 : autoScale(content, inner);
  const x = VIEW_PADDING + Math.max(0, (inner.width - content.width * scale) / 2);
  const y = VIEW_PADDING + Math.max(0, (inner.height - content.height * scale) / 2);
  return { mode: 'auto', scale, x, y };
}

function autoScale(content: Size, inner: Size): number {
  const width = inner.width / Math.max(1, content.width);
  const whole = Math.min(1, width, inner.height / Math.max(1, content.height));
  if (whole >= MIN_READABLE_SCALE) return clampScale(whole);
  return clampScale(Math.min(1, Math.max(MIN_READABLE_SCALE, width)));
}

/** The whole drawing in view, centred, never enlarged beyond 1:1. */
export function fitTransform(content: Size, viewport: Size): ViewTransform {
  const inner = innerSize(viewport);
  const scale = clampScale(Math.min(1, inner.width / Math.max(1, content.width), inner.height / Math.max(1, content.height)));
  return {
    mode: 'fit',
    scale,
    x: VIEW_PADDING + (inner.width - content.width * scale) / 2,
    y: VIEW_PADDING + (inner.height - content.height * scale) / 2,
  };
}

/**
 * The canvas height that shows the drawing at the default view's width rule (fitted, never enlarged, never below the
 * readable scale) without empty space; the CSS max-height caps it, and autoTransform then fits what it can.
 */
export function naturalCanvasHeight(content: Size, viewportWidth: number, natural = false): number {
  const width = Math.max(1, viewportWidth - 2 * VIEW_PADDING) / Math.max(1, content.width);
  const scale = natural ? 1 : Math.min(1, Math.max(MIN_READABLE_SCALE, width));
  return Math.ceil(content.height * scale + 2 * VIEW_PADDING);
}

/** Zooms by `factor` keeping the canvas point `at` (e.g. under the mouse) where it is. */
export function zoomAt(view: ViewTransform, factor: number, at: { x: number; y: number }, content: Size, viewport: Size): ViewTransform {
  const scale = clampScale(view.scale * factor);
  const ratio = scale / view.scale;
  return clampPan({ mode: 'free', scale, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio }, content, viewport);
}

/** Sets an absolute scale about the canvas centre (1:1). */
export function zoomTo(view: ViewTransform, scale: number, content: Size, viewport: Size): ViewTransform {
  return zoomAt(view, clampScale(scale) / view.scale, { x: viewport.width / 2, y: viewport.height / 2 }, content, viewport);
}

/** Moves the drawing by (dx, dy) canvas pixels. */
export function panBy(view: ViewTransform, dx: number, dy: number, content: Size, viewport: Size): ViewTransform {
  return clampPan({ ...view, mode: 'free', x: view.x + dx, y: view.y + dy }, content, viewport);
}

/**
 * Puts the drawing point `point` (in unscaled drawing coordinates) in the middle of the canvas, keeping the mode. Along
 * an axis where the whole drawing already fits, nothing moves: it is all in view, and centring would push it aside.
 */
export function centreOn(view: ViewTransform, point: { x: number; y: number }, content: Size, viewport: Size): ViewTransform {
  const fits = { x: !overflows(view, content, viewport).x, y: !overflows(view, content, viewport).y };
  const centred = {
    ...view,
    x: fits.x ? view.x : viewport.width / 2 - point.x * view.scale,
    y: fits.y ? view.y : viewport.height / 2 - point.y * view.scale,
  };
  return clampPan(centred, content, viewport);
}

/**
 * Keeps a drawing larger than the canvas from leaving a gap wider than the padding on either side, and a smaller
 * one inside the canvas give or take KEEP_VISIBLE pixels, so the drawing can never be lost off-screen.
 */
export function clampPan(view: ViewTransform, content: Size, viewport: Size): ViewTransform {
  return {
    ...view,
    x: clampAxis(view.x, content.width * view.scale, viewport.width),
    y: clampAxis(view.y, content.height * view.scale, viewport.height),
  };
}

function clampAxis(offset: number, extent: number, room: number): number {
  if (extent + 2 * VIEW_PADDING <= room) {
    return Math.min(room - KEEP_VISIBLE, Math.max(KEEP_VISIBLE - extent, offset));
  }
  return Math.min(VIEW_PADDING, Math.max(room - VIEW_PADDING - extent, offset));
}

function innerSize(viewport: Size): Size {
  return { width: Math.max(1, viewport.width - 2 * VIEW_PADDING), height: Math.max(1, viewport.height - 2 * VIEW_PADDING) };
}

/** True when the drawing extends past the canvas along an axis (there is something to pan to). */
export function overflows(view: ViewTransform, content: Size, viewport: Size): { x: boolean; y: boolean } {
  return {
    x: content.width * view.scale + 2 * VIEW_PADDING > viewport.width + 0.5,
    y: content.height * view.scale + 2 * VIEW_PADDING > viewport.height + 0.5,
  };
}

/** A saved transform read back defensively (it comes from webview state). */
export function restoreTransform(saved: unknown): ViewTransform | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const value = saved as Partial<ViewTransform>;
  if (value.mode !== 'auto' && value.mode !== 'fit' && value.mode !== 'free') return undefined;
  const numbers = [value.scale, value.x, value.y];
  if (!numbers.every((entry) => typeof entry === 'number' && Number.isFinite(entry))) return undefined;
  return { mode: value.mode, scale: clampScale(value.scale as number), x: value.x as number, y: value.y as number };
}
