// A clock for code that takes RequestTimers: nothing fires until the test says so, so a timeout is tested without
// waiting for it.
import type { RequestTimers } from '../../../src/shared/requests';

export class ManualTimers implements RequestTimers {
  private next = 0;
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();

  set(callback: () => void, ms: number): number {
    const handle = ++this.next;
    this.pending.set(handle, { callback, ms });
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** The delays of the timers still set, in the order they were set. */
  waiting(): number[] {
    return [...this.pending.values()].map((timer) => timer.ms);
  }

  /** Fires every timer still set (as if their time had come). */
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const timer of due) timer.callback();
  }
}
