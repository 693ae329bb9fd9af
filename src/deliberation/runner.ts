// Runs a resolved plan on a model gateway: one call per direct step, cycles then (when a budget runs out) one
// convergence call per task step, parallel steps really concurrent. Every call's outcome goes to the sink as soon as
// it is known, in the order calls finish, so a recorder can write it as a thought while the rest still runs.
// Budgets hold exactly: a call's maxTokens never exceeds what is left, a call is cut at its time-out, and a call
// that cannot start (budget spent, cancelled) is reported as such without reaching the model. Task steps may call
// tools: each call is an outcome of its own (phase tool_call), counted against maxToolCalls, and its result goes back
// to the model in the next cycle.
import { cutText, outsideErrorText } from '../engine/fieldRules';
import {
  checkedUsage,
  tokenCount,
  type ModelCompletion,
  type ModelGateway,
  type ModelMessage,
  type ModelTool,
  type ModelToolCall,
  type ModelUsage,
} from '../engine/modelGateway';
import type { ToolGateway } from '../engine/toolGateway';
import type { PlanStep, ResolvedPlan } from './plans';
import {
  asksToContinue,
  convergencePrompt,
  describeToolCall,
  roleMessages,
  stripStatus,
  taskCyclePrompt,
  toolResultForModel,
  toolsNotRun,
  type Perspective,
} from './prompts';
import type { Role } from './roles';
import { shortened } from '../engine/browserSafe/textCut';
import type { CallStatus } from '../engine/browserSafe/callStatuses';

export type { CallStatus };
export type CallPhase = 'call' | 'cycle' | 'convergence' | 'synthesis' | 'tool_call';

/** One role call's outcome (or a call that could not start), ready to be recorded. */
export interface CallOutcome {
  role: Role;
  phase: CallPhase;
  /** Index of the step in the plan; -1 for a parallel plan's synthesis. */
  stepIndex: number;
  /** 1-based, for task cycles. */
  cycle?: number;
  /** The parallel branch the call belongs to (the role's name). */
  branch?: string;
  status: CallStatus;
  /** The model's answer when ok; otherwise why there is none. */
  text: string;
  usage?: ModelUsage;
  model?: string;
  durationMs: number;
  error?: string;
  truncated?: boolean;
  /** For convergence calls and skipped steps: the budget that ran out. */
  cut?: string;
  /** This outcome is the plan's final result (resultStrategy "last" and the plan's last call succeeded). */
  final: boolean;
  /** For phase tool_call: the call the model asked for (text is the result's summary). */
  tool?: { name: string; callId: string; input: Record<string, unknown> };
  /** For a cycle: the tools the model asked for in it. */
  toolCallsAsked?: string[];
}

export interface OutcomeSink {
  /** Called once per outcome, synchronously; throwing stops the run (outstanding calls are aborted). */
  record(outcome: CallOutcome): void;
}

/** What a step produced: its final text (or none) and its status. */
export interface StepResult {
  role: Role;
  stepIndex: number;
  status: CallStatus;
  text: string;
  cycles: number;
  toolCalls: number;
  /** Budgets that cut this step (task steps). */
  cut?: string;
}

export interface RunResult {
  steps: StepResult[];
  synthesis?: StepResult;
  cancelled: boolean;
  calls: number;
  /** Tool calls made (task steps). */
  toolCalls: number;
  usage: { inputTokens: number; outputTokens: number; estimated: boolean };
  /** What budgets cut, in words. */
  cuts: string[];
}

export interface RunContext {
  problem: string;
  /** Text from the session the deliberation is attached to, if any. */
  sessionContext?: string;
  signal?: AbortSignal;
  now?: () => number;
  /** Tools task steps may call: the gateway and the tools offered (see toolSelection.ts). */
  tools?: { gateway: ToolGateway; offered: ReadonlyMap<string, ModelTool> };
  /** Called when a role call is about to reach the model (live progress: which roles are running). */
  onCallStarted?: (role: Role) => void;
}

