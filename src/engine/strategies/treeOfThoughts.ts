// Strategy `tree_of_thoughts`: explore several approaches as branches, evaluate them, develop the best, and justify
// the chosen path. Approaches are recorded as branches so the branch tree shows the exploration.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem and what makes an approach good.' },
  {
    name: 'approach_exploration',
    purpose: 'list candidate approaches',
    write: 'Two or more distinct approaches, each in a line.',
    nudge: { kind: 'branch', text: 'Create each approach as a branch: branchFromThought {thoughtNumber}, one branchId per approach.' },
  },
  {
    name: 'branch_creation',
    purpose: 'open a branch for one approach',
    write: 'The approach this branch follows; send branchFromThought and a new branchId.',
    expects: 'newBranch',
  },
  {
    name: 'branch_development',
    purpose: 'develop a branch a step further',
    write: 'The next step of the branch; send its branchFromThought and branchId again.',
    expects: 'branch',
    repeats: "the branch's next step",
  },
  {
    name: 'branch_evaluation',
    purpose: 'judge how promising the branch is',
    write: 'Its promise, risks and cost compared with the other branches.',
  },
  { name: 'branch_selection', purpose: 'pick the branch to pursue', write: 'Which branch leads, and why.' },
  {
    name: 'continuation_decision',
    purpose: 'decide whether to explore further',
    write: 'Whether to develop a branch more, open another, or conclude.',
    nudge: { kind: 'revise', text: 'If an evaluation was wrong in hindsight, revise it (isRevision, revisesThought).' },
  },
  { name: 'solution_formulation', purpose: 'form the solution from the chosen branch', write: 'The solution the selected branch yields.' },
  { name: 'path_justification', purpose: 'justify the chosen path', write: 'Why this branch beat the others.' },
  finalResponseStage,
];

export const treeOfThoughtsStrategy: StrategyDefinition = {
  name: 'tree_of_thoughts',
  title: 'Tree of thoughts',
  description: 'Explore several approaches as branches, evaluate and select; for open problems, planning and puzzles with dead ends.',
  stages,
  transitions: transitionsFrom(stages, {
    continuation_decision: ['branch_development', 'branch_creation', 'solution_formulation'],
  }),
  traits: { usesTools: false, revision: true, branching: true, multiplePaths: true, stateTracking: false, verification: true },
  typicalLength: 10,
};
