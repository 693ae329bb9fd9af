// The status a person would give a session now. The store keeps a session live until it is finished, so its next
// thought brings it straight back; what is shown (the Sessions tree, the status bar, insights) stops claiming that an
// agent is still working on a session nobody has written to for a while.

/** A session still marked live that has had no thought for this long is shown (and counted) as abandoned. */
export const IDLE_AS_ABANDONED_MS = 30 * 60 * 1000;

export type ShownStatus = 'live' | 'complete' | 'abandoned';

/** The stored status, except that a live session idle longer than `idleMs` is abandoned. */
export function displayedStatus<S extends ShownStatus>(
  meta: { status: S; updatedAt: number },
  now: number,
  idleMs = IDLE_AS_ABANDONED_MS,
): S | 'abandoned' {
  return meta.status === 'live' && now - meta.updatedAt > idleMs ? 'abandoned' : meta.status;
}
