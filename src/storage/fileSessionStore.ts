// The durable SessionStore: one append-only journal per session plus a cached index, in one directory.
// Wired to the engine by the composition roots (src/cli.ts, src/extension); plain Node, no vscode.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { ListSessionsQuery, ListSessionsResult, SessionMeta, SessionSnapshot, SessionStore, StrategySwitch, ThoughtRecord } from '../engine/model';
import { resetDerived } from './metaDerivation';
import { JOURNAL_VERSION, JournalWriter, journalText, readJournal, serializeRecord, thoughtLine, type Durability } from './sessionJournal';
import { SessionIndex, describeError, idMismatch } from './sessionIndex';
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
}

export class FileSessionStore implements SessionStore {
  readonly directory: string;
  private readonly log: (message: string) => void;
  private readonly durability: Durability;
  private readonly maxOpenJournals: number;
  private readonly index: SessionIndex;
  /** Open journals, least recently used first. */
  private readonly writers = new Map<string, JournalWriter>();

  constructor(directory: string, options: FileSessionStoreOptions = {}) {
    this.directory = resolve(directory);
    this.log = options.log ?? ((message) => process.stderr.write(`[thought-explorer store] ${message}\n`));
    this.durability = options.durability ?? 'write';
    if (this.durability !== 'write' && this.durability !== 'fsync') throw new RangeError(`Invalid durability: got ${JSON.stringify(this.durability)}; expected "write" or "fsync".`);
    this.maxOpenJournals = options.maxOpenJournals ?? 32;
    if (!Number.isSafeInteger(this.maxOpenJournals) || this.maxOpenJournals < 1) {
      throw new RangeError(`Invalid maxOpenJournals: got ${this.maxOpenJournals}; expected a whole number of at least 1.`);
    }
    try {
      mkdirSync(this.directory, { recursive: true });
    } catch (error) {
      throw new Error(`Cannot use ${this.directory} as the session store: ${describeError(error)}`);
    }
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
        );
      }
      throw new Error(`Cannot create the journal of session "${meta.id}" at ${path}: ${describeError(error)}`);
    }
    const base = resetDerived(meta);
    let bytes: number;
    try {
      bytes = writer.append(serializeRecord({ type: 'session', version: JOURNAL_VERSION, meta: base }));
    } catch (error) {
      // Leave no journal without its session record behind.
      writer.close();
      tryUnlink(path);
      throw new Error(`Cannot write the journal of session "${meta.id}" at ${path}: ${describeError(error)}`);
    }
    if (this.durability === 'fsync') this.syncDirectory();
    this.keepWriter(meta.id, writer);
    this.index.remember(meta.id, { meta: base, ino: writer.ino, size: bytes, consumed: bytes });
  }

  appendThought(meta: SessionMeta, thought: ThoughtRecord): void {
    const writer = this.writerFor(meta.id);
    const line = thoughtLine(this.index.peek(meta.id)?.meta, meta, thought);
    const bytes = this.append(meta.id, writer, line);
    this.index.noteAppend(meta.id, meta, bytes, writer.ino);
  }

  updateMeta(meta: SessionMeta, strategySwitch?: StrategySwitch): void {
    const writer = this.writerFor(meta.id);
    const line = serializeRecord(strategySwitch === undefined ? { type: 'meta', meta } : { type: 'meta', meta, strategySwitch });
    const bytes = this.append(meta.id, writer, line);
    this.index.noteAppend(meta.id, meta, bytes, writer.ino);
  }

  loadSession(id: string): SessionSnapshot | undefined {
    const path = this.sessionFilePath(id);
    let result;
    try {
      result = readJournal(path, true);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.log(`cannot open session "${id}": ${describeError(error)}`);
      return undefined;
    }
    for (const problem of result.problems) this.log(problem);
    const relation = idMismatch(id, result.meta.id);
    if (relation === 'caseCollision') {
      this.log(`${path} holds session "${result.meta.id}", not "${id}" (the file system ignores case)`);
      return undefined;
    }
    if (relation === 'different') {
      this.log(`${path} records session id "${result.meta.id}"; opening it as "${id}", its file name`);
      result.meta = { ...result.meta, id };
    }
    this.index.remember(id, result);
    return { meta: result.meta, thoughts: result.thoughts ?? [], strategySwitches: result.strategySwitches ?? [] };
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
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new Error(`Cannot delete session "${id}" (${path}): ${describeError(error)}`);
    }
  }

  /** Writes a whole session (import) to a temporary file and renames it over the journal: all or nothing. */
  saveSession(snapshot: SessionSnapshot): void {
    const id = snapshot.meta.id;
    const path = this.sessionFilePath(id);
    this.refuseCaseCollision(id, path);
    const temporary = join(this.directory, `.${journalFileName(id)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, journalText(snapshot), { flag: 'wx' });
      if (this.durability === 'fsync') {
        const fd = openSync(temporary, 'r+');
        try {
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
      this.closeWriter(id);
      renameSync(temporary, path);
    } catch (error) {
      tryUnlink(temporary);
      throw new Error(`Cannot save session "${id}" to ${path}: ${describeError(error)}`);
    }
    if (this.durability === 'fsync') this.syncDirectory();
    try {
      this.index.remember(id, readJournal(path, false));
    } catch (error) {
      this.log(`saved session "${id}" but could not re-read it: ${describeError(error)}`);
    }
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
        this.log(`closing ${writer.path}: ${describeError(error)}`);
      }
    }
    this.writers.clear();
    this.index.close();
  }

  private append(id: string, writer: JournalWriter, line: string): number {
    try {
      return writer.append(line);
    } catch (error) {
      // A failed descriptor is not trusted again; the next write reopens the journal (and starts on a fresh line).
      this.closeWriter(id);
      throw new Error(`Cannot append to the journal of session "${id}" (${writer.path}): ${describeError(error)}`);
    }
  }

  private writerFor(id: string): JournalWriter {
    const open = this.writers.get(id);
    if (open) {
      this.writers.delete(id);
      this.writers.set(id, open);
      return open;
    }
    const path = this.sessionFilePath(id);
    let writer: JournalWriter;
    try {
      writer = JournalWriter.openExisting(path, this.durability);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`Session "${id}" has no journal at ${path} (was it deleted?)`);
      throw new Error(`Cannot open the journal of session "${id}" at ${path}: ${describeError(error)}`);
    }
    this.keepWriter(id, writer);
    return writer;
  }

  private keepWriter(id: string, writer: JournalWriter): void {
    this.closeWriter(id);
    this.writers.set(id, writer);
    while (this.writers.size > this.maxOpenJournals) {
      const [oldestId] = this.writers.keys();
      this.closeWriter(oldestId);
    }
  }

  private closeWriter(id: string): void {
    const writer = this.writers.get(id);
    if (!writer) return;
    this.writers.delete(id);
    try {
      writer.close();
    } catch (error) {
      this.log(`closing ${writer.path}: ${describeError(error)}`);
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
      throw new Error(`Cannot save session "${id}": ${path} already holds session "${recorded}" (ids that differ only in case share a file here).`);
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
      this.log(`could not sync ${this.directory}: ${describeError(error)}`);
    }
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
