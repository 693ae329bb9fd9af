// Tool recommendations for one thought, as an engine annotation: which step this is (the agent's currentStep or the
// QA workflow's step for the thought's stage), the recommended tools (the agent's own first, flagged when not in a
// known tool list, then ours), the remaining steps, and a revision or branch suggestion when a workflow rule fires.
// What it returns is journaled with the thought (`extra.qa`) and answered in the reply, kept compact.
import type { QaInput, StepRecommendation, ToolInfo } from '../engine/qaInput';
import type { AnnotationContext, ThoughtAnnotation, ThoughtAnnotator } from '../engine/recording/thoughtAnnotation';
import type { ThoughtRecord } from '../engine/model';
import { findQaWorkflow, suggestQaWorkflow } from '../engine/strategies/qaWorkflows';
import { FAILURE, SEVERAL_OPTIONS, type QaRule, type QaWorkflow } from '../engine/strategies/qaWorkflow';
import { recommendTools, type Recommendation } from './recommender';
import { indexTools, type ToolIndex } from './toolIndex';

/** Where the tool list came from: sent with the call, the editor's own (vscode.lm.tools), or none (generic). */
export type ToolSource = 'request' | 'editor' | 'generic';

export interface QaAnnotatorOptions {
  /** The tools of the editor the server runs in, used when the call sends no list. */
  availableTools?: () => readonly ToolInfo[] | undefined;
}

/** Recommended tools in a reply: enough to act on, few enough to be cheap. */
export const REPLY_TOOLS = 5;

export interface QaSuggestion {
  /** The thought to revise (isRevision, revisesThought). */
  revise?: number;
  /** The thought to branch from, with a branch id not used yet. */
  branchFromThought?: number;
  branchId?: string;
  text: string;
}

/** What `extra.qa` holds for a thought (journal, exports, the explorer's chips and steps strip). */
export interface QaRecord {
  verificationTarget?: string;
  workflow?: string;
  /** The step as the agent sent it (currentStep), when it sent one. */
  step?: StepRecommendation;
  previousSteps?: StepRecommendation[];
  remainingSteps?: string[];
  recommendation: { step: string; recommendedTools: Recommendation[]; nextStepConditions: string[] };
  toolsFrom: ToolSource;
  toolCount: number;
  suggestion?: QaSuggestion;
}

/** The annotator of a server; it annotates nothing when the thought has nothing to do with QA (no QA field, no QA workflow). */
export function qaAnnotator(options: QaAnnotatorOptions = {}): ThoughtAnnotator {
  return (context) => annotate(context, context.input.qa, options);
}

function annotate(context: AnnotationContext, qa: QaInput | undefined, options: QaAnnotatorOptions): ThoughtAnnotation | undefined {
  const sessionWorkflow = findQaWorkflow(context.strategy.name);
  if (qa === undefined && sessionWorkflow === undefined) return undefined;
  const warnings = [...(qa?.notes ?? [])];
  const { input, stage } = context;
  const workflow = sessionWorkflow ?? suggestQaWorkflow(qa?.verificationTarget);
  const workflowStep = sessionWorkflow?.steps[stage];

  let tools: ToolIndex | undefined;
  let toolsFrom: ToolSource = 'generic';
  if (qa?.availableTools !== undefined) {
    tools = indexTools(qa.availableTools);
    toolsFrom = 'request';
  } else {
    const editorTools = options.availableTools?.();
    if (editorTools !== undefined && editorTools.length > 0) {
      tools = indexTools(editorTools);
      toolsFrom = 'editor';
    }
  }

  const sent = qa?.currentStep;
  const stepDescription = sent?.stepDescription ?? workflowStep?.description ?? '';
  const stepText = sent
    ? `${sent.stepDescription} ${sent.expectedOutcome}`
    : workflowStep
      ? `${workflowStep.description} ${workflowStep.expectedOutcome}`
      : '';
  const ours = recommendTools({
    stepText,
    thought: input.thought,
    verificationTarget: qa?.verificationTarget,
    workflowStep,
    workflowStage: stage,
    isRevision: input.isRevision === true,
    isNewBranch: context.branchIsNew,
    tools,
    limit: REPLY_TOOLS,
  });
  const recommended = mergeRecommendations(sent?.recommendedTools ?? [], ours, tools, toolsFrom, warnings);

  const record: QaRecord = {
    recommendation: {
      step: stepDescription,
      recommendedTools: recommended,
      nextStepConditions: sent?.nextStepConditions.length ? sent.nextStepConditions : [...(workflowStep?.nextStepConditions ?? [])],
    },
    toolsFrom,
    toolCount: tools?.tools.length ?? 0,
  };
  if (qa?.verificationTarget !== undefined) record.verificationTarget = qa.verificationTarget;
  if (workflow !== undefined) record.workflow = workflow.strategy.name;
  if (sent) record.step = sent;
  if (qa?.previousSteps) record.previousSteps = qa.previousSteps;
  const remaining = qa?.remainingSteps ?? (sessionWorkflow ? workflowStepsAfter(sessionWorkflow, stage) : undefined);
  if (remaining !== undefined) record.remainingSteps = remaining;
  const suggestion = suggest(context, workflow, sessionWorkflow !== undefined);
  if (suggestion) record.suggestion = suggestion;

  // The agent's own recommendations come back short (it wrote their rationale): name, confidence, priority, flag.
  const replyTools = recommended.map((tool) =>
    sent?.recommendedTools.some((own) => own.toolName === tool.toolName)
      ? {
          toolName: tool.toolName,
          confidence: tool.confidence,
          priority: tool.priority,
          ...(tool.unavailable ? { unavailable: true } : {}),
        }
      : tool,
  );
  const replyRecommendation: Record<string, unknown> = { recommendedTools: replyTools, toolsFrom };
  if (stepDescription !== '') replyRecommendation.step = stepDescription;
  if (record.recommendation.nextStepConditions.length > 0)
    replyRecommendation.nextStepConditions = record.recommendation.nextStepConditions;
  const reply: Record<string, unknown> = { recommendation: replyRecommendation };
  if (remaining !== undefined) reply.remainingSteps = remaining;
  if (suggestion) reply.suggestion = suggestion;
  // A workflow is suggested once, to a session that follows none.
  if (!sessionWorkflow && workflow && context.thoughts.length === 0) reply.suggestedWorkflow = workflow.strategy.name;
  return { extra: { qa: record }, reply, warnings };
}

