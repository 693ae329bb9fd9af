// thinking_sessions action "get": one session, as a summary (meta, branches, last thoughts) or in full (every thought
// and the person's feedback, a long session in pages).
import { z } from 'zod';
import type { SessionSnapshot } from '../../../engine/model';
import { feedbackStatusText } from '../../../engine/browserSafe/feedbackStatus';
import type { ToolContext } from '../../toolContext';
import { RESUME_DEFAULT_RECENT, choice, count, requireSession, sessionId } from './arguments';
import { PAGE_MAX_CHARS, describeBranches, recentThoughtsFields, summarizeMeta } from './summaries';

export const DETAILS = ['summary', 'full'] as const;

/** Most characters (as JSON) of one `get` (full) page, feedback included; a longer session comes in pages. */
export const GET_FULL_PAGE_MAX_CHARS = PAGE_MAX_CHARS;

export const schema = z.object({
  action: z.literal('get'),
  sessionId: sessionId(),
  detail: choice(DETAILS, '"summary" or "full"'),
  offset: count(0),
  feedbackOffset: count(),
  recent: count(RESUME_DEFAULT_RECENT),
});

export function run(
  { sessionId, detail, offset, feedbackOffset, recent }: z.output<typeof schema>,
  { engine }: ToolContext,
): Record<string, unknown> {
  const snapshot = requireSession(engine, sessionId);
  if (detail === 'full') return fullPage(snapshot, offset, feedbackOffset);
  return {
    ...summarizeMeta(snapshot.meta),
    branches: describeBranches(snapshot.thoughts),
    ...recentThoughtsFields(snapshot.thoughts, recent),
  };
}

/**
 * One page within GET_FULL_PAGE_MAX_CHARS: the person's feedback first (on the first page, or from `feedbackOffset`;
 * up to 1,000 notes of 4,000 characters, so it is paged too), then every thought from `offset` that fits (at least one
 * when the feedback is complete), and where the next page starts.
 */
function fullPage(snapshot: SessionSnapshot, offset: number, feedbackOffset: number | undefined): Record<string, unknown> {
  const { meta, strategySwitches, thoughts } = snapshot;
  const allFeedback = snapshot.feedback ?? [];
  const head: Record<string, unknown> = { meta, strategySwitches };
  let size = JSON.stringify(head).length;
  const feedbackStart = Math.min(feedbackOffset ?? (offset === 0 ? 0 : allFeedback.length), allFeedback.length);
  const feedback: Record<string, unknown>[] = [];
  let feedbackEnd = feedbackStart;
  while (feedbackEnd < allFeedback.length) {
    const record = allFeedback[feedbackEnd];
    const described = { ...record, status: feedbackStatusText(record, thoughts, meta.status) };
    const next = JSON.stringify(described).length + 1;
    if (feedback.length > 0 && size + next > GET_FULL_PAGE_MAX_CHARS) break;
    size += next;
    feedback.push(described);
    feedbackEnd++;
  }
  if (feedback.length > 0) head.feedback = feedback;
  const feedbackComplete = feedbackEnd >= allFeedback.length;
  let end = Math.min(offset, thoughts.length);
  while (end < thoughts.length) {
    const next = JSON.stringify(thoughts[end]).length + 1;
    if ((end > offset || !feedbackComplete) && size + next > GET_FULL_PAGE_MAX_CHARS) break;
    size += next;
    end++;
  }
  const page = { ...head, thoughts: thoughts.slice(Math.min(offset, thoughts.length), end) };
  const notes: string[] = [];
  if (!feedbackComplete)
    notes.push(
      `Feedback ${feedbackStart + 1}-${feedbackEnd} of ${allFeedback.length}: call get again with feedbackOffset ${feedbackEnd} for more.`,
    );
  if (end < thoughts.length)
    notes.push(
      `Thoughts ${offset + 1}-${end} of ${thoughts.length} (in arrival order): call get again with offset ${end} for the next page.`,
    );
  if (notes.length === 0) return offset === 0 && feedbackOffset === undefined ? page : { ...page, offset };
  return {
    ...page,
    offset,
    ...(end < thoughts.length ? { nextOffset: end } : {}),
    ...(!feedbackComplete ? { nextFeedbackOffset: feedbackEnd } : {}),
    note: notes.join(' '),
  };
}
