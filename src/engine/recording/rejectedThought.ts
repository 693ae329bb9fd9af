// A thought refused by a session rule (as opposed to malformed input or a disk failure): its message is the error
// the agent sees, so every one names the field, the value and what to send instead.
import { findStrategy, strategyNames } from '../strategies/catalog';
import type { StrategyDefinition } from '../strategies/types';

export class RejectedThought extends Error {}

export function requireStrategy(name: string): StrategyDefinition {
  const strategy = findStrategy(name);
  if (!strategy) throw new RejectedThought(unknownStrategyMessage(name));
  return strategy;
}

export function unknownStrategyMessage(name: string): string {
  return `Invalid strategy: got "${name}"; expected one of ${strategyNames().join(', ')}.`;
}
