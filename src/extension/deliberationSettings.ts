// The deliberation settings (`thoughtExplorer.deliberation.*`): which VS Code model runs the roles, the plan a plain
// `@thinking <question>` uses, and default budgets. Plain Node (no `vscode`), so it is unit-tested; a bad value falls
// back to the default and is reported, never breaks a request.
import type { RequestBudgets } from '../deliberation/budgets';
import { NAMED_PLANS, type NamedPlan } from '../deliberation/namedPlans';
import type { SettingsSource } from './settings';

/**
 * default: the model picked in the chat view (or VS Code's first model); ask: a quick pick once per window;
 * selector: `vendor`, `vendor/family` or `vendor/family/id` (an empty part or `*` matches anything).
 */
export type ModelSetting =
  { kind: 'default' } | { kind: 'ask' } | { kind: 'selector'; text: string; vendor?: string; family?: string; id?: string };

export interface DeliberationSettings {
  model: ModelSetting;
  defaultPlan: NamedPlan;
  budgets: RequestBudgets;
}

export interface DeliberationSettingsReading {
  settings: DeliberationSettings;
  problems: string[];
}

export const BUDGET_KEYS = ['maxTokens', 'maxTotalTokens', 'timeoutMs', 'maxCycles', 'maxToolCalls'] as const;

export function parseModelSetting(raw: string): ModelSetting {
  const text = raw.trim();
  if (text === '') return { kind: 'default' };
  if (text.toLowerCase() === 'ask') return { kind: 'ask' };
  const [vendor, family, ...rest] = text.split('/').map((part) => part.trim());
  const id = rest.length > 0 ? rest.join('/') : undefined;
  const part = (value: string | undefined) => (value === undefined || value === '' || value === '*' ? undefined : value);
  return { kind: 'selector', text, vendor: part(vendor), family: part(family), id: part(id) };
}

/** Reads `thoughtExplorer.deliberation.*` from a configuration scoped to `thoughtExplorer`. */
export function readDeliberationSettings(source: SettingsSource): DeliberationSettingsReading {
  const problems: string[] = [];
  const rawModel = source.get<unknown>('deliberation.model');
  let model: ModelSetting = { kind: 'default' };
  if (typeof rawModel === 'string') model = parseModelSetting(rawModel);
  else if (rawModel !== undefined && rawModel !== null)
    problems.push('thoughtExplorer.deliberation.model must be text ("", "ask" or vendor/family/id); using the chat view\'s model.');

  const rawPlan = source.get<unknown>('deliberation.defaultPlan');
  let defaultPlan: NamedPlan = 'auto';
  if (typeof rawPlan === 'string' && rawPlan !== '') {
    if ((NAMED_PLANS as readonly string[]).includes(rawPlan)) defaultPlan = rawPlan as NamedPlan;
    else problems.push(`thoughtExplorer.deliberation.defaultPlan "${rawPlan}" is not a plan (${NAMED_PLANS.join(', ')}); using auto.`);
  }

  const budgets: RequestBudgets = {};
  for (const key of BUDGET_KEYS) {
    const value = source.get<unknown>(`deliberation.${key}`);
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) budgets[key] = value;
    else
      problems.push(
        `thoughtExplorer.deliberation.${key} must be a whole number of at least 1 (got ${JSON.stringify(value)}); using the deliberation default.`,
      );
  }
  return { settings: { model, defaultPlan, budgets }, problems };
}
