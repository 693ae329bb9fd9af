// The thought drawing's overview (webview/thoughtGraphView.ts): a narrow strip beside the rows showing the whole
// session at once — each line of thought in its colour over the rows it spans, and a frame around the part in view.
// Clicking or dragging on it moves the view there; it is a slider for the keyboard (arrows a screen, Page Up/Down ten,
// Home/End the ends) whose value is the first thought in view. One SVG scaled to the strip's height: redrawn when the
// shown rows change, never on scroll (the frame is one element moved).
import type { ThoughtGraph } from '../../src/diagrams/thoughtGraph';
import { laneColourClass } from '../../src/diagrams/thoughtGraphSvg';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Lanes with their own column in the strip; later ones share the last. */
const OVERVIEW_COLUMNS = 4;

export interface OverviewOptions {
  /** Bring shown row `row` to the middle of the view (the person clicked, dragged or used a key). */
  onJump: (row: number) => void;
  /** Describes a shown row for the slider's spoken value ("thought 12"). */
  describeRow: (row: number) => string;
}

export class ThoughtGraphOverview {
  readonly element: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly frame: HTMLElement;
  private rows = 0;
  private firstInView = 0;
  private rowsInView = 1;
  private drawnKey = '';

  constructor(private readonly options: OverviewOptions) {
    this.element = document.createElement('div');
    this.element.className = 'graph-overview';
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'slider');
    this.element.setAttribute('aria-orientation', 'vertical');
    this.element.setAttribute('aria-label', 'Overview of the session: click, drag or use the arrow keys to move the view');
    this.element.setAttribute('aria-valuemin', '1');
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('aria-hidden', 'true');
    this.svg.setAttribute('preserveAspectRatio', 'none');
    this.frame = document.createElement('div');
    this.frame.className = 'graph-overview-frame';
    this.element.append(this.svg, this.frame);

    let dragging = false;
    const jumpTo = (event: PointerEvent): void => {
      const box = this.element.getBoundingClientRect();
      if (box.height <= 0 || this.rows === 0) return;
      const fraction = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
      options.onJump(Math.min(this.rows - 1, Math.floor(fraction * this.rows)));
    };
    this.element.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      dragging = true;
      this.element.setPointerCapture(event.pointerId);
      jumpTo(event);
      event.preventDefault();
    });
    this.element.addEventListener('pointermove', (event) => {
      if (dragging) jumpTo(event);
    });
    const stop = (): void => {
      dragging = false;
    };
    this.element.addEventListener('pointerup', stop);
    this.element.addEventListener('pointercancel', stop);
    this.element.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** The rows shown (`graph` in shown rows, the first `rows` of them drawn): redrawn only when they changed. */
  update(graph: ThoughtGraph, rows: number): void {
    this.rows = rows;
    this.element.setAttribute('aria-valuemax', String(Math.max(1, rows)));
    this.element.hidden = rows === 0;
    const key = `${rows}:${graph.lanes.map((lane) => `${lane.start}-${lane.end}`).join()}`;
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    this.svg.setAttribute('viewBox', `0 0 ${OVERVIEW_COLUMNS * 2} ${Math.max(1, rows)}`);
    const paths: SVGElement[] = [];
    for (const lane of graph.lanes) {
      if (lane.first >= rows) continue;
      const path = document.createElementNS(SVG_NS, 'path');
      const x = Math.min(lane.index, OVERVIEW_COLUMNS - 1) * 2 + 1;
      // At least one row long, and a stroke that keeps its width when the strip is stretched: a one-thought branch
      // among 10,000 rows still shows as a tick.
      path.setAttribute('d', `M${x} ${lane.start}V${Math.min(lane.end, rows - 1) + 1}`);
      path.setAttribute('class', `overview-lane ${laneColourClass(lane.index)}`);
      path.setAttribute('vector-effect', 'non-scaling-stroke');
      paths.push(path);
    }
    this.svg.replaceChildren(...paths);
    this.place();
  }

  /** The part in view: shown rows from `first`, `count` of them. */
  setView(first: number, count: number): void {
    this.firstInView = first;
    this.rowsInView = Math.max(1, count);
    this.place();
  }

  private place(): void {
    const rows = Math.max(1, this.rows);
    const height = (100 * Math.min(this.rowsInView, rows)) / rows;
    // The frame is at least 4 px tall (a screen of 10,000 rows is a fraction of a pixel), and stays inside the strip.
    this.frame.style.height = `max(4px, ${height}%)`;
    this.frame.style.top = `min(${(100 * Math.min(this.firstInView, rows)) / rows}%, calc(100% - max(4px, ${height}%)))`;
    const first = Math.min(this.firstInView, Math.max(0, this.rows - 1));
    this.element.setAttribute('aria-valuenow', String(first + 1));
    const last = Math.min(this.rows, this.firstInView + this.rowsInView);
    this.element.setAttribute(
      'aria-valuetext',
      this.rows === 0 ? 'no thoughts' : `${this.options.describeRow(first)} to ${this.options.describeRow(last - 1)}, of ${this.rows} rows`,
    );
  }

  private onKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey || this.rows === 0) return;
    const screen = Math.max(1, this.rowsInView - 1);
    const middle = this.firstInView + Math.floor(this.rowsInView / 2);
    let target: number;
    switch (event.key) {
      case 'ArrowUp':
      case 'ArrowLeft':
        target = middle - screen;
        break;
      case 'ArrowDown':
      case 'ArrowRight':
        target = middle + screen;
        break;
      case 'PageUp':
        target = middle - 10 * screen;
        break;
      case 'PageDown':
        target = middle + 10 * screen;
        break;
      case 'Home':
        target = 0;
        break;
      case 'End':
        target = this.rows - 1;
        break;
      default:
        return;
    }
    this.options.onJump(Math.min(this.rows - 1, Math.max(0, target)));
    event.preventDefault();
    event.stopPropagation();
  }
}
