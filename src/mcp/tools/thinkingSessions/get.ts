// thinking_sessions action "get": one session, as a summary (meta, branches, last thoughts) or in full (every thought
// and the person's feedback, a long session in pages).
import { z } from 'zod';
import type { SessionSnapshot } from '../../../engine/model';
import { feedbackStatusText } from '../../../shared/feedbackStatus';
import type { ToolContext } from '../../toolContext';
import { RESUME_DEFAULT_RECENT, choice, count, requireSession, sessionId } from './arguments';
import { compactThought, describeBranches, summarizeMeta } from './summaries';

export const DETAILS = ['summary', 'full'] as const;

/**
 * Most characters (as JSON) of one `get` (full) page: the reply carries it twice (text and structuredContent), and an
 * MCP stdio client drops a line over 10 MiB. A longer session comes in pages (offset, nextOffset).
 */
export const GET_FULL_PAGE_MAX_CHARS = 1_000_000;

export const schema = z.object({
  action: z.literal('get'),
  sessionId: sessionId(),
  detail: choice(DETAILS, '"summary" or "full"'),
  offset: count(0),
  recent: count(RESUME_DEFAULT_RECENT),
});

export function run({ sessionId, detail, offset, recent }: z.output<typeof schema>, { engine }: ToolContext): Record<string, unknown> {
  const snapshot = requireSession(engine, sessionId);
  if (detail === 'full') return fullPage(snapshot, offset);
  return {
    ...summarizeMeta(snapshot.meta),
    branches: describeBranches(snapshot.thoughts),
    recentThoughts: snapshot.thoughts.slice(-recent).map(compactThought),
  };
}

/** Every thought from `offset` that fits in GET_FULL_PAGE_MAX_CHARS (at least one), and where the next page starts. */
function fullPage(snapshot: SessionSnapshot, offset: number): Record<string, unknown> {
  const { meta, strategySwitches, thoughts, feedback } = snapshot;
  const described = feedback?.map((record) => ({ ...record, status: feedbackStatusText(record, thoughts, meta.status) }));
  const head = { meta, strategySwitches, ...(offset === 0 && described && described.length > 0 ? { feedback: described } : {}) };
  let size = JSON.stringify(head).length;
  let end = Math.min(offset, thoughts.length);
  while (end < thoughts.length) {
    const next = JSON.stringify(thoughts[end]).length + 1;
    if (end > offset && size + next > GET_FULL_PAGE_MAX_CHARS) break;
    size += next;
    end++;
  }
  const page = { ...head, thoughts: thoughts.slice(Math.min(offset, thoughts.length), end) };
  if (end >= thoughts.length) return offset === 0 ? page : { ...page, offset };
  return {
    ...page,
    offset,
    nextOffset: end,
    note: `Thoughts ${offset + 1}-${end} of ${thoughts.length} (in arrival order): call get again with offset ${end} for the next page.`,
  };
}
