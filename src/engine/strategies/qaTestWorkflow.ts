// QA workflow `qa_test_workflow`: find the tests, run them, analyse failures, fix, run again; a run that still fails
// revises the fix, a failure with several possible causes opens a branch per cause.
import { FAILURE, SEVERAL_OPTIONS, type QaWorkflow } from './qaWorkflow';
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'test_discovery', purpose: 'find the relevant tests', write: 'The test files and the command that runs them.' },
  { name: 'test_run', purpose: 'run the tests', write: 'The command and the result: passed, failed, which ones.' },
  {
    name: 'failure_analysis',
    purpose: 'find the cause of each failure',
    write: 'Each failure and its most likely cause.',
    nudge: { kind: 'branch', text: 'If a failure has several possible causes, branch from thought {thoughtNumber} per cause.' },
  },
  {
    name: 'cause_branch',
    purpose: 'pursue another possible cause',
    write: 'The other cause; send branchFromThought and branchId.',
    expects: 'newBranch',
  },
  { name: 'fix', purpose: 'fix the cause', write: 'The change made and why it fixes the failure.' },
  {
    name: 'rerun',
    purpose: 'run the tests again',
    write: 'The result of the new run.',
    nudge: { kind: 'revise', text: 'If tests still fail, revise the fix: isRevision true, revisesThought {previousThought}.' },
  },
  {
    name: 'fix_revision',
    purpose: 'correct a fix that did not hold',
    write: 'The corrected fix; send isRevision and revisesThought.',
    expects: 'revision',
  },
  finalResponseStage,
];

export const qaTestWorkflowStrategy: StrategyDefinition = {
  name: 'qa_test_workflow',
  title: 'QA: test workflow',
  description: 'Find and run the tests, analyse failures, fix and run again until they pass; for verifying a change.',
  stages,
  transitions: transitionsFrom(stages, {
    test_run: ['failure_analysis', 'final_response'],
    failure_analysis: ['fix', 'cause_branch'],
    cause_branch: ['fix'],
    rerun: ['fix_revision', 'final_response'],
    fix_revision: ['rerun'],
  }),
  traits: { usesTools: true, revision: true, branching: true, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 6,
};

export const qaTestWorkflow: QaWorkflow = {
  strategy: qaTestWorkflowStrategy,
  targetPattern: /\b(tests?|spec|specs|unit|e2e|regression|coverage)\b/i,
  steps: {
    test_discovery: {
      description: 'Find the tests that cover the change and how to run them',
      expectedOutcome: 'Test files and the test command',
      capabilities: ['search_code', 'read_files'],
      nextStepConditions: ['Tests found'],
    },
    test_run: {
      description: 'Run the tests',
      expectedOutcome: 'Pass or a list of failures',
      capabilities: ['run_tests', 'run_command'],
      nextStepConditions: ['All pass: finish', 'Failures: analyse them'],
    },
    failure_analysis: {
      description: 'Analyse each failure',
      expectedOutcome: 'The cause of each failure',
      capabilities: ['read_files', 'diagnostics', 'version_control'],
      nextStepConditions: ['Cause found: fix it', 'Several causes: branch'],
    },
    cause_branch: {
      description: 'Investigate another possible cause',
      expectedOutcome: 'The other cause confirmed or ruled out',
      capabilities: ['read_files', 'search_code', 'run_tests'],
      nextStepConditions: ['Ready to fix'],
    },
    fix: {
      description: 'Fix the cause',
      expectedOutcome: 'Change written',
      capabilities: ['edit_files', 'read_files'],
      nextStepConditions: ['Ready to re-run'],
    },
    rerun: {
      description: 'Run the tests again',
      expectedOutcome: 'All tests pass',
      capabilities: ['run_tests', 'run_command'],
      nextStepConditions: ['Pass: finish', 'Still failing: revise the fix'],
    },
    fix_revision: {
      description: 'Correct the fix from the new failures',
      expectedOutcome: 'A fix that passes',
      capabilities: ['diagnostics', 'read_files', 'edit_files'],
      nextStepConditions: ['Ready to re-run'],
    },
  },
  rules: [
    {
      when: FAILURE,
      suggest: 'revise',
      target: 'fix',
      text: 'Tests still fail: revise the fix, thought {thoughtNumber} (isRevision, revisesThought).',
    },
    {
      when: SEVERAL_OPTIONS,
      suggest: 'branch',
      target: 'failure_analysis',
      text: 'Several possible causes: branch from thought {thoughtNumber} per cause.',
      branchPrefix: 'cause',
    },
  ],
};
