// Strategy `rewoo` (Reasoning WithOut Observation): plan every tool call up front, run them, then solve from the
// collected evidence. Strictly linear.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem and the information it needs.' },
  {
    name: 'planning_phase',
    purpose: 'plan the whole solution up front',
    write: 'The full plan: each step and the evidence it needs (#E1, #E2, ...).',
  },
  {
    name: 'tool_call_specification',
    purpose: 'specify every tool call',
    write: 'Each tool call with its inputs, referring to earlier evidence by name.',
  },
  {
    name: 'working_phase',
    purpose: 'run the planned tool calls',
    write: 'The calls as run (call the tools now, between thoughts).',
    repeats: 'the next tool call',
  },
  {
    name: 'evidence_collection',
    purpose: 'gather the results as evidence',
    write: 'Each result labelled with its evidence name.',
    nudge: { kind: 'verify', text: 'Check that every planned call produced evidence before solving.' },
  },
  {
    name: 'solving_phase',
    purpose: 'solve from the collected evidence',
    write: 'The solution derived from the evidence, citing it by name.',
  },
  finalResponseStage,
];

export const rewooStrategy: StrategyDefinition = {
  name: 'rewoo',
  title: 'ReWOO (plan, work, solve)',
  description: 'Plan all tool calls first, run them, then solve; for tasks whose lookups can be foreseen, saving round trips.',
  stages,
  transitions: transitionsFrom(stages),
  // No verification stage: ReWOO solves straight from the evidence (our reading of "verification (most)").
  traits: { usesTools: true, revision: false, branching: false, multiplePaths: false, stateTracking: true, verification: false },
  typicalLength: 6,
};
