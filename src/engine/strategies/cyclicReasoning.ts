// Strategy `cyclic_reasoning`: cycle between thoughts, questions and solutions, evaluating each cycle and adjusting
// the approach until the answer stabilizes.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The problem and what would count as solved.' },
  { name: 'approach_selection', purpose: 'choose how to attack it', write: 'The approach for the first cycle and why.' },
  {
    name: 'element_initialization',
    purpose: "set up the cycle's elements",
    write: 'The starting thoughts, open questions and candidate solutions.',
  },
  { name: 'thought_processing', purpose: 'develop a thought', write: 'One idea worked out further.' },
  { name: 'question_processing', purpose: 'work on an open question', write: 'A question raised and what answers it.' },
  { name: 'solution_processing', purpose: 'advance a candidate solution', write: 'A candidate solution improved or tested.' },
  {
    name: 'cycle_evaluation',
    purpose: 'evaluate the cycle',
    write: 'What this cycle settled, what remains, and whether to go round again.',
    nudge: { kind: 'revise', text: 'If this cycle overturned an earlier thought, revise it (isRevision, revisesThought).' },
  },
  { name: 'approach_adjustment', purpose: 'change the approach for the next cycle', write: 'What to do differently next cycle and why.' },
  finalResponseStage,
];

const processing = ['thought_processing', 'question_processing', 'solution_processing'];
const others = (stage: string) => processing.filter((candidate) => candidate !== stage);

export const cyclicReasoningStrategy: StrategyDefinition = {
  name: 'cyclic_reasoning',
  title: 'Cyclic reasoning',
  description: 'Cycle through thoughts, questions and solutions, evaluating each cycle; for problems that need several passes.',
  stages,
  transitions: transitionsFrom(stages, {
    element_initialization: processing,
    thought_processing: [...others('thought_processing'), 'cycle_evaluation'],
    question_processing: [...others('question_processing'), 'cycle_evaluation'],
    solution_processing: [...others('solution_processing'), 'cycle_evaluation'],
    cycle_evaluation: [...processing, 'approach_adjustment', 'final_response'],
    approach_adjustment: ['element_initialization'],
  }),
  traits: { usesTools: false, revision: true, branching: false, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 9,
};
