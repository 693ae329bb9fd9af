// Strategy `self_consistency`: solve along several independent paths and keep the answer most of them agree on.
// Each path is recorded as a branch, so the branch tree shows the paths side by side.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem and the form its answer takes.' },
  {
    name: 'multiple_path_sampling',
    purpose: 'choose several independent ways to solve it',
    write: 'The distinct reasoning paths you will follow (e.g. algebraic, numeric, by example).',
    nudge: { kind: 'branch', text: 'Run each path as a branch: branchFromThought {thoughtNumber}, one branchId per path.' },
  },
  {
    name: 'reasoning_path_execution',
    purpose: 'follow one path to its answer',
    write: "The reasoning of one path; send branchFromThought and that path's branchId.",
    expects: 'branch',
    repeats: 'the next path (its own branchId)',
  },
  { name: 'answer_collection', purpose: 'list the answers the paths reached', write: "Each path's answer side by side." },
  {
    name: 'consistency_analysis',
    purpose: 'compare the answers',
    write: 'Where the answers agree and why any differ.',
    nudge: { kind: 'verify', text: 'Check that a disagreeing path is not the correct one before majority_selection.' },
  },
  { name: 'majority_selection', purpose: 'pick the most consistent answer', write: 'The answer most paths support, and its support.' },
  finalResponseStage,
];

export const selfConsistencyStrategy: StrategyDefinition = {
  name: 'self_consistency',
  title: 'Self-consistency',
  description: 'Reason along several independent paths and take the majority answer; for problems where single chains err.',
  stages,
  transitions: transitionsFrom(stages),
  traits: { usesTools: false, revision: false, branching: false, multiplePaths: true, stateTracking: false, verification: true },
  typicalLength: 6,
};
