// The shapes of a deliberation plan: what `deliberate` takes as `strategy` and `@thinking /plan <kind>` names.
export const PLAN_KINDS = ['direct', 'sequential', 'parallel', 'task'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export function isPlanKind(value: unknown): value is PlanKind {
  return typeof value === 'string' && (PLAN_KINDS as readonly string[]).includes(value);
}
