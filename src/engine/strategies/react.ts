// Strategy `react` (Reason + Act): interleave reasoning with tool actions and observations, looping at the
// evaluation checkpoint until enough is known.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  {
    name: 'problem_reception',
    purpose: 'take in the problem and restate it',
    write: 'The problem, what is known and what must be found out.',
  },
  { name: 'initial_reasoning', purpose: 'reason about what is needed', write: 'What you already know and which information is missing.' },
  {
    name: 'action_planning',
    purpose: 'plan the next action',
    write: 'The action to take (tool, query, file) and what you expect to learn.',
  },
  { name: 'action_execution', purpose: 'carry out the action', write: 'The action as you ran it (call the tool now, between thoughts).' },
  {
    name: 'observation_reception',
    purpose: 'record what the action returned',
    write: 'The observation: the result, quoted or summarized faithfully.',
  },
  {
    name: 'reasoning_update',
    purpose: 'update the reasoning with the observation',
    write: 'What the observation changes in your understanding.',
  },
  {
    name: 'evaluation_checkpoint',
    purpose: 'decide whether enough is known',
    write: 'Whether the information suffices; if not, what is still missing.',
    nudge: { kind: 'revise', text: 'If an observation contradicts an earlier thought, revise it (isRevision, revisesThought).' },
  },
  {
    name: 'solution_formulation',
    purpose: 'formulate the answer from the evidence',
    write: 'The answer, citing the observations that support it.',
    nudge: { kind: 'verify', text: 'Check the answer against every observation before final_response.' },
  },
  finalResponseStage,
];

export const reactStrategy: StrategyDefinition = {
  name: 'react',
  title: 'ReAct (reason + act)',
  description: 'Alternate reasoning with tool actions and observations; for tasks that need to look things up or try things.',
  stages,
  transitions: transitionsFrom(stages, {
    evaluation_checkpoint: ['action_planning', 'solution_formulation'],
  }),
  traits: { usesTools: true, revision: true, branching: false, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 7,
};
