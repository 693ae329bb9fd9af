// Asks the person at a session's decision points through MCP elicitation (opt-in): the choices (next stages, or
// finish/continue) and a free-text note, with a bounded wait; the answer goes into the `sequentialthinking` reply as
// `userDecision` plus a guidance sentence that puts it first. The thought is recorded before anything is asked, a
// client without elicitation is never asked, a point is asked at most once, and a failed question never fails the call.
import { SdkError, SdkErrorCode, type ElicitRequestFormParams, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { outsideErrorText } from '../engine/fieldRules';
import { CONTINUE_CHOICE, DEFAULT_DECISION_TIMEOUT_MS, FINISH_CHOICE, decisionPointOf, type DecisionPoint } from '../engine/decisionPoints';
import type { ThinkingEngine, ThoughtReply } from '../engine/engine';
import type { ConnectionLog } from './connectionLog';

export { DEFAULT_DECISION_TIMEOUT_MS };
/** The longest note from the person that goes into a reply. */
export const MAX_DECISION_NOTE_LENGTH = 2000;
/** Sessions whose last stage a connection remembers, and decision points it remembers asking (bounds, not features). */
const REMEMBERED_SESSIONS = 1000;
const REMEMBERED_QUESTIONS = 10_000;

export interface DecisionPointOptions {
  /** Whether to ask in sessions without their own setting; a function, so a changed setting applies at once. */
  askAtDecisionPoints: boolean | (() => boolean);
  /** How long to wait for the answer (default 60 s); a function, so a changed setting applies at once. */
  timeoutMs?: number | (() => number);
}

export type UserDecisionAction = 'accept' | 'decline' | 'cancel' | 'timeout';

/** The person's answer, as the reply carries it. */
export interface UserDecision {
  action: UserDecisionAction;
  /** What the question was about: "nextStage" or "earlyFinish". */
  about: DecisionPoint['kind'];
  choice?: string;
  text?: string;
}

type ToolExtra = ServerContext;

export interface DecisionPointAsker {
  /**
   * Undefined when there is nothing to ask (the common, synchronous path); otherwise the reply with the person's
   * answer once they answered, declined, dismissed it or the wait ran out.
   */
  consult(reply: ThoughtReply, extra: ToolExtra): Promise<ThoughtReply> | undefined;
}

export function createDecisionPointAsker(
  server: McpServer,
  engine: ThinkingEngine,
  options: DecisionPointOptions,
  log: ConnectionLog = () => {},
): DecisionPointAsker {
  const askByDefault =
    typeof options.askAtDecisionPoints === 'function' ? options.askAtDecisionPoints : () => options.askAtDecisionPoints as boolean;
  const waitMs = (): number =>
    (typeof options.timeoutMs === 'function' ? options.timeoutMs() : options.timeoutMs) ?? DEFAULT_DECISION_TIMEOUT_MS;
  const lastStage = new Map<string, string>();
  const asked = new Set<string>();

  const clientCanBeAsked = (): boolean => {
    const elicitation = server.server.getClientCapabilities()?.elicitation;
    if (elicitation === undefined || elicitation === null) return false;
    // An empty capability means form mode (the spec's backwards compatibility); url-only clients cannot show a form.
    return elicitation.form !== undefined || elicitation.url === undefined;
  };

  return {
    consult(reply, extra) {
      const entered = lastStage.get(reply.sessionId) !== reply.stage;
      lastStage.delete(reply.sessionId);
      lastStage.set(reply.sessionId, reply.stage);
      if (lastStage.size > REMEMBERED_SESSIONS) lastStage.delete(lastStage.keys().next().value as string);
      const point = decisionPointOf(reply, entered);
      if (!point) return undefined;
      const own = engine.holdSession(reply.sessionId)?.askAtDecisionPoints;
      if (!(own ?? askByDefault()) || !clientCanBeAsked()) return undefined;
      const key = `${reply.sessionId}|${point.key}`;
      if (asked.has(key)) return undefined;
      asked.add(key);
      if (asked.size > REMEMBERED_QUESTIONS) asked.delete(asked.values().next().value as string);
      return ask(point, reply, extra);
    },
  };

  async function ask(point: DecisionPoint, reply: ThoughtReply, extra: ToolExtra): Promise<ThoughtReply> {
    const timeoutMs = waitMs();
    let decision: UserDecision;
    try {
      const progressToken = extra.mcpReq._meta?.progressToken;
      if (progressToken !== undefined) {
        await extra.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: 0, message: 'Waiting for your answer to the question about this session.' },
        });
      }
      const result = await extra.mcpReq.send(
        { method: 'elicitation/create', params: { ...question(point, reply) } },
        {
          timeout: timeoutMs,
          signal: extra.mcpReq.signal,
        },
      );
      decision = decisionOf(point, result.action, result.content);
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        decision = { action: 'timeout', about: point.kind };
      } else {
        // The client failed or the call was cancelled: the thought stands, the reply says the question went unanswered.
        const message = clientErrorText(error);
        log('warning', `could not ask the user at a decision point: ${message}`, extra.mcpReq.id);
        return { ...reply, warnings: [...reply.warnings, `The user could not be asked (${message}); go on as you judge best.`] };
      }
    }
    return withDecision(reply, decision, timeoutMs);
  }
}

