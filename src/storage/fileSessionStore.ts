// The durable SessionStore: one append-only journal per session plus a cached index, in one directory.
// Wired to the engine by the composition roots (src/cli/main.ts, src/extension); plain Node, no vscode.
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type {
  ExternalChange,
  FeedbackEntry,
  ListSessionsQuery,
  ListSessionsResult,
  SessionMeta,
  SessionSnapshot,
  SessionStore,
  StrategySwitch,
  ThoughtRecord,
} from '../engine/model';
import { resetDerived } from '../engine/browserSafe/sessionMeta';
import { MAX_LINE_BYTES } from './journalLines';
import { requireStorableSnapshot } from './recordValidation';
import {
  JOURNAL_VERSION,
  JournalFullError,
  JournalWriter,
  journalLines,
  readJournal,
  serializeRecord,
  thoughtLine,
  type Durability,
} from './sessionJournal';
import { SessionFullError, StoreLocationError, formatBytes } from './storeErrors';
import { SessionIndex, idMismatch } from './sessionIndex';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { journalFileName } from './sessionIds';

export interface FileSessionStoreOptions {
  /** Where problems (torn lines, unreadable files, index rebuilds) are reported. Defaults to stderr, never stdout. */
  log?: (message: string) => void;
  /**
   * 'write' (default): each record is written with one write() before the call returns, so it survives a crash of
   * this process. 'fsync': also flushed to the device, so it survives an OS crash or power loss, at the cost of
   * milliseconds per thought.
   */
  durability?: Durability;
  /** Most journals kept open at once; the least recently used are closed (default 32). */
  maxOpenJournals?: number;
  /** How long index changes wait before index.json is written (default 1000 ms). */
  indexFlushDelayMs?: number;
  /**
   * Largest journal a session may grow to, in bytes (default 256 MiB). A thought (or an import) that would pass it is
   * refused before anything is written, with an error telling the agent to continue in a new session: a session is
   * read back whole into memory, so it must stay a size a process can hold.
   */
  maxSessionBytes?: number;
}

export const DEFAULT_MAX_SESSION_BYTES = 256 * 1024 * 1024;

/**
 * A journal as this store last left it: its inode and size after our own last read or write. `size` -1: unknown (a
 * write failed part-way), so the journal counts as changed until it is read again.
 */
interface KnownJournal {
  ino: number;
  size: number;
}

export class FileSessionStore implements SessionStore {
  readonly directory: string;
  private readonly log: (message: string) => void;
  private readonly durability: Durability;
  private readonly maxOpenJournals: number;
  readonly maxSessionBytes: number;
  private readonly index: SessionIndex;
  /** Open journals, least recently used first. */
  private readonly writers = new Map<string, JournalWriter>();
  /** The session whose writer is last in `writers` (most recently used): its next thought needs no reordering. */
  private newestWriterId: string | undefined;
  /**
   * Per session, the journal as this store last saw it (or 'deleted' when this store removed it), so a change by
   * another process (the stdio CLI next to the extension) is told from our own with one stat. Kept apart from the
   * index, whose entries a listing advances past other processes' appends while a reader may still hold the old data.
   * Our own appends only add the bytes written: no syscall on the per-thought path.
   */
  private readonly known = new Map<string, KnownJournal | 'deleted'>();

  constructor(directory: string, options: FileSessionStoreOptions = {}) {
    this.directory = resolve(directory);
    this.log = options.log ?? ((message) => process.stderr.write(`[thought-explorer store] ${message}\n`));
    this.durability = options.durability ?? 'write';
    if (this.durability !== 'write' && this.durability !== 'fsync')
      throw new RangeError(`Invalid durability: got ${JSON.stringify(this.durability)}; expected "write" or "fsync".`);
    this.maxOpenJournals = options.maxOpenJournals ?? 32;
    if (!Number.isSafeInteger(this.maxOpenJournals) || this.maxOpenJournals < 1) {
      throw new RangeError(`Invalid maxOpenJournals: got ${this.maxOpenJournals}; expected a whole number of at least 1.`);
    }
    this.maxSessionBytes = options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES;
    if (!Number.isSafeInteger(this.maxSessionBytes) || this.maxSessionBytes < 1024) {
      throw new RangeError(`Invalid maxSessionBytes: got ${this.maxSessionBytes}; expected a whole number of at least 1024.`);
    }
    prepareDirectory(this.directory);
    this.index = new SessionIndex(this.directory, this.log, options.indexFlushDelayMs ?? 1000);
  }

