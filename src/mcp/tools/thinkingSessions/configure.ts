// thinking_sessions action "configure": a session's own "ask at decision points" switch and reply detail level
// ("default" goes back to the server's).
import { z } from 'zod';
import { REPLY_DETAILS, isReplyDetail } from '../../../engine/fieldRules';
import type { ToolContext } from '../../toolContext';
import { ArgumentProblem, refuse, sent, sessionId, unknownSession } from './arguments';

/** true, false or "default", also as text ("true"); refused with what was sent. */
const askAtDecisionPoints = sent().transform((value, context) => {
  if (value === undefined || value === 'default') return value;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return refuse(context, value, 'true, false or "default"');
});

const replyDetail = sent().transform((value, context) => {
  if (value === undefined || value === 'default' || isReplyDetail(value)) return value;
  return refuse(context, value, `${REPLY_DETAILS.join(', ')} or "default"`);
});

export const schema = z.object({
  action: z.literal('configure'),
  sessionId: sessionId(),
  askAtDecisionPoints,
  replyDetail,
});

export function run(
  { sessionId, askAtDecisionPoints, replyDetail }: z.output<typeof schema>,
  { engine }: ToolContext,
): Record<string, unknown> {
  if (askAtDecisionPoints === undefined && replyDetail === undefined)
    throw new ArgumentProblem(
      'Nothing to configure: send askAtDecisionPoints (true, false or "default") or replyDetail (compact, standard, full or "default").',
    );
  // Both were checked by the schema before either is stored: a refused value changes nothing.
  let meta = engine.holdSession(sessionId);
  if (!meta) throw new ArgumentProblem(unknownSession(sessionId));
  if (askAtDecisionPoints !== undefined)
    meta = engine.setAskAtDecisionPoints(sessionId, askAtDecisionPoints === 'default' ? undefined : askAtDecisionPoints) ?? meta;
  if (replyDetail !== undefined) meta = engine.setReplyDetail(sessionId, replyDetail === 'default' ? undefined : replyDetail) ?? meta;
  return {
    sessionId: meta.id,
    ...(meta.askAtDecisionPoints !== undefined ? { askAtDecisionPoints: meta.askAtDecisionPoints } : {}),
    ...(meta.replyDetail !== undefined ? { replyDetail: meta.replyDetail } : {}),
  };
}
