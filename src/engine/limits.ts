// Limits that keep a runaway agent from growing memory or disk without bound. All configurable.

export interface EngineLimits {
  /** Longest accepted thought, in characters. */
  maxThoughtLength: number;
  /** Most thoughts one session may hold. */
  maxThoughtsPerSession: number;
  /** Most sessions held in memory; the least recently used leave memory and stay on disk. */
  maxSessionsInMemory: number;
}

export const DEFAULT_LIMITS: Readonly<EngineLimits> = {
  maxThoughtLength: 20_000,
  maxThoughtsPerSession: 10_000,
  maxSessionsInMemory: 32,
};

export function resolveLimits(overrides: Partial<EngineLimits> = {}): EngineLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof EngineLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`Limit ${key} must be a whole number of at least 1, got ${value}`);
    limits[key] = value;
  }
  return limits;
}
