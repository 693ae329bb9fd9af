// thinking_sessions action "list": saved sessions newest first, paged, filtered by strategy, status and text.
import { z } from 'zod';
import { SESSION_STATUSES } from '../../../engine/fieldRules';
import type { ToolContext } from '../../toolContext';
import { choice, count, pageLimit, text } from './arguments';
import { summarizeMeta } from './summaries';

export const schema = z.object({
  action: z.literal('list'),
  offset: count(0),
  limit: pageLimit(),
  status: choice(SESSION_STATUSES),
  strategy: text(),
  text: text(),
});

export function run({ offset, limit, status, strategy, text }: z.output<typeof schema>, { engine }: ToolContext): Record<string, unknown> {
  const result = engine.listSessions({ offset, limit, strategy, status, text });
  const nextOffset = offset + result.sessions.length;
  return {
    sessions: result.sessions.map(summarizeMeta),
    total: result.total,
    offset,
    ...(nextOffset < result.total ? { nextOffset } : {}),
  };
}
