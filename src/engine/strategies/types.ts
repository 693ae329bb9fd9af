// The shape of a reasoning strategy: a graph of stages. Strategies are data; the stage flow (stageFlow.ts) follows them.

/**
 * What a stage asks of a thought beyond its text, so replies can remind and warn:
 * - `newBranch`: the thought opens a branch (send branchFromThought and a new branchId) so the branch tree shows it;
 * - `branch`: the thought belongs to a branch, new or continued (branchFromThought and branchId);
 * - `revision`: the thought revises an earlier one (send isRevision and revisesThought).
 * A thought sent without `stage` that carries a branch or a revision is steered to the stage expecting it.
 */
export type StageExpectation = 'newBranch' | 'branch' | 'revision';

/** A nudge the strategy calls for at a stage: shown in the reply when a thought lands there. */
export interface StageNudge {
  /** `revise` is shown only while the session has no revision yet; `branch` only when the thought is not in a branch. */
  kind: 'revise' | 'branch' | 'verify';
  /**
   * One short sentence naming the concrete move where the flow allows it: `{thoughtNumber}` becomes the number of the
   * thought that landed in the stage, `{previousThought}` the thought just before the stage began (the work an
   * evaluation or a test judges).
   */
  text: string;
}

export interface StageDefinition {
  name: string;
  /** A short phrase, lower case, no full stop: what this stage is for ("plan the next action"). */
  purpose: string;
  /** One line: what a thought in this stage should contain. */
  write: string;
  expects?: StageExpectation;
  nudge?: StageNudge;
  /** Set when the stage usually takes several thoughts: what the next one would be ("the next step"). */
  repeats?: string;
}

export interface StrategyTraits {
  /** The strategy expects the agent to call external tools between thoughts. */
  usesTools: boolean;
  revision: boolean;
  branching: boolean;
  multiplePaths: boolean;
  stateTracking: boolean;
  verification: boolean;
}

export interface StrategyDefinition {
  name: string;
  title: string;
  /** One or two sentences: when to pick this strategy. */
  description: string;
  /** Stages in their natural order; the first is where every session starts, the last (`final_response`) is terminal. */
  stages: StageDefinition[];
  /** Valid next stages of each stage (staying in the same stage is always allowed and not listed). */
  transitions: Readonly<Record<string, readonly string[]>>;
  traits: StrategyTraits;
  /** How many thoughts a session of this strategy typically takes. */
  typicalLength: number;
}
