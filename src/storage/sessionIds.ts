// Session ids as file names: which ids the store accepts and how an id maps to its journal's file name.
//
// Decisions (documented here because every reader of the store depends on them):
// - The alphabet is the engine's name alphabet (letters, digits, "_", "-", ".", ":"; 1-64 characters), so any id an
//   agent may send can be stored. No path separators can pass, so no id can leave the store's directory.
// - Also refused: ".", "..", any leading dot (hidden files, and the store keeps its own files under leading dots),
//   and the Windows device names (CON, NUL, COM1, ...), which Windows refuses as file names even with an extension.
// - ":" is valid in ids but not in Windows file names, so it is written as "%3A" in the file name. "%" is not in the
//   id alphabet, so the mapping is one-to-one and reversible.
// - File systems that ignore case (Windows, macOS) map "abc" and "ABC" to one file. The store never lets one clobber
//   the other: journals are created exclusively and a journal whose recorded id differs from the requested one is not
//   returned as that session.
import { NAME_PATTERN } from '../engine/fieldRules';
import { InvalidSessionIdError } from '../engine/model';

export const JOURNAL_EXTENSION = '.jsonl';

const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Why `id` cannot be a stored session's id, or undefined when it can. */
export function sessionIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'a session id must be a string';
  if (id.length === 0 || id.length > 64) return 'a session id has 1 to 64 characters';
  if (/[/\\]/.test(id)) return 'a session id cannot contain path separators ("/" or "\\")';
  if (id === '.' || id === '..') return 'a session id cannot be "." or ".."';
  if (!NAME_PATTERN.test(id)) return 'a session id may only contain letters, digits, "_", "-", "." and ":"';
  if (id.startsWith('.')) return 'a session id cannot start with "."';
  if (WINDOWS_DEVICE_NAME.test(id.replace(/:/g, ''))) return `"${id.split('.')[0]}" is a reserved device name on Windows`;
  return undefined;
}

export function isValidSessionId(id: unknown): id is string {
  return sessionIdProblem(id) === undefined;
}

/** Throws InvalidSessionIdError (with a message naming the id and the rule) unless `id` is a valid session id. */
export function assertSessionId(id: unknown): asserts id is string {
  const problem = sessionIdProblem(id);
  if (problem !== undefined) {
    const shown = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 77)}...` : id) : String(id);
    throw new InvalidSessionIdError(`Invalid session id ${shown}: ${problem}.`);
  }
}

/** The journal's file name for a valid id. */
export function journalFileName(id: string): string {
  assertSessionId(id);
  return `${id.replace(/:/g, '%3A')}${JOURNAL_EXTENSION}`;
}

/** The session id a journal file name stands for, or undefined when the name is not one of ours. */
export function sessionIdFromFileName(fileName: string): string | undefined {
  if (!fileName.endsWith(JOURNAL_EXTENSION)) return undefined;
  const stem = fileName.slice(0, -JOURNAL_EXTENSION.length);
  if (/%(?!3A)/.test(stem)) return undefined;
  const id = stem.replace(/%3A/g, ':');
  return isValidSessionId(id) ? id : undefined;
}
