// Strategy `scratchpad`: keep an explicit working state and update it calculation by calculation.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem, its inputs and the quantity to find.' },
  {
    name: 'scratchpad_initialization',
    purpose: 'set up the working state',
    write: 'The initial state: variables, values and what each means.',
  },
  { name: 'iterative_calculation', purpose: 'do the next calculation', write: 'One calculation step on the current state.' },
  {
    name: 'state_tracking',
    purpose: 'record the updated state',
    write: 'The full state after the calculation.',
    nudge: { kind: 'verify', text: 'Check the new state against the last calculation.' },
  },
  {
    name: 'continuation_decision',
    purpose: 'decide whether more calculation is needed',
    write: 'Whether the state holds the result; if not, the next calculation.',
    nudge: { kind: 'revise', text: 'If an earlier step was miscalculated, revise it (isRevision, revisesThought).' },
  },
  { name: 'result_extraction', purpose: 'read the result from the state', write: 'The result taken from the final state.' },
  finalResponseStage,
];

export const scratchpadStrategy: StrategyDefinition = {
  name: 'scratchpad',
  title: 'Scratchpad',
  description: 'Track intermediate state explicitly while calculating; for multi-step arithmetic, simulations and bookkeeping.',
  stages,
  transitions: transitionsFrom(stages, {
    continuation_decision: ['iterative_calculation', 'result_extraction'],
  }),
  traits: { usesTools: false, revision: true, branching: false, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 5,
};
