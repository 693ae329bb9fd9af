// Replay: steps through a finished session thought by thought, with play/pause, step back/forward, a scrubber,
// speeds 0.5×–8× and keyboard shortcuts (space, ←/→, Home/End). It only moves a position; the explorer redraws.
import { MAX_REPLAY_SPEED, MIN_REPLAY_SPEED, REPLAY_SPEEDS } from '../../src/shared/protocol';

/** Time between thoughts at 1×; at 8× a thought arrives every 150 ms, about what a diagram redraw takes. */
const BASE_INTERVAL_MS = 1_200;

export interface ReplayOptions {
  /** Moves the explorer to show the first `position` thoughts. */
  onSeek: (position: number) => void;
  onChange: (state: ReplaySnapshot) => void;
}

export interface ReplaySnapshot {
  playing: boolean;
  position: number;
  total: number;
  speed: number;
}

export class ReplayController {
  readonly element: HTMLElement;
  private playing = false;
  private position = 0;
  private total = 0;
  private speed = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly playButton: HTMLElement;
  private readonly scrubber: HTMLInputElement;
  private readonly positionLabel: HTMLElement;
  private readonly speedSelect: HTMLSelectElement;

  constructor(private readonly options: ReplayOptions) {
    this.element = document.createElement('div');
    this.element.className = 'replay-bar';
    this.element.setAttribute('role', 'toolbar');
    this.element.setAttribute('aria-label', 'Replay');
    this.element.hidden = true;

    const toStart = iconButton('debug-restart', 'To start (Home)', () => this.seek(0));
    const back = iconButton('debug-step-back', 'Step back (←)', () => this.step(-1));
    this.playButton = iconButton('debug-start', 'Play (Space)', () => this.toggle());
    this.playButton.classList.add('replay-play');
    const forward = iconButton('debug-step-over', 'Step forward (→)', () => this.step(1));
    const toEnd = iconButton('debug-continue', 'To end (End)', () => this.seek(this.total));

    this.scrubber = document.createElement('input');
    this.scrubber.type = 'range';
    this.scrubber.min = '0';
    this.scrubber.className = 'replay-scrubber';
    this.scrubber.setAttribute('aria-label', 'Replay position');
    this.scrubber.addEventListener('input', () => {
      this.pause();
      this.seek(Number(this.scrubber.value));
    });

    this.positionLabel = document.createElement('span');
    this.positionLabel.className = 'replay-position';

    this.speedSelect = document.createElement('select');
    this.speedSelect.className = 'replay-speed';
    this.speedSelect.setAttribute('aria-label', 'Replay speed');
    for (const speed of REPLAY_SPEEDS) {
      const option = document.createElement('option');
      option.value = String(speed);
      option.textContent = `${speed}×`;
      this.speedSelect.append(option);
    }
    this.speedSelect.value = '1';
    this.speedSelect.addEventListener('change', () => this.setSpeed(Number(this.speedSelect.value)));

    this.element.append(toStart, back, this.playButton, forward, toEnd, this.scrubber, this.positionLabel, this.speedSelect);
  }

  get state(): ReplaySnapshot {
    return { playing: this.playing, position: this.position, total: this.total, speed: this.speed };
  }

  /** Starts a replay of a session with `total` thoughts, at `position`. */
  start(total: number, position: number, speed: number): void {
    this.element.hidden = false;
    this.total = total;
    this.scrubber.max = String(total);
    this.setSpeed(speed);
    this.seek(position);
  }

  stop(): void {
    this.pause();
    this.element.hidden = true;
  }

  get active(): boolean {
    return !this.element.hidden;
  }

  /** Applies a host `replayState` message. */
  apply(state: { playing?: boolean; position?: number; speed?: number }): void {
    if (!this.active) return;
    if (state.speed !== undefined) this.setSpeed(state.speed);
    if (state.position !== undefined) this.seek(state.position);
    if (state.playing === true) this.play();
    if (state.playing === false) this.pause();
  }

  /** Keyboard shortcuts; returns true when the key was a replay key. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.active || event.altKey || event.ctrlKey || event.metaKey) return false;
    const target = event.target;
    if (target instanceof HTMLElement && (target.tagName === 'SELECT' || target.isContentEditable)) return false;
    switch (event.key) {
      case ' ':
        this.toggle();
        return true;
      case 'ArrowLeft':
        this.step(-1);
        return true;
      case 'ArrowRight':
        this.step(1);
        return true;
      case 'Home':
        this.pause();
        this.seek(0);
        return true;
      case 'End':
        this.pause();
        this.seek(this.total);
        return true;
      default:
        return false;
    }
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    if (this.playing) return;
    // Playing from the end starts over, as media players do.
    if (this.position >= this.total) this.seek(0);
    this.playing = true;
    this.updateControls();
    this.scheduleNext();
  }

  pause(): void {
    this.playing = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.updateControls();
  }

  step(delta: number): void {
    this.pause();
    this.seek(this.position + delta);
  }

  setSpeed(speed: number): void {
    if (!Number.isFinite(speed)) return;
    this.speed = Math.min(MAX_REPLAY_SPEED, Math.max(MIN_REPLAY_SPEED, speed));
    this.speedSelect.value = String(this.speed);
    if (this.playing) this.scheduleNext();
    this.updateControls();
  }

  seek(position: number): void {
    const clamped = Math.max(0, Math.min(this.total, Math.round(position)));
    this.position = clamped;
    this.options.onSeek(clamped);
    this.updateControls();
  }

  private scheduleNext(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.playing) return;
      this.seek(this.position + 1);
      if (this.position >= this.total) this.pause();
      else this.scheduleNext();
    }, BASE_INTERVAL_MS / this.speed);
  }

  private updateControls(): void {
    this.scrubber.value = String(this.position);
    this.positionLabel.textContent = `${this.position} / ${this.total}`;
    this.playButton.title = this.playing ? 'Pause (Space)' : 'Play (Space)';
    // The toolkit names its inner button by `label`: all three change together, or a screen reader hears "Play".
    this.playButton.setAttribute('label', this.playButton.title);
    this.playButton.setAttribute('aria-label', this.playButton.title);
    this.playButton.setAttribute('icon', this.playing ? 'debug-pause' : 'debug-start');
    this.element.dataset.playing = String(this.playing);
    this.options.onChange(this.state);
  }
}

function iconButton(icon: string, label: string, onClick: () => void): HTMLElement {
  const button = document.createElement('vscode-toolbar-button');
  button.setAttribute('icon', icon);
  button.setAttribute('label', label);
  button.setAttribute('aria-label', label);
  button.title = label;
  button.addEventListener('click', onClick);
  return button;
}
