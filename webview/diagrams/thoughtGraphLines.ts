// The lanes, forks, revision links and dots beside the thought drawing's rows (webview/thoughtGraphView.ts): one SVG as
// tall as the whole drawing holding the shapes of the rows in the DOM, drawn from the shared row geometry
// (src/diagrams/thoughtGraphSvg.ts: rowShapes). Like the rows, its elements are kept as the window moves: a shape
// still in the window keeps its element untouched, and a shape entering it takes the element of one that left, so a
// scrollbar dragged through 10,000 thoughts neither builds nor drops elements each frame.
import type { GraphShape } from '../../src/diagrams/thoughtGraphSvg';

const SVG_NS = 'http://www.w3.org/2000/svg';

export class ThoughtGraphLines {
  readonly element: SVGSVGElement;
  private readonly lines: ShapePool<SVGPathElement>;
  private readonly dots: ShapePool<SVGCircleElement>;

  constructor() {
    this.element = document.createElementNS(SVG_NS, 'svg');
    this.element.classList.add('graph-lines');
    this.element.setAttribute('aria-hidden', 'true');
    // Lines first, dots over them: each kind in its own group, so an element added to one never covers the other.
    const lineGroup = document.createElementNS(SVG_NS, 'g');
    const dotGroup = document.createElementNS(SVG_NS, 'g');
    this.element.append(lineGroup, dotGroup);
    this.lines = new ShapePool(lineGroup, 'path');
    this.dots = new ShapePool(dotGroup, 'circle');
  }

  /**
   * Draws `shapes` (those of the rows in the window) in the SVG, `width` wide and as tall as the whole drawing, `height`.
   * Its size and viewBox change only when the drawing grows: a viewBox that followed the window moved every shape in
   * it, so each scroll laid out every line and dot again where now only the entering shapes are laid out.
   */
  draw(shapes: readonly GraphShape[], width: number, height: number, selected: (row: number) => boolean): void {
    setAttribute(this.element, 'width', String(width));
    setAttribute(this.element, 'height', String(height));
    setAttribute(this.element, 'viewBox', `0 0 ${width} ${height}`);
    const paths = shapes.filter((shape) => shape.type === 'path');
    const circles = shapes.filter((shape) => shape.type === 'circle');
    this.lines.elementsFor(paths.map((shape) => shape.key)).forEach((path, index) => {
      setAttribute(path, 'd', paths[index].d);
      setAttribute(path, 'class', paths[index].className);
    });
    this.dots.elementsFor(circles.map((shape) => shape.key)).forEach((dot, index) => {
      const shape = circles[index];
      setAttribute(dot, 'cx', String(shape.cx));
      setAttribute(dot, 'cy', String(shape.cy));
      setAttribute(dot, 'r', String(shape.r));
      setAttribute(dot, 'class', selected(shape.seq) ? `${shape.className} selected` : shape.className);
    });
  }
}

/**
 * The elements of one kind of shape, by the shape's key. A shape drawn before keeps its element (a row's dot stays
 * the same element while the row is in view, so scrolling by a row or two rewrites almost nothing); an element whose
 * shape left the window is given to a shape entering it; the ones left over are removed.
 */
class ShapePool<E extends SVGElement> {
  private byKey = new Map<string, E>();

  constructor(
    private readonly group: SVGGElement,
    private readonly type: 'path' | 'circle',
  ) {}

  /** An element for each of `keys` (unique), in their order. */
  elementsFor(keys: readonly string[]): E[] {
    const wanted = new Set(keys);
    const spare: E[] = [];
    for (const [key, element] of this.byKey) if (!wanted.has(key)) spare.push(element);
    const next = new Map<string, E>();
    const elements = keys.map((key) => {
      const element = this.byKey.get(key) ?? spare.pop() ?? this.create();
      next.set(key, element);
      return element;
    });
    for (const element of spare) element.remove();
    this.byKey = next;
    return elements;
  }

  private create(): E {
    const element = document.createElementNS(SVG_NS, this.type) as unknown as E;
    this.group.append(element);
    return element;
  }
}

/** Sets an attribute only when its value changes: setting the same value is still a change to the DOM (its element is
 * looked at again, and mutation observers hear of it). */
function setAttribute(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
