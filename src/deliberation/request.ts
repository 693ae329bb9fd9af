// The deliberate request: its strict zod shape (every caller's request is checked with it: the MCP tool's after its
// lenient parse, the chat participant's) and the checks that turn it into a runnable plan before anything is
// recorded. Every refusal names the field, the value and what to send.
import { z } from 'zod';
import type { ThinkingEngine } from '../engine/engine';
import type { SessionSnapshot } from '../engine/model';
import { NAME_PATTERN, noSuchSession } from '../engine/fieldRules';
import { DELIBERATION_STRATEGY } from '../engine/strategies/deliberation';
import type { RequestBudgets } from './budgets';
import { NAMED_PLANS, resolveNamedPlan } from './namedPlans';
import {
  PlanError,
  RESULT_STRATEGIES,
  count,
  mostSpecificIssue,
  describeIssue,
  describeValue,
  pathOf,
  plannedCalls,
  resolvePlanObject,
  type ResolvedPlan,
} from './plans';
import { MAX_ROLE_INSTRUCTIONS, ROLE_NAME_PATTERN, RoleBook, findHat, type CustomRoleInput } from './roles';
import { routeProblem, type RoutingDecision } from './routing';
import { shortened } from '../engine/browserSafe/textCut';

export const MAX_PROBLEM_LENGTH = 16_000;
const MAX_ROLES = 12;

const whole = count;

export const customRoleSchema = z.strictObject({
  name: z
    .string()
    .regex(ROLE_NAME_PATTERN, { error: 'expected a role name: a letter, then up to 31 letters, digits, "_" or "-"' })
    .describe('Name of the custom role (also its branch id in parallel plans).'),
  instructions: z
    .string()
    .min(1, { error: 'expected the instructions of the role' })
    .max(MAX_ROLE_INSTRUCTIONS, { error: `expected at most ${MAX_ROLE_INSTRUCTIONS} characters` })
    .describe('What the role does and does not do; becomes its system prompt.'),
});

export const budgetsSchema = z
  .strictObject({
    maxTokens: whole('output tokens').optional().describe('Most output tokens per model call (default 1024, capped at 8192).'),
    timeoutMs: whole('milliseconds')
      .optional()
      .describe(
        'Most wall time per model call in ms; a call still running is cut and recorded as failed (default 60000, capped at 600000).',
      ),
    maxTotalTokens: whole('output tokens')
      .optional()
      .describe('Most output tokens of the whole deliberation (default 32000, capped at 400000).'),
    maxCycles: whole('cycles').optional().describe('Most cycles per task step, unless the plan sets its own (default 4, capped at 12).'),
    maxToolCalls: whole('tool calls')
      .optional()
      .describe('Most tool calls per task step, unless the plan sets its own (default 8, capped at 50).'),
  })
  .describe('Budgets for the whole request; values above a cap run at the cap and the reply says so.');