/** How much of a tool's answer its tool_call thought keeps (what the model reads again is in prompts.ts). */
const TOOL_RESULT_IN_THOUGHT = 1500;
/**
 * Longest model answer a role keeps (for the next roles and the result), in characters: far above what the maxTokens
 * cap (8,192 tokens) produces, so only a runaway or hostile model is cut. A thought stores at most maxThoughtLength.
 */
export const MAX_MODEL_ANSWER_LENGTH = 64_000;

export class PlanRunner {
  private readonly now: () => number;
  private readonly controller = new AbortController();
  private outputTokensLeft: number;
  private calls = 0;
  private toolCalls = 0;
  private readonly usage = { inputTokens: 0, outputTokens: 0, estimated: false };
  private readonly cuts: string[] = [];
  private sinkError: unknown;

  constructor(
    private readonly plan: ResolvedPlan,
    private readonly gateway: ModelGateway,
    private readonly context: RunContext,
    private readonly sink: OutcomeSink,
  ) {
    this.now = context.now ?? Date.now;
    this.outputTokensLeft = plan.maxTotalTokens;
    const outer = context.signal;
    if (outer) {
      if (outer.aborted) this.controller.abort(outer.reason);
      else outer.addEventListener('abort', () => this.controller.abort(outer.reason), { once: true });
    }
  }

  private get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  async run(): Promise<RunResult> {
    const { plan } = this;
    const steps: StepResult[] = [];
    let synthesis: StepResult | undefined;
    if (plan.kind === 'parallel') {
      // Every branch starts now; each reports as it finishes.
      const results = await Promise.all(plan.steps.map((step, index) => this.runStep(step, index, [], false, step.role.name)));
      steps.push(...results);
      if (plan.synthesis) {
        const gathered = results.filter((result) => result.status === 'ok').map((result) => ({ role: result.role, text: result.text }));
        synthesis = await this.runStep(plan.synthesis, -1, gathered, plan.resultStrategy === 'last', undefined, 'synthesis');
      }
    } else {
      const thread: Perspective[] = [];
      for (const [index, step] of plan.steps.entries()) {
        const isLast = index === plan.steps.length - 1;
        const result = await this.runStep(step, index, plan.buildThread ? thread : [], isLast && plan.resultStrategy === 'last');
        steps.push(result);
        if (result.status === 'ok') thread.push({ role: result.role, text: result.text });
      }
    }
    if (this.sinkError !== undefined) throw this.sinkError;
    return {
      steps,
      synthesis,
      cancelled: this.cancelled,
      calls: this.calls,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      cuts: this.cuts,
    };
  }

  private async runStep(
    step: PlanStep,
    stepIndex: number,
    thread: readonly Perspective[],
    finalCandidate: boolean,
    branch?: string,
    phase: CallPhase = 'call',
  ): Promise<StepResult> {
    if (step.strategy === 'task' && step.resolution) return this.runTask(step, stepIndex, thread, finalCandidate, branch);
    const outcome = await this.call(step.role, this.messages(step.role, thread), step.maxTokens, this.plan.timeoutMs);
    this.emit({ ...outcome, phase, stepIndex, branch, final: finalCandidate && outcome.status === 'ok' });
    return {
      role: step.role,
      stepIndex,
      status: outcome.status,
      text: outcome.status === 'ok' ? outcome.text : '',
      cycles: 0,
      toolCalls: 0,
      cut: outcome.cut,
    };
  }

