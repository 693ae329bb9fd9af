// Strategy `step_back`: step back to the general principle first, then apply it to the specific problem.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The specific problem and its details.' },
  {
    name: 'abstraction',
    purpose: 'ask the more general question behind it',
    write: 'The step-back question: what general topic or class of problem is this?',
  },
  {
    name: 'principle_identification',
    purpose: 'name the principles that govern it',
    write: 'The laws, rules or concepts that answer the general question.',
  },
  { name: 'approach_selection', purpose: 'choose how to apply the principles', write: 'The method that applies those principles here.' },
  {
    name: 'specific_application',
    purpose: 'apply the principles to this problem',
    write: "The principles instantiated with this problem's details.",
    nudge: { kind: 'revise', text: 'If a principle turns out not to fit, revise that thought (isRevision, revisesThought).' },
  },
  { name: 'step_by_step_solution', purpose: 'solve it step by step', write: 'One step of the worked solution.', repeats: 'the next step' },
  {
    name: 'solution_verification',
    purpose: 'check the solution',
    write: 'A check of the solution against the principles and the problem.',
  },
  finalResponseStage,
];

export const stepBackStrategy: StrategyDefinition = {
  name: 'step_back',
  title: 'Step-back',
  description: 'Abstract to the governing principle before solving; for physics, chemistry and questions that hinge on a concept.',
  stages,
  transitions: transitionsFrom(stages),
  traits: { usesTools: false, revision: true, branching: false, multiplePaths: false, stateTracking: false, verification: true },
  typicalLength: 4,
};
