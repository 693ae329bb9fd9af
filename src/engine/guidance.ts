// What a reply says to steer the agent: one sentence about the next step (the valid next stages with their
// purposes), the nudge the strategy calls for at this stage, progress against the strategy's typical length, and
// warnings when a thought leaves out what its stage needs. Kept brief: agents pay for every token of a reply.
import type { SessionMeta, ThoughtRecord } from './model';
import type { StageChoice } from './stageFlow';
import { findStage } from './strategies/catalog';
import { closestToFinal, stagesToFinal } from './strategies/graph';
import { FINAL_RESPONSE } from './strategies/transitionTable';
import type { StrategyDefinition } from './strategies/types';

/** Where the session stands: thoughts in this strategy (since the last switch) against its typical length. */
export interface ReplyProgress {
  thoughts: number;
  typicalLength: number;
  /** Fewest stages still to go before final_response (0 once there). */
  stagesToFinal: number;
}

export interface GuidanceContext {
  strategy: StrategyDefinition;
  /** The session after this thought. */
  meta: SessionMeta;
  thought: ThoughtRecord;
  /** Valid next stages after this thought (empty once the session is complete). */
  nextStages: readonly string[];
  choice: StageChoice;
  /** Thoughts in the current stage, this one included. */
  thoughtsInStage: number;
  /** The number of the thought just before the current stage began (what an evaluation judges), if any. */
  beforeStage?: number;
}

export function buildGuidance({ strategy, meta, thought, nextStages, choice, thoughtsInStage, beforeStage }: GuidanceContext): string {
  if (meta.status === 'complete')
    return thought.stage === undefined || thought.stage === FINAL_RESPONSE
      ? 'Session complete. Start a new one with thoughtNumber 1.'
      : `Session complete, ended in "${thought.stage}" before final_response. Start a new one with thoughtNumber 1.`;
  const current = thought.stage ?? strategy.stages[0].name;
  const sentence = nextStepSentence(strategy, current, nextStages, choice, thoughtsInStage);
  const nudge = stageNudge(strategy, meta, thought, beforeStage);
  return nudge ? `${sentence} ${nudge}` : sentence;
}

/**
 * The next-step sentence depends only on the strategy, the stage and how the stage was chosen, so it is built once per
 * combination (every thought of a long session asks for the same few). Cached only when the next stages are the
 * strategy's own list for the stage (data that never changes); any other list is described afresh.
 */
const sentenceCache = new WeakMap<StrategyDefinition, Map<string, (string | undefined)[]>>();

function nextStepSentence(
  strategy: StrategyDefinition,
  current: string,
  nextStages: readonly string[],
  choice: StageChoice,
  thoughtsInStage: number,
): string {
  if (nextStages !== strategy.transitions[current]) return describeNextStep(strategy, current, nextStages, choice, thoughtsInStage);
  // The three ways choice and thoughtsInStage change the sentence (see describeNextStep).
  const variant = choice !== 'stayed' ? 0 : thoughtsInStage > 2 ? 1 : 2;
  let byStage = sentenceCache.get(strategy);
  if (byStage === undefined) sentenceCache.set(strategy, (byStage = new Map()));
  let sentences = byStage.get(current);
  if (sentences === undefined) byStage.set(current, (sentences = [undefined, undefined, undefined]));
  return (sentences[variant] ??= describeNextStep(strategy, current, nextStages, choice, thoughtsInStage));
}

function describeNextStep(
  strategy: StrategyDefinition,
  current: string,
  nextStages: readonly string[],
  choice: StageChoice,
  thoughtsInStage: number,
): string {
  let sentence: string;
  if (nextStages.length === 1) {
    const next = findStage(strategy, nextStages[0]);
    sentence = next ? `Next stage "${next.name}" (${next.purpose}): ${next.write}` : `Next stage "${nextStages[0]}".`;
  } else if (nextStages.length > 1 && choice === 'stayed' && thoughtsInStage > 2) {
    // An agent that ignores stages hears the full list twice, then a short reminder: it pays for every repeat.
    sentence = `Still in "${current}" (no stage sent); to move on, send stage "${closestToFinal(strategy, nextStages)}" or another of nextStages.`;
  } else if (nextStages.length > 1) {
    const closest = closestToFinal(strategy, nextStages);
    const options = nextStages.map((name) => {
      const purpose = findStage(strategy, name)?.purpose ?? name;
      const toward = name === closest && name !== FINAL_RESPONSE ? '; toward final_response' : '';
      return `"${name}" (${purpose}${toward})`;
    });
    const list = options.length === 2 ? options.join(' or ') : `${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}`;
    const opening = choice === 'stayed' ? `No stage sent, so this stayed in "${current}"; choose` : 'Choose';
    sentence = `${opening} the next stage: ${list}.`;
  } else {
    sentence = `Send stage "${current}" with nextThoughtNeeded false to finish.`;
  }
  const repeats = findStage(strategy, current)?.repeats;
  if (repeats !== undefined && nextStages.length > 0) sentence += ` Or send stage "${current}" again for ${repeats}.`;
  return sentence;
}

/** The nudge the strategy calls for where this thought landed, unless the agent already does what it asks. */
function stageNudge(
  strategy: StrategyDefinition,
  meta: SessionMeta,
  thought: ThoughtRecord,
  beforeStage: number | undefined,
): string | undefined {
  const nudge = findStage(strategy, thought.stage)?.nudge;
  if (!nudge) return undefined;
  if (nudge.kind === 'revise' && meta.revisionCount > 0) return undefined;
  if (nudge.kind === 'branch' && (thought.branchId !== undefined || meta.branchIds.length > 0)) return undefined;
  return nudge.text
    .replaceAll('{thoughtNumber}', String(thought.thoughtNumber))
    .replaceAll('{previousThought}', String(beforeStage ?? Math.max(1, thought.thoughtNumber - 1)));
}

export function buildProgress(strategy: StrategyDefinition, stage: string | undefined, thoughtsInStrategy: number): ReplyProgress {
  return {
    thoughts: thoughtsInStrategy,
    typicalLength: strategy.typicalLength,
    stagesToFinal: stagesToFinal(strategy).get(stage ?? strategy.stages[0].name) ?? 0,
  };
}

export interface StageWarningContext {
  strategy: StrategyDefinition;
  thought: ThoughtRecord;
  /** The branchId was not among the session's branches before this thought. */
  branchIsNew: boolean;
}

/** What the thought left out that its stage needs, so the diagrams can show it. */
export function stageWarnings({ strategy, thought, branchIsNew }: StageWarningContext): string[] {
  const warnings: string[] = [];
  const stage = findStage(strategy, thought.stage);
  if ((stage?.expects === 'branch' || stage?.expects === 'newBranch') && thought.branchId === undefined) {
    warnings.push(`Stage "${stage.name}" records a branch: send branchFromThought and branchId so the branch tree shows it.`);
  } else if (stage?.expects === 'newBranch' && thought.branchId !== undefined && !branchIsNew) {
    warnings.push(`Branch "${thought.branchId}" already exists: use a new branchId to open another branch in "${stage.name}".`);
  }
  if (stage?.expects === 'revision' && thought.isRevision !== true) {
    warnings.push(`Stage "${stage.name}" revises a thought: send isRevision true with revisesThought.`);
  }
  // Ending a session where the agent chose to is correct use, not a warning: the guidance says where it ended.
  return warnings;
}
