// Reading a session file to import: its size is checked before anything is read, so a file over the limit is refused
// with the limit named (rather than read into memory until V8 cannot make it one string).
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Largest session file an import reads: half as much again as the largest session a store holds (256 MiB of journal,
 * fileSessionStore.ts), so that a store's own export of a session at that limit imports back — the indented JSON and the
 * OTLP trace carry more around each thought than the journal (268 and 272 MB for a 256 MiB journal of 10,000 thoughts).
 * Still well under the longest string V8 makes (~512 MiB); what the import may store is bounded by the journal limit.
 */
export const MAX_SESSION_FILE_BYTES = 384 * 1024 * 1024;

export class SessionFileTooLargeError extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
  ) {
    super(
      `${path} is ${Math.ceil(size / (1024 * 1024))} MiB; a session file to import may be at most ${MAX_SESSION_FILE_BYTES / (1024 * 1024)} MiB. ` +
        'Nothing was read or imported.',
    );
    this.name = 'SessionFileTooLargeError';
  }
}

/** The file's text, or SessionFileTooLargeError when it is over MAX_SESSION_FILE_BYTES (checked on the open file). */
export function readSessionFileSync(path: string): string {
  const descriptor = openSync(path, 'r');
  try {
    const { size } = fstatSync(descriptor);
    if (size > MAX_SESSION_FILE_BYTES) throw new SessionFileTooLargeError(path, size);
    return readFileSync(descriptor, 'utf8');
  } finally {
    closeSync(descriptor);
  }
}

export async function readSessionFile(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_SESSION_FILE_BYTES) throw new SessionFileTooLargeError(path, size);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
