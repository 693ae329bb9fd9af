// The last step of a `sequentialthinking` reply: cut the full reply down to the session's detail level. Compact says
// what is new since this connection's last reply in the session (kept as ToldState), standard drops only empty and
// unchanged extras, full is the reply as built. Pure: the engine keeps each connection's ToldState.
// A plain session (the default strategy, never named by the agent: the reference's way of using the tool) gets no
// stage talk in compact: its agent never asked for stages, so only what changes its next move goes out.
import type { ReplyDetail } from '../fieldRules';
import type { ThoughtReply } from './thoughtReply';

/** What a connection was last told about its current session; a reply for another session starts afresh. */
export interface ToldState {
  sessionId: string;
  strategy: string;
  stage: string;
  /** The next stages, joined: a change (the session completed, a strategy switch) is news even in the same stage. */
  nextStages: string;
  stagesToFinal: number;
}

/** The reply fields this step decides about; anything else (feedback, a decision, recommendations) always goes out. */
const OWN_FIELDS: ReadonlySet<string> = new Set([
  'thoughtNumber',
  'totalThoughts',
  'nextThoughtNeeded',
  'branches',
  'thoughtHistoryLength',
  'sessionId',
  'strategy',
  'stage',
  'nextStages',
  'guidance',
  'warnings',
  'progress',
]);

export interface ShapedReply {
  reply: Record<string, unknown>;
  told: ToldState;
}

/**
 * `told` undefined (a first reply, or after a resume or a switch of session) means nothing may be left out as known.
 * `plain`: the session's strategy was never named (see SessionMeta.strategyNamed).
 */
export function shapeReply(full: ThoughtReply, detail: ReplyDetail, told: ToldState | undefined, plain = false): ShapedReply {
  const now: ToldState = {
    sessionId: full.sessionId,
    strategy: full.strategy,
    stage: full.stage,
    nextStages: full.nextStages.join(' '),
    stagesToFinal: full.progress.stagesToFinal,
  };
  if (detail === 'full') return { reply: full as unknown as Record<string, unknown>, told: now };
  const known = told !== undefined && told.sessionId === full.sessionId ? told : undefined;
  const strategyChanged = known === undefined || known.strategy !== full.strategy;
  // The reference's five fields, on every reply: agents and tests written for the reference rely on them.
  const reply: Record<string, unknown> = {
    thoughtNumber: full.thoughtNumber,
    totalThoughts: full.totalThoughts,
    nextThoughtNeeded: full.nextThoughtNeeded,
    branches: full.branches,
    thoughtHistoryLength: full.thoughtHistoryLength,
  };
  if (detail === 'standard') {
    reply.sessionId = full.sessionId;
    if (strategyChanged) reply.strategy = full.strategy;
    reply.stage = full.stage;
    if (full.nextStages.length > 0) reply.nextStages = full.nextStages;
    reply.guidance = full.guidance;
    if (strategyChanged || known.stagesToFinal !== now.stagesToFinal) reply.progress = full.progress;
  } else if (plain) {
    if (known === undefined) reply.sessionId = full.sessionId;
    // The person's feedback or answer is news; the guidance's first sentence says what to do with it.
    if (full.userFeedback !== undefined || 'userDecision' in full) reply.guidance = full.guidance;
  } else {
    if (known === undefined) reply.sessionId = full.sessionId;
    if (strategyChanged) reply.strategy = full.strategy;
    const stageChanged = strategyChanged || known.stage !== full.stage;
    const movesChanged = stageChanged || known.nextStages !== now.nextStages;
    if (stageChanged) reply.stage = full.stage;
    if (movesChanged && full.nextStages.length > 0) reply.nextStages = full.nextStages;
    // In the same stage with the same ways on, the guidance only reminds of what was said; the person's feedback or
    // answer (which the guidance's first sentence puts first) is news.
    if (movesChanged || full.userFeedback !== undefined || 'userDecision' in full) reply.guidance = full.guidance;
  }
  if (full.warnings.length > 0) reply.warnings = full.warnings;
  for (const [key, value] of Object.entries(full))
    if (!OWN_FIELDS.has(key) && value !== undefined && !(Array.isArray(value) && value.length === 0)) reply[key] = value;
  return { reply, told: now };
}
