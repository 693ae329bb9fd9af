// Strategy `chain_of_thought`: decompose, reason step by step, formulate and verify. Strictly linear.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  {
    name: 'problem_reception',
    purpose: 'take in the problem and restate it',
    write: 'The problem in your own words and what a correct answer must show.',
  },
  {
    name: 'step_decomposition',
    purpose: 'break the problem into ordered steps',
    write: 'The numbered steps that lead from the givens to the answer.',
  },
  {
    name: 'sequential_reasoning',
    purpose: 'work through the steps in order',
    write: 'One step worked out, building on the previous ones.',
    repeats: 'the next step',
  },
  { name: 'solution_formulation', purpose: 'state the solution the steps give', write: 'The solution that follows from the worked steps.' },
  {
    name: 'answer_verification',
    purpose: 'check the answer',
    write: 'A check of the solution against the problem (recompute, substitute, test an edge case).',
  },
  finalResponseStage,
];

export const chainOfThoughtStrategy: StrategyDefinition = {
  name: 'chain_of_thought',
  title: 'Chain of thought',
  description: 'Explicit step-by-step reasoning for problems with a clear path: arithmetic, logic, short derivations.',
  stages,
  transitions: transitionsFrom(stages),
  traits: { usesTools: false, revision: false, branching: false, multiplePaths: false, stateTracking: false, verification: true },
  typicalLength: 5,
};