/**
 * Why asking failed, in a sentence of bounded length: the client's own error cut, or, for an answer that is not an
 * elicitation result, what was wrong with it in words (not the validator's raw dump).
 */
function clientErrorText(error: unknown): string {
  let issues = (error as { issues?: unknown } | null)?.issues;
  // A client's SDK that refused its own handler's answer sends the validator's issues as JSON inside the message.
  const dump = error instanceof Error ? /(\[\s*\{[\s\S]*\])\s*$/.exec(error.message.slice(-20_000))?.[1] : undefined;
  if (issues === undefined && dump !== undefined) {
    try {
      issues = JSON.parse(dump);
    } catch {
      // Not JSON after all: cut as it is.
    }
  }
  if (Array.isArray(issues)) {
    const problems = issues
      .slice(0, 3)
      .map((issue: { path?: unknown[]; message?: unknown }) => `${(issue.path ?? []).join('.') || 'the answer'}: ${String(issue.message)}`);
    return outsideErrorText(`the client's reply was not a valid answer to the question (${problems.join('; ')})`);
  }
  return outsideErrorText(error);
}

/** The elicitation/create params: a message and a flat form (one enum, one free text), as the spec allows. */
function question(point: DecisionPoint, reply: ThoughtReply): ElicitRequestFormParams {
  const message =
    point.kind === 'nextStage'
      ? `The agent finished thought ${reply.thoughtNumber} in stage "${point.stage}" (${reply.strategy}). Which stage should come next?`
      : `The agent wants to finish after thought ${reply.thoughtNumber} of about ${reply.totalThoughts}, at stage "${point.stage}" (${reply.strategy}). Finish now, or keep thinking?`;
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        choice: {
          type: 'string',
          title: point.kind === 'nextStage' ? 'Next stage' : 'Finish or continue',
          enum: point.choices,
          ...(point.kind === 'earlyFinish' ? { enumNames: ['Finish now', 'Keep thinking'] } : {}),
        },
        note: {
          type: 'string',
          title: 'Note for the agent (optional)',
          maxLength: MAX_DECISION_NOTE_LENGTH,
        },
      },
    },
  };
}

function decisionOf(point: DecisionPoint, action: string, content: Record<string, unknown> | undefined): UserDecision {
  if (action !== 'accept') return { action: action === 'decline' ? 'decline' : 'cancel', about: point.kind };
  const decision: UserDecision = { action: 'accept', about: point.kind };
  const choice = content?.choice;
  if (typeof choice === 'string' && (point.choices as readonly string[]).includes(choice)) decision.choice = choice;
  const note = content?.note;
  if (typeof note === 'string' && note.trim() !== '') decision.text = note.trim().slice(0, MAX_DECISION_NOTE_LENGTH);
  return decision;
}

/** The reply with the answer: `userDecision`, and a sentence before the guidance that says what to do with it. */
function withDecision(reply: ThoughtReply, decision: UserDecision, timeoutMs: number): ThoughtReply {
  const sentences: string[] = [];
  const next: ThoughtReply & { userDecision: UserDecision } = { ...reply, userDecision: decision };
  switch (decision.action) {
    case 'accept':
      if (decision.choice === CONTINUE_CHOICE) {
        sentences.push(
          `The user asked you to keep thinking: continue with thoughtNumber ${reply.thoughtNumber + 1} and nextThoughtNeeded true.`,
        );
        next.nextThoughtNeeded = true;
      } else if (decision.choice === FINISH_CHOICE) sentences.push('The user agrees that you finish now.');
      else if (decision.choice !== undefined) sentences.push(`The user chose the next stage: send stage "${decision.choice}".`);
      if (decision.text !== undefined) sentences.push(`The user adds: ${JSON.stringify(decision.text)}.`);
      if (sentences.length === 0) sentences.push('The user answered without a choice; go on as you judge best.');
      break;
    case 'decline':
      sentences.push('The user declined to choose; go on as you judge best.');
      break;
    case 'cancel':
      sentences.push('The user dismissed the question; go on as you judge best.');
      break;
    case 'timeout':
      sentences.push(
        `The user did not answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; go on as you judge best.`,
      );
      break;
  }
  // After "keep thinking" the engine's guidance ("Session complete…") no longer holds.
  next.guidance = decision.choice === CONTINUE_CHOICE ? sentences.join(' ') : `${sentences.join(' ')} ${reply.guidance}`;
  return next;
}
