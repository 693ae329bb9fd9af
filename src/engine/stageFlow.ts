// The stage flow: decides which stage a thought lands in, following its strategy's transition table.
// Strategies are data (strategies/catalog.ts); this is the one place that interprets them.
//
// Policies (documented for agents in strategies/documentation.ts):
// - A named stage must be the current stage (a stage may take several thoughts) or one of its valid next stages.
//   Before a session's first thought the current stage is the strategy's first stage, so the first thought may name
//   it or one of its next stages (ReAct's worked example opens at initial_reasoning).
// - A thought that switches strategy may enter the new strategy at any of its stages: the agent has already done
//   work, and forcing it back through problem_reception would waste thoughts. Without a stage it starts at the first.
//   The same holds when the session's recorded stage is not a stage of its strategy (imported data).
// - Without a stage, the thought's own fields decide where they can (finishing, revising, branching); otherwise it
//   moves on when there is exactly one way forward and stays put at a decision point, where the reply lists the
//   choices. Nothing ever leaves a session unable to move: every refusal names what to send instead.
import { findStage } from './strategies/catalog';
import { FINAL_RESPONSE } from './strategies/transitionTable';
import type { StageExpectation, StrategyDefinition } from './strategies/types';

/** How the stage was chosen; replies explain the less obvious ones. */
export type StageChoice =
  /** The thought named its stage. */
  | 'named'
  /** No stage: the first stage of a new session or of a newly switched-to strategy. */
  | 'start'
  /** No stage: moved on along the only way forward. */
  | 'advanced'
  /** No stage: stayed in the current stage (a decision point, a revision, or the terminal stage). */
  | 'stayed'
  /** No stage: chosen from the thought's fields (finishing, revising, branching). */
  | 'inferred';

export type StageDecision = { ok: true; stage: string; choice: StageChoice } | { ok: false; message: string };

export interface StageRequest {
  /** The session's current stage in this strategy; undefined before the first thought and right after a switch. */
  current: string | undefined;
  /** Thoughts already recorded in the current stage. */
  thoughtsInCurrent: number;
  /** The stage the thought names, if any. */
  requested: string | undefined;
  /** The thought switches the session to this strategy. */
  switching?: boolean;
  isRevision?: boolean;
  /** The thought carries a branchId; `newBranch` when the session has no branch of that name yet. */
  branch?: 'newBranch' | 'existingBranch';
  /** nextThoughtNeeded is false: the agent says it is done. */
  finishing?: boolean;
}

/** Stages a thought may move to from `current` (not counting staying put). Before the first thought: the first stage. */
export function nextStages(strategy: StrategyDefinition, current: string | undefined): readonly string[] {
  if (current === undefined) return [strategy.stages[0].name];
  return strategy.transitions[current] ?? [];
}

export function isTerminalStage(strategy: StrategyDefinition, stage: string | undefined): boolean {
  return stage !== undefined && stage === strategy.stages[strategy.stages.length - 1].name;
}

/** Where a thought goes, or why it cannot go where it asked. */
export function decideStage(strategy: StrategyDefinition, request: StageRequest): StageDecision {
  const first = strategy.stages[0].name;
  const { requested } = request;
  // A stage the strategy does not know (an imported or hand-edited session) must not strand the session: re-enter
  // the flow as after a switch.
  const current = findStage(strategy, request.current) ? request.current : undefined;
  const reentering = request.switching === true || (request.current !== undefined && current === undefined);

  if (current === undefined) {
    if (requested === undefined) return { ok: true, stage: first, choice: 'start' };
    if (!findStage(strategy, requested)) return { ok: false, message: unknownStageMessage(strategy, requested, undefined) };
    if (reentering) return { ok: true, stage: requested, choice: 'named' };
    const opening = [first, ...(strategy.transitions[first] ?? [])];
    if (opening.includes(requested)) return { ok: true, stage: requested, choice: 'named' };
    return {
      ok: false,
      message: `Invalid stage: a ${strategy.name} session starts at "${first}", so its first thought cannot be "${requested}". Current stage: "${first}"; valid next stages: ${quoteList(opening.slice(1))}.`,
    };
  }

  const choices = strategy.transitions[current] ?? [];
  if (requested === undefined) return inferStage(strategy, current, choices, request);
  if (requested === current || choices.includes(requested)) return { ok: true, stage: requested, choice: 'named' };
  if (!findStage(strategy, requested)) return { ok: false, message: unknownStageMessage(strategy, requested, current) };
  if (choices.length === 0) {
    return {
      ok: false,
      message: `Invalid stage: this ${strategy.name} session reached "${current}", its terminal stage, so "${requested}" cannot follow. Send stage "${current}" (or no stage), or start a new session with thoughtNumber 1.`,
    };
  }
  return {
    ok: false,
    message: `Invalid stage: cannot move from "${current}" to "${requested}" in strategy "${strategy.name}". Current stage: "${current}" (send it to stay). Valid next stages: ${quoteList(choices)}.`,
  };
}

/** The no-stage policy once the session is under way. */
function inferStage(strategy: StrategyDefinition, current: string, choices: readonly string[], request: StageRequest): StageDecision {
  if (request.finishing && choices.includes(FINAL_RESPONSE)) return { ok: true, stage: FINAL_RESPONSE, choice: 'inferred' };

  const wanted: StageExpectation[] = request.isRevision
    ? ['revision']
    : request.branch === 'newBranch'
      ? ['newBranch', 'branch']
      : request.branch === 'existingBranch'
        ? ['branch']
        : [];
  for (const expectation of wanted) {
    // Staying is preferred: several revisions or branch steps in a row belong to the same stage.
    for (const candidate of [current, ...choices]) {
      if (findStage(strategy, candidate)?.expects === expectation) {
        return { ok: true, stage: candidate, choice: candidate === current ? 'stayed' : 'inferred' };
      }
    }
  }
  // A revision corrects the past; it does not move the flow forward.
  if (request.isRevision) return { ok: true, stage: current, choice: 'stayed' };

  if (request.thoughtsInCurrent > 0 && choices.length === 1) return { ok: true, stage: choices[0], choice: 'advanced' };
  return { ok: true, stage: current, choice: 'stayed' };
}

function unknownStageMessage(strategy: StrategyDefinition, requested: string, current: string | undefined): string {
  const where =
    current === undefined
      ? ''
      : ` Current stage: "${current}"; valid next stages: ${quoteList(strategy.transitions[current] ?? []) || 'none (terminal)'}.`;
  return `Invalid stage: "${requested}" is not a stage of strategy "${strategy.name}". Its stages are: ${strategy.stages.map((stage) => stage.name).join(', ')}.${where}`;
}

function quoteList(stages: readonly string[]): string {
  return stages.map((stage) => `"${stage}"`).join(', ');
}
