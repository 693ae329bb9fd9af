// What `sequentialthinking` advertises: its description and canonical input schema, short because the model reads both
// on every request (budget: no more o200k tokens than the reference tool's definition; `npm run bench -- context`).
// Calls are parsed with the engine's lenient thoughtArgumentsSchema, which takes more than this says (see thoughtInput.ts).
import { z } from 'zod';
import { QA_WORKFLOW_NAMES } from '../../engine/strategies/qaWorkflows';

export const SEQUENTIAL_THINKING_DESCRIPTION = `Think step by step, one thought per call; the reasoning is kept as a session the user can follow.

Use it to break down a hard problem, to plan with room for correction, or when the scope is unclear. Adjust totalThoughts as you learn; send nextThoughtNeeded: false only once you have a satisfying answer.

When an earlier thought proves wrong, revise it (isRevision, revisesThought). To try an alternative without losing the main line, branch (branchFromThought, branchId) and keep that branchId on the branch's thoughts.

Your first thought starts a session; the reply names it. thinking_sessions finds and resumes saved ones. A strategy (default linear) gives the session stages; the reply says which may come next and how.

The user may steer through userFeedback in a reply: act on it first.`;

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

export const sequentialThinkingCanonicalInput = z.object({
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
