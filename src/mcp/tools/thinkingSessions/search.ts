// thinking_sessions action "search": sessions whose title, purpose or thoughts contain the query, with snippets. A
// search reads whole sessions, so one call stops after a bounded amount of work and says where to go on.
import { z } from 'zod';
import { searchSessions } from '../../../engine/browserSafe/sessionSearch';
import type { ToolContext } from '../../toolContext';
import { ArgumentProblem, count, pageLimit, text } from './arguments';
import { summarizeMeta } from './summaries';

export const SEARCH_MAX_SESSIONS_SCANNED = 100;
export const SEARCH_MAX_THOUGHTS_SCANNED = 50_000;
const SNIPPET_LENGTH = 160;

export const schema = z.object({
  action: z.literal('search'),
  query: text(),
  // What list filters with: taken as the query when query is absent.
  text: text(),
  offset: count(0),
  limit: pageLimit(),
});

export function run(args: z.output<typeof schema>, { engine }: ToolContext): Record<string, unknown> {
  const query = args.query ?? args.text;
  if (query === undefined || query.trim() === '')
    throw new ArgumentProblem('Invalid query: search needs a non-empty query (the text to look for).');
  const { offset, limit } = args;
  const page = engine.listSessions({ offset, limit: SEARCH_MAX_SESSIONS_SCANNED });
  const found = searchSessions(page.sessions, (meta) => engine.getSession(meta.id)?.thoughts, query, {
    exhausted: (progress) => progress.matches >= limit || progress.scannedThoughts >= SEARCH_MAX_THOUGHTS_SCANNED,
    hitsPerSession: 5,
  });
  const matches = found.matches.map(({ meta, hits }) => ({
    ...summarizeMeta(meta),
    matchingThoughts: hits.map(({ thought, at }) => ({
      thoughtNumber: thought.thoughtNumber,
      seq: thought.seq,
      snippet: snippet(thought.thought, at, query.toLowerCase().length),
    })),
  }));
  const scannedSessions = found.scannedSessions;
  const nextOffset = offset + scannedSessions;
  return {
    query,
    matches,
    scannedSessions,
    ...(nextOffset < page.total ? { nextOffset, note: 'Not every session was searched; call search again with offset nextOffset.' } : {}),
  };
}

function snippet(text: string, at: number, length: number): string {
  const start = Math.max(0, at - Math.floor((SNIPPET_LENGTH - length) / 2));
  const flat = text.slice(start, start + SNIPPET_LENGTH).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${flat}${start + SNIPPET_LENGTH < text.length ? '…' : ''}`;
}
