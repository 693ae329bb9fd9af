// The rule for a "decision point" in a session, where the person watching may be asked (MCP elicitation, opt-in):
// the strategy offers several next stages as the session enters a stage, or the agent says it is done although its
// strategy or its own estimate says it is not. Pure: the MCP layer (src/mcp/decisionPoints.ts) does the asking.

/** What the rule needs from a `sequentialthinking` reply. */
export interface DecisionPointInput {
  thoughtNumber: number;
  totalThoughts: number;
  nextThoughtNeeded: boolean;
  stage: string;
  nextStages: readonly string[];
  progress: { stagesToFinal: number };
}

/** How long a person is waited for by default (the MCP server and VS Code's setting share it). */
export const DEFAULT_DECISION_TIMEOUT_MS = 60_000;

export const FINISH_CHOICE = 'finish';
export const CONTINUE_CHOICE = 'continue';

export type DecisionPoint =
  /** Several stages may follow: which one next. */
  | { kind: 'nextStage'; key: string; stage: string; choices: string[] }
  /** The agent finished early: finish, or go on thinking. */
  | { kind: 'earlyFinish'; key: string; stage: string; choices: [typeof FINISH_CHOICE, typeof CONTINUE_CHOICE] };

/** An early finish leaves at least this many stages before final_response, or this many planned thoughts unwritten. */
export const EARLY_FINISH_MARGIN = 2;

/**
 * The decision point this reply stands at, if any. `enteredStage`: this thought is the first of a run of its stage
 * (a stage's choice is asked once per visit, not on every thought that stays in it). The key names the point within
 * its session, so a caller can tell it asked already.
 */
export function decisionPointOf(reply: DecisionPointInput, enteredStage: boolean): DecisionPoint | undefined {
  if (!reply.nextThoughtNeeded) {
    const early = reply.progress.stagesToFinal >= EARLY_FINISH_MARGIN || reply.totalThoughts - reply.thoughtNumber >= EARLY_FINISH_MARGIN;
    if (!early) return undefined;
    return { kind: 'earlyFinish', key: `finish@${reply.thoughtNumber}`, stage: reply.stage, choices: [FINISH_CHOICE, CONTINUE_CHOICE] };
  }
  if (enteredStage && reply.nextStages.length >= 2) {
    return { kind: 'nextStage', key: `stage:${reply.stage}@${reply.thoughtNumber}`, stage: reply.stage, choices: [...reply.nextStages] };
  }
  return undefined;
}
