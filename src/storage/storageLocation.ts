// Where sessions live on disk by default. One place, so the stdio CLI and the extension share the same store unless
// told otherwise (the CLI's --storage-path/-s and the extension's setting override it).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Environment variable that moves the default store, for every process that uses the default. */
export const STORAGE_ENV_VARIABLE = 'THOUGHT_EXPLORER_STORAGE';

/** `$THOUGHT_EXPLORER_STORAGE` when set (and not blank), else `~/.thought-explorer/sessions`. Always absolute. */
export function defaultStoragePath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[STORAGE_ENV_VARIABLE];
  if (override !== undefined && override.trim() !== '') return resolve(expandHome(override.trim()));
  return join(homedir(), '.thought-explorer', 'sessions');
}

/** A leading `~` is expanded because shells do not expand it inside quotes or in JSON client configurations. */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2));
  return path;
}
