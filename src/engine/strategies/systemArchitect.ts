// Strategy `system_architect`: analyse requirements, design an architecture, evaluate it and redesign until it holds.
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'problem_reception', purpose: 'take in the problem and restate it', write: 'The system to build and its context.' },
  {
    name: 'requirements_analysis',
    purpose: 'list the requirements',
    write: 'Functional and non-functional requirements, constraints and priorities.',
  },
  {
    name: 'architecture_design',
    purpose: 'design the architecture',
    write: 'Components, their responsibilities, interfaces and data flow.',
  },
  {
    name: 'design_evaluation',
    purpose: 'evaluate the design against the requirements',
    write: 'Each requirement met or not, risks and trade-offs.',
    nudge: {
      kind: 'revise',
      text: 'If the design misses a requirement, revise it (isRevision, revisesThought) or return to architecture_design.',
    },
  },
  finalResponseStage,
];

export const systemArchitectStrategy: StrategyDefinition = {
  name: 'system_architect',
  title: 'System architect',
  description: 'Requirements, design, evaluation and redesign until the design holds; for software and system design.',
  stages,
  transitions: transitionsFrom(stages, {
    design_evaluation: ['architecture_design', 'final_response'],
  }),
  traits: { usesTools: false, revision: true, branching: false, multiplePaths: false, stateTracking: false, verification: true },
  // The source tables (docs/strategies.md) give no length for this one: four stages plus one redesign round (design, evaluate again).
  typicalLength: 6,
};
