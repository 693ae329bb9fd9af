// QA workflow `qa_compatibility_check`: list the dependencies and their versions, look up their compatibility, test
// the combination; several compatible combinations open a branch, a failing test revises the chosen combination.
import { FAILURE, SEVERAL_OPTIONS, type QaWorkflow } from './qaWorkflow';
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  {
    name: 'dependency_inventory',
    purpose: 'list the components and versions',
    write: 'Each dependency, runtime or platform and its version.',
  },
  {
    name: 'compatibility_research',
    purpose: 'look up what works together',
    write: 'Compatibility tables, peer dependencies and known issues found.',
    nudge: { kind: 'branch', text: 'If several combinations are valid, branch from thought {thoughtNumber} for each.' },
  },
  {
    name: 'combination_branch',
    purpose: 'try another valid combination',
    write: 'The other combination; send branchFromThought and branchId.',
    expects: 'newBranch',
  },
  { name: 'combination_choice', purpose: 'choose the combination to use', write: 'The versions chosen and why.' },
  {
    name: 'compatibility_test',
    purpose: 'test the chosen combination',
    write: 'The install, build or test you ran and its result.',
    nudge: { kind: 'revise', text: 'If the test fails, revise the choice: isRevision true, revisesThought {previousThought}.' },
  },
  {
    name: 'choice_revision',
    purpose: 'revise the chosen combination',
    write: 'The corrected choice; send isRevision and revisesThought.',
    expects: 'revision',
  },
  finalResponseStage,
];

export const qaCompatibilityCheckStrategy: StrategyDefinition = {
  name: 'qa_compatibility_check',
  title: 'QA: compatibility check',
  description: 'List dependencies and versions, research what works together, choose and test a combination; for upgrades.',
  stages,
  transitions: transitionsFrom(stages, {
    compatibility_research: ['combination_choice', 'combination_branch'],
    combination_branch: ['combination_choice'],
    compatibility_test: ['choice_revision', 'final_response'],
    choice_revision: ['compatibility_test'],
  }),
  traits: { usesTools: true, revision: true, branching: true, multiplePaths: true, stateTracking: true, verification: true },
  typicalLength: 5,
};

export const qaCompatibilityCheckWorkflow: QaWorkflow = {
  strategy: qaCompatibilityCheckStrategy,
  targetPattern: /\b(compatib\w*|peer|dependenc\w*|node|runtime|platform|browser support|supports?)\b/i,
  steps: {
    dependency_inventory: {
      description: 'List the dependencies, runtimes and their versions',
      expectedOutcome: 'Inventory of versions',
      capabilities: ['read_files', 'run_command', 'search_code'],
      nextStepConditions: ['Versions listed'],
    },
    compatibility_research: {
      description: 'Look up compatibility tables, peer dependencies and known issues',
      expectedOutcome: 'Which versions work together',
      capabilities: ['fetch_docs', 'search_web'],
      nextStepConditions: ['One valid combination: choose it', 'Several: branch'],
    },
    combination_branch: {
      description: 'Work out another valid combination',
      expectedOutcome: 'The alternative combination understood',
      capabilities: ['fetch_docs', 'read_files'],
      nextStepConditions: ['Ready to compare'],
    },
    combination_choice: {
      description: 'Choose the combination and update the manifests',
      expectedOutcome: 'Chosen versions written down',
      capabilities: ['edit_files', 'run_command'],
      nextStepConditions: ['Ready to test'],
    },
    compatibility_test: {
      description: 'Install, build and test the chosen combination',
      expectedOutcome: 'The combination works',
      capabilities: ['run_command', 'run_tests', 'diagnostics'],
      nextStepConditions: ['Tests pass', 'Fails: revise the choice'],
    },
    choice_revision: {
      description: 'Revise the chosen combination from the failure',
      expectedOutcome: 'A combination that passes',
      capabilities: ['read_files', 'edit_files', 'version_control'],
      nextStepConditions: ['Ready to re-test'],
    },
  },
  rules: [
    {
      when: FAILURE,
      suggest: 'revise',
      target: 'combination_choice',
      text: 'The combination fails: revise the choice, thought {thoughtNumber} (isRevision, revisesThought).',
    },
    {
      when: SEVERAL_OPTIONS,
      suggest: 'branch',
      target: 'compatibility_research',
      text: 'Several valid combinations: branch from thought {thoughtNumber} for each.',
      branchPrefix: 'combination',
    },
  ],
};