  /** Cycles until the model says it is done or a budget runs out; then one convergence call with what it gathered. */
  private async runTask(
    step: PlanStep,
    stepIndex: number,
    thread: readonly Perspective[],
    finalCandidate: boolean,
    branch?: string,
  ): Promise<StepResult> {
    const resolution = step.resolution!;
    const started = this.now();
    const gathered: string[] = [];
    const toolResults: string[] = [];
    const offered = this.toolsFor(step);
    let toolCalls = 0;
    let tokens = 0;
    let cycles = 0;
    let cut: string | undefined;
    for (;;) {
      if (this.cancelled) break;
      const elapsed = this.now() - started;
      if (cycles >= resolution.maxCycles) cut = `maxCycles (${cycles} of ${resolution.maxCycles} cycles)`;
      else if (tokens >= resolution.maxTokens) cut = `maxTokens (${tokens} of ${resolution.maxTokens} task tokens)`;
      else if (elapsed >= resolution.timeoutMs) cut = `timeoutMs (${elapsed} of ${resolution.timeoutMs} ms)`;
      if (cut !== undefined) break;
      const toolsLeft = resolution.maxToolCalls - toolCalls;
      // Once maxToolCalls is spent the model is no longer offered tools, so it cannot ask for more.
      const tools = toolsLeft > 0 ? offered : [];
      const budget = {
        cycles,
        maxCycles: resolution.maxCycles,
        tokensLeft: resolution.maxTokens - tokens,
        msLeft: resolution.timeoutMs - elapsed,
        ...(offered.length > 0 ? { toolCalls: { left: toolsLeft, max: resolution.maxToolCalls } } : {}),
      };
      const messages = this.messages(step.role, thread, taskCyclePrompt(budget, gathered), toolResults);
      const timeout = Math.min(this.plan.timeoutMs, resolution.timeoutMs - elapsed);
      const outcome = await this.call(step.role, messages, Math.min(step.maxTokens, resolution.maxTokens - tokens), timeout, tools);
      cycles++;
      tokens += outcome.usage?.outputTokens ?? 0;
      const taskTimedOut = outcome.status === 'failed' && outcome.timedOut === true && timeout < this.plan.timeoutMs;
      const asked = outcome.status === 'ok' ? (outcome.toolCalls ?? []) : [];
      const wantsMore = outcome.status === 'ok' && (asked.length > 0 || asksToContinue(outcome.text));
      const text =
        outcome.status === 'ok'
          ? outcome.text === ''
            ? `(asked for ${asked.map((call) => call.name).join(', ')})`
            : stripStatus(outcome.text)
          : outcome.text;
      const done = outcome.status === 'ok' && !wantsMore;
      const { toolCalls: _asked, ...recorded } = outcome;
      this.emit({
        ...recorded,
        text,
        phase: 'cycle',
        stepIndex,
        cycle: cycles,
        branch,
        final: finalCandidate && done,
        ...(asked.length > 0 ? { toolCallsAsked: asked.map((call) => call.name) } : {}),
      });
      if (done) return { role: step.role, stepIndex, status: 'ok', text, cycles, toolCalls };
      if (outcome.status === 'ok') {
        gathered.push(text);
        toolCalls += await this.runToolCalls(
          step,
          stepIndex,
          cycles,
          branch,
          asked,
          resolution.maxToolCalls - toolCalls,
          started + resolution.timeoutMs,
          toolResults,
        );
        continue;
      }
      if (taskTimedOut) {
        cut = `timeoutMs (${resolution.timeoutMs} ms for the task)`;
        break;
      }
      // A failed, cancelled or unaffordable cycle ends the task; its gathered work still converges below if any.
      if (outcome.status === 'budget-exhausted') cut = outcome.cut;
      if (outcome.status !== 'budget-exhausted' || gathered.length === 0) {
        return { role: step.role, stepIndex, status: outcome.status, text: '', cycles, toolCalls, cut };
      }
      break;
    }
    if (this.cancelled) return { role: step.role, stepIndex, status: 'cancelled', text: '', cycles, toolCalls };
    this.cuts.push(`${step.role.name}: ${cut}`);
    // ThinkSuit's convergence: one synthesis call with everything gathered, whatever budget ran out.
    const messages = this.messages(step.role, thread, convergencePrompt(cut ?? 'a budget', gathered), toolResults);
    const outcome = await this.call(step.role, messages, step.maxTokens, Math.min(this.plan.timeoutMs, resolution.timeoutMs));
    const text = outcome.status === 'ok' ? stripStatus(outcome.text) : outcome.text;
    this.emit({ ...outcome, text, phase: 'convergence', stepIndex, branch, cut, final: finalCandidate && outcome.status === 'ok' });
    return { role: step.role, stepIndex, status: outcome.status, text: outcome.status === 'ok' ? text : '', cycles, toolCalls, cut };
  }

