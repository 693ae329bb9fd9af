// Writes a deliberation into a thinking session as it runs: the framing thought, one thought per role call (stage =
// the role; parallel roles as branches from the framing thought, branch id = role; task cycles as repeated stages;
// convergence in the synthesis stage) and the result as the final thought. Per-thought facts go in `extra`.
import type { ThinkingEngine } from '../engine/engine';
import { cutText } from '../engine/fieldRules';
import type { ThoughtInput } from '../engine/thoughtInput';
import { DELIBERATION_STRATEGY, FRAMING_STAGE, TOOL_CALL_STAGE } from '../engine/strategies/deliberation';
import { FINAL_RESPONSE } from '../engine/strategies/transitionTable';
import type { CallOutcome, CallStatus } from './runner';
import { shortened } from '../engine/browserSafe/textCut';

/** Where the deliberation's main line goes in the session. */
export interface Placement {
  sessionId: string;
  /** Number of the session's last thought (0 for a new session). */
  lastThoughtNumber: number;
  /** When attached at an earlier thought: the main line is a branch from it. */
  branchFrom?: number;
  /** The estimated thoughts this deliberation adds. */
  plannedThoughts: number;
}

export interface RecordedThought {
  thoughtNumber: number;
  outcome: CallOutcome;
}

export class RecordingError extends Error {}

/** Most characters of a model's tool-call input (as JSON) a thought keeps whole; a longer one is kept cut, as text. */
export const MAX_RECORDED_TOOL_INPUT = 4000;

function boundedInput(input: Record<string, unknown>): { input: Record<string, unknown> } | { inputJson: string } {
  const json = JSON.stringify(input) ?? '{}';
  return json.length <= MAX_RECORDED_TOOL_INPUT ? { input } : { inputJson: cutText(json, MAX_RECORDED_TOOL_INPUT) };
}

export class DeliberationRecorder {
  private nextNumber: number;
  private framingNumber: number | undefined;
  private readonly mainBranch: string | undefined;
  readonly recorded: RecordedThought[] = [];
  private finished = false;

  constructor(
    private readonly engine: ThinkingEngine,
    private readonly connectionId: string,
    private readonly placement: Placement,
  ) {
    this.nextNumber = placement.lastThoughtNumber + 1;
    this.mainBranch = placement.branchFrom === undefined ? undefined : `deliberation-${this.nextNumber}`;
  }

  get sessionId(): string {
    return this.placement.sessionId;
  }

  /** Whether the final thought has been written (the session's deliberation is closed). */
  get isFinished(): boolean {
    return this.finished;
  }

  framing(text: string, extra: Record<string, unknown>): number {
    this.framingNumber = this.write(
      { thought: text, stage: FRAMING_STAGE, strategy: DELIBERATION_STRATEGY, nextThoughtNeeded: true },
      extra,
      this.mainBranch,
    );
    return this.framingNumber;
  }

  /** One role call's outcome; the final one (resultStrategy "last") closes the deliberation. */
  outcome(outcome: CallOutcome): number {
    const stage = outcome.phase === 'convergence' ? 'synthesis' : outcome.phase === 'tool_call' ? TOOL_CALL_STAGE : outcome.role.stage;
    const extra: Record<string, unknown> = {
      role: outcome.role.name,
      ...(outcome.role.hat ? { hat: outcome.role.hat } : {}),
      phase: outcome.phase,
      status: outcome.status,
      durationMs: outcome.durationMs,
    };
    if (outcome.model !== undefined) extra.model = outcome.model;
    if (outcome.usage)
      extra.tokens = {
        input: outcome.usage.inputTokens,
        output: outcome.usage.outputTokens,
        estimated: outcome.usage.estimated,
        ...(outcome.usage.note !== undefined ? { note: outcome.usage.note } : {}),
      };
    if (outcome.cycle !== undefined) extra.cycle = outcome.cycle;
    if (outcome.error !== undefined) extra.error = outcome.error;
    if (outcome.cut !== undefined) extra.cut = outcome.cut;
    if (outcome.truncated) extra.truncated = true;
    if (outcome.tool) extra.tool = { name: outcome.tool.name, callId: outcome.tool.callId, ...boundedInput(outcome.tool.input) };
    if (outcome.toolCallsAsked) extra.toolCallsAsked = outcome.toolCallsAsked;
    const text = this.fit(outcome.status === 'ok' ? outcome.text : `[${outcome.status}] ${outcome.text}`, extra);
    const branch = outcome.branch ?? this.mainBranch;
    const from = outcome.branch !== undefined ? this.framingNumber : this.placement.branchFrom;
    const number = this.write({ thought: text, stage, nextThoughtNeeded: !outcome.final }, extra, branch, from);
    if (outcome.final) this.finished = true;
    this.recorded.push({ thoughtNumber: number, outcome });
    return number;
  }

  /** The combined result as the final thought, when no role's thought already is. */
  result(text: string, status: CallStatus | 'partial', extra: Record<string, unknown>): number {
    const full = { role: 'result', status, ...extra };
    const number = this.write({ thought: this.fit(text, full), stage: FINAL_RESPONSE, nextThoughtNeeded: false }, full, this.mainBranch);
    this.finished = true;
    return number;
  }

  /** Thoughts longer than the engine accepts are shortened, and the record says so. */
  private fit(text: string, extra: Record<string, unknown>): string {
    const max = this.engine.limits.maxThoughtLength;
    if (text.length <= max) return text;
    extra.shortenedFrom = text.length;
    return shortened(text, max);
  }

  private write(
    fields: Pick<ThoughtInput, 'thought' | 'stage' | 'nextThoughtNeeded'> & { strategy?: string },
    extra: Record<string, unknown>,
    branchId?: string,
    branchFrom: number | undefined = this.placement.branchFrom,
  ): number {
    const thoughtNumber = this.nextNumber;
    const input: ThoughtInput = {
      ...fields,
      sessionId: this.placement.sessionId,
      thoughtNumber,
      totalThoughts: Math.max(thoughtNumber, this.placement.lastThoughtNumber + this.placement.plannedThoughts),
    };
    if (branchId !== undefined && branchFrom !== undefined) {
      input.branchId = branchId;
      input.branchFromThought = branchFrom;
    }
    const outcome = this.engine.recordThought(this.connectionId, input, { extra });
    if (!outcome.ok) throw new RecordingError(outcome.error);
    this.nextNumber++;
    return thoughtNumber;
  }
}
