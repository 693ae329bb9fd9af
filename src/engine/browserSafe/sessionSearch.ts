// What a text query matches in sessions, in one place: the `thinking_sessions` search, the "Search Sessions…" quick
// pick and the listings' `text` filter. Case-insensitive; a session matches by its title, purpose or id, or by the
// text of its thoughts. How much is searched is each caller's budget.

/** True when `needle` (already lower-cased) is in the session's title, purpose or id. */
export function metaMatchesText(meta: { id: string; title?: string; purpose?: string }, needle: string): boolean {
  return `${meta.title ?? ''}\n${meta.purpose ?? ''}\n${meta.id}`.toLowerCase().includes(needle);
}

export interface SearchBudget {
  /** Asked before each session: true ends the search there (a time budget, a count of thoughts read…). */
  exhausted(progress: { matches: number; scannedThoughts: number }): boolean;
  /** The most thoughts of one session reported as hits. */
  hitsPerSession: number;
}

export interface SessionMatch<M, T> {
  meta: M;
  /** The query is in the session's title, purpose or id. */
  inMeta: boolean;
  /** The session's first thoughts that hold the query, in order, with where in the text it starts. */
  hits: { thought: T; at: number }[];
}

export interface SessionSearchResult<M, T> {
  matches: SessionMatch<M, T>[];
  /** Sessions looked at before the budget ran out (a caller pages on from there). */
  scannedSessions: number;
  /** Thoughts counted against the budget: every thought of each session looked at. */
  scannedThoughts: number;
}

/**
 * Searches `sessions` in order for `query` until the budget is exhausted. `thoughtsOf` reads a session's thoughts
 * (undefined when it cannot be read: the session can then match by its meta only).
 */
export function searchSessions<M extends { id: string; title?: string; purpose?: string }, T extends { thought: string }>(
  sessions: Iterable<M>,
  thoughtsOf: (meta: M) => readonly T[] | undefined,
  query: string,
  budget: SearchBudget,
): SessionSearchResult<M, T> {
  const needle = query.toLowerCase();
  const matches: SessionMatch<M, T>[] = [];
  let scannedSessions = 0;
  let scannedThoughts = 0;
  for (const meta of sessions) {
    if (budget.exhausted({ matches: matches.length, scannedThoughts })) break;
    scannedSessions++;
    const inMeta = metaMatchesText(meta, needle);
    const thoughts = thoughtsOf(meta) ?? [];
    scannedThoughts += thoughts.length;
    const hits: { thought: T; at: number }[] = [];
    for (const thought of thoughts) {
      if (hits.length >= budget.hitsPerSession) break;
      const at = thought.thought.toLowerCase().indexOf(needle);
      if (at >= 0) hits.push({ thought, at });
    }
    if (inMeta || hits.length > 0) matches.push({ meta, inMeta, hits });
  }
  return { matches, scannedSessions, scannedThoughts };
}
