// Opening the store's own files (journals, the index) safely: only regular files, never through a symbolic link.
// A FIFO named `x.jsonl` would block a synchronous open or read forever (and with it the whole server), a device
// could be endless, and a symbolic link could make the store read or append to a file outside its directory.
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';

// O_NOFOLLOW refuses a symbolic link as the last path component; O_NONBLOCK lets open() return at once on a FIFO (it
// changes nothing for regular files). Neither exists on Windows, where the lstat below stands in.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

/** A path in the store that is not a regular file of its own (a FIFO, a device, a directory, a symbolic link). */
export class NotARegularFileError extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file; the store only reads its own regular files and leaves it alone`);
    this.name = 'NotARegularFileError';
  }
}

/** What a non-regular file is, in words ("a FIFO (named pipe)"), or undefined for a regular file. */
export function nonRegularKind(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

export interface OpenedFile {
  fd: number;
  stat: Stats;
}

/**
 * Opens `path` with `flags` only if it is a regular file reached without a symbolic link. Throws NotARegularFileError
 * otherwise, and fs errors (ENOENT, EACCES, ...) as they come. The caller closes `fd`.
 */
export function openRegularFile(path: string, flags: number): OpenedFile {
  if (NO_FOLLOW === 0) {
    const link = lstatSync(path);
    if (link.isSymbolicLink()) throw new NotARegularFileError(path, 'a symbolic link');
  }
  let fd: number;
  try {
    fd = openSync(path, flags | NO_FOLLOW | NON_BLOCKING);
  } catch (error) {
    // ELOOP: the last component is a symbolic link (O_NOFOLLOW). Said plainly rather than "too many symbolic links".
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new NotARegularFileError(path, 'a symbolic link');
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    const kind = nonRegularKind(stat);
    if (kind !== undefined) throw new NotARegularFileError(path, kind);
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