/** The request's fields, each refusal in our words. */
const deliberateInputShape = {
  problem: z
    .string({ error: 'expected the problem to deliberate on, as text' })
    .refine((text) => text.trim() !== '', { error: 'expected a non-empty problem' })
    .refine((text) => text.length <= MAX_PROBLEM_LENGTH, {
      error: (issue) =>
        `got ${(issue.input as string).length} characters; expected at most ${MAX_PROBLEM_LENGTH}: state the problem and summarise its material`,
    })
    .describe(`The question or problem to deliberate on (at most ${MAX_PROBLEM_LENGTH} characters).`),
  plan: z
    .union([z.string(), z.record(z.string(), z.unknown())], {
      error: (issue) =>
        `got ${describeValue(issue.input)}; expected a plan name (${NAMED_PLANS.join(', ')}) or a plan object {strategy: "direct"|"sequential"|"parallel"|"task", ...}`,
    })
    .optional()
    .describe(
      `A named plan (${NAMED_PLANS.join(', ')}; default "auto": hats chosen by the problem's complexity) or a plan object: ` +
        '{strategy:"direct", role, maxTokens} | {strategy:"sequential", sequence:[step], buildThread, resultStrategy, tools, maxTokens} | ' +
        '{strategy:"parallel", roles:[step], synthesis, resultStrategy, tools, maxTokens} | {strategy:"task", role, resolution:{maxCycles, maxTokens, maxToolCalls, timeoutMs}, tools}. ' +
        'A step is a role name (runs as a task) or {role, strategy:"direct"|"task", resolution}. See thinking://deliberation.',
    ),
  roles: z
    .array(
      z.union([z.string(), customRoleSchema], {
        error: (issue) => `got ${describeValue(issue.input)}; expected a role name or a custom role {name, instructions}`,
      }),
    )
    .max(MAX_ROLES, { error: `expected at most ${MAX_ROLES} roles` })
    .optional()
    .describe(
      'Roles for the named plans direct, sequential, parallel and task (hats: factual, emotional, critical, optimistic, creative, synthesis), ' +
        'and custom roles {name, instructions} that plans may name.',
    ),
  resultStrategy: z
    .enum(RESULT_STRATEGIES)
    .optional()
    .describe('How role outputs combine into the result: last, concat, label or formatted (overrides the plan).'),
  budgets: budgetsSchema.optional(),
  sessionId: z
    .string()
    .regex(NAME_PATTERN, { error: 'expected the id of an existing session' })
    .optional()
    .describe('Record into this existing session instead of a new one.'),
  fromThought: whole('thoughts')
    .optional()
    .describe('Attach at this thought of the session (default: its last); an earlier thought makes the deliberation a branch from it.'),
};

export const deliberateInputSchema = z.strictObject(deliberateInputShape);
export type DeliberateInput = z.infer<typeof deliberateInputSchema>;

export class DeliberationInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message.startsWith('Invalid ') ? message : `Invalid ${field}: ${message}`);
    this.name = 'DeliberationInputError';
  }
}

/** Everything a deliberation needs, checked: running it can no longer be refused for bad input. */
export interface PreparedDeliberation {
  problem: string;
  plan: ResolvedPlan;
  routing?: RoutingDecision;
  /** An existing session to record into, or undefined for a new one. */
  session?: SessionSnapshot;
  /** The attach point when it is not the session's last thought. */
  branchFrom?: number;
  sessionContext?: string;
  /** Thoughts the deliberation may add at most: framing, calls, result. */
  plannedThoughts: number;
}

/** Parses raw arguments (the MCP SDK has already checked the shape; this also serves callers without it). */
export function parseDeliberateInput(raw: unknown): DeliberateInput {
  const parsed = deliberateInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = mostSpecificIssue(parsed.error.issues[0]);
    throw new DeliberationInputError(
      pathOf(issue.path) || 'arguments',
      `Invalid ${pathOf(issue.path) || 'arguments'}: ${describeIssue(issue, raw)}`,
    );
  }
  return parsed.data;
}

