// Whether an explorer page shows the session it was last sent. VS Code can lose a message to a webview and still
// answer `true` to postMessage (under load, a message posted while the webview swaps its frame); the page would keep
// showing the previous session with nothing to tell. The page names the session it shows in every `uiState` it posts
// (it posts one after each snapshot it applies): until it names the one sent, the snapshot counts as unconfirmed, and
// after a while the connection is asked to send it again, a bounded number of times.
import type { RequestTimers } from '../../shared/requests';

/** How long a page has to name the session of a snapshot before that snapshot is sent again. */
export const CONFIRM_WITHIN_MS = 1_500;
/** Snapshots sent again for one session before the connection stops and reports it. */
export const MAX_RESENDS = 3;

const REAL_TIMERS: RequestTimers = {
  // Unreferenced: an unconfirmed snapshot never keeps a process alive.
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SnapshotConfirmationOptions {
  /** The snapshot of `sessionId` (undefined: no session) was not confirmed in time; `resends` already made. */
  onUnconfirmed: (sessionId: string | undefined, resends: number) => void;
  timers?: RequestTimers;
  confirmWithinMs?: number;
}

export class SnapshotConfirmation {
  private awaited: { sessionId: string | undefined; resends: number; timer: unknown } | undefined;
  private readonly timers: RequestTimers;

  constructor(private readonly options: SnapshotConfirmationOptions) {
    this.timers = options.timers ?? REAL_TIMERS;
  }

  /** A snapshot of `sessionId` was posted, after `resends` earlier posts of it that the page did not confirm. */
  sent(sessionId: string | undefined, resends = 0): void {
    this.cancel();
    const awaited = { sessionId, resends, timer: undefined as unknown };
    awaited.timer = this.timers.set(() => {
      if (this.awaited !== awaited) return;
      this.awaited = undefined;
      this.options.onUnconfirmed(sessionId, resends);
    }, this.options.confirmWithinMs ?? CONFIRM_WITHIN_MS);
    this.awaited = awaited;
  }

  /** The page said which session it shows: the snapshot of that session is confirmed. */
  pageShows(sessionId: string | undefined): void {
    if (this.awaited !== undefined && this.awaited.sessionId === sessionId) this.cancel();
  }

  /** Nothing is awaited any more (the page went away: a new one says `ready` and is sent a snapshot). */
  cancel(): void {
    if (this.awaited !== undefined) this.timers.clear(this.awaited.timer);
    this.awaited = undefined;
  }
}
