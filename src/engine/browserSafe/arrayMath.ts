// Largest, smallest and append over arrays of any length. `Math.max(...values)` and `target.push(...items)` pass every
// element as an argument on the stack: past ~125,000 elements (a session's thoughts, a diagram's nodes) they throw
// "Maximum call stack size exceeded". These loop instead; use them wherever the array's length comes from outside.

/** The largest value, or `whenEmpty` for none (also the floor: `largest([], 0)` and `largest([-1], 0)` are 0). */
export function largest(values: Iterable<number>, whenEmpty = -Infinity): number {
  let result = whenEmpty;
  for (const value of values) if (value > result) result = value;
  return result;
}

/** The smallest value, or `whenEmpty` for none (also the ceiling). */
export function smallest(values: Iterable<number>, whenEmpty = Infinity): number {
  let result = whenEmpty;
  for (const value of values) if (value < result) result = value;
  return result;
}

/** Appends every item to the target, in order (what `target.push(...items)` does, for any length). */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
