// Execution plans (ThinkSuit's shapes) as validated data: the raw shapes a caller may send, and the resolved plan the
// runner executes, with every budget filled in (defaults, caps) and every role looked up.
import { z } from 'zod';
import { PLAN_KINDS, type PlanKind } from '../engine/browserSafe/planKinds';
import { BudgetNotes, type RequestBudgets } from './budgets';
import type { Role, RoleBook } from './roles';

export const RESULT_STRATEGIES = ['last', 'concat', 'label', 'formatted'] as const;
export type ResultStrategy = (typeof RESULT_STRATEGIES)[number];

const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_STEPS = 12;

/** A whole-number budget; its error shows the value sent (the SDK prints zod messages as they are). */
export const count = (what: string) => {
  const error = (issue: { input?: unknown }) => `got ${describeValue(issue.input)}; expected a whole number of ${what}, at least 1`;
  return z.number({ error }).int({ error }).min(1, { error });
};

const resolutionSchema = z
  .strictObject({
    maxCycles: count('cycles').optional().describe('Most cycles of the task (default 4, capped at 12).'),
    maxTokens: count('output tokens').optional().describe("Most output tokens of the task's cycles (default 8000, capped at 100000)."),
    maxToolCalls: count('tool calls').optional().describe('Most tool calls of the task (default 8, capped at 50).'),
    timeoutMs: count('milliseconds').optional().describe("Most wall time of the task's cycles in ms (default 180000, capped at 900000)."),
  })
  .describe('Budgets of a task: when one runs out, the task makes one synthesis call with what it gathered.');

const roleName = z.string({ error: 'expected a role name' }).min(1, { error: 'expected a role name' });

const stepObjectSchema = z.strictObject({
  role: roleName.describe('The role of this step.'),
  strategy: z.enum(['direct', 'task'], { error: 'a step runs "direct" (one call) or "task" (cycles); plans do not nest' }).optional(),
  resolution: resolutionSchema.optional(),
});
const stepSchema = z.union([roleName, stepObjectSchema], {
  error: 'expected a role name (runs as a task) or {role, strategy: "direct"|"task", resolution}',
});

const resultStrategySchema = z.enum(RESULT_STRATEGIES, { error: `expected one of ${RESULT_STRATEGIES.join(', ')}` });
const toolsSchema = z
  .array(z.string().regex(TOOL_NAME, { error: 'expected a tool name (1-64 letters, digits, "_", "-", "." or ":")' }))
  .max(64)
  .describe('Tools the task steps may call (tools reach only task steps).');
const maxTokensSchema = count('output tokens').describe('Most output tokens per model call (default 1024, capped at 8192).');

export const planObjectSchema = z.discriminatedUnion(
  'strategy',
  [
    z.strictObject({ strategy: z.literal('direct'), role: roleName, maxTokens: maxTokensSchema.optional() }),
    z.strictObject({
      strategy: z.literal('sequential'),
      sequence: z
        .array(stepSchema)
        .min(1, { error: 'expected at least one step' })
        .max(MAX_STEPS, { error: `expected at most ${MAX_STEPS} steps` }),
      buildThread: z.boolean({ error: 'expected true or false' }).optional(),
      resultStrategy: resultStrategySchema.optional(),
      tools: toolsSchema.optional(),
      maxTokens: maxTokensSchema.optional(),
    }),
    z.strictObject({
      strategy: z.literal('parallel'),
      roles: z
        .array(stepSchema)
        .min(1, { error: 'expected at least one role' })
        .max(MAX_STEPS, { error: `expected at most ${MAX_STEPS} roles` }),
      synthesis: roleName.optional(),
      resultStrategy: resultStrategySchema.optional(),
      tools: toolsSchema.optional(),
      maxTokens: maxTokensSchema.optional(),
    }),
    z.strictObject({
      strategy: z.literal('task'),
      role: roleName,
      resolution: resolutionSchema.optional(),
      tools: toolsSchema.optional(),
      maxTokens: maxTokensSchema.optional(),
    }),
  ],
  { error: `expected strategy to be one of ${PLAN_KINDS.join(', ')}` },
);

