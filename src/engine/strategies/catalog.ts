// The strategy catalog: the single lookup of every reasoning strategy the engine knows (tables in docs/strategies.md;
// one file per strategy beside this one).
import { chainOfThoughtStrategy } from './chainOfThought';
import { cyclicReasoningStrategy } from './cyclicReasoning';
import { deliberationStrategy } from './deliberation';
import { linearStrategy } from './linear';
import { qaCompatibilityCheckStrategy } from './qaCompatibilityCheck';
import { qaSyntaxValidationStrategy } from './qaSyntaxValidation';
import { qaTestWorkflowStrategy } from './qaTestWorkflow';
import { qaVersionVerificationStrategy } from './qaVersionVerification';
import { reactStrategy } from './react';
import { rewooStrategy } from './rewoo';
import { scratchpadStrategy } from './scratchpad';
import { selfAskStrategy } from './selfAsk';
import { selfConsistencyStrategy } from './selfConsistency';
import { stepBackStrategy } from './stepBack';
import { systemArchitectStrategy } from './systemArchitect';
import { treeOfThoughtsStrategy } from './treeOfThoughts';
import { trilemmaStrategy } from './trilemma';
import type { StageDefinition, StrategyDefinition } from './types';

export { transitionsFrom } from './transitionTable';

/** In the order docs/strategies.md lists them; `linear` first as the default. */
export const STRATEGIES: readonly StrategyDefinition[] = [
  linearStrategy,
  chainOfThoughtStrategy,
  reactStrategy,
  rewooStrategy,
  scratchpadStrategy,
  selfAskStrategy,
  selfConsistencyStrategy,
  stepBackStrategy,
  treeOfThoughtsStrategy,
  trilemmaStrategy,
  systemArchitectStrategy,
  cyclicReasoningStrategy,
  // The QA workflows: strategies whose stages are verification steps (qaWorkflow.ts adds their tool needs).
  qaVersionVerificationStrategy,
  qaSyntaxValidationStrategy,
  qaCompatibilityCheckStrategy,
  qaTestWorkflowStrategy,
];

export const DEFAULT_STRATEGY = 'linear';

// `deliberation` is looked up but not listed: only the deliberate tool records it (stages = its roles).
const byName = new Map([...STRATEGIES, deliberationStrategy].map((strategy) => [strategy.name, strategy]));

export function findStrategy(name: string): StrategyDefinition | undefined {
  return byName.get(name);
}

export function strategyNames(): string[] {
  return STRATEGIES.map((strategy) => strategy.name);
}

// Stages by name per strategy: every thought looks up its stage several times (flow, guidance, warnings, nudge).
const stagesByStrategy = new WeakMap<StrategyDefinition, ReadonlyMap<string, StageDefinition>>();

export function findStage(strategy: StrategyDefinition, name: string | undefined): StageDefinition | undefined {
  if (name === undefined) return undefined;
  let stages = stagesByStrategy.get(strategy);
  if (stages === undefined) {
    const byStageName = new Map<string, StageDefinition>();
    // The first stage of a name wins, as a search from the start would find it.
    for (const stage of strategy.stages) if (!byStageName.has(stage.name)) byStageName.set(stage.name, stage);
    stagesByStrategy.set(strategy, byStageName);
    stages = byStageName;
  }
  return stages.get(name);
}
