// Tells screen readers about new live thoughts without flooding them: an aria-live="polite" region that speaks at
// most once per interval (about 2 s), summarising the burst that arrived meanwhile ("4 new thoughts, latest thought
// 12, reasoning update"). The clock is injectable so the throttle is testable without waiting.
import type { ThoughtRecord } from '../../src/engine/model';
import { thoughtNodeLabel } from './nodeLabels';

export const ANNOUNCE_INTERVAL_MS = 2_000;

export interface AnnouncerClock {
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

const realClock: AnnouncerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
};

/** The words for a burst of new thoughts (pure). */
export function announcementFor(burst: readonly ThoughtRecord[]): string {
  const latest = burst[burst.length - 1];
  if (!latest) return '';
  return burst.length === 1 ? `New ${thoughtNodeLabel(latest)}` : `${burst.length} new thoughts, latest ${thoughtNodeLabel(latest)}`;
}

export class LiveAnnouncer {
  private pending: ThoughtRecord[] = [];
  private scheduled = false;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly say: (text: string) => void,
    private readonly intervalMs = ANNOUNCE_INTERVAL_MS,
    private readonly clock: AnnouncerClock = realClock,
  ) {}

  /** An aria-live region under `parent` and an announcer that speaks into it. */
  static inRegion(parent: HTMLElement, intervalMs = ANNOUNCE_INTERVAL_MS): { announcer: LiveAnnouncer; region: HTMLElement } {
    const region = document.createElement('div');
    region.className = 'live-announcer visually-hidden';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('aria-atomic', 'true');
    parent.append(region);
    const announcer = new LiveAnnouncer((text) => {
      region.textContent = text;
    }, intervalMs);
    return { announcer, region };
  }

  thoughtAdded(thought: ThoughtRecord): void {
    this.pending.push(thought);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = Math.max(0, this.last + this.intervalMs - this.clock.now());
    this.clock.setTimeout(() => this.flush(), wait);
  }

  /** Forgets what was waiting (another session, a replay started). */
  clear(): void {
    this.pending = [];
  }

  private flush(): void {
    this.scheduled = false;
    const burst = this.pending;
    this.pending = [];
    if (burst.length === 0) return;
    this.last = this.clock.now();
    this.say(announcementFor(burst));
  }
}
