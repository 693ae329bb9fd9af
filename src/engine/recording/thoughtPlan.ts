// The decision step of recording a thought: which strategy and stage it lands in, whether the session's rules allow
// it, and the record and session meta it produces. Pure (the clock is passed in): nothing is stored or changed here,
// so a refusal or a failed write leaves the engine exactly as it was.
import { applyThought, purposeOf } from '../browserSafe/sessionMeta';
import type { EngineLimits } from '../limits';
import type { SessionMeta, StrategySwitch, ThoughtRecord } from '../model';
import { decideStage, isTerminalStage, type StageChoice } from '../stageFlow';
import { findStrategy } from '../strategies/catalog';
import type { StrategyDefinition } from '../strategies/types';
import type { ThoughtInput } from '../thoughtInput';
import type { HeldSession } from './heldSession';
import { RejectedThought, requireStrategy, unknownStrategyMessage } from './rejectedThought';
import { applySessionRules } from './sessionRules';
import type { ThoughtAnnotator } from './thoughtAnnotation';

/** Everything decided about one thought before it is persisted. */
export interface ThoughtPlan {
  session: HeldSession;
  /** The session is created by this thought (not yet held or stored). */
  isNew: boolean;
  strategy: StrategyDefinition;
  /** Set when this thought switches the session to another strategy. */
  strategySwitch: StrategySwitch | undefined;
  /** The stage the decision started from (undefined right after a switch) and the thoughts already in it. */
  fromStage: string | undefined;
  thoughtsInFromStage: number;
  choice: StageChoice;
  thought: ThoughtRecord;
  /** The session's meta before this thought, and after it. */
  previous: SessionMeta;
  next: SessionMeta;
  /** The thought opens a branch the session did not have. */
  branchIsNew: boolean;
  /** The thought ends the session (nextThoughtNeeded false, or the strategy's terminal stage). */
  completes: boolean;
  /** Fields the annotator adds to the reply. */
  replyAdditions?: Record<string, unknown>;
}

export interface PlanContext {
  limits: EngineLimits;
  now: () => number;
  /** Per-thought data recorded as the record's `extra` (e.g. a deliberation role's model and timing). */
  extra?: Record<string, unknown>;
  annotate?: ThoughtAnnotator;
}

export function planThought(
  session: HeldSession,
  isNew: boolean,
  sent: ThoughtInput,
  context: PlanContext,
  warnings: string[],
): ThoughtPlan {
  const meta = session.meta;
  const { strategy, strategySwitch, fromStage, thoughtsInFromStage } = chooseStrategy(session, isNew, sent, context.now);
  const input = applySessionRules(session, sent, context.limits, warnings);

  const branchIsNew = input.branchId !== undefined && !meta.branchIds.includes(input.branchId);
  const decision = decideStage(strategy, {
    current: fromStage,
    thoughtsInCurrent: thoughtsInFromStage,
    requested: input.stage,
    switching: strategySwitch !== undefined,
    isRevision: input.isRevision === true,
    branch: input.branchId === undefined ? undefined : branchIsNew ? 'newBranch' : 'existingBranch',
    finishing: !input.nextThoughtNeeded,
  });
  if (!decision.ok) throw new RejectedThought(decision.message);

  const annotation = context.annotate?.({ input, strategy, stage: decision.stage, meta, thoughts: session.thoughts, branchIsNew });
  if (annotation?.warnings) warnings.push(...annotation.warnings);
  const extra = annotation?.extra ? { ...context.extra, ...annotation.extra } : context.extra;
  const thought = buildThoughtRecord(input, decision.stage, session.thoughts.length, context.now(), extra);
  const completes = !input.nextThoughtNeeded || isTerminalStage(strategy, decision.stage);
  return {
    session,
    isNew,
    strategy,
    strategySwitch,
    fromStage,
    thoughtsInFromStage,
    choice: decision.choice,
    thought,
    previous: meta,
    next: metaAfterThought(meta, thought, strategy.name, completes, strategySwitch !== undefined),
    branchIsNew,
    completes,
    replyAdditions: annotation?.reply,
  };
}

interface StrategyChoice {
  strategy: StrategyDefinition;
  strategySwitch: StrategySwitch | undefined;
  fromStage: string | undefined;
  thoughtsInFromStage: number;
}

/** The session's strategy, or the one the thought switches to (allowed only before the session completes). */
function chooseStrategy(session: HeldSession, isNew: boolean, input: ThoughtInput, now: () => number): StrategyChoice {
  const meta = session.meta;
  const kept: StrategyChoice = {
    strategy: requireStrategy(meta.strategy),
    strategySwitch: undefined,
    fromStage: meta.stage,
    thoughtsInFromStage: session.thoughtsInStage,
  };
  if (input.strategy === undefined || input.strategy === meta.strategy) return kept;
  const target = findStrategy(input.strategy);
  if (!target) throw new RejectedThought(unknownStrategyMessage(input.strategy));
  if (isNew) return { ...kept, strategy: target };
  if (meta.status === 'complete') {
    throw new RejectedThought(
      `Invalid strategy: session "${meta.id}" is complete, and a strategy can be switched only before completion. ` +
        `Start a new session in "${target.name}" with thoughtNumber 1, or omit strategy to stay in "${meta.strategy}".`,
    );
  }
  // A switch re-enters the stage flow in the new strategy and is kept in the session's history.
  return {
    strategy: target,
    strategySwitch: { atSeq: session.thoughts.length, from: meta.strategy, to: target.name, timestamp: now() },
    fromStage: undefined,
    thoughtsInFromStage: 0,
  };
}

function buildThoughtRecord(
  input: ThoughtInput,
  stage: string,
  seq: number,
  timestamp: number,
  extra: Record<string, unknown> | undefined,
): ThoughtRecord {
  const thought: ThoughtRecord = {
    seq,
    thought: input.thought,
    thoughtNumber: input.thoughtNumber,
    // As the reference does: an estimate that was exceeded grows to the thought's number.
    totalThoughts: Math.max(input.totalThoughts, input.thoughtNumber),
    nextThoughtNeeded: input.nextThoughtNeeded,
    stage,
    timestamp,
  };
  if (input.isRevision !== undefined) thought.isRevision = input.isRevision;
  if (input.revisesThought !== undefined) thought.revisesThought = input.revisesThought;
  if (input.branchFromThought !== undefined) thought.branchFromThought = input.branchFromThought;
  if (input.branchId !== undefined) thought.branchId = input.branchId;
  if (input.needsMoreThoughts !== undefined) thought.needsMoreThoughts = input.needsMoreThoughts;
  if (extra !== undefined) thought.extra = extra;
  return thought;
}

function metaAfterThought(meta: SessionMeta, thought: ThoughtRecord, strategy: string, completes: boolean, switched: boolean): SessionMeta {
  const next = applyThought(meta, thought);
  next.strategy = strategy;
  // A switch names a strategy: from then on the replies guide through its stages (see replyShaping's plain sessions).
  if (switched) next.strategyNamed = true;
  next.status = completes ? 'complete' : 'live';
  next.purpose = meta.purpose ?? purposeOf(thought.thought);
  return next;
}
