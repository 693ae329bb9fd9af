// The strategy catalog: every reasoning strategy the engine knows, as data (see ../shared/notes/strategies.md).
import type { StageDefinition, StrategyDefinition } from './types';

/** Builds a transition table where every stage goes to the next one, then applies the listed exceptions. */
export function transitionsFrom(stages: readonly StageDefinition[], exceptions: Record<string, string[]> = {}): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  stages.forEach((stage, index) => {
    const next = stages[index + 1];
    table[stage.name] = exceptions[stage.name] ?? (next ? [next.name] : []);
  });
  return table;
}

const linearStages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'Take in the problem and restate it.', write: 'The problem in your own words, its goal and constraints.' },
  { name: 'initial_thought_planning', purpose: 'Plan how to think about it.', write: 'The approach and the steps you expect to take.' },
  { name: 'thought_generation', purpose: 'Produce the next piece of reasoning.', write: 'One step of reasoning toward the answer.' },
  { name: 'thought_evaluation', purpose: 'Judge the reasoning so far.', write: 'What holds, what is weak, what is missing.' },
  { name: 'thought_revision', purpose: 'Correct an earlier thought.', write: 'The corrected reasoning; send isRevision and revisesThought.' },
  { name: 'continuation_decision', purpose: 'Decide how to go on.', write: 'Whether to adjust, branch or form a hypothesis, and why.' },
  { name: 'thought_adjustment', purpose: 'Change course within the same line.', write: 'What changes in the approach and why.' },
  { name: 'branch_creation', purpose: 'Open an alternative line of reasoning.', write: 'The alternative; send branchFromThought and branchId.' },
  { name: 'hypothesis_generation', purpose: 'Propose an answer.', write: 'A hypothesis that the reasoning supports.' },
  { name: 'hypothesis_verification', purpose: 'Test the hypothesis.', write: 'Checks against the problem and evidence; pass or fail.' },
  { name: 'solution_finalization', purpose: 'Settle the solution.', write: 'The solution with its justification.' },
  { name: 'final_response', purpose: 'Give the answer.', write: 'The final answer; set nextThoughtNeeded to false.' },
];

export const linearStrategy: StrategyDefinition = {
  name: 'linear',
  title: 'Linear (base sequential)',
  description: 'Plain step-by-step thinking with evaluation, revision and branching when needed. The default.',
  stages: linearStages,
  transitions: transitionsFrom(linearStages, {
    thought_evaluation: ['thought_revision', 'continuation_decision'],
    thought_revision: ['continuation_decision'],
    continuation_decision: ['thought_adjustment', 'branch_creation', 'hypothesis_generation'],
    thought_adjustment: ['thought_generation'],
    branch_creation: ['thought_generation'],
    hypothesis_generation: ['hypothesis_verification'],
    hypothesis_verification: ['solution_finalization', 'continuation_decision'],
    solution_finalization: ['final_response'],
  }),
  traits: { usesTools: false, revision: true, branching: true, multiplePaths: false, stateTracking: false, verification: true },
  typicalLength: 3,
};

export const STRATEGIES: readonly StrategyDefinition[] = [linearStrategy];

export const DEFAULT_STRATEGY = 'linear';

const byName = new Map(STRATEGIES.map((strategy) => [strategy.name, strategy]));

export function findStrategy(name: string): StrategyDefinition | undefined {
  return byName.get(name);
}

export function strategyNames(): string[] {
  return STRATEGIES.map((strategy) => strategy.name);
}
