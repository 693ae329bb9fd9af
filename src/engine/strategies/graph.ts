// Questions about a strategy's stage graph that replies and checks need: how far each stage is from final_response,
// and whether a table is well formed (every stage reachable, every stage able to finish, final_response terminal).
import { FINAL_RESPONSE } from './transitionTable';
import type { StrategyDefinition } from './types';

const distanceCache = new WeakMap<StrategyDefinition, ReadonlyMap<string, number>>();

/** Fewest transitions from each stage to final_response (breadth-first over the reversed edges). Cached per strategy. */
export function stagesToFinal(strategy: StrategyDefinition): ReadonlyMap<string, number> {
  const cached = distanceCache.get(strategy);
  if (cached) return cached;
  const incoming = new Map<string, string[]>();
  for (const [from, targets] of Object.entries(strategy.transitions)) {
    for (const target of targets) incoming.set(target, [...(incoming.get(target) ?? []), from]);
  }
  const distance = new Map<string, number>([[FINAL_RESPONSE, 0]]);
  const queue = [FINAL_RESPONSE];
  for (let index = 0; index < queue.length; index++) {
    const stage = queue[index];
    for (const from of incoming.get(stage) ?? []) {
      if (distance.has(from)) continue;
      distance.set(from, (distance.get(stage) ?? 0) + 1);
      queue.push(from);
    }
  }
  distanceCache.set(strategy, distance);
  return distance;
}

/** Among `choices`, the one closest to final_response (the first listed on a tie); undefined when there are none. */
export function closestToFinal(strategy: StrategyDefinition, choices: readonly string[]): string | undefined {
  const distance = stagesToFinal(strategy);
  let best: string | undefined;
  for (const choice of choices) {
    if (best === undefined || (distance.get(choice) ?? Infinity) < (distance.get(best) ?? Infinity)) best = choice;
  }
  return best;
}

/** Everything wrong with a strategy's table, as sentences; empty when it is sound. */
export function strategyProblems(strategy: StrategyDefinition): string[] {
  const problems: string[] = [];
  const names = strategy.stages.map((stage) => stage.name);
  const known = new Set(names);
  if (known.size !== names.length) problems.push('a stage name appears twice');
  if (names[names.length - 1] !== FINAL_RESPONSE) problems.push(`the last stage is not ${FINAL_RESPONSE}`);
  for (const name of names) if (!(name in strategy.transitions)) problems.push(`stage ${name} has no transition entry`);
  for (const [from, targets] of Object.entries(strategy.transitions)) {
    if (!known.has(from)) problems.push(`transition from unknown stage ${from}`);
    for (const target of targets) {
      if (!known.has(target)) problems.push(`transition ${from} -> unknown stage ${target}`);
      if (target === from) problems.push(`self-transition ${from} (staying is implicit)`);
    }
  }
  if ((strategy.transitions[FINAL_RESPONSE] ?? []).length > 0) problems.push(`${FINAL_RESPONSE} is not terminal`);
  const reachable = new Set<string>([names[0]]);
  const queue = [names[0]];
  for (let index = 0; index < queue.length; index++) {
    for (const target of strategy.transitions[queue[index]] ?? []) {
      if (!reachable.has(target)) {
        reachable.add(target);
        queue.push(target);
      }
    }
  }
  const distance = stagesToFinal(strategy);
  for (const name of names) {
    if (!reachable.has(name)) problems.push(`stage ${name} cannot be reached from ${names[0]}`);
    if (!distance.has(name)) problems.push(`stage ${name} cannot reach ${FINAL_RESPONSE}`);
  }
  if (!Number.isInteger(strategy.typicalLength) || strategy.typicalLength < 1)
    problems.push('typicalLength is not a positive whole number');
  return problems;
}
