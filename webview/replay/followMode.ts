// Follow mode of a live session: while it is on, each new thought brings the newest card, the current stage and the
// newest node into view; the person's own scrolling, zooming, panning or selecting pauses it, and the header's
// "Follow" button resumes it. Only input events count as the person's (wheel, touch, scroll keys, a press on a
// scrollbar): the scrolls and pans the explorer makes itself fire none of them, so they never pause following.

/**
 * Thoughts closer together than this are a burst: following jumps instead of gliding, since a glide would be overtaken
 * by the next one anyway, and in VS Code each animation frame of the webview also costs the workbench (its renderer is
 * shared): `npm run bench -- "redraw in real"` measured tool call → card p50 65 ms with smooth moves, 39 ms without.
 */
export const BURST_MS = 800;

/** The move to a new thought `sinceLastMove` ms after the previous one: a glide, or a jump in a burst or with less motion. */
export function followMove(sinceLastMove: number, reducedMotion: boolean): ScrollBehavior {
  return reducedMotion || sinceLastMove < BURST_MS ? 'auto' : 'smooth';
}

/** Keys that scroll the page or a scroll area. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', ' ']);

export interface FollowModeOptions {
  /** Following was switched back on (button): bring everything to the newest thought now. */
  onResume: () => void;
}

export class FollowMode {
  /** The header's toggle: pressed while following; shown only while a live session is on screen. */
  readonly button: HTMLButtonElement;
  private following = true;
  private live = false;
  private lastMoveAt = Number.NEGATIVE_INFINITY;
  private reducedMotion: MediaQueryList | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly options: FollowModeOptions,
  ) {
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'follow-button';
    this.button.dataset.action = 'follow';
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-arrow-down';
    icon.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    text.textContent = 'Follow';
    this.button.append(icon, text);
    this.button.addEventListener('click', () => (this.following ? this.pause() : this.resume()));
    this.listen();
    this.render();
  }

  /** True while a live session is on screen and the person has not taken over. */
  get active(): boolean {
    return this.live && this.following;
  }

  /** A live session (not a replay, not a finished one) is on screen: following applies and the button shows. */
  setLive(live: boolean): void {
    if (live && !this.live) this.following = true;
    this.live = live;
    this.render();
  }

  /** The person took over (scrolled, zoomed, panned, selected). */
  pause(): void {
    if (!this.following) return;
    this.following = false;
    this.render();
  }

  resume(): void {
    if (this.following) return;
    this.following = true;
    this.render();
    if (this.live) this.options.onResume();
  }

  /**
   * How to make the move to a new thought: smoothly, unless the person asked the system for less motion or the last
   * move was under BURST_MS ago. Each call counts as a move.
   */
  nextMove(now = performance.now()): ScrollBehavior {
    this.reducedMotion ??= this.root.ownerDocument.defaultView?.matchMedia('(prefers-reduced-motion: reduce)');
    const move = followMove(now - this.lastMoveAt, this.reducedMotion?.matches ?? false);
    this.lastMoveAt = now;
    return move;
  }

  private render(): void {
    this.button.hidden = !this.live;
    this.button.setAttribute('aria-pressed', String(this.following));
    const label = this.following
      ? 'Following the newest thought: scroll, zoom or select to look around'
      : 'Paused: follow the newest thought again';
    this.button.title = label;
    this.button.setAttribute('aria-label', `Follow the newest thought (${this.following ? 'on' : 'paused'})`);
    // Tests and styles read the state from the page.
    this.root.dataset.follow = !this.live ? 'off' : this.following ? 'on' : 'paused';
  }

  private listen(): void {
    const document = this.root.ownerDocument;
    const userScroll = (): void => {
      if (this.live) this.pause();
    };
    document.addEventListener('wheel', userScroll, { capture: true, passive: true });
    document.addEventListener('touchmove', userScroll, { capture: true, passive: true });
    document.addEventListener(
      'keydown',
      (event) => {
        if (SCROLL_KEYS.has(event.key) && !isEditable(event.target)) userScroll();
      },
      { capture: true },
    );
    // A press on a scroll area itself (not on something inside it) is a press on its scrollbar.
    document.addEventListener(
      'pointerdown',
      (event) => {
        const target = event.target;
        if (target instanceof HTMLElement && (target === document.documentElement || target.scrollHeight > target.clientHeight)) {
          if (target === document.documentElement || getComputedStyle(target).overflowY !== 'visible') userScroll();
        }
      },
      { capture: true },
    );
  }
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.matches('input, textarea, select, vscode-textarea, vscode-textfield, button, vscode-button');
}

/**
 * Scrolls `element` into view inside `container` only (never the page around it), so following the newest card in
 * the panel's card column does not move the header or the diagrams. `topInset` keeps clear of a sticky header;
 * `maxDown` caps how far it scrolls down (negative: it scrolls up by that much), so something above stays in view.
 */
export function scrollIntoContainer(
  element: HTMLElement,
  container: HTMLElement,
  behavior: ScrollBehavior,
  topInset = 0,
  bottomInset = 0,
  maxDown = Infinity,
): void {
  const box = element.getBoundingClientRect();
  const area = container.getBoundingClientRect();
  const top = (container === container.ownerDocument.documentElement ? 0 : area.top) + topInset;
  const bottom =
    (container === container.ownerDocument.documentElement ? container.clientHeight : area.top + container.clientHeight) - bottomInset;
  let delta = 0;
  if (box.bottom > bottom) delta = box.bottom - bottom;
  if (box.top + -delta < top) delta = box.top - top;
  delta = Math.min(delta, maxDown);
  if (Math.abs(delta) < 1) return;
  container.scrollBy({ top: delta, behavior });
}
