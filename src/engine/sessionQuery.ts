// What a ListSessionsQuery means, in one place: the engine filters the sessions it holds in memory with it and the
// store's index (src/storage/sessionIndex.ts) filters the sessions on disk with it, so both always agree on a listing.
// Part of the model contract (like model.ts), so the storage layer may import it.
import { metaMatchesText } from './browserSafe/sessionSearch';
import type { ListSessionsQuery, SessionMeta } from './model';

/** True when `meta` passes every filter `query` sets (strategy, status, and text in the title, purpose or id). */
export function matchesQuery(meta: SessionMeta, query: ListSessionsQuery): boolean {
  if (query.strategy !== undefined && meta.strategy !== query.strategy) return false;
  if (query.status !== undefined && meta.status !== query.status) return false;
  if (query.text !== undefined && query.text !== '') {
    if (!metaMatchesText(meta, query.text.toLowerCase())) return false;
  }
  return true;
}