type RawStep = z.infer<typeof stepSchema>;

export interface TaskResolution {
  maxCycles: number;
  maxTokens: number;
  maxToolCalls: number;
  timeoutMs: number;
}

export interface PlanStep {
  role: Role;
  strategy: 'direct' | 'task';
  /** Output tokens per call. */
  maxTokens: number;
  /** Set for task steps. */
  resolution?: TaskResolution;
  /** Tools offered to a task step (empty for direct steps). */
  tools: string[];
}

export interface ResolvedPlan {
  kind: PlanKind;
  /** The named plan it came from, or "custom". */
  name: string;
  steps: PlanStep[];
  /** Parallel only: the role that runs after the branches, with their outputs. */
  synthesis?: PlanStep;
  buildThread: boolean;
  resultStrategy: ResultStrategy;
  /** Per-call time-out and the whole deliberation's output tokens. */
  timeoutMs: number;
  maxTotalTokens: number;
  /** Budgets that were asked above their cap. */
  capped: string[];
}

/** A bad plan: `field` is the path the caller sent (e.g. plan.sequence[1].role). */
export class PlanError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`Invalid ${field}: ${message}`);
    this.name = 'PlanError';
  }
}

/** Validates a plan object and resolves it against the roles and budgets. */
export function resolvePlanObject(raw: unknown, roles: RoleBook, budgets: RequestBudgets, name = 'custom'): ResolvedPlan {
  const parsed = planObjectSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = mostSpecificIssue(parsed.error.issues[0]);
    throw new PlanError(pathOf(['plan', ...issue.path]), describeIssue(issue, raw));
  }
  const plan = parsed.data;
  const notes = new BudgetNotes();
  const lookup = (role: string, field: string): Role => {
    const found = roles.find(role);
    if (!found) throw new PlanError(field, `unknown role "${role}"; expected ${roles.describeValid()}`);
    return found;
  };
  const maxTokens = notes.resolve('maxTokens', 'maxTokens', plan.maxTokens, budgets.maxTokens);
  const tools = 'tools' in plan ? (plan.tools ?? []) : [];
  const taskResolution = (resolution: z.infer<typeof resolutionSchema> | undefined, field: string): TaskResolution => ({
    maxCycles: notes.resolve('maxCycles', `${field}.maxCycles`, resolution?.maxCycles, budgets.maxCycles),
    maxTokens: notes.resolve('taskMaxTokens', `${field}.maxTokens`, resolution?.maxTokens),
    maxToolCalls: notes.resolve('maxToolCalls', `${field}.maxToolCalls`, resolution?.maxToolCalls, budgets.maxToolCalls),
    timeoutMs: notes.resolve('taskTimeoutMs', `${field}.timeoutMs`, resolution?.timeoutMs),
  });
  const step = (raw: RawStep, field: string): PlanStep => {
    const object = typeof raw === 'string' ? { role: raw } : raw;
    // ThinkSuit's rule: a step given as a bare string (or without strategy) runs as a task.
    const strategy = object.strategy ?? 'task';
    const role = lookup(object.role, typeof raw === 'string' ? field : `${field}.role`);
    if (strategy === 'direct') {
      if ('resolution' in object && object.resolution !== undefined)
        throw new PlanError(`${field}.resolution`, 'only task steps have a resolution; send strategy "task" or drop resolution');
      return { role, strategy, maxTokens, tools: [] };
    }
    return {
      role,
      strategy,
      maxTokens,
      resolution: taskResolution('resolution' in object ? object.resolution : undefined, `${field}.resolution`),
      tools,
    };
  };

  let resolved: Omit<ResolvedPlan, 'timeoutMs' | 'maxTotalTokens' | 'capped'>;
  switch (plan.strategy) {
    case 'direct':
      resolved = {
        kind: 'direct',
        name,
        steps: [{ role: lookup(plan.role, 'plan.role'), strategy: 'direct', maxTokens, tools: [] }],
        buildThread: false,
        resultStrategy: 'last',
      };
      break;
    case 'sequential':
      resolved = {
        kind: 'sequential',
        name,
        steps: plan.sequence.map((raw, index) => step(raw, `plan.sequence[${index}]`)),
        buildThread: plan.buildThread ?? true,
        resultStrategy: plan.resultStrategy ?? 'last',
      };
      break;
    case 'parallel':
      resolved = {
        kind: 'parallel',
        name,
        steps: plan.roles.map((raw, index) => step(raw, `plan.roles[${index}]`)),
        synthesis:
          plan.synthesis === undefined
            ? undefined
            : { role: lookup(plan.synthesis, 'plan.synthesis'), strategy: 'direct', maxTokens, tools: [] },
        buildThread: false,
        resultStrategy: plan.resultStrategy ?? (plan.synthesis === undefined ? 'label' : 'last'),
      };
      if (new Set(plan.roles.map((raw) => (typeof raw === 'string' ? raw : raw.role))).size !== plan.roles.length) {
        // Parallel roles become branches named after the role: two branches of one name would merge.
        throw new PlanError('plan.roles', 'each role may appear once in a parallel plan (its branch is named after it)');
      }
      break;
    case 'task':
      resolved = {
        kind: 'task',
        name,
        steps: [
          {
            role: lookup(plan.role, 'plan.role'),
            strategy: 'task',
            maxTokens,
            resolution: taskResolution(plan.resolution, 'plan.resolution'),
            tools,
          },
        ],
        buildThread: false,
        resultStrategy: 'last',
      };
      break;
  }
  return {
    ...resolved,
    timeoutMs: notes.resolve('timeoutMs', 'budgets.timeoutMs', budgets.timeoutMs),
    maxTotalTokens: notes.resolve('maxTotalTokens', 'budgets.maxTotalTokens', budgets.maxTotalTokens),
    capped: notes.capped,
  };
}

