// The extension's settings (`thoughtExplorer.*`): reads them into one typed, validated object and says which parts of
// the extension a change touches. A bad value never breaks activation: it falls back to the default and is reported.
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_LIMITS, type EngineLimits } from '../engine/limits';
import { DEFAULT_STRATEGY, findStrategy } from '../engine/strategies/catalog';
import { DEFAULT_NODE_BUDGET, MIN_NODE_BUDGET } from '../diagrams/compression';

export const SETTINGS_SECTION = 'thoughtExplorer';

export interface ExtensionSettings {
  /** As configured; empty means the CLI's default location. */
  storagePath: string;
  limits: EngineLimits;
  mcpServerEnabled: boolean;
  defaultStrategy: string;
  followLiveSession: boolean;
  /** Most nodes a thought diagram draws before folding (`diagrams.nodeBudget`). */
  diagramNodeBudget: number;
}

/** The part of `vscode.WorkspaceConfiguration` this module needs, so it runs in plain Node tests. */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
}

export interface SettingsReading {
  settings: ExtensionSettings;
  /** One sentence per ignored value, for the log. */
  problems: string[];
}

const LIMIT_KEYS: readonly (keyof EngineLimits)[] = ['maxThoughtLength', 'maxThoughtsPerSession', 'maxSessionsInMemory'];

/** Reads `thoughtExplorer.*` from `source` (a configuration already scoped to the section). */
export function readSettings(source: SettingsSource): SettingsReading {
  const problems: string[] = [];

  const rawPath = source.get<unknown>('storagePath');
  let storagePath = '';
  if (typeof rawPath === 'string') storagePath = rawPath.trim();
  else if (rawPath !== undefined && rawPath !== null)
    problems.push(`thoughtExplorer.storagePath must be a string; using the default location.`);

  const limits: EngineLimits = { ...DEFAULT_LIMITS };
  for (const key of LIMIT_KEYS) {
    const value = source.get<unknown>(`limits.${key}`);
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) limits[key] = value;
    else
      problems.push(
        `thoughtExplorer.limits.${key} must be a whole number of at least 1 (got ${JSON.stringify(value)}); using ${DEFAULT_LIMITS[key]}.`,
      );
  }

  const enabled = source.get<unknown>('mcpServer.enabled');
  const mcpServerEnabled = typeof enabled === 'boolean' ? enabled : true;
  if (enabled !== undefined && typeof enabled !== 'boolean')
    problems.push('thoughtExplorer.mcpServer.enabled must be true or false; using true.');

  const strategy = source.get<unknown>('defaultStrategy');
  let defaultStrategy = DEFAULT_STRATEGY;
  if (typeof strategy === 'string' && strategy !== '') {
    if (findStrategy(strategy)) defaultStrategy = strategy;
    else problems.push(`thoughtExplorer.defaultStrategy "${strategy}" is not a known strategy; using ${DEFAULT_STRATEGY}.`);
  }

  const follow = source.get<unknown>('followLiveSession');
  const followLiveSession = typeof follow === 'boolean' ? follow : true;

  const budget = source.get<unknown>('diagrams.nodeBudget');
  let diagramNodeBudget = DEFAULT_NODE_BUDGET;
  if (typeof budget === 'number' && Number.isInteger(budget) && budget >= MIN_NODE_BUDGET) diagramNodeBudget = budget;
  else if (budget !== undefined && budget !== null)
    problems.push(
      `thoughtExplorer.diagrams.nodeBudget must be a whole number of at least ${MIN_NODE_BUDGET} (got ${JSON.stringify(budget)}); using ${DEFAULT_NODE_BUDGET}.`,
    );

  return { settings: { storagePath, limits, mcpServerEnabled, defaultStrategy, followLiveSession, diagramNodeBudget }, problems };
}

/**
 * The storage directory a configured path stands for. Empty → `fallback` (the CLI's default). A leading `~` is
 * expanded; a relative path is taken from the first workspace folder (or the home folder without one), so a
 * workspace can keep its sessions next to its code.
 */
export function resolveStoragePath(configured: string, fallback: string, home: string, workspaceFolder: string | undefined): string {
  if (configured === '') return fallback;
  let path = configured;
  if (path === '~') path = home;
  else if (path.startsWith('~/') || path.startsWith('~\\')) path = resolve(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(workspaceFolder ?? home, path);
}

/** Does the change from `before` to `after` require a new engine (and so a restarted MCP server)? */
export function engineSettingsChanged(before: ExtensionSettings, after: ExtensionSettings): boolean {
  return (
    before.storagePath !== after.storagePath ||
    before.defaultStrategy !== after.defaultStrategy ||
    LIMIT_KEYS.some((key) => before.limits[key] !== after.limits[key])
  );
}
