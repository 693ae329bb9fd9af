// Runs a prepared deliberation: records the framing thought, runs the plan on the gateway while the recorder writes
// each role's thought as it finishes, then writes the combined result as the final thought and builds the reply.
// Transport-free: the MCP tool and (later) the VS Code chat participant both call runDeliberation.
import { randomBytes } from 'node:crypto';
import type { ThinkingEngine } from '../engine/engine';
import { cutText } from '../engine/fieldRules';
import type { ModelGateway } from '../engine/modelGateway';
import type { ToolGateway } from '../engine/toolGateway';
import { DeliberationRecorder, RecordingError } from './recorder';
import type { PreparedDeliberation } from './request';
import { combineResults, type RoleOutput } from './resultStrategy';
import { PlanRunner, type CallOutcome, type CallStatus, type RunResult } from './runner';
import { describeSelection, selectTools } from './toolSelection';
import { shortened, shortenedLine } from '../engine/browserSafe/textCut';

export interface DeliberationDeps {
  engine: ThinkingEngine;
  connectionId: string;
  gateway: ModelGateway;
  /** Tools task steps may call; none: task steps run without tools and the reply says so. */
  toolGateway?: ToolGateway;
  signal?: AbortSignal;
  /** Called after each role call is recorded (progress notifications). */
  onCallRecorded?: (event: { done: number; outcome: CallOutcome; thoughtNumber: number }) => void;
  /** Called when a role call starts (live progress in the chat participant and the explorer). */
  onCallStarted?: (event: { sessionId: string; role: string; title: string }) => void;
  /** Where a recorded thought can be read whole, for the reply's cut texts (e.g. its MCP resource). */
  whereIs?: (sessionId: string, thoughtNumber: number) => string;
  now?: () => number;
}

export interface RoleSummary {
  role: string;
  phase: string;
  status: CallStatus;
  thoughtNumber: number;
  branch?: string;
  cycle?: number;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  estimatedTokens: boolean;
  /** Why the counts are estimates although the model reported some. */
  tokensNote?: string;
  durationMs: number;
  summary: string;
  error?: string;
  /** For tool_call thoughts: the tool called. */
  tool?: string;
}

export interface DeliberationReply {
  sessionId: string;
  status: 'complete' | 'partial' | 'cancelled';
  result: string;
  plan: { name: string; kind: string; resultStrategy: string; roles: string[]; synthesis?: string };
  routing?: {
    score: number;
    band: string;
    sequence: string[];
    reason: string;
    estimatedSavingPercent: number;
    factors: Record<string, number>;
  };
  roles: RoleSummary[];
  failed: string[];
  usage: { calls: number; inputTokens: number; outputTokens: number; estimated: boolean; durationMs: number };
  budgets: { capped: string[]; cut: string[] };
  /** When the plan names tools: what was asked, offered and called, and why any were not. */
  tools?: { requested: string[]; offered: string[]; unknown: string[]; calls: number; notes: string[] };
  gateway: string;
  thoughts: { first: number; last: number };
}

const SUMMARY_LENGTH = 240;
/**
 * Most characters of one role's answer the reply's result carries: the reply stays small whatever the models answer
 * (an MCP stdio client drops a line over 10 MiB); the whole answer is in the session, where the marker says.
 */
export const MAX_REPLY_TEXT_PER_ROLE = 4000;

