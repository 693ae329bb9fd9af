// A hook into the plan step for data derived from a thought and its session (tool recommendations, the QA workflows): called
// once the stage is decided and before anything is stored, so what it returns is journaled with the thought (`extra`)
// and answered in the reply, or, when it fails, nothing is recorded at all. The engine knows nothing of what it
// computes: the layer above (src/recommendations) passes it in per call.
import type { SessionMeta, ThoughtRecord } from '../model';
import type { StrategyDefinition } from '../strategies/types';
import type { ThoughtInput } from '../thoughtInput';

export interface AnnotationContext {
  /** The thought as it will be recorded (session rules applied). */
  input: ThoughtInput;
  strategy: StrategyDefinition;
  /** The stage the thought lands in. */
  stage: string;
  /** The session before this thought. */
  meta: SessionMeta;
  /** The session's thoughts before this one. */
  thoughts: readonly ThoughtRecord[];
  /** The thought opens a branch the session did not have. */
  branchIsNew: boolean;
}

export interface ThoughtAnnotation {
  /** Merged into the record's `extra`. */
  extra?: Record<string, unknown>;
  /** Fields added to the reply after ours. */
  reply?: Record<string, unknown>;
  warnings?: string[];
}

export type ThoughtAnnotator = (context: AnnotationContext) => ThoughtAnnotation | undefined;
