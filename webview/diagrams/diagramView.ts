// One diagram on screen: coalesces render requests into one per animation frame, renders off-screen and swaps,
// drops stale results (generation counter), keeps the last good SVG when a render fails and says what failed.
import type { DiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import { DiagramKeyboard } from './diagramKeyboard';
import { renderMermaid } from './mermaidSetup';
import { PanZoom } from './panZoom';
import { nodeIdAt } from './svgNodes';
import { errorMessage } from '../../src/engine/browserSafe/errorMessage';
import { shortenedLine } from '../../src/engine/browserSafe/textCut';

export interface DiagramRequest {
  /**
   * Produces the Mermaid text and a note on what it shows (e.g. "Last 8 of 1000 thoughts"; empty when nothing is
   * left out). Called at render time, so a burst of requests builds the text once.
   */
  source: () => { text: string; note: string };
}

export interface DiagramViewOptions {
  kind: DiagramKind;
  title: string;
  onRendered: (view: DiagramView, svg: SVGSVGElement) => void;
  onFailed: (view: DiagramView, message: string) => void;
  onNodeClick: (nodeId: string) => void;
  /** The zoom or pan changed (the app saves it with the rest of the view state). */
  onViewChange?: () => void;
  /** The person zoomed or panned (follow mode pauses). */
  onUserViewChange?: () => void;
}

export class DiagramView {
  readonly element: HTMLElement;
  readonly kind: DiagramKind;
  /** Bumped by every request; a render whose generation is no longer current is thrown away. */
  private generation = 0;
  private pending: DiagramRequest | undefined;
  private frame: number | undefined;
  private running = false;
  private visible = true;
  private readonly canvas: HTMLElement;
  /** Holds the SVG inside the canvas; zoom and pan are a transform on it (panZoom.ts). */
  private readonly stage: HTMLElement;
  readonly panZoom: PanZoom;
  readonly keyboard: DiagramKeyboard;
  /**
   * The node id that stands for thought `seq` in this drawing (search highlights, selection); a compressed drawing
   * replaces it with its fold map, the stage graph with the thought's stage node. Undefined: not drawn.
   */
  nodeIdForSeq: (seq: number) => string | undefined = (seq) => `t${seq}`;
  private readonly offscreen: HTMLElement;
  private readonly status: HTMLElement;
  private readonly note: HTMLElement;
  /** The text on screen: a request for the same text is not drawn again. */
  private lastText: string | undefined;
  /** Resolvers waiting for the next settled render (tests, benchmarks and exports wait on it). */
  private settledWaiters: (() => void)[] = [];
  /** Numbers Mermaid's render ids; ids start with the diagram kind, so they stay unique across the page's views. */
  private renderIds = 0;
  renderCount = 0;

  constructor(private readonly options: DiagramViewOptions) {
    this.kind = options.kind;
    this.element = document.createElement('section');
    this.element.className = `diagram diagram-${options.kind}`;
    this.element.dataset.diagram = options.kind;
    this.note = document.createElement('div');
    this.note.className = 'diagram-note';
    this.status = document.createElement('div');
    this.status.className = 'diagram-status';
    this.status.setAttribute('role', 'status');
    this.canvas = document.createElement('div');
    this.canvas.className = 'diagram-canvas';
    this.stage = document.createElement('div');
    this.stage.className = 'diagram-stage';
    this.canvas.append(this.stage);
    this.panZoom = new PanZoom(this.canvas, this.stage, {
      title: options.title,
      natural: () => this.element.classList.contains('natural-size'),
      onChange: () => options.onViewChange?.(),
      onUserChange: () => options.onUserViewChange?.(),
    });
    this.keyboard = new DiagramKeyboard(this.canvas, this.panZoom, {
      title: options.title,
      onActivate: (nodeId) => options.onNodeClick(nodeId),
    });
    new ResizeObserver(() => this.panZoom.resized()).observe(this.canvas);
    this.offscreen = document.createElement('div');
    this.offscreen.className = 'diagram-offscreen';
    this.offscreen.setAttribute('aria-hidden', 'true');
    this.element.append(this.note, this.status, this.panZoom.toolbar, this.canvas, this.offscreen);
    this.canvas.addEventListener('click', (event) => {
      const nodeId = nodeIdAt(event.target);
      if (nodeId !== undefined) options.onNodeClick(nodeId);
    });
  }

  get svg(): SVGSVGElement | null {
    return this.canvas.querySelector('svg');
  }

  /**
   * The width the drawing has on screen, for sizing its labels: its own canvas, or (while its tab is hidden) the canvas
   * of the diagram shown in the same column.
   */
  get roomWidth(): number {
    if (this.canvas.clientWidth > 0) return this.canvas.clientWidth;
    for (const canvas of document.querySelectorAll<HTMLElement>('.diagram-canvas')) if (canvas.clientWidth > 0) return canvas.clientWidth;
    return document.body.clientWidth;
  }

  get noteElement(): HTMLElement {
    return this.note;
  }

  /** Pans the drawing (not the page) so the node is in the middle of the view, at the current zoom. */
  reveal(node: Element): void {
    this.panZoom.reveal(node);
  }

  /** How the view follows redraws: `free` once the person zoomed or panned (the app then leaves the view alone). */
  get viewMode(): 'auto' | 'fit' | 'free' {
    return this.panZoom.mode;
  }

  /** Asks for a render; several requests before the next frame collapse into one. */
  request(request: DiagramRequest): void {
    this.generation++;
    this.pending = request;
    if (this.visible) this.schedule();
  }

  /** Hidden diagrams do not render; the last request runs when they are shown. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    // A hidden tab has no size: fit its drawing again once it is laid out.
    if (visible) requestAnimationFrame(() => this.panZoom.layout());
    if (visible && this.pending) this.schedule();
  }

  /** Forgets the drawn SVG so the next request is drawn even if its text is unchanged (theme change). */
  invalidate(): void {
    this.lastText = undefined;
  }

  /** Resolves when no render is pending or running. */
  settled(): Promise<void> {
    if (!this.pending && !this.running && this.frame === undefined) return Promise.resolve();
    if (!this.visible && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Renders `text` off-screen without touching what is on screen (exports). In a scratch element of its own under
   * <body>: this view's own off-screen box sits in its tab panel, which is display:none while another tab is shown,
   * and there Mermaid cannot measure edges ("Could not find a suitable point for the given distance"); sharing it
   * would also let a live render's clean-up empty it mid-render.
   */
  async renderDetached(text: string): Promise<string> {
    const scratch = document.createElement('div');
    scratch.className = 'diagram-offscreen';
    scratch.setAttribute('aria-hidden', 'true');
    document.body.append(scratch);
    try {
      return await renderMermaid(`export-${this.kind}-${++this.renderIds}`, text, scratch);
    } finally {
      scratch.remove();
    }
  }

  private schedule(): void {
    if (this.frame !== undefined || this.running) return;
    // Mermaid waits for the next frame to be painted (rAF, then a new task) before rendering: the card changes made by
    // the same message reach the screen first. Every request arriving meanwhile is coalesced into this one.
    this.frame = requestAnimationFrame(() => {
      setTimeout(() => {
        this.frame = undefined;
        void this.flush();
      }, 0);
    });
  }

  private async flush(): Promise<void> {
    const request = this.pending;
    if (!request || !this.visible) return this.notifySettled();
    this.pending = undefined;
    const generation = this.generation;
    this.running = true;
    try {
      const { text, note } = request.source();
      if (text !== this.lastText) {
        const svg = parseSvg(await renderMermaid(`${this.kind}-${++this.renderIds}`, text, this.offscreen));
        if (generation === this.generation) this.swap(svg, text);
      }
      if (generation === this.generation) {
        this.setNote(note);
        this.clearStatus();
      }
    } catch (error) {
      if (generation === this.generation) {
        const message = errorMessage(error);
        this.showFailure(message);
        this.options.onFailed(this, message);
      }
    } finally {
      this.running = false;
      // Mermaid leaves its scratch element behind on some errors.
      this.offscreen.replaceChildren();
    }
    if (this.pending && this.visible) this.schedule();
    else this.notifySettled();
  }

  private swap(svg: SVGSVGElement, text: string): void {
    const refocus = this.keyboard.hasNodeFocus();
    this.stage.replaceChildren(svg);
    this.panZoom.contentChanged(svg);
    this.keyboard.attach(svg, refocus);
    this.lastText = text;
    this.renderCount++;
    // Visible to tests and the benchmark without any hook into the page's scripts.
    this.element.dataset.renders = String(this.renderCount);
    this.options.onRendered(this, svg);
  }

  private setNote(note: string): void {
    this.note.hidden = note === '';
    this.note.dataset.text = note;
    this.note.querySelector('.diagram-note-text')?.replaceChildren(document.createTextNode(note));
  }

  private clearStatus(): void {
    this.status.hidden = true;
    this.status.replaceChildren();
    this.element.classList.remove('has-error');
  }

  private showFailure(message: string): void {
    const hasDrawing = this.svg !== null;
    this.element.classList.add('has-error');
    this.status.hidden = false;
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-warning';
    const text = document.createElement('span');
    text.textContent = `${this.options.title} could not be drawn${hasDrawing ? ' (showing the last good drawing)' : ''}: ${shortMessage(message)}`;
    this.status.replaceChildren(icon, text);
  }

  private notifySettled(): void {
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Mermaid's SVG text as an element. Its strict mode has already sanitised it (DOMPurify); the CSP forbids handlers. */
function parseSvg(svgText: string): SVGSVGElement {
  const template = document.createElement('template');
  template.innerHTML = svgText;
  const svg = template.content.querySelector('svg');
  if (!svg) throw new Error('Mermaid returned no SVG');
  svg.removeAttribute('style');
  return svg;
}

function shortMessage(message: string): string {
  return shortenedLine(message, 300);
}
