// QA workflow `qa_version_verification` (the Tailwind CSS upgrade example): check the installed version, read the docs of
// that version, plan the implementation, validate it; a failed validation revises the implementation, several valid
// approaches in the docs open a branch.
import { FAILURE, SEVERAL_OPTIONS, type QaWorkflow } from './qaWorkflow';
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  {
    name: 'version_check',
    purpose: 'find the installed version',
    write: 'The package, where its version is declared and the version found.',
  },
  {
    name: 'documentation_check',
    purpose: 'read the docs of that version',
    write: 'What the docs of the found version say, and breaking changes.',
    nudge: {
      kind: 'branch',
      text: 'If the docs offer several valid approaches, branch from thought {thoughtNumber} (branchFromThought, branchId).',
    },
  },
  {
    name: 'alternative_exploration',
    purpose: 'explore an alternative approach',
    write: 'The alternative approach; send branchFromThought and branchId.',
    expects: 'newBranch',
  },
  {
    name: 'implementation_planning',
    purpose: 'plan a version-appropriate implementation',
    write: 'The implementation plan for the found version.',
  },
  {
    name: 'validation',
    purpose: 'validate with the installed version',
    write: 'The build or run you did and its result.',
    nudge: { kind: 'revise', text: 'If validation fails, revise the implementation: isRevision true, revisesThought {previousThought}.' },
  },
  {
    name: 'implementation_revision',
    purpose: 'fix the implementation',
    write: 'The corrected implementation; send isRevision and revisesThought.',
    expects: 'revision',
  },
  finalResponseStage,
];

export const qaVersionVerificationStrategy: StrategyDefinition = {
  name: 'qa_version_verification',
  title: 'QA: version verification',
  description: 'Verify the installed version of a package, follow its docs, implement and validate; for version-sensitive changes.',
  stages,
  transitions: transitionsFrom(stages, {
    documentation_check: ['implementation_planning', 'alternative_exploration'],
    alternative_exploration: ['implementation_planning'],
    validation: ['implementation_revision', 'final_response'],
    implementation_revision: ['validation'],
  }),
  traits: { usesTools: true, revision: true, branching: true, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 5,
};

export const qaVersionVerificationWorkflow: QaWorkflow = {
  strategy: qaVersionVerificationStrategy,
  targetPattern: /\b(version|versions|upgrade|v\d+|semver|release)\b/i,
  steps: {
    version_check: {
      description: 'Check the installed version (package.json, lock file or the package manager)',
      expectedOutcome: 'Confirmed installed version',
      capabilities: ['read_files', 'run_command', 'search_code'],
      nextStepConditions: ['Version identified', 'Check for breaking changes between versions'],
    },
    documentation_check: {
      description: 'Read the official documentation of the installed version',
      expectedOutcome: 'Correct configuration pattern for that version',
      capabilities: ['fetch_docs', 'search_web', 'browser_preview'],
      nextStepConditions: ['Approach identified', 'Breaking changes noted'],
    },
    alternative_exploration: {
      description: 'Explore the alternative approach the docs offer',
      expectedOutcome: 'Understanding of the alternative method',
      capabilities: ['fetch_docs', 'read_files', 'search_code'],
      nextStepConditions: ['Alternative understood', 'Ready to compare or implement'],
    },
    implementation_planning: {
      description: 'Design and write the version-appropriate implementation',
      expectedOutcome: 'Version-appropriate implementation',
      capabilities: ['edit_files', 'read_files'],
      nextStepConditions: ['Implementation written', 'Ready for validation'],
    },
    validation: {
      description: 'Build or run with the installed version',
      expectedOutcome: 'Confirmed working implementation',
      capabilities: ['run_command', 'run_tests', 'diagnostics', 'browser_preview'],
      nextStepConditions: ['Build passes', 'If it fails: revise the implementation'],
    },
    implementation_revision: {
      description: 'Fix the implementation from the failure output',
      expectedOutcome: 'The failure resolved',
      capabilities: ['diagnostics', 'read_files', 'edit_files'],
      nextStepConditions: ['Errors corrected', 'Ready to re-validate'],
    },
  },
  rules: [
    {
      when: FAILURE,
      suggest: 'revise',
      target: 'implementation_planning',
      text: 'Validation failed: revise the implementation, thought {thoughtNumber} (isRevision, revisesThought).',
    },
    {
      when: SEVERAL_OPTIONS,
      suggest: 'branch',
      target: 'documentation_check',
      text: 'Several valid approaches: branch from thought {thoughtNumber} to explore one.',
      branchPrefix: 'alternative',
    },
  ],
};
