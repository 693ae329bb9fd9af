// The stage flow: decides which stage a thought lands in, following its strategy's transition table.
// Strategies are data (strategies/catalog.ts); this is the one place that interprets them.
import type { StrategyDefinition } from './strategies/types';

export type StageDecision =
  | { ok: true; stage: string; advancedAutomatically: boolean }
  | { ok: false; message: string };

/** Stages a thought may move to from `current` (not counting staying put). */
export function nextStages(strategy: StrategyDefinition, current: string | undefined): readonly string[] {
  if (current === undefined) return [strategy.stages[0].name];
  return strategy.transitions[current] ?? [];
}

export function isTerminalStage(strategy: StrategyDefinition, stage: string | undefined): boolean {
  return stage !== undefined && stage === strategy.stages[strategy.stages.length - 1].name;
}

/**
 * Where a thought goes. `current` is undefined before the session's first thought; `thoughtsInCurrent` counts the
 * thoughts already recorded in the current stage.
 * - A named stage must be the current stage (a stage may take several thoughts) or one of its valid next stages.
 * - Without a stage, the first thought starts at the strategy's first stage; later ones move on when the current
 *   stage has exactly one next stage, and stay put at a branch point (the reply then lists the choices).
 */
export function decideStage(
  strategy: StrategyDefinition,
  current: string | undefined,
  thoughtsInCurrent: number,
  requested: string | undefined,
): StageDecision {
  const first = strategy.stages[0].name;
  if (requested === undefined) {
    if (current === undefined) return { ok: true, stage: first, advancedAutomatically: false };
    const choices = nextStages(strategy, current);
    if (thoughtsInCurrent > 0 && choices.length === 1) return { ok: true, stage: choices[0], advancedAutomatically: true };
    return { ok: true, stage: current, advancedAutomatically: false };
  }
  if (!strategy.stages.some((stage) => stage.name === requested)) {
    return {
      ok: false,
      message: `Invalid stage: "${requested}" is not a stage of strategy "${strategy.name}". Its stages are: ${strategy.stages.map((s) => s.name).join(', ')}.`,
    };
  }
  if (current === undefined) {
    if (requested === first) return { ok: true, stage: requested, advancedAutomatically: false };
    return { ok: false, message: `Invalid stage: a ${strategy.name} session starts at "${first}", not "${requested}". Send stage "${first}".` };
  }
  if (requested === current) return { ok: true, stage: requested, advancedAutomatically: false };
  const choices = nextStages(strategy, current);
  if (choices.includes(requested)) return { ok: true, stage: requested, advancedAutomatically: false };
  const valid = [current, ...choices].map((stage) => `"${stage}"`).join(', ');
  return {
    ok: false,
    message: `Invalid stage: cannot move from "${current}" to "${requested}" in strategy "${strategy.name}". Valid stages now: ${valid}.`,
  };
}