  /** The tools offered to a task step: its plan's names that the selection kept, in the plan's order. */
  private toolsFor(step: PlanStep): ModelTool[] {
    const offered = this.context.tools?.offered;
    if (!offered) return [];
    return step.tools.flatMap((name) => offered.get(name) ?? []);
  }

  /**
   * Runs the tool calls a cycle asked for, one after another (a host may ask the user to approve each), at most
   * `allowed` of them; records each as a tool_call outcome and adds its result to `results` for the next cycle.
   * Returns how many ran.
   */
  private async runToolCalls(
    step: PlanStep,
    stepIndex: number,
    cycle: number,
    branch: string | undefined,
    asked: readonly ModelToolCall[],
    allowed: number,
    taskDeadline: number,
    results: string[],
  ): Promise<number> {
    const gateway = this.context.tools?.gateway;
    let ran = 0;
    for (const call of asked) {
      if (this.cancelled) break;
      if (ran >= allowed || !gateway) {
        const skipped = asked.length - ran;
        const cut = `maxToolCalls (${step.resolution!.maxToolCalls} tool calls for the task)`;
        this.cuts.push(`${step.role.name}: ${cut}; ${skipped} tool call${skipped === 1 ? '' : 's'} asked for in cycle ${cycle} not run`);
        results.push(
          toolsNotRun(
            cut,
            asked.slice(ran).map((other) => other.name),
          ),
        );
        break;
      }
      ran++;
      this.toolCalls++;
      const outcome = await this.invokeTool(gateway, call, Math.max(1, taskDeadline - this.now()));
      const summary = shortened(outcome.text, TOOL_RESULT_IN_THOUGHT);
      this.emit({
        role: step.role,
        phase: 'tool_call',
        stepIndex,
        cycle,
        branch,
        status: outcome.status,
        text: `${describeToolCall(call)} → ${outcome.status === 'ok' ? 'result' : outcome.status}:
${summary}`,
        durationMs: outcome.durationMs,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        tool: { name: call.name, callId: call.id, input: call.input },
        final: false,
      });
      results.push(toolResultForModel(call, outcome.status === 'ok', outcome.text));
    }
    return ran;
  }