export function prepareDeliberation(engine: ThinkingEngine, connectionId: string, input: DeliberateInput): PreparedDeliberation {
  const custom: CustomRoleInput[] = [];
  const selected: string[] = [];
  for (const [index, entry] of (input.roles ?? []).entries()) {
    if (typeof entry === 'string') {
      selected.push(entry);
      continue;
    }
    if (findHat(entry.name))
      throw new DeliberationInputError(`roles[${index}].name`, `got "${entry.name}", the name of a hat; give the custom role its own name`);
    if (custom.some((other) => other.name === entry.name))
      throw new DeliberationInputError(`roles[${index}].name`, `got "${entry.name}" twice; each custom role needs its own name`);
    custom.push(entry);
    selected.push(entry.name);
  }
  const book = new RoleBook(custom);
  (input.roles ?? []).forEach((entry, index) => {
    if (typeof entry === 'string' && !book.find(entry))
      throw new DeliberationInputError(`roles[${index}]`, `unknown role "${entry}"; expected ${book.describeValid()}`);
  });

  const { session, branchFrom, sessionContext } = attachPoint(engine, connectionId, input);
  const budgets: RequestBudgets = input.budgets ?? {};
  let plan: ResolvedPlan;
  let routing: RoutingDecision | undefined;
  try {
    if (input.plan === undefined || typeof input.plan === 'string') {
      const name = input.plan ?? 'auto';
      const signals = session ? { branches: session.meta.branchIds.length, revisions: session.meta.revisionCount } : undefined;
      if (name === 'auto') routing = routeProblem(input.problem, signals);
      plan = resolveNamedPlan(name, {
        roles: selected,
        customRoles: custom.map((role) => role.name),
        book,
        budgets,
        routing,
        resultStrategy: input.resultStrategy,
      });
    } else {
      const strings = (input.roles ?? []).findIndex((entry) => typeof entry === 'string');
      if (strings >= 0) {
        throw new DeliberationInputError(
          `roles[${strings}]`,
          'with a plan object, roles only defines custom roles {name, instructions}; name the roles inside the plan',
        );
      }
      plan = resolvePlanObject(input.plan, book, budgets);
      if (input.resultStrategy !== undefined) plan.resultStrategy = input.resultStrategy;
    }
  } catch (error) {
    if (error instanceof PlanError) throw new DeliberationInputError(error.field, error.message);
    throw error;
  }

  const plannedThoughts = plannedCalls(plan) + 2;
  if (session && session.meta.thoughtCount + plannedThoughts > engine.limits.maxThoughtsPerSession) {
    throw new DeliberationInputError(
      'sessionId',
      `session "${session.meta.id}" holds ${session.meta.thoughtCount} thoughts and this plan may add ${plannedThoughts}, more than the ${engine.limits.maxThoughtsPerSession} a session may hold; omit sessionId to start a new session`,
    );
  }
  return { problem: input.problem, plan, routing, session, branchFrom, sessionContext, plannedThoughts };
}

function attachPoint(
  engine: ThinkingEngine,
  connectionId: string,
  input: DeliberateInput,
): { session?: SessionSnapshot; branchFrom?: number; sessionContext?: string } {
  const field = input.sessionId !== undefined ? 'sessionId' : 'fromThought';
  const sessionId = input.sessionId ?? (input.fromThought !== undefined ? engine.currentSessionId(connectionId) : undefined);
  if (sessionId === undefined) {
    if (input.fromThought !== undefined)
      throw new DeliberationInputError(
        'fromThought',
        `got ${input.fromThought}, but this connection has no current session; send sessionId too`,
      );
    return {};
  }
  const session = engine.getSession(sessionId);
  if (!session)
    throw new DeliberationInputError(
      field,
      `${noSuchSession(sessionId)}; omit sessionId to start a new session, or use thinking_sessions list to find one`,
    );
  if (session.meta.status === 'complete' && session.meta.strategy !== DELIBERATION_STRATEGY) {
    throw new DeliberationInputError(
      field,
      `session "${sessionId}" is complete (strategy ${session.meta.strategy}); a deliberation can join a session that is still live. Omit sessionId to deliberate in a new session`,
    );
  }
  const last = session.meta.lastThoughtNumber;
  let branchFrom: number | undefined;
  let upTo = session.thoughts.length;
  if (input.fromThought !== undefined) {
    let index = session.thoughts.length - 1;
    while (index >= 0 && session.thoughts[index].thoughtNumber !== input.fromThought) index--;
    if (index < 0) {
      throw new DeliberationInputError(
        'fromThought',
        `got ${input.fromThought}; session "${sessionId}" has thoughts 1 to ${last}. Send one of them, or omit fromThought to attach at the last`,
      );
    }
    if (input.fromThought !== last) branchFrom = input.fromThought;
    upTo = index + 1;
  }
  // The last few thoughts up to the attach point give the roles the session's context.
  const context = session.thoughts
    .slice(Math.max(0, upTo - 5), upTo)
    .map((thought) => `#${thought.thoughtNumber}${thought.stage ? ` (${thought.stage})` : ''}: ${shortened(thought.thought, 1201)}`)
    .join('\n');
  return { session, branchFrom, sessionContext: context || undefined };
}

export { describeValue };
