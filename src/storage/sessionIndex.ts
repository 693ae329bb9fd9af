// The session index: every session's meta, so listing 10,000 sessions reads one file instead of 10,000 journals.
//
// Design. The journals are the truth; the index is a cache of what they say, kept in memory and in `index.json`.
// - Per thought the store only updates the in-memory entry (O(1)); `index.json` is written debounced (one write per
//   `flushDelayMs` at most, off the tool call's path), at close, and right after a rebuild.
// - Each entry records the journal's inode, size and mtime when it was read, and `consumed`, the byte offset of the end
//   of the last complete line. Every listing reconciles the index with the directory (one readdir and one stat per
//   journal, ~25 ms for 10,000 on a small machine): a journal with the recorded inode and size is up to date; one that
//   grew (another process, e.g. the stdio CLI next to the extension, appended to it) is read from `consumed` on only;
//   a new, replaced or shrunken journal is read whole; an entry whose journal is gone is dropped.
// - A missing, unreadable, corrupt or oversized `index.json` (or one of another format or version, e.g. written by a
//   version whose reader accepted values this one refuses) is rebuilt from the journals.
// - A journal that cannot be opened (a FIFO, a symbolic link, no permission, no session record) stays listed, marked
//   `unreadable` with the reason and with zero counters, so a listing never offers what `get` then refuses. Such
//   entries are not written to index.json: each process finds them again. A directory with a journal's name is no
//   session at all and is not listed.
// - Two processes may write `index.json`; each writes its own whole view atomically (temporary file, then rename), and
//   whatever one misses the other's next reconciliation catches from the journals. Neither can harm a journal.
import { closeSync, constants, lstatSync, readSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, sep } from 'node:path';
import { SESSION_STATUSES, isName, isTimestamp, isWholeNumberInRange } from '../engine/fieldRules';
import type { ListSessionsQuery, ListSessionsResult, SessionMeta } from '../engine/model';
import { matchesQuery } from '../engine/sessionQuery';
import { nonRegularKind, openRegularFile } from './regularFiles';
import { readJournal, readJournalTail, type JournalReadResult } from './sessionJournal';
import { sessionIdFromFileName } from './sessionIds';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { noThoughtCounters } from '../engine/browserSafe/sessionMeta';

export const INDEX_FILE_NAME = 'index.json';
const INDEX_FORMAT = 'thought-explorer-index';
// 2: values checked by the bounds in fieldRules, ctimeMs recorded. An index of version 1 is rebuilt once.
const INDEX_VERSION = 2;
/** An index.json larger than this is not read but rebuilt (10,000 sessions take a few MB). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/** Marks an entry with the number of the last refresh that found its journal (a symbol: index.json never holds it). */
const SEEN: unique symbol = Symbol('seen by refresh');

export interface IndexEntry {
  id: string;
  ino: number;
  /** Journal size when last reconciled; -1 forces a whole read. */
  size: number;
  consumed: number;
  /** Undefined after our own appends (we know the size, not the new mtime). */
  mtimeMs?: number;
  /** Like mtimeMs; also changes with permissions, so a journal made unreadable is read again. */
  ctimeMs?: number;
  meta: SessionMeta;
  [SEEN]?: number;
}

/** How a journal's recorded id relates to the id its file name stands for. */
export function idMismatch(fileId: string, recordedId: string): 'same' | 'caseCollision' | 'different' {
  if (fileId === recordedId) return 'same';
  return fileId.toLowerCase() === recordedId.toLowerCase() ? 'caseCollision' : 'different';
}