export async function runDeliberation(prepared: PreparedDeliberation, deps: DeliberationDeps): Promise<DeliberationReply> {
  const now = deps.now ?? Date.now;
  const started = now();
  const { plan } = prepared;
  const recorder = new DeliberationRecorder(deps.engine, deps.connectionId, {
    sessionId: prepared.session?.meta.id ?? newDeliberationSessionId(now()),
    lastThoughtNumber: prepared.session?.meta.lastThoughtNumber ?? 0,
    branchFrom: prepared.branchFrom,
    plannedThoughts: prepared.plannedThoughts,
  });
  const roleNames = plan.steps.map((step) => step.role.name);
  const planLine = `${plan.name === 'custom' ? '' : `"${plan.name}": `}${plan.kind} ${plan.kind === 'parallel' ? `[${roleNames.join(' | ')}]` : roleNames.join(' → ')}${plan.synthesis ? ` → ${plan.synthesis.role.name}` : ''}`;
  const framingText = [`Deliberation (${planLine}) on: ${prepared.problem}`, prepared.routing ? `Routing: ${prepared.routing.reason}.` : '']
    .filter((line) => line !== '')
    .join('\n\n');
  const tools = selectTools(plan, deps.gateway, deps.toolGateway);
  const toolNotes = describeSelection(tools, deps.toolGateway);
  const first = recorder.framing(shortened(framingText, deps.engine.limits.maxThoughtLength), {
    role: 'framing',
    plan: plan.name,
    kind: plan.kind,
    resultStrategy: plan.resultStrategy,
    gateway: deps.gateway.description,
    ...(prepared.routing
      ? { routing: { score: prepared.routing.score, band: prepared.routing.band, sequence: prepared.routing.sequence } }
      : {}),
    budgets: { timeoutMs: plan.timeoutMs, maxTotalTokens: plan.maxTotalTokens, capped: plan.capped, ...taskBudgets(prepared) },
    ...(tools.requested.length > 0 ? { tools: { requested: tools.requested, offered: [...tools.offered.keys()], notes: toolNotes } } : {}),
  });

  let done = 0;
  const runner = new PlanRunner(
    plan,
    deps.gateway,
    {
      problem: prepared.problem,
      sessionContext: prepared.sessionContext,
      signal: deps.signal,
      now,
      ...(deps.toolGateway && tools.offered.size > 0 ? { tools: { gateway: deps.toolGateway, offered: tools.offered } } : {}),
      onCallStarted: (role) => deps.onCallStarted?.({ sessionId: recorder.sessionId, role: role.name, title: role.title }),
    },
    {
      record: (outcome) => {
        const thoughtNumber = recorder.outcome(outcome);
        done++;
        deps.onCallRecorded?.({ done, outcome, thoughtNumber });
      },
    },
  );
  let run: RunResult;
  try {
    run = await runner.run();
  } catch (error) {
    if (error instanceof RecordingError) {
      throw new RecordingError(
        `${error.message} The deliberation stopped after ${recorder.recorded.length} role thoughts in session "${recorder.sessionId}".`,
      );
    }
    throw error;
  }

  // A sequential step never reached (cancelled before it started) was already reported by the runner as cancelled.
  const stepResults = [...run.steps, ...(run.synthesis ? [run.synthesis] : [])];
  const outputs: RoleOutput[] = stepResults.map((step) => ({
    role: step.role.name,
    title: step.role.title,
    text: step.text,
    status: step.status,
  }));
  const failed = recorder.recorded.filter((entry) => entry.outcome.status === 'failed').map((entry) => entry.outcome.role.name);
  // The final thought keeps the whole result (up to maxThoughtLength); the reply carries each role's answer cut.
  const fullResult = combineResults(plan.resultStrategy, outputs);
  const whereIs = deps.whereIs ?? ((sessionId: string, thoughtNumber: number) => `thought ${thoughtNumber} of session ${sessionId}`);
  const result = combineResults(
    plan.resultStrategy,
    outputs.map((output, index) => {
      if (output.text.length <= MAX_REPLY_TEXT_PER_ROLE) return output;
      const step = stepResults[index];
      const thought = [...recorder.recorded]
        .reverse()
        .find((entry) => entry.outcome.stepIndex === step.stepIndex && entry.outcome.role.name === step.role.name);
      const rest = thought ? `the whole answer is ${whereIs(recorder.sessionId, thought.thoughtNumber)}` : undefined;
      return { ...output, text: cutText(output.text, MAX_REPLY_TEXT_PER_ROLE, rest) };
    }),
  );
  const anyProblem = outputs.some((output) => output.status !== 'ok');
  const status: DeliberationReply['status'] = run.cancelled ? 'cancelled' : anyProblem ? 'partial' : 'complete';

  if (!recorder.isFinished) {
    const text = run.cancelled
      ? `Deliberation cancelled. ${describeOutcomes(outputs)}${fullResult ? `\n\nResult so far:\n${fullResult}` : ''}`
      : fullResult !== ''
        ? fullResult
        : `No role produced an answer. ${describeOutcomes(outputs)}`;
    recorder.result(text, run.cancelled ? 'cancelled' : status === 'complete' ? 'ok' : 'partial', { resultStrategy: plan.resultStrategy });
  }
  const snapshot = deps.engine.getSession(recorder.sessionId);
  const last = snapshot?.meta.lastThoughtNumber ?? first;

  return {
    sessionId: recorder.sessionId,
    status,
    result,
    plan: {
      name: plan.name,
      kind: plan.kind,
      resultStrategy: plan.resultStrategy,
      roles: roleNames,
      ...(plan.synthesis ? { synthesis: plan.synthesis.role.name } : {}),
    },
    ...(prepared.routing
      ? {
          routing: {
            score: prepared.routing.score,
            band: prepared.routing.band,
            sequence: prepared.routing.sequence,
            reason: prepared.routing.reason,
            estimatedSavingPercent: prepared.routing.estimatedSavingPercent,
            factors: { ...prepared.routing.factors },
          },
        }
      : {}),
    roles: recorder.recorded.map(({ thoughtNumber, outcome }) => ({
      role: outcome.role.name,
      phase: outcome.phase,
      status: outcome.status,
      thoughtNumber,
      ...(outcome.branch !== undefined ? { branch: outcome.branch } : {}),
      ...(outcome.cycle !== undefined ? { cycle: outcome.cycle } : {}),
      ...(outcome.model !== undefined ? { model: outcome.model } : {}),
      inputTokens: outcome.usage?.inputTokens ?? 0,
      outputTokens: outcome.usage?.outputTokens ?? 0,
      estimatedTokens: outcome.usage?.estimated ?? false,
      ...(outcome.usage?.note !== undefined ? { tokensNote: outcome.usage.note } : {}),
      durationMs: outcome.durationMs,
      summary: shortenedLine(outcome.text, SUMMARY_LENGTH),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(outcome.tool ? { tool: outcome.tool.name } : {}),
    })),
    failed: [...new Set(failed)],
    usage: { calls: run.calls, ...run.usage, durationMs: now() - started },
    budgets: { capped: plan.capped, cut: run.cuts },
    ...(tools.requested.length > 0
      ? {
          tools: {
            requested: tools.requested,
            offered: [...tools.offered.keys()],
            unknown: tools.unknown,
            calls: run.toolCalls,
            notes: toolNotes,
          },
        }
      : {}),
    gateway: deps.gateway.description,
    thoughts: { first, last },
  };
}

