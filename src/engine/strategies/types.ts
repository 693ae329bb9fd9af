// The shape of a reasoning strategy: a graph of stages. Strategies are data; the stage flow (stageFlow.ts) follows them.

export interface StageDefinition {
  name: string;
  /** One line: what this stage is for. */
  purpose: string;
  /** One line: what a thought in this stage should contain. */
  write: string;
}

export interface StrategyTraits {
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
  /** Stages in their natural order; the first is where every session starts, the last is terminal. */
  stages: StageDefinition[];
  /** Valid next stages of each stage (staying in the same stage is always allowed and not listed). */
  transitions: Readonly<Record<string, readonly string[]>>;
  traits: StrategyTraits;
  /** How many thoughts a session of this strategy typically takes. */
  typicalLength: number;
}
