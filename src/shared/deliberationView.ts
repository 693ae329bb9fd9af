// What the explorer shows of a deliberation, read from the facts the deliberate tool stores in each thought's `extra`
// (role, hat, phase, status, tokens, duration, model, tool): per-thought facts for the cards and a summary (plan,
// model, state, budgets used of allowed) for the header. Shared by the host and the webview; `extra` comes from a
// session file, so every field is checked and anything malformed is left out, never trusted.
import { DELIBERATION_CALL_STATUSES, type CallStatus } from '../engine/browserSafe/callStatuses';
import { cutEnd } from '../engine/browserSafe/textCut';
import type { ThoughtRecord } from '../engine/model';

/** How a role call ended; `running` is only ever set by a host that knows a call is in flight. */
export type DeliberationCallStatus = CallStatus | 'running';
export const HAT_COLOURS = ['white', 'red', 'black', 'yellow', 'green', 'blue'] as const;
export type HatColour = (typeof HAT_COLOURS)[number];

/** One deliberation thought as a card shows it. */
export interface DeliberationThoughtFacts {
  /** Role name (a hat, a custom role), or "framing" / "result". */
  role: string;
  hat?: HatColour;
  /** call, cycle, convergence, synthesis or tool_call. */
  phase?: string;
  status?: DeliberationCallStatus;
  tokens?: { input: number; output: number; estimated: boolean };
  durationMs?: number;
  model?: string;
  cycle?: number;
  /** For tool_call thoughts: the tool's name. */
  tool?: string;
  error?: string;
}

/** Used of allowed; `allowed` is absent when the plan sets no such budget. */
export interface BudgetUse {
  used: number;
  allowed?: number;
}

/** The latest deliberation of a session, for the explorer's header (SessionView.deliberation). */
export interface DeliberationSummary {
  /** Named plan or "custom", and its kind (direct, sequential, parallel, task). */
  plan: string;
  kind: string;
  /** The model that answered last (as it named itself), else where the model ran. */
  model?: string;
  gateway?: string;
  state: 'running' | 'complete' | 'partial' | 'cancelled';
  /** Model calls recorded, and how many failed or were cut. */
  calls: number;
  failed: number;
  cycles: BudgetUse;
  /** Output tokens against the deliberation's maxTotalTokens. */
  tokens: BudgetUse;
  toolCalls: BudgetUse;
  /** Roles with a call in flight: only a host that runs the deliberation knows (e.g. VS Code's chat participant). */
  running?: string[];
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
const text = (value: unknown, max = 200): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, cutEnd(value, max)) : undefined;

/** The deliberation facts of a thought, or undefined for a thought the deliberate tool did not write. */
export function deliberationFacts(thought: ThoughtRecord): DeliberationThoughtFacts | undefined {
  const extra = thought.extra;
  if (!isObject(extra)) return undefined;
  const role = text(extra.role, 64);
  if (role === undefined) return undefined;
  const facts: DeliberationThoughtFacts = { role };
  if ((HAT_COLOURS as readonly unknown[]).includes(extra.hat)) facts.hat = extra.hat as HatColour;
  const phase = text(extra.phase, 32);
  if (phase !== undefined) facts.phase = phase;
  if ((DELIBERATION_CALL_STATUSES as readonly unknown[]).includes(extra.status) || extra.status === 'running')
    facts.status = extra.status as DeliberationCallStatus;
  if (isObject(extra.tokens)) {
    const input = count(extra.tokens.input);
    const output = count(extra.tokens.output);
    if (input !== undefined && output !== undefined) facts.tokens = { input, output, estimated: extra.tokens.estimated === true };
  }
  const durationMs = count(extra.durationMs);
  if (durationMs !== undefined) facts.durationMs = durationMs;
  const model = text(extra.model, 120);
  if (model !== undefined) facts.model = model;
  const cycle = count(extra.cycle);
  if (cycle !== undefined) facts.cycle = cycle;
  const tool = isObject(extra.tool) ? text(extra.tool.name, 64) : undefined;
  if (tool !== undefined) facts.tool = tool;
  const error = text(extra.error, 300);
  if (error !== undefined) facts.error = error;
  return facts;
}

/** The summary of the session's latest deliberation (from its last framing thought on), or undefined if it has none. */
export function summarizeDeliberation(thoughts: readonly ThoughtRecord[]): DeliberationSummary | undefined {
  let start = -1;
  for (let index = thoughts.length - 1; index >= 0; index--) {
    if (isObject(thoughts[index].extra) && thoughts[index].extra?.role === 'framing') {
      start = index;
      break;
    }
  }
  if (start < 0) return undefined;
  const framing = thoughts[start].extra as Fields;
  const budgets = isObject(framing.budgets) ? framing.budgets : {};
  const summary: DeliberationSummary = {
    plan: text(framing.plan, 64) ?? 'custom',
    kind: text(framing.kind, 32) ?? 'unknown',
    state: 'running',
    calls: 0,
    failed: 0,
    cycles: { used: 0, ...optionalAllowed(budgets.maxCycles) },
    tokens: { used: 0, ...optionalAllowed(budgets.maxTotalTokens) },
    toolCalls: { used: 0, ...optionalAllowed(budgets.maxToolCalls) },
  };
  const gateway = text(framing.gateway);
  if (gateway !== undefined) summary.gateway = gateway;
  let last: ThoughtRecord | undefined;
  for (const thought of thoughts.slice(start + 1)) {
    const facts = deliberationFacts(thought);
    if (!facts) continue;
    last = thought;
    if (facts.phase === 'tool_call') {
      summary.toolCalls.used++;
      continue;
    }
    if (facts.role === 'result') continue;
    summary.calls++;
    if (facts.status !== undefined && facts.status !== 'ok') summary.failed++;
    if (facts.phase === 'cycle') summary.cycles.used++;
    if (facts.tokens) summary.tokens.used += facts.tokens.output;
    if (facts.model !== undefined) summary.model = facts.model;
  }
  if (last && !last.nextThoughtNeeded) {
    const status = deliberationFacts(last)?.status ?? text((last.extra as Fields).status);
    summary.state = status === 'cancelled' ? 'cancelled' : summary.failed > 0 || status === 'partial' ? 'partial' : 'complete';
  }
  return summary;
}

function optionalAllowed(value: unknown): { allowed?: number } {
  const allowed = count(value);
  return allowed === undefined ? {} : { allowed };
}
