// Insights into one session: how the agent really reasoned (revisions, branches, stage loops, pace, the person's
// feedback, deliberation tokens). A pure function of a SessionSnapshot, shared by the thinking_sessions `stats` action,
// the explorer's Insights tab and the exports.
import type { SessionSnapshot, ThoughtRecord } from '../model';
import { median, ratio } from './statistics';
import { largest } from '../browserSafe/arrayMath';

export interface StageVisit {
  stage: string;
  /** Thoughts in this run of the stage. */
  thoughts: number;
}

export interface FeedbackInsights {
  given: number;
  delivered: number;
  applied: number;
  byKind: Record<'note' | 'reject' | 'branch' | 'conclude', number>;
}

export interface TokenInsights {
  /** Thoughts that carry a token count (deliberation roles). */
  thoughts: number;
  input: number;
  output: number;
  /** Some counts were estimated by the model gateway, not reported by the model. */
  estimated: boolean;
}

export interface SessionInsights {
  sessionId: string;
  strategy: string;
  status: string;
  thoughts: number;
  revisions: number;
  /** Revisions per thought, 0–1. */
  revisionRate: number;
  /** Distinct branch ids. */
  branches: number;
  /** Thoughts on a branch. */
  branchThoughts: number;
  /** Thoughts on a branch per thought, 0–1. */
  branchRate: number;
  /** Distinct stages, in order of first visit. */
  stagesVisited: string[];
  /** Runs of consecutive thoughts in one stage, in order. */
  stageVisits: StageVisit[];
  /** Returns to a stage left earlier (a run of a stage that already had a run). */
  loops: number;
  /** From the first thought to the last, in milliseconds (0 for fewer than two thoughts). */
  durationMs: number;
  /** Time between consecutive thoughts, in milliseconds; absent for fewer than two thoughts. */
  timeBetweenThoughts?: { medianMs: number; maxMs: number };
  feedback: FeedbackInsights;
  /** Deliberation token counts, when any thought carries them. */
  tokens?: TokenInsights;
}

export function sessionInsights(snapshot: SessionSnapshot): SessionInsights {
  const { meta, thoughts } = snapshot;
  let revisions = 0;
  let branchThoughts = 0;
  const branchIds = new Set<string>();
  const stageVisits: StageVisit[] = [];
  const stagesVisited: string[] = [];
  const seenStages = new Set<string>();
  let loops = 0;
  const gaps: number[] = [];
  for (let index = 0; index < thoughts.length; index++) {
    const thought = thoughts[index];
    if (thought.isRevision || thought.revisesThought !== undefined) revisions++;
    if (thought.branchId !== undefined) {
      branchThoughts++;
      branchIds.add(thought.branchId);
    }
    if (thought.stage !== undefined) {
      const last = stageVisits[stageVisits.length - 1];
      if (last !== undefined && last.stage === thought.stage) last.thoughts++;
      else {
        if (seenStages.has(thought.stage)) loops++;
        else {
          seenStages.add(thought.stage);
          stagesVisited.push(thought.stage);
        }
        stageVisits.push({ stage: thought.stage, thoughts: 1 });
      }
    }
    if (index > 0) gaps.push(Math.max(0, thought.timestamp - thoughts[index - 1].timestamp));
  }
  const insights: SessionInsights = {
    sessionId: meta.id,
    strategy: meta.strategy,
    status: meta.status,
    thoughts: thoughts.length,
    revisions,
    revisionRate: ratio(revisions, thoughts.length),
    branches: branchIds.size,
    branchThoughts,
    branchRate: ratio(branchThoughts, thoughts.length),
    stagesVisited,
    stageVisits,
    loops,
    durationMs: thoughts.length < 2 ? 0 : Math.max(0, thoughts[thoughts.length - 1].timestamp - thoughts[0].timestamp),
    feedback: feedbackInsights(snapshot),
  };
  if (gaps.length > 0) insights.timeBetweenThoughts = { medianMs: median(gaps), maxMs: largest(gaps) };
  const tokens = tokenInsights(thoughts);
  if (tokens) insights.tokens = tokens;
  return insights;
}

function feedbackInsights(snapshot: SessionSnapshot): FeedbackInsights {
  const result: FeedbackInsights = { given: 0, delivered: 0, applied: 0, byKind: { note: 0, reject: 0, branch: 0, conclude: 0 } };
  for (const record of snapshot.feedback ?? []) {
    result.given++;
    if (record.kind in result.byKind) result.byKind[record.kind]++;
    if (record.deliveredAt !== undefined) result.delivered++;
    if (record.appliedAt !== undefined) result.applied++;
  }
  return result;
}

/** Sums `extra.tokens` ({ input, output, estimated }) as the deliberation recorder writes it; other shapes are skipped. */
function tokenInsights(thoughts: readonly ThoughtRecord[]): TokenInsights | undefined {
  let counted = 0;
  let input = 0;
  let output = 0;
  let estimated = false;
  for (const thought of thoughts) {
    const tokens = thought.extra?.tokens;
    if (typeof tokens !== 'object' || tokens === null) continue;
    const { input: inputTokens, output: outputTokens, estimated: wasEstimated } = tokens as Record<string, unknown>;
    const hasInput = typeof inputTokens === 'number' && Number.isFinite(inputTokens);
    const hasOutput = typeof outputTokens === 'number' && Number.isFinite(outputTokens);
    if (!hasInput && !hasOutput) continue;
    counted++;
    if (hasInput) input += inputTokens;
    if (hasOutput) output += outputTokens;
    if (wasEstimated === true) estimated = true;
  }
  return counted === 0 ? undefined : { thoughts: counted, input, output, estimated };
}