/** Readable text of a reply, for the tool result's text block. */
export function replyText(reply: DeliberationReply): string {
  const lines = [
    `Deliberation ${reply.status} in session ${reply.sessionId} (thoughts ${reply.thoughts.first}-${reply.thoughts.last}); plan ${reply.plan.name} (${reply.plan.kind}), result: ${reply.plan.resultStrategy}.`,
  ];
  if (reply.routing) lines.push(`Routing: ${reply.routing.reason}.`);
  for (const role of reply.roles) {
    const where = [
      role.branch ? `branch ${role.branch}` : '',
      role.cycle !== undefined ? `cycle ${role.cycle}` : '',
      role.phase === 'convergence' ? 'convergence' : '',
      role.tool ? `tool ${role.tool}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(
      `- #${role.thoughtNumber} ${role.role}${where ? ` (${where})` : ''}: ${role.status}, ${role.outputTokens}${role.estimatedTokens ? '~' : ''} tokens${role.tokensNote ? ` (${role.tokensNote})` : ''}, ${role.durationMs} ms${role.error ? ` (${role.error})` : ''}`,
    );
  }
  if (reply.failed.length > 0) lines.push(`Failed: ${reply.failed.join(', ')}.`);
  if (reply.budgets.capped.length > 0) lines.push(`Capped: ${reply.budgets.capped.join('; ')}.`);
  if (reply.budgets.cut.length > 0) lines.push(`Cut by budgets: ${reply.budgets.cut.join('; ')}.`);
  if (reply.tools) {
    lines.push(
      `Tools: offered ${reply.tools.offered.length > 0 ? reply.tools.offered.join(', ') : 'none'}; ${reply.tools.calls} tool call${reply.tools.calls === 1 ? '' : 's'} made.`,
    );
    for (const note of reply.tools.notes) lines.push(`Tools: ${note}.`);
  }
  lines.push(
    `Usage: ${reply.usage.calls} calls, ${reply.usage.inputTokens} input + ${reply.usage.outputTokens} output tokens${reply.usage.estimated ? ' (partly estimated)' : ''}, ${reply.usage.durationMs} ms, via ${reply.gateway}.`,
  );
  lines.push('', 'Result:', reply.result === '' ? '(none)' : reply.result);
  return lines.join('\n');
}

/** The task budgets of the plan's task steps (the explorer's budget line shows used of allowed). */
function taskBudgets(prepared: PreparedDeliberation): { maxCycles?: number; maxToolCalls?: number } {
  const tasks = prepared.plan.steps.flatMap((step) => (step.resolution ? [step.resolution] : []));
  if (tasks.length === 0) return {};
  return {
    maxCycles: tasks.reduce((sum, task) => sum + task.maxCycles, 0),
    ...(prepared.plan.steps.some((step) => step.tools.length > 0)
      ? { maxToolCalls: tasks.reduce((sum, task) => sum + task.maxToolCalls, 0) }
      : {}),
  };
}

function describeOutcomes(outputs: readonly RoleOutput[]): string {
  return outputs.map((output) => `${output.role}: ${output.status}`).join(', ') + '.';
}

function newDeliberationSessionId(now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `delib-${stamp}-${randomBytes(4).toString('hex')}`;
}
