// QA workflow `qa_syntax_validation`: locate the file, check its syntax with the project's tools, fix, re-check; a
// check that still fails revises the fix.
import { FAILURE, SEVERAL_OPTIONS, type QaWorkflow } from './qaWorkflow';
import { finalResponseStage, transitionsFrom } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

const stages: StageDefinition[] = [
  { name: 'file_identification', purpose: 'find the files to check', write: 'The files and the language or format of each.' },
  {
    name: 'syntax_check',
    purpose: 'check the syntax with the project tools',
    write: 'The linter, compiler or parser you ran and what it reported.',
  },
  { name: 'error_fix', purpose: 'fix the reported errors', write: 'Each error and its fix.' },
  {
    name: 'recheck',
    purpose: 'check again after the fix',
    write: 'The check run again and its result.',
    nudge: { kind: 'revise', text: 'If errors remain, revise the fix: isRevision true, revisesThought {previousThought}.' },
  },
  {
    name: 'fix_revision',
    purpose: 'correct a fix that did not hold',
    write: 'The corrected fix; send isRevision and revisesThought.',
    expects: 'revision',
  },
  finalResponseStage,
];

export const qaSyntaxValidationStrategy: StrategyDefinition = {
  name: 'qa_syntax_validation',
  title: 'QA: syntax validation',
  description: 'Find the files, check their syntax with the project linter or compiler, fix and check again until clean.',
  stages,
  transitions: transitionsFrom(stages, {
    syntax_check: ['error_fix', 'final_response'],
    recheck: ['fix_revision', 'final_response'],
    fix_revision: ['recheck'],
  }),
  traits: { usesTools: true, revision: true, branching: false, multiplePaths: false, stateTracking: true, verification: true },
  typicalLength: 4,
};

export const qaSyntaxValidationWorkflow: QaWorkflow = {
  strategy: qaSyntaxValidationStrategy,
  targetPattern: /\b(syntax|lint|linter|parse|parser|typo|compile|typecheck|types?)\b/i,
  steps: {
    file_identification: {
      description: 'Find the files to validate',
      expectedOutcome: 'The list of files and their formats',
      capabilities: ['search_code', 'read_files'],
      nextStepConditions: ['Files identified'],
    },
    syntax_check: {
      description: 'Run the linter, compiler or parser on them',
      expectedOutcome: 'Syntax errors listed, or none',
      capabilities: ['diagnostics', 'run_command'],
      nextStepConditions: ['No errors: finish', 'Errors found: fix them'],
    },
    error_fix: {
      description: 'Fix each reported error',
      expectedOutcome: 'Errors corrected in the files',
      capabilities: ['edit_files', 'read_files'],
      nextStepConditions: ['Fixes written', 'Ready to re-check'],
    },
    recheck: {
      description: 'Run the check again',
      expectedOutcome: 'No syntax errors',
      capabilities: ['diagnostics', 'run_command'],
      nextStepConditions: ['Clean: finish', 'Errors remain: revise the fix'],
    },
    fix_revision: {
      description: 'Correct the fix from the remaining errors',
      expectedOutcome: 'Remaining errors resolved',
      capabilities: ['diagnostics', 'edit_files', 'read_files'],
      nextStepConditions: ['Ready to re-check'],
    },
  },
  rules: [
    {
      when: FAILURE,
      suggest: 'revise',
      target: 'error_fix',
      text: 'The check still fails: revise the fix, thought {thoughtNumber} (isRevision, revisesThought).',
    },
    {
      when: SEVERAL_OPTIONS,
      suggest: 'branch',
      target: 'syntax_check',
      text: 'Several possible fixes: branch from thought {thoughtNumber} to try one.',
      branchPrefix: 'alt-fix',
    },
  ],
};
