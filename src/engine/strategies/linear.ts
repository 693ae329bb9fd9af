// Strategy `linear` (the default, "base sequential"): step-by-step thinking with evaluation, revision, branching and
// hypothesis testing when needed.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  {
    name: 'problem_reception',
    purpose: 'take in the problem and restate it',
    write: 'The problem in your own words, its goal and constraints.',
  },
  { name: 'initial_thought_planning', purpose: 'plan how to think about it', write: 'The approach and the steps you expect to take.' },
  { name: 'thought_generation', purpose: 'produce the next piece of reasoning', write: 'One step of reasoning toward the answer.' },
  {
    name: 'thought_evaluation',
    purpose: 'judge the reasoning so far',
    write: 'What holds, what is weak, what is missing.',
    nudge: {
      kind: 'revise',
      text: 'If thought {previousThought} was wrong, revise it: stage thought_revision, isRevision true, revisesThought {previousThought}.',
    },
  },
  {
    name: 'thought_revision',
    purpose: 'correct an earlier thought',
    write: 'The corrected reasoning; send isRevision and revisesThought.',
    expects: 'revision',
  },
  {
    name: 'continuation_decision',
    purpose: 'decide how to go on',
    write: 'Whether to adjust, branch or form a hypothesis, and why.',
    nudge: {
      kind: 'branch',
      text: 'To try an alternative, branch from thought {thoughtNumber}: stage branch_creation, branchFromThought {thoughtNumber}, a new branchId.',
    },
  },
  { name: 'thought_adjustment', purpose: 'change course within the same line', write: 'What changes in the approach and why.' },
  {
    name: 'branch_creation',
    purpose: 'open an alternative line of reasoning',
    write: 'The alternative; send branchFromThought and branchId.',
    expects: 'newBranch',
  },
  { name: 'hypothesis_generation', purpose: 'propose an answer', write: 'A hypothesis that the reasoning supports.' },
  { name: 'hypothesis_verification', purpose: 'test the hypothesis', write: 'Checks against the problem and evidence; pass or fail.' },
  { name: 'solution_finalization', purpose: 'settle the solution', write: 'The solution with its justification.' },
  finalResponseStage,
];

export const linearStrategy: StrategyDefinition = {
  name: 'linear',
  title: 'Linear (base sequential)',
  description: 'Plain step-by-step thinking with evaluation, revision and branching when needed. The default.',
  stages,
  transitions: transitionsFrom(stages, {
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