/** Calls the plan makes at most: model calls (task steps count their cycles and convergence call) and tool calls. */
export function plannedCalls(plan: ResolvedPlan): number {
  const stepCalls = (step: PlanStep) =>
    step.resolution ? step.resolution.maxCycles + 1 + (step.tools.length > 0 ? step.resolution.maxToolCalls : 0) : 1;
  return plan.steps.reduce((sum, step) => sum + stepCalls(step), 0) + (plan.synthesis ? 1 : 0);
}

export function pathOf(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text === '' ? String(part) : `.${String(part)}`;
  return text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * For a union that failed in every branch, the branch error that got furthest into the value (e.g. the step object's
 * bad field rather than "not a string"), with its full path; any other issue as it is.
 */
export function mostSpecificIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    // An unknown field says more than a missing one (extra nesting reads as both).
    const first = branch.find((candidate) => candidate.code === 'unrecognized_keys') ?? branch[0];
    if (!first || (first.code === 'invalid_type' && first.path.length === 0)) continue;
    const candidate = mostSpecificIssue({ ...first, path: [...issue.path, ...first.path] } as z.core.$ZodIssue);
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  return best ?? issue;
}

/** One zod issue as "got X; expected Y", with the offending value shown (shortened). */
export function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    const nested = issue.keys.some((key) => ['sequence', 'roles', 'strategy', 'steps', 'plan'].includes(key));
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}${nested ? '; plans do not nest: a step is a role name or {role, strategy: "direct"|"task", resolution}' : ''}`;
  }
  const value = valueAt(root, issue.path);
  // Messages that already show the value (see count) are passed on as they are.
  if (issue.message.startsWith('got ')) return issue.message;
  return `got ${describeValue(value)}; ${issue.message}`;
}
