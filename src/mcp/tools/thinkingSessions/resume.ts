// thinking_sessions action "resume": makes a session this connection's current one and says how to go on with it.
import { z } from 'zod';
import { nextStages } from '../../../engine/stageFlow';
import { findStrategy } from '../../../engine/strategies/catalog';
import type { ToolContext } from '../../toolContext';
import { ArgumentProblem, RESUME_DEFAULT_RECENT, count, sessionId, unknownSession } from './arguments';
import { describeBranches, recentThoughtsFields, shownTitle } from './summaries';

export const schema = z.object({
  action: z.literal('resume'),
  sessionId: sessionId(),
  recent: count(RESUME_DEFAULT_RECENT),
});

export function run({ sessionId, recent }: z.output<typeof schema>, { engine, connectionId }: ToolContext): Record<string, unknown> {
  const snapshot = engine.resumeSession(connectionId, sessionId);
  if (!snapshot) throw new ArgumentProblem(unknownSession(sessionId));
  const { meta, thoughts } = snapshot;
  const strategy = findStrategy(meta.strategy);
  const upcoming = strategy && meta.status === 'live' ? [...nextStages(strategy, meta.stage)] : [];
  const nextThoughtNumber = meta.lastThoughtNumber + 1;
  return {
    sessionId: meta.id,
    title: shownTitle(meta),
    status: meta.status,
    strategy: meta.strategy,
    stage: meta.stage,
    nextStages: upcoming,
    thoughtCount: meta.thoughtCount,
    totalThoughts: meta.totalThoughts,
    nextThoughtNumber,
    branches: describeBranches(thoughts),
    ...recentThoughtsFields(thoughts, recent),
    guidance:
      meta.status === 'live'
        ? `This is now your current session. Continue with sequentialthinking thoughtNumber ${nextThoughtNumber}` +
          (upcoming.length > 0 ? `, stage "${meta.stage}" or one of ${upcoming.join(', ')}.` : '.')
        : `This session is ${meta.status}. Send sessionId "${meta.id}" with thoughtNumber ${nextThoughtNumber} to add to it, or thoughtNumber 1 without sessionId to start a new one.`,
  };
}