/**
 * The agent's recommendations first, as sent (never dropped, never renamed; flagged when a known list lacks them),
 * then ours that name other tools, up to REPLY_TOOLS in all unless the agent sent more.
 */
function mergeRecommendations(
  sent: readonly Recommendation[],
  ours: readonly Recommendation[],
  tools: ToolIndex | undefined,
  toolsFrom: ToolSource,
  warnings: string[],
): Recommendation[] {
  const merged: Recommendation[] = [];
  const unknown: string[] = [];
  for (const tool of sent) {
    if (tools !== undefined && !tools.names.has(tool.toolName)) {
      unknown.push(tool.toolName);
      merged.push({ ...tool, unavailable: true });
    } else merged.push(tool);
  }
  if (unknown.length > 0) {
    const where = toolsFrom === 'editor' ? "this editor's tools" : 'availableTools';
    warnings.push(
      `currentStep.recommendedTools: ${[...new Set(unknown)].map((name) => `"${name}"`).join(', ')} not in ${where} (${tools?.tools.length ?? 0}); kept, marked unavailable.`,
    );
  }
  const named = new Set(sent.map((tool) => tool.toolName));
  for (const tool of ours) {
    if (merged.length >= Math.max(REPLY_TOOLS, sent.length)) break;
    if (!named.has(tool.toolName)) merged.push(tool);
  }
  return merged;
}

/** The workflow's step descriptions after `stage`, along the stage order, skipping branch and revision detours. */
function workflowStepsAfter(workflow: QaWorkflow, stage: string): string[] {
  const stages = workflow.strategy.stages;
  const index = stages.findIndex((candidate) => candidate.name === stage);
  return stages
    .slice(index + 1)
    .filter((candidate) => candidate.expects === undefined && workflow.steps[candidate.name] !== undefined)
    .map((candidate) => workflow.steps[candidate.name].description);
}

const GENERIC_RULES: readonly QaRule[] = [
  {
    when: FAILURE,
    suggest: 'revise',
    target: '',
    text: 'A failure: revise the implementation, thought {thoughtNumber} (isRevision, revisesThought).',
  },
  {
    when: SEVERAL_OPTIONS,
    suggest: 'branch',
    target: '',
    text: 'Several valid approaches: branch from thought {thoughtNumber} to explore one.',
    branchPrefix: 'alternative',
  },
];
/** A step that changes things: what a failure sends the agent back to when the session has no workflow stages. */
const IMPLEMENTING = /\b(design|implement|write|create|fix|update|configure|modify|edit|change|choose)\b/i;

function suggest(context: AnnotationContext, workflow: QaWorkflow | undefined, inWorkflow: boolean): QaSuggestion | undefined {
  const { input } = context;
  for (const rule of workflow?.rules ?? GENERIC_RULES) {
    if (!rule.when.test(input.thought)) continue;
    if (rule.suggest === 'revise') {
      if (input.isRevision) continue;
      const target = inWorkflow ? latestInStage(context.thoughts, rule.target) : latestImplementing(context.thoughts);
      if (target === undefined) continue;
      return { revise: target, text: rule.text.replace('{thoughtNumber}', String(target)) };
    }
    if (input.branchId !== undefined || input.branchFromThought !== undefined) continue;
    const from =
      (inWorkflow && context.stage !== rule.target ? latestInStage(context.thoughts, rule.target) : undefined) ?? input.thoughtNumber;
    return {
      branchFromThought: from,
      branchId: unusedBranchId(context.meta.branchIds, rule.branchPrefix ?? 'alternative'),
      text: rule.text.replace('{thoughtNumber}', String(from)),
    };
  }
  return undefined;
}

function latestInStage(thoughts: readonly ThoughtRecord[], stage: string): number | undefined {
  for (let index = thoughts.length - 1; index >= 0; index--) if (thoughts[index].stage === stage) return thoughts[index].thoughtNumber;
  return undefined;
}

/** The latest earlier thought whose step (or, without one, text) changes something. */
function latestImplementing(thoughts: readonly ThoughtRecord[]): number | undefined {
  for (let index = thoughts.length - 1; index >= 0; index--) {
    const thought = thoughts[index];
    const qa = thought.extra?.qa as Partial<QaRecord> | undefined;
    const text = qa?.step?.stepDescription ?? thought.thought;
    if (IMPLEMENTING.test(text)) return thought.thoughtNumber;
  }
  return undefined;
}

function unusedBranchId(branchIds: readonly string[], prefix: string): string {
  let number = 1;
  while (branchIds.includes(`${prefix}-${number}`)) number++;
  return `${prefix}-${number}`;
}
