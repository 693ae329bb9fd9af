// The reply step of recording a thought: what the `sequentialthinking` tool answers once the thought is stored.
import type { DeliveredFeedback } from '../feedbackRules';
import { buildGuidance, buildProgress, stageWarnings, type ReplyProgress } from '../guidance';
import { nextStages } from '../stageFlow';
import { lastSwitchSeq } from './heldSession';
import type { ThoughtPlan } from './thoughtPlan';

const NONE: readonly string[] = [];

/** What the `sequentialthinking` tool answers: the reference's five fields first, then ours. */
export interface ThoughtReply {
  thoughtNumber: number;
  totalThoughts: number;
  nextThoughtNeeded: boolean;
  branches: string[];
  thoughtHistoryLength: number;
  sessionId: string;
  strategy: string;
  stage: string;
  nextStages: string[];
  guidance: string;
  warnings: string[];
  /** Thoughts in this strategy so far against its typical length, and the fewest stages left to final_response. */
  progress: ReplyProgress;
  /** The person's feedback not delivered before, each item once; present only when there is some. */
  userFeedback?: DeliveredFeedback[];
}

/** The reply for a recorded plan; `warnings` already holds what the earlier steps found, stage warnings are added. */
export function buildReply(plan: ThoughtPlan, warnings: string[]): ThoughtReply {
  const { session, strategy, thought, next, completes } = plan;
  const stage = thought.stage as string;
  // The strategy's own list goes to the guidance (which caches by it); the reply gets a copy it may keep.
  const following = completes ? NONE : nextStages(strategy, stage);
  warnings.push(...stageWarnings({ strategy, thought, branchIsNew: plan.branchIsNew }));
  const reply: ThoughtReply = {
    thoughtNumber: thought.thoughtNumber,
    totalThoughts: thought.totalThoughts,
    nextThoughtNeeded: thought.nextThoughtNeeded,
    branches: next.branchIds,
    thoughtHistoryLength: session.thoughts.length,
    sessionId: next.id,
    strategy: strategy.name,
    stage,
    nextStages: [...following],
    guidance: buildGuidance({
      strategy,
      meta: next,
      thought,
      nextStages: following,
      choice: plan.choice,
      thoughtsInStage: session.thoughtsInStage,
      beforeStage: session.thoughts[session.thoughts.length - 1 - session.thoughtsInStage]?.thoughtNumber,
    }),
    warnings,
    progress: buildProgress(strategy, stage, session.thoughts.length - lastSwitchSeq(session.strategySwitches)),
  };
  // Annotations (tool recommendations) come after our fields; they never replace one.
  if (plan.replyAdditions)
    for (const [key, value] of Object.entries(plan.replyAdditions))
      if (!(key in reply)) (reply as unknown as Record<string, unknown>)[key] = value;
  return reply;
}