  /** One tool call, cut at the task's deadline and on cancellation. Never throws. */
  private async invokeTool(
    gateway: ToolGateway,
    call: ModelToolCall,
    timeoutMs: number,
  ): Promise<{ status: CallStatus; text: string; durationMs: number; error?: string }> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(this.controller.signal.reason);
    this.controller.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const started = this.now();
    try {
      const outcome = await Promise.race([gateway.invoke(call, { signal: controller.signal }), rejectOnAbort(controller.signal)]);
      const durationMs = this.now() - started;
      return outcome.isError
        ? { status: 'failed', text: outcome.text, durationMs, error: shortened(outcome.text, 200) }
        : { status: 'ok', text: outcome.text, durationMs };
    } catch (error) {
      const durationMs = this.now() - started;
      if (this.cancelled && !timedOut) return { status: 'cancelled', text: 'cancelled while the tool ran', durationMs };
      const message = timedOut ? `timed out after ${timeoutMs} ms (the task's time-out)` : errorMessage(error);
      return { status: 'failed', text: message, durationMs, error: message };
    } finally {
      clearTimeout(timer);
      this.controller.signal.removeEventListener('abort', onAbort);
    }
  }

  private messages(
    role: Role,
    thread: readonly Perspective[],
    extra: readonly string[] = [],
    toolResults: readonly string[] = [],
  ): ModelMessage[] {
    return roleMessages(this.context, role, thread, extra, toolResults);
  }

  /** One model call within the budgets. Never throws: failures, time-outs and cancellation are outcomes. */
  private async call(
    role: Role,
    messages: ModelMessage[],
    maxTokens: number,
    timeoutMs: number,
    tools: readonly ModelTool[] = [],
  ): Promise<Omit<CallOutcome, 'phase' | 'stepIndex' | 'final'> & { timedOut?: boolean; toolCalls?: readonly ModelToolCall[] }> {
    const base = { role, durationMs: 0 };
    if (this.cancelled) return { ...base, status: 'cancelled', text: `${role.name}: cancelled before it started.` };
    // Reserve the tokens up front so concurrent calls can never spend more than the deliberation's budget together.
    const reserved = Math.min(maxTokens, this.outputTokensLeft);
    if (reserved <= 0) {
      const cut = `maxTotalTokens (${this.plan.maxTotalTokens} output tokens for the deliberation)`;
      if (!this.cuts.includes(cut)) this.cuts.push(cut);
      return { ...base, status: 'budget-exhausted', text: `${role.name}: not run, the ${cut} were spent.`, cut };
    }
    this.outputTokensLeft -= reserved;
    this.calls++;
    this.context.onCallStarted?.(role);
    const callController = new AbortController();
    const onAbort = () => callController.abort(this.controller.signal.reason);
    this.controller.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        callController.abort(new Error(`timed out after ${timeoutMs} ms`));
      },
      Math.max(1, timeoutMs),
    );
    const started = this.now();
    let completion: ModelCompletion | undefined;
    let failure: unknown;
    try {
      // Racing the abort too: a gateway that ignores its signal must still not hold the plan past its time-out.
      completion = await Promise.race([
        this.gateway.complete(messages, { maxTokens: reserved, signal: callController.signal, ...(tools.length > 0 ? { tools } : {}) }),
        rejectOnAbort(callController.signal),
      ]);
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
      this.controller.signal.removeEventListener('abort', onAbort);
    }
    const durationMs = this.now() - started;
    if (!completion) {
      this.outputTokensLeft += reserved;
      if (this.cancelled && !timedOut)
        return { ...base, durationMs, status: 'cancelled', text: `${role.name}: cancelled while the model was answering.` };
      const message = timedOut ? `timed out after ${timeoutMs} ms` : errorMessage(failure);
      return { ...base, durationMs, status: 'failed', text: `${role.name} failed: ${message}.`, error: message, timedOut };
    }
    // Whatever the gateway says: a string answer cut to its bound, counts that are counts (never credited back).
    const answer = typeof completion.text === 'string' ? completion.text.trim() : '';
    const cut = answer.length > MAX_MODEL_ANSWER_LENGTH;
    const text = cut ? cutText(answer, MAX_MODEL_ANSWER_LENGTH, 'the model answered more than a role keeps') : answer;
    const usage = soundUsage(completion.usage, messages, answer);
    this.outputTokensLeft += reserved - usage.outputTokens;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.estimated ||= usage.estimated;
    const model = typeof completion.model === 'string' ? completion.model.slice(0, 200) : undefined;
    const common = { ...base, durationMs, usage, model, truncated: completion.truncated === true || cut };
    // Only calls of tools that were offered count: a model naming anything else is not obeyed.
    const toolCalls = (completion.toolCalls ?? []).filter((call) => tools.some((tool) => tool.name === call.name));
    if (text === '' && toolCalls.length === 0)
      return { ...common, status: 'failed', text: `${role.name} failed: the model returned no text.`, error: 'empty answer' };
    return { ...common, status: 'ok', text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
  }

  private emit(outcome: CallOutcome): void {
    if (this.sinkError !== undefined) return;
    try {
      this.sink.record(outcome);
    } catch (error) {
      // The recording failed (disk): stop everything; run() rethrows once the outstanding calls have settled.
      this.sinkError = error;
      this.controller.abort(error);
    }
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Errors come from endpoints and clients: cut before they are stored or echoed. */
function errorMessage(error: unknown): string {
  return outsideErrorText(error);
}

/** The gateway's usage when its counts are counts; otherwise estimated, with the note saying so. */
function soundUsage(usage: ModelUsage | undefined, messages: readonly ModelMessage[], answer: string): ModelUsage {
  if (usage && tokenCount(usage.inputTokens) !== undefined && tokenCount(usage.outputTokens) !== undefined) return usage;
  return checkedUsage(usage ? { input: usage.inputTokens, output: usage.outputTokens } : undefined, messages, answer);
}
