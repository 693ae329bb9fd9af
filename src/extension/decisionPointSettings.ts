// The "ask at decision points" settings (`thoughtExplorer.steering.askAtDecisionPoints` and
// `thoughtExplorer.steering.decisionTimeoutSeconds`) as the in-host MCP server's DecisionPointOptions: read on every
// decision point, so a changed setting applies to connections already open. Plain Node (no `vscode`), unit-tested.
// Types only from src/mcp: activation must not load the MCP SDK (it loads with the server, on first use).
import { DEFAULT_DECISION_TIMEOUT_MS } from '../engine/decisionPoints';
import type { DecisionPointOptions } from '../mcp/decisionPoints';
import type { SettingsSource } from './settings';

/** The longest wait the setting accepts: ten minutes (a person answers in seconds, or not at all). */
export const MAX_DECISION_TIMEOUT_SECONDS = 600;

export function askAtDecisionPoints(source: SettingsSource): boolean {
  return source.get<unknown>('steering.askAtDecisionPoints') === true;
}

export function decisionTimeoutMs(source: SettingsSource): number {
  const seconds = source.get<unknown>('steering.decisionTimeoutSeconds');
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_DECISION_TIMEOUT_SECONDS)
    return DEFAULT_DECISION_TIMEOUT_MS;
  return seconds * 1000;
}

/** `configuration()` returns the configuration scoped to `thoughtExplorer` (VS Code's, or a test's). */
export function decisionPointOptions(configuration: () => SettingsSource): DecisionPointOptions {
  return {
    askAtDecisionPoints: () => askAtDecisionPoints(configuration()),
    timeoutMs: () => decisionTimeoutMs(configuration()),
  };
}
