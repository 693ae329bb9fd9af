// Where dist/cli.js may keep Node's compile cache. Node trusts whatever it finds in that folder (an entry that claims
// cli-main.js with the same length and checksum is run as it), so a folder someone else can write is a way to run code
// as us: the OS temp folder is shared on Linux, and Node's own default there (`node-compile-cache`) is created by
// whoever comes first. Ours is per user, created 0700 and used only while it is a real folder of ours that no one else
// may write; anything else means no cache. Only single, non-recursive calls: a temp folder that cannot hold it (under
// /proc, missing, read-only) costs one failed mkdir, where Node's recursive creation spun forever under /proc.
import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The per-user folder's name under the temp folder (the user id where the OS has one). */
export function compileCacheFolderName(uid: number | undefined): string {
  return uid === undefined ? 'thought-explorer-compile-cache' : `thought-explorer-compile-cache-${uid}`;
}

/**
 * The folder to give Node's compile cache, or undefined for none: `<tempFolder>/thought-explorer-compile-cache-<uid>`,
 * created with mode 0700 if missing, refused if it is a link, not a folder, owned by another user, or writable (or
 * readable) by group or others. `uid` is undefined where the OS has none (Windows, whose temp folder is per user).
 */
export function privateCompileCacheFolder(tempFolder: string, uid: number | undefined): string | undefined {
  const folder = join(tempFolder, compileCacheFolderName(uid));
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    const found = lstatSync(folder);
    if (!found.isDirectory()) return undefined;
    if (uid !== undefined && (found.uid !== uid || (found.mode & 0o077) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}