export class SessionIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private loaded = false;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** Problems already reported, by file, with the file's state then: each is reported once, not on every listing. */
  private readonly reported = new Map<string, string>();
  /** Counts refreshes, for SEEN. */
  private generation = 0;
  /** The directory with a trailing separator: journal paths are this plus a name from readdir. */
  private readonly prefix: string;

  constructor(
    private readonly directory: string,
    private readonly log: (message: string) => void,
    private readonly flushDelayMs: number,
  ) {
    this.prefix = directory.endsWith(sep) ? directory : `${directory}${sep}`;
  }

  get indexPath(): string {
    return join(this.directory, INDEX_FILE_NAME);
  }

  peek(id: string): IndexEntry | undefined {
    return this.entries.get(id);
  }

  /** Records what a whole read (or our own creation) of a journal found. */
  remember(id: string, read: Pick<JournalReadResult, 'meta' | 'ino' | 'size' | 'consumed'> & { mtimeMs?: number; ctimeMs?: number }): void {
    this.entries.set(id, {
      id,
      ino: read.ino,
      size: read.size,
      consumed: read.consumed,
      mtimeMs: read.mtimeMs,
      ctimeMs: read.ctimeMs,
      meta: read.meta,
    });
    this.markDirty();
  }

  /**
   * Lists the session as unreadable (with `reason`) instead of with what an earlier read found. Without `stat` the
   * journal is read again at the next listing; with it, only once the file changes.
   */
  markUnreadable(id: string, reason: string, stat?: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): void {
    const time = stat !== undefined && isTimestamp(stat.mtimeMs) ? Math.floor(stat.mtimeMs) : 0;
    const meta: SessionMeta = {
      id,
      strategy: 'unknown',
      // Not "live": nothing may pick an unreadable session as the one to follow or continue.
      status: 'abandoned',
      createdAt: time,
      updatedAt: time,
      ...noThoughtCounters(),
      totalThoughts: 0,
      unreadable: reason,
    };
    this.entries.set(id, {
      id,
      ino: stat?.ino ?? -1,
      size: stat?.size ?? -1,
      consumed: 0,
      mtimeMs: stat?.mtimeMs,
      ctimeMs: stat?.ctimeMs,
      meta,
    });
    // index.json must lose the entry it may hold for this session: its counts are no longer backed.
    this.markDirty();
  }

  /** Our own append of `bytes` to a journal; the entry now reflects `meta`. O(1). */
  noteAppend(id: string, meta: SessionMeta, bytes: number, ino: number): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.meta = meta;
    if (entry.ino === ino && entry.size >= 0) {
      entry.size += bytes;
      entry.consumed = entry.size;
    } else {
      entry.size = -1;
    }
    entry.mtimeMs = undefined;
    entry.ctimeMs = undefined;
    this.markDirty();
  }

  forget(id: string): void {
    if (this.entries.delete(id)) this.markDirty();
  }

  list(query: ListSessionsQuery = {}): ListSessionsResult {
    const offset = query.offset ?? 0;
    const limit = query.limit;
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new RangeError(`Invalid offset: got ${offset}; expected a whole number of at least 0.`);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RangeError(`Invalid limit: got ${limit}; expected a whole number of at least 0.`);
    }
    this.refresh();
    const matching: SessionMeta[] = [];
    for (const entry of this.entries.values()) if (matchesQuery(entry.meta, query)) matching.push(entry.meta);
    matching.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { sessions: matching.slice(offset, limit === undefined ? undefined : offset + limit), total: matching.length };
  }

  /** Brings the index in line with the journals in the directory (see the header for how). */
  refresh(): void {
    const rebuilding = this.loadOnce();
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch (error) {
      this.report(this.directory, 'readdir', `cannot list the session directory ${this.directory}: ${errorMessage(error)}`);
      return;
    }
    // Every entry whose journal is found is marked with this refresh's number; the rest are dropped afterwards. (A
    // set of the ids found cost as much as the rest of the loop at 10,000 sessions: the ids are new strings each time.)
    const generation = ++this.generation;
    let seen = 0;
    for (const name of names) {
      if (name.startsWith('.') || !name.endsWith('.jsonl')) continue;
      const id = sessionIdFromFileName(name);
      if (id === undefined) {
        this.report(name, 'name', `skipping ${join(this.directory, name)}: its name is not a valid session id`);
        continue;
      }
      const path = `${this.prefix}${name}`;
      let stat;
      try {
        // lstat: a symbolic link is reported as what it is, never followed out of the store.
        stat = lstatSync(path, { throwIfNoEntry: false });
      } catch (error) {
        this.report(name, 'stat', `cannot stat ${path}: ${errorMessage(error)}`);
        this.markUnreadable(id, `cannot stat the journal: ${errorMessage(error)}`);
        stat = undefined;
      }
      let entry = this.entries.get(id);
      if (stat?.isDirectory()) continue;
      if (stat === undefined) {
        // Gone since readdir (dropped below as unseen), or unstat-able (just marked unreadable).
      } else if (nonRegularKind(stat) !== undefined) {
        const reason = `${path} is ${nonRegularKind(stat)}, not a regular file; it is not opened`;
        this.report(name, `kind:${stat.ino}`, `skipping ${reason}`);
        if (entry?.meta.unreadable !== reason) this.markUnreadable(id, reason, stat);
      } else if (
        entry &&
        entry.ino === stat.ino &&
        entry.size === stat.size &&
        (entry.mtimeMs === undefined || (entry.mtimeMs === stat.mtimeMs && (entry.ctimeMs === undefined || entry.ctimeMs === stat.ctimeMs)))
      ) {
        if (entry.mtimeMs === undefined || entry.ctimeMs === undefined) {
          entry.mtimeMs = stat.mtimeMs;
          entry.ctimeMs = stat.ctimeMs;
          this.markDirty();
        }
      } else {
        this.reread(id, path, entry, stat);
      }
      entry = this.entries.get(id);
      if (entry !== undefined && entry[SEEN] !== generation) {
        entry[SEEN] = generation;
        seen++;
      }
    }
    if (seen !== this.entries.size) {
      for (const entry of [...this.entries.values()]) if (entry[SEEN] !== generation) this.forget(entry.id);
    }
    // A rebuild is expensive; keep its result at once so the next process starts fast.
    if (rebuilding) this.flush();
    else if (this.dirty) this.schedule();
  }

  private reread(id: string, path: string, entry: IndexEntry | undefined, stat: FileSignature): void {
    const signature = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    let result: JournalReadResult | undefined;
    try {
      // Only a journal that grew continues the one read before: at the same size a changed mtime or ctime means
      // it was rewritten in place (or its permissions changed), so it is read whole again.
      if (entry && entry.size >= 0 && stat.size > entry.size && entry.meta.unreadable === undefined)
        result = readJournalTail(path, entry.meta, entry.consumed, entry.ino);
      result ??= readJournal(path, false);
    } catch (error) {
      this.report(path, signature, `unreadable session journal: ${errorMessage(error)}`);
      this.markUnreadable(id, errorMessage(error), stat);
      return;
    }
    if (result.problems.length > 0) this.report(path, signature, result.problems.join('\n'));
    const relation = idMismatch(id, result.meta.id);
    if (relation === 'caseCollision') {
      const reason = `${path} holds session "${result.meta.id}", whose id differs from its file name only in case`;
      this.report(path, signature, `skipping ${reason}`);
      this.markUnreadable(id, reason, stat);
      return;
    }
    if (relation === 'different') {
      this.report(path, `${signature}:id`, `${path} records session id "${result.meta.id}"; listing it under its file name's id "${id}"`);
      result.meta = { ...result.meta, id };
    }
    this.remember(id, result);
  }

  /** Reads index.json the first time; returns true when it had to be rebuilt (missing or corrupt). */
  private loadOnce(): boolean {
    if (this.loaded) return false;
    this.loaded = true;
    let text: string;
    try {
      text = readIndexText(this.indexPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log(`session index ${this.indexPath} unreadable (${errorMessage(error)}); rebuilding it from the journals`);
      return true;
    }
    const entries = parseIndex(text);
    if (typeof entries === 'string') {
      this.log(`session index ${this.indexPath} is corrupt (${entries}); rebuilding it from the journals`);
      return true;
    }
    // Entries this process already holds (created or loaded before the first listing) are fresher than the file's.
    for (const entry of entries) if (!this.entries.has(entry.id)) this.entries.set(entry.id, entry);
    return false;
  }

  private markDirty(): void {
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || !this.loaded) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.flushDelayMs);
    this.timer.unref();
  }

  /** Writes index.json now if anything changed. Never throws: the index is only a cache. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty || !this.loaded) return;
    this.dirty = false;
    const kept = [...this.entries.values()].filter((entry) => entry.meta.unreadable === undefined);
    const text = JSON.stringify({ format: INDEX_FORMAT, version: INDEX_VERSION, entries: kept });
    const temporary = join(this.directory, `.${INDEX_FILE_NAME}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, text, { flag: 'wx' });
      renameSync(temporary, this.indexPath);
    } catch (error) {
      this.log(`could not write the session index ${this.indexPath}: ${errorMessage(error)}`);
      try {
        unlinkSync(temporary);
      } catch {
        // Nothing was written, or it is already gone.
      }
    }
  }

  close(): void {
    // A process that only wrote (never listed) has not read index.json yet: reconcile first, so the file it leaves
    // behind holds every session, not only this process's.
    if (this.dirty && !this.loaded) this.refresh();
    this.flush();
  }

  private report(key: string, signature: string, message: string): void {
    if (this.reported.get(key) === signature) return;
    this.reported.set(key, signature);
    this.log(message);
  }
}

/** The entries of an index file, or a description of what is wrong with it. */
function parseIndex(text: string): IndexEntry[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not an object';
  const file = parsed as Record<string, unknown>;
  if (file.format !== INDEX_FORMAT || file.version !== INDEX_VERSION)
    return `format ${JSON.stringify(file.format)} version ${JSON.stringify(file.version)}`;
  if (!Array.isArray(file.entries)) return 'no entries';
  const entries: IndexEntry[] = [];
  // Checked field by field without copying: at 10,000 entries this runs on every cold start. Ids need no check here:
  // an entry only survives reconciliation if the directory holds a journal whose (validated) name maps to its id.
  for (let index = 0; index < file.entries.length; index++) {
    const value: unknown = file.entries[index];
    if (value === null || typeof value !== 'object') return `entries[${index}] is not an object`;
    const raw = value as Record<string, unknown>;
    const { id, ino, size, consumed, mtimeMs, ctimeMs, meta } = raw;
    if (typeof id !== 'string') return `entries[${index}].id is not a string`;
    if (typeof ino !== 'number' || !Number.isSafeInteger(size) || !Number.isSafeInteger(consumed))
      return `entries[${index}] has no valid file position`;
    if (mtimeMs !== undefined && typeof mtimeMs !== 'number') return `entries[${index}].mtimeMs is not a number`;
    if (ctimeMs !== undefined && typeof ctimeMs !== 'number') return `entries[${index}].ctimeMs is not a number`;
    const problem = indexMetaProblem(meta, id);
    if (problem !== undefined) return `entries[${index}].meta: ${problem}`;
    entries.push({ id, ino, size: size as number, consumed: consumed as number, mtimeMs, ctimeMs, meta: meta as SessionMeta });
  }
  return entries;
}

