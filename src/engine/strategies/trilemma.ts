// Strategy `trilemma`: balance three competing objectives by iterating on trade-offs until an equilibrium holds.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem and the decision it calls for.' },
  {
    name: 'trilemma_identification',
    purpose: 'name the three competing objectives',
    write: 'The three objectives and why they pull against each other.',
  },
  {
    name: 'objective_initialization',
    purpose: 'set targets for each objective',
    write: 'A minimum acceptable level and a weight for each objective.',
  },
  {
    name: 'trade_off_evaluation',
    purpose: 'weigh a candidate against the objectives',
    write: 'How a candidate scores on each objective and what it gives up.',
  },
  {
    name: 'satisficing_iteration',
    purpose: 'adjust toward a good-enough balance',
    write: 'The adjustment and its effect on each objective.',
  },
  {
    name: 'equilibrium_check',
    purpose: 'check whether the balance holds',
    write: 'Whether every objective meets its minimum; what is off if not.',
    nudge: { kind: 'revise', text: 'If a target or score was wrong, revise that thought (isRevision, revisesThought).' },
  },
  {
    name: 'propagation_decision',
    purpose: 'decide whether to re-evaluate or refine',
    write: 'Whether the trade-offs need re-weighing or only a refinement.',
  },
  { name: 'solution_refinement', purpose: 'refine the candidate', write: 'The refined candidate and what changed.' },
  { name: 'final_balance', purpose: 'state the balanced solution', write: 'The solution and the level it reaches on each objective.' },
  finalResponseStage,
];

export const trilemmaStrategy: StrategyDefinition = {
  name: 'trilemma',
  title: 'Trilemma',
  description: 'Balance three competing objectives through trade-off iterations; for design and policy decisions.',
  stages,
  transitions: transitionsFrom(stages, {
    equilibrium_check: ['propagation_decision', 'final_balance'],
    propagation_decision: ['trade_off_evaluation', 'solution_refinement'],
    solution_refinement: ['equilibrium_check'],
    final_balance: ['final_response'],
  }),
  traits: { usesTools: false, revision: true, branching: false, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 8,
};
