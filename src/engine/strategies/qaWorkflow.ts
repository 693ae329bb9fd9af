// What a QA workflow adds to a strategy: for each stage, the verification step it stands for (expected
// outcome, the tool capabilities it needs, the conditions to move on), and rules that suggest a revision or a branch
// when a thought reports a failure or several options. The workflows are ordinary strategies of the stage flow
// (stage graph, guidance, thinking://strategies/… resources and think-… prompts come from the catalog); this is the
// extra data the tool recommender reads.
import type { StrategyDefinition } from './types';

/** What a step needs a tool to be able to do; the recommender matches these against tool names and descriptions. */
export type ToolCapability =
  | 'read_files'
  | 'search_code'
  | 'run_command'
  | 'run_tests'
  | 'fetch_docs'
  | 'search_web'
  | 'edit_files'
  | 'diagnostics'
  | 'version_control'
  | 'browser_preview';

export const TOOL_CAPABILITIES: readonly ToolCapability[] = [
  'read_files',
  'search_code',
  'run_command',
  'run_tests',
  'fetch_docs',
  'search_web',
  'edit_files',
  'diagnostics',
  'version_control',
  'browser_preview',
];

export interface QaStep {
  /** The step as the workflow words it ("Check installed version in package.json"). */
  description: string;
  expectedOutcome: string;
  /** Most needed first. */
  capabilities: readonly ToolCapability[];
  nextStepConditions: readonly string[];
}

/**
 * A rule read on every thought of the workflow: when the thought's text matches `when`, suggest revising the latest
 * thought of stage `target` ("build failed → revise the implementation step") or branching from it ("several valid
 * approaches → branch").
 */
export interface QaRule {
  when: RegExp;
  suggest: 'revise' | 'branch';
  target: string;
  /** One short sentence for the reply; `{thoughtNumber}` becomes the number of the thought to revise or branch from. */
  text: string;
  /** For a branch: the prefix of the suggested branch id ("alternative-config" → "alternative-config-1"). */
  branchPrefix?: string;
}

export interface QaWorkflow {
  strategy: StrategyDefinition;
  /** Words in a verification target that suggest this workflow (for a session not in one yet). */
  targetPattern: RegExp;
  /** One step per stage except final_response. */
  steps: Readonly<Record<string, QaStep>>;
  rules: readonly QaRule[];
}

/** Failure words shared by the workflows' revision rules. */
export const FAILURE = /\b(fail(s|ed|ure|ing)?|broke|broken|error(s)?|does(n't| not) (work|compile|build)|crash(ed)?)\b/i;
/** "Several valid approaches" words shared by the branch rules. */
export const SEVERAL_OPTIONS =
  /\b(multiple|several|two|alternative|competing|various)\b.{0,40}\b(approach|approaches|options|ways|methods|configurations?|versions|paths)\b/i;
