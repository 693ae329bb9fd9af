// The canonical arguments of a thought: what `sequentialthinking` advertises (camelCase names, JSON types), short because
// the model reads it on every request (budget: no more o200k tokens than the reference tool's definition;
// `npm run bench -- context`). The engine parses every thought with the lenient schema made from it
// (thoughtInput.ts, lenientSchema.ts), which takes more than this says: snake_case names, numbers and flags as text.
import { z } from 'zod';
import { QA_WORKFLOW_NAMES } from './strategies/qaWorkflows';

const thoughtNumber = (description: string) => z.int().min(1).describe(description);

/** A step of a QA verification, as the agent writes it (the QA workflows). */
const qaStep = z.object({
  stepDescription: z.string(),
  expectedOutcome: z.string().optional(),
  recommendedTools: z
    .array(
      z.object({
        toolName: z.string(),
        confidence: z.number().min(0).max(1),
        rationale: z.string(),
        priority: z.int().min(1),
      }),
    )
    .optional(),
  nextStepConditions: z.array(z.string()).optional(),
});

export const canonicalThoughtArguments = z.object({
  thought: z.string().describe('This step of your reasoning.'),
  thoughtNumber: thoughtNumber('May exceed totalThoughts.'),
  totalThoughts: thoughtNumber('Your current estimate.'),
  nextThoughtNeeded: z.boolean(),
  isRevision: z.boolean().optional(),
  revisesThought: thoughtNumber('The thought this one revises.').optional(),
  branchFromThought: thoughtNumber('The thought this branch forks from.').optional(),
  branchId: z.string().optional().describe('A short branch name, e.g. "alt-1".'),
  needsMoreThoughts: z.boolean().optional().describe('You reached the planned end but need more.'),
  sessionId: z.string().optional().describe('Continue this saved session; omit to continue the current one.'),
  strategy: z.string().optional().describe('For a new session, e.g. linear, react, tree_of_thoughts (thinking://documentation).'),
  stage: z.string().optional().describe("The strategy stage of this thought: the current one or one of the reply's nextStages."),
  availableTools: z
    .array(z.union([z.string(), z.object({ name: z.string(), description: z.string().optional() })]))
    .optional()
    .describe('QA: the tools you can call; recommendations name only these.'),
  verificationTarget: z.string().optional().describe('QA: what is being verified.'),
  currentStep: qaStep.optional().describe('QA: this verification step.'),
  previousSteps: z.array(z.object({})).optional().describe('QA: the steps done, shaped like currentStep.'),
  remainingSteps: z.array(z.string()).optional(),
  workflow: z
    .enum([...QA_WORKFLOW_NAMES] as [string, ...string[]])
    .optional()
    .describe('A QA workflow (a strategy).'),
});