const STATUSES = new Set<string>(SESSION_STATUSES);
const OPTIONAL_TEXT = ['title', 'purpose'] as const;
const TIMES = ['createdAt', 'updatedAt'] as const;
const COUNTERS = ['thoughtCount', 'revisionCount', 'lastThoughtNumber', 'totalThoughts'] as const;

/**
 * What makes an index entry's meta unusable, or undefined: the bounds of readSessionMeta (fieldRules), without
 * copying, so the index can never list a value the journal reader would refuse.
 */
function indexMetaProblem(value: unknown, id: string): string | undefined {
  if (value === null || typeof value !== 'object') return 'not an object';
  const meta = value as Record<string, unknown>;
  if (meta.id !== id) return 'id differs from the entry';
  if (!isName(meta.strategy)) return 'strategy is not a name';
  if (typeof meta.status !== 'string' || !STATUSES.has(meta.status)) return 'status is not live, complete or abandoned';
  for (const field of TIMES) if (!isTimestamp(meta[field])) return `${field} is not a time from 1970 to 2999`;
  for (const field of COUNTERS) if (!isWholeNumberInRange(meta[field], 0)) return `${field} is not a whole number of at least 0`;
  for (const field of OPTIONAL_TEXT) if (meta[field] !== undefined && typeof meta[field] !== 'string') return `${field} is not a string`;
  if (meta.stage !== undefined && !isName(meta.stage)) return 'stage is not a name';
  if (meta.unreadable !== undefined) return 'an unreadable entry';
  const branchIds = meta.branchIds;
  if (!Array.isArray(branchIds) || !branchIds.every(isName)) return 'branchIds is not a list of names';
  return undefined;
}

interface FileSignature {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** index.json's text: a regular file only (a FIFO would block), and not read at all when absurdly large. */
function readIndexText(path: string): string {
  const { fd, stat } = openRegularFile(path, constants.O_RDONLY);
  try {
    if (stat.size > MAX_INDEX_BYTES) throw new Error(`${stat.size} bytes, more than an index of any real store`);
    const buffer = Buffer.allocUnsafe(stat.size);
    let offset = 0;
    while (offset < stat.size) {
      const read = readSync(fd, buffer, offset, stat.size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return buffer.toString('utf8', 0, offset);
  } finally {
    closeSync(fd);
  }
}
