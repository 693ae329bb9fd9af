// Budgets of a deliberation: defaults and hard caps for every one, so a request for 10^9 cycles runs with the cap
// and the reply says so, while zero, negative or fractional budgets are refused as bad input.

export interface BudgetRule {
  default: number;
  cap: number;
  unit: string;
}

export const BUDGET_RULES = {
  /** Output tokens one model call may produce. */
  maxTokens: { default: 1024, cap: 8192, unit: 'tokens per call' },
  /** Wall time one model call may take before it is cut (and recorded as failed). */
  timeoutMs: { default: 60_000, cap: 600_000, unit: 'ms per call' },
  /** Output tokens the whole deliberation may produce, across every call. */
  maxTotalTokens: { default: 32_000, cap: 400_000, unit: 'tokens in all' },
  /** Cycles of one task step (its convergence synthesis is the one call allowed after). */
  maxCycles: { default: 4, cap: 12, unit: 'cycles per task' },
  /** Output tokens of one task step's cycles. */
  taskMaxTokens: { default: 8000, cap: 100_000, unit: 'tokens per task' },
  /** Tool calls of one task step. */
  maxToolCalls: { default: 8, cap: 50, unit: 'tool calls per task' },
  /** Wall time of one task step's cycles. */
  taskTimeoutMs: { default: 180_000, cap: 900_000, unit: 'ms per task' },
} as const satisfies Record<string, BudgetRule>;

export type BudgetName = keyof typeof BUDGET_RULES;

/** Collects the caps applied while a plan is resolved, for the reply. */
export class BudgetNotes {
  readonly capped: string[] = [];

  /** The first value given (plan, then request-wide budgets), else the default; capped with a note. */
  resolve(name: BudgetName, field: string, ...given: (number | undefined)[]): number {
    const rule = BUDGET_RULES[name];
    const value = given.find((candidate) => candidate !== undefined);
    if (value === undefined) return rule.default;
    if (value > rule.cap) {
      const note = `${field}: asked ${value}, capped at ${rule.cap} ${rule.unit}`;
      if (!this.capped.includes(note)) this.capped.push(note);
      return rule.cap;
    }
    return value;
  }
}

/** Request-wide budgets from the tool input; plan objects may set their own, which win. */
export interface RequestBudgets {
  maxTokens?: number;
  timeoutMs?: number;
  maxTotalTokens?: number;
  maxCycles?: number;
  maxToolCalls?: number;
}