  /** The journal file of a session (whether or not it exists yet). Throws for an invalid id. */
  sessionFilePath(id: string): string {
    return join(this.directory, journalFileName(id));
  }

  createSession(meta: SessionMeta): void {
    const path = this.sessionFilePath(meta.id);
    let writer: JournalWriter;
    try {
      writer = JournalWriter.create(path, this.durability);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new Error(
          `A journal for session "${meta.id}" already exists at ${path} (possibly an unreadable one, or one for an id that differs only in case); it is left untouched.`,
          { cause: error },
        );
      }
      throw new Error(`Cannot create the journal of session "${meta.id}" at ${path}: ${errorMessage(error)}`, { cause: error });
    }
    const base = resetDerived(meta);
    let bytes: number;
    try {
      bytes = writer.append(serializeRecord({ type: 'session', version: JOURNAL_VERSION, meta: base }));
    } catch (error) {
      // Leave no journal without its session record behind.
      writer.close();
      tryUnlink(path);
      throw new Error(`Cannot write the journal of session "${meta.id}" at ${path}: ${errorMessage(error)}`, { cause: error });
    }
    if (this.durability === 'fsync') this.syncDirectory();
    this.keepWriter(meta.id, writer);
    this.known.set(meta.id, { ino: writer.ino, size: bytes });
    this.index.remember(meta.id, { meta: base, ino: writer.ino, size: bytes, consumed: bytes });
  }

  /** Throws SessionFullError, with nothing written, when the thought would take the journal past maxSessionBytes. */
  appendThought(meta: SessionMeta, thought: ThoughtRecord): void {
    const writer = this.writerFor(meta.id);
    const line = thoughtLine(this.index.peek(meta.id)?.meta, meta, thought);
    const bytes = this.append(meta.id, writer, line, this.maxSessionBytes);
    this.index.noteAppend(meta.id, meta, bytes, writer.ino);
  }

  /** Not held to maxSessionBytes: a meta record is small, and a full session must still be renamed or closed. */
  updateMeta(meta: SessionMeta, strategySwitch?: StrategySwitch): void {
    const writer = this.writerFor(meta.id);
    const line = serializeRecord(strategySwitch === undefined ? { type: 'meta', meta } : { type: 'meta', meta, strategySwitch });
    const bytes = this.append(meta.id, writer, line);
    this.index.noteAppend(meta.id, meta, bytes, writer.ino);
  }

  /** Not held to maxSessionBytes (a feedback record is small, and a delivery mark must not fail for size). */
  appendFeedback(meta: SessionMeta, entry: FeedbackEntry): void {
    const writer = this.writerFor(meta.id);
    const bytes = this.append(meta.id, writer, serializeRecord(entry));
    this.index.noteAppend(meta.id, meta, bytes, writer.ino);
  }

  loadSession(id: string): SessionSnapshot | undefined {
    const path = this.sessionFilePath(id);
    let result;
    try {
      result = readJournal(path, true);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.log(`cannot open session "${id}": ${errorMessage(error)}`);
      // Listed from now on as unreadable, with the reason, rather than with counts nothing can open.
      this.index.markUnreadable(id, errorMessage(error));
      return undefined;
    }
    for (const problem of result.problems) this.log(problem);
    const relation = idMismatch(id, result.meta.id);
    if (relation === 'caseCollision') {
      this.log(`${path} holds session "${result.meta.id}", not "${id}" (the file system ignores case)`);
      this.index.markUnreadable(id, `${path} holds session "${result.meta.id}", whose id differs from "${id}" only in case`);
      return undefined;
    }
    if (relation === 'different') {
      this.log(`${path} records session id "${result.meta.id}"; opening it as "${id}", its file name`);
      result.meta = { ...result.meta, id };
    }
    this.index.remember(id, result);
    this.known.set(id, { ino: result.ino, size: result.size });
    // The journal was replaced (an import by another process renames a new file over it): an open descriptor would
    // append to the old, unlinked file, so the next write reopens the journal by name.
    const writer = this.writers.get(id);
    if (writer !== undefined && writer.ino !== result.ino) this.closeWriter(id);
    const snapshot: SessionSnapshot = {
      meta: result.meta,
      thoughts: result.thoughts ?? [],
      strategySwitches: result.strategySwitches ?? [],
    };
    if (result.feedback !== undefined && result.feedback.length > 0) snapshot.feedback = result.feedback;
    return snapshot;
  }

  /**
   * Newest updated first, filtered and paged; reconciles the index with the directory first, so sessions written by
   * another process appear. The metas are the index's own objects (no copies, for speed): treat them as read-only.
   */
  listSessions(query: ListSessionsQuery = {}): ListSessionsResult {
    return this.index.list(query);
  }

  deleteSession(id: string): boolean {
    const path = this.sessionFilePath(id);
    this.closeWriter(id);
    this.index.forget(id);
    try {
      unlinkSync(path);
      this.known.set(id, 'deleted');
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.known.set(id, 'deleted');
        return false;
      }
      throw new Error(`Cannot delete session "${id}" (${path}): ${errorMessage(error)}`, { cause: error });
    }
  }

  /**
   * Writes a whole session (import) to a temporary file and renames it over the journal: all or nothing. Refused
   * (SessionFormatError naming the field, or SessionFullError) when the journal reader would not read it back exactly
   * as given: a value out of range, a record longer than a line may be, a session past maxSessionBytes.
   */
  saveSession(snapshot: SessionSnapshot): void {
    requireStorableSnapshot(snapshot);
    const id = snapshot.meta.id;
    const path = this.sessionFilePath(id);
    this.refuseCaseCollision(id, path);
    const temporary = join(this.directory, `.${journalFileName(id)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      this.writeJournalFile(temporary, journalLines(snapshot), id);
      this.closeWriter(id);
      renameSync(temporary, path);
    } catch (error) {
      tryUnlink(temporary);
      if (error instanceof SessionFullError) throw error;
      throw new Error(`Cannot save session "${id}" to ${path}: ${errorMessage(error)}`, { cause: error });
    }
    if (this.durability === 'fsync') this.syncDirectory();
    try {
      const read = readJournal(path, false);
      this.index.remember(id, read);
      this.known.set(id, { ino: read.ino, size: read.size });
    } catch (error) {
      this.known.set(id, { ino: -1, size: -1 });
      this.log(`saved session "${id}" but could not re-read it: ${errorMessage(error)}`);
    }
  }

  /** Writes `lines` to a new file in batches (never as one string), within maxSessionBytes and MAX_LINE_BYTES. */
  private writeJournalFile(path: string, lines: readonly string[], id: string): void {
    const fd = openSync(path, 'wx');
    try {
      let total = 0;
      let batch: string[] = [];
      let batchBytes = 0;
      const writeBatch = () => {
        const text = batch.join('');
        let offset = 0;
        const data = Buffer.from(text, 'utf8');
        while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
        batch = [];
        batchBytes = 0;
      };
      for (const line of lines) {
        const bytes = Buffer.byteLength(line, 'utf8');
        if (bytes > MAX_LINE_BYTES) {
          throw new Error(
            `one of its records takes ${formatBytes(bytes)}, more than a journal line may hold (${formatBytes(MAX_LINE_BYTES)})`,
          );
        }
        total += bytes;
        if (total > this.maxSessionBytes) throw new SessionFullError(id, this.maxSessionBytes);
        batch.push(line);
        batchBytes += bytes;
        if (batchBytes >= 1024 * 1024) writeBatch();
      }
      if (batch.length > 0) writeBatch();
      if (this.durability === 'fsync') fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Whether another process changed a session's journal since this store last wrote or read it: one stat, compared
   * with the inode and size this store left it at. Journals are only ever appended to or replaced (rename), so an
   * unchanged inode and size mean unchanged content. Throws for an invalid id or a journal that cannot be stat'ed.
   */
  externalChange(id: string): ExternalChange {
    const path = this.sessionFilePath(id);
    // lstat: a journal replaced by a symbolic link is a change too (and is never followed).
    const stat = lstatSync(path, { throwIfNoEntry: false });
    const known = this.known.get(id);
    if (stat === undefined) return known === 'deleted' ? 'none' : 'removed';
    if (known === undefined || known === 'deleted') return 'changed';
    return stat.ino === known.ino && stat.size === known.size ? 'none' : 'changed';
  }

  /** Writes the index now (it is otherwise written debounced and at close). */
  flushIndex(): void {
    this.index.flush();
  }

  /** Closes every open journal and writes the index. The store stays usable: journals reopen on demand. */
  close(): void {
    for (const writer of this.writers.values()) {
      try {
        writer.close();
      } catch (error) {
        this.log(`closing ${writer.path}: ${errorMessage(error)}`);
      }
    }
    this.writers.clear();
    this.newestWriterId = undefined;
    this.index.close();
  }

  private append(id: string, writer: JournalWriter, line: string, maxSize?: number): number {
    let bytes: number;
    try {
      bytes = writer.append(line, maxSize);
    } catch (error) {
      // Refused before writing: the journal and the descriptor are as they were.
      if (error instanceof JournalFullError) throw new SessionFullError(id, error.maxSize);
      // Part of the line may be on disk: our idea of the journal's size is lost until it is read again.
      this.known.set(id, { ino: writer.ino, size: -1 });
      // A failed descriptor is not trusted again; the next write reopens the journal (and starts on a fresh line).
      this.closeWriter(id);
      throw new Error(`Cannot append to the journal of session "${id}" (${writer.path}): ${errorMessage(error)}`, { cause: error });
    }
    const known = this.known.get(id);
    // Our own bytes: the journal stays "as we left it". A journal we never read, or one our descriptor no longer is
    // (replaced meanwhile), stays unknown, so it counts as changed and is read again.
    if (known !== undefined && known !== 'deleted' && known.ino === writer.ino && known.size >= 0) known.size += bytes;
    else this.known.set(id, { ino: writer.ino, size: -1 });
    return bytes;
  }

  private writerFor(id: string): JournalWriter {
    const open = this.writers.get(id);
    if (open) {
      // Thoughts mostly go on in the same session: only a switch of session reorders the LRU map.
      if (id !== this.newestWriterId) {
        this.writers.delete(id);
        this.writers.set(id, open);
        this.newestWriterId = id;
      }
      return open;
    }
    const path = this.sessionFilePath(id);
    let writer: JournalWriter;
    try {
      writer = JournalWriter.openExisting(path, this.durability);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Error(`Session "${id}" has no journal at ${path} (was it deleted?)`, { cause: error });
      throw new Error(`Cannot open the journal of session "${id}" at ${path}: ${errorMessage(error)}`, { cause: error });
    }
    this.keepWriter(id, writer);
    return writer;
  }

  private keepWriter(id: string, writer: JournalWriter): void {
    this.closeWriter(id);
    this.writers.set(id, writer);
    this.newestWriterId = id;
    while (this.writers.size > this.maxOpenJournals) {
      const [oldestId] = this.writers.keys();
      this.closeWriter(oldestId);
    }
  }

  private closeWriter(id: string): void {
    const writer = this.writers.get(id);
    if (!writer) return;
    this.writers.delete(id);
    if (id === this.newestWriterId) this.newestWriterId = undefined;
    try {
      writer.close();
    } catch (error) {
      this.log(`closing ${writer.path}: ${errorMessage(error)}`);
    }
  }

  private refuseCaseCollision(id: string, path: string): void {
    let recorded: string;
    try {
      recorded = readJournal(path, false).meta.id;
    } catch {
      return;
    }
    if (idMismatch(id, recorded) === 'caseCollision') {
      throw new Error(
        `Cannot save session "${id}": ${path} already holds session "${recorded}" (ids that differ only in case share a file here).`,
      );
    }
  }

  /** A new file's directory entry reaches the disk only when the directory is synced (not possible on Windows). */
  private syncDirectory(): void {
    if (process.platform === 'win32') return;
    try {
      const fd = openSync(this.directory, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      this.log(`could not sync ${this.directory}: ${errorMessage(error)}`);
    }
  }
}

/** Creates the store's folder if needed; a path that is (or lies under) a file is refused with a plain message. */
function prepareDirectory(directory: string): void {
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new StoreLocationError(
        directory,
        `${code === 'EEXIST' ? 'it is a file' : 'part of that path is a file'}, not a folder. Choose a folder for the sessions (an empty or missing one is fine).`,
      );
    }
    throw new StoreLocationError(directory, errorMessage(error));
  }
  // mkdir with recursive succeeds on an existing directory and fails on most other things; make sure.
  const stat = statSync(directory);
  if (!stat.isDirectory()) throw new StoreLocationError(directory, 'it is not a folder. Choose a folder for the sessions.');
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
