// Strategy `self_ask`: break the problem into sub-questions, answer each, integrate, and loop until none remain.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The question and what a full answer needs.' },
  {
    name: 'problem_decomposition',
    purpose: 'find the sub-questions',
    write: 'The sub-questions whose answers together answer the problem.',
  },
  {
    name: 'sub_question_formulation',
    purpose: 'ask the next sub-question',
    write: 'One follow-up question, precise enough to answer on its own.',
  },
  { name: 'sub_question_answering', purpose: 'answer the sub-question', write: 'The answer to that sub-question and how you know it.' },
  { name: 'answer_integration', purpose: 'fold the answer into the whole', write: 'What the answers so far establish together.' },
  {
    name: 'completion_check',
    purpose: 'decide whether sub-questions remain',
    write: 'Which sub-questions are answered and which remain.',
    nudge: { kind: 'verify', text: 'Check every sub-question is answered before solution_formulation.' },
  },
  { name: 'solution_formulation', purpose: 'answer the original question', write: 'The answer built from the sub-answers.' },
  finalResponseStage,
];

export const selfAskStrategy: StrategyDefinition = {
  name: 'self_ask',
  title: 'Self-ask',
  description: 'Ask and answer follow-up sub-questions until the main question can be answered; for multi-hop questions.',
  stages,
  transitions: transitionsFrom(stages, {
    completion_check: ['sub_question_formulation', 'solution_formulation'],
  }),
  traits: { usesTools: false, revision: false, branching: false, multiplePaths: false, stateTracking: false, verification: true },
  typicalLength: 8,
};
