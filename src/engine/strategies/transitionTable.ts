// Builds a strategy's transition table the way docs/strategies.md states it: every stage goes to the next one in the list
// unless an exception is listed, and the last stage (final_response) goes nowhere.
import type { StageDefinition } from './types';

export function transitionsFrom(
  stages: readonly StageDefinition[],
  exceptions: Readonly<Record<string, readonly string[]>> = {},
): Record<string, readonly string[]> {
  const names = new Set(stages.map((stage) => stage.name));
  for (const [from, targets] of Object.entries(exceptions)) {
    // A typo in a table must fail loudly at load time, not silently create a dead end.
    if (!names.has(from)) throw new Error(`transition from unknown stage "${from}"`);
    for (const target of targets) if (!names.has(target)) throw new Error(`transition ${from} -> unknown stage "${target}"`);
  }
  const table: Record<string, readonly string[]> = {};
  stages.forEach((stage, index) => {
    const next = stages[index + 1];
    table[stage.name] = exceptions[stage.name] ?? (next ? [next.name] : []);
  });
  return table;
}

/** The terminal stage every strategy ends in; reaching it completes the session. */
export const FINAL_RESPONSE = 'final_response';

export const finalResponseStage: StageDefinition = {
  name: FINAL_RESPONSE,
  purpose: 'give the answer',
  write: 'The final answer; set nextThoughtNeeded to false.',
};
