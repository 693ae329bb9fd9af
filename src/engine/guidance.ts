// One short sentence that steers the agent's next step. Kept brief: agents pay for every token of a reply.
import type { SessionMeta, ThoughtRecord } from './model';
import type { StrategyDefinition } from './strategies/types';

export interface GuidanceContext {
  strategy: StrategyDefinition;
  meta: SessionMeta;
  thought: ThoughtRecord;
  nextStages: readonly string[];
  advancedAutomatically: boolean;
}

export function buildGuidance({ strategy, meta, thought, nextStages }: GuidanceContext): string {
  if (meta.status === 'complete') return 'Session complete. Start a new one with thoughtNumber 1.';
  const stage = strategy.stages.find((candidate) => candidate.name === thought.stage);
  if (nextStages.length > 1) {
    return `In ${thought.stage}: stay, or move on with stage one of ${nextStages.join(', ')}.`;
  }
  return stage ? `Next: ${stage.write}` : 'Continue with the next thought.';
}
