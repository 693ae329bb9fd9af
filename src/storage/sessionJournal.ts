// One append-only JSONL journal per session (`<id>.jsonl`): how records are written and how a journal is read back.
//
// Lines, each one compact JSON object:
//   {"type":"session","version":1,"meta":{...}}                 always first: the session as created
//   {"type":"thought","thought":{...},"meta":{...patch}?}       one per accepted thought; `meta` only when the session's
//                                                               meta changed in a way the thought does not imply
//                                                               (status, purpose), see metaDerivation.ts
//   {"type":"meta","meta":{...},"strategySwitch":{...}?}        rename, status change, strategy switch
//   {"type":"feedback","feedback":{...}}                        the person's feedback on the live session
//   {"type":"feedbackDelivered","ids":[...],"at":t,"withSeq":n} that feedback went out on the reply to thought `withSeq`
//   {"type":"feedbackApplied","id":"...","at":t,"bySeq":n}      the agent's thought `bySeq` did what it asked
//
// Writing: the file stays open (flag 'a', so every write lands at the end even if another process appends too) and
// each record is ONE writeSync of an already serialized line. When writeSync returns, the bytes are in the operating
// system's page cache: the record survives a crash or kill of this process, which is the failure an editor extension
// or a CLI actually meets. Surviving an OS crash or power loss needs fsync, which costs milliseconds per call on many
// disks, so it is opt-in (durability 'fsync'). Nothing is ever rewritten in place.
//
// Reading: a torn last line (a write cut short by a crash) is ignored and reported, and everything before it is
// recovered. A corrupt line elsewhere is skipped and reported. After a torn line the next append starts on a fresh
// line, so a new record is never glued onto the fragment.
import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { MAX_LINE_BYTES, scanLines, type LineScan } from './journalLines';
import { openRegularFile } from './regularFiles';
import type { FeedbackEntry, FeedbackRecord, SessionMeta, SessionSnapshot, StrategySwitch, ThoughtRecord } from '../engine/model';
import { applyThought, applyThoughtInPlace, resetDerived, withDerivedFrom } from '../engine/browserSafe/sessionMeta';
import { applyPatch, thoughtMetaPatch, type MetaPatch } from './metaDerivation';
import {
  SessionFormatError,
  isObject,
  readFeedbackRecord,
  readSessionMeta,
  readStrategySwitch,
  readThoughtRecord,
  requireArray,
  requireFeedbackId,
  requireInteger,
  requireTime,
} from './recordValidation';
import { MAX_FEEDBACK_PER_SESSION } from '../engine/fieldRules';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export const JOURNAL_VERSION = 1;

export type Durability = 'write' | 'fsync';

export type JournalRecord =
  | { type: 'session'; version: number; meta: SessionMeta }
  | { type: 'thought'; thought: ThoughtRecord; meta?: MetaPatch }
  | { type: 'meta'; meta: SessionMeta; strategySwitch?: StrategySwitch }
  | FeedbackEntry;

export function serializeRecord(record: JournalRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The line for a thought: the meta patch is computed against what a reader would derive from `previous`. */
export function thoughtLine(previous: SessionMeta | undefined, next: SessionMeta, thought: ThoughtRecord): string {
  // Without the previous meta (never the case for the engine) the whole meta goes along: a full patch is still valid.
  const patch = previous === undefined ? (next as MetaPatch) : thoughtMetaPatch(previous, next, thought);
  // The same bytes serializeRecord would write for { type, thought, meta? }, without the wrapper object per thought.
  const record = `{"type":"thought","thought":${JSON.stringify(thought)}`;
  return patch === undefined ? `${record}}\n` : `${record},"meta":${JSON.stringify(patch)}}\n`;
}

/** An open journal that appends whole lines. */
export class JournalWriter {
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly ino: number,
    /**
     * The journal's size as this writer knows it: at open, plus every byte it wrote since (another process's appends
     * are not seen; the store's size limit is a guard against runaway growth, not an exact quota).
     */
    private knownSize: number,
    /** The file does not end with a newline (a torn line): the next record must start on a fresh line. */
    private needsNewline: boolean,
    private readonly durability: Durability,
  ) {}

  /** Creates a new journal; fails (EEXIST) rather than touch an existing file. */
  static create(path: string, durability: Durability): JournalWriter {
    const fd = openSync(path, 'ax');
    return JournalWriter.wrap(path, fd, false, durability);
  }

  /**
   * Opens an existing journal for appending; a missing file is an error, so a deleted session is never re-created. Only
   * a regular file is opened, never through a symbolic link (NotARegularFileError), so no append leaves the store.
   */
  static openExisting(path: string, durability: Durability): JournalWriter {
    // Read-write so the last byte can be checked; O_APPEND so every write lands at the end, whoever else appends.
    const { fd, stat } = openRegularFile(path, constants.O_RDWR | constants.O_APPEND);
    let needsNewline = false;
    try {
      if (stat.size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, stat.size - 1);
        needsNewline = last[0] !== 0x0a;
      }
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new JournalWriter(path, fd, stat.ino, stat.size, needsNewline, durability);
  }

  private static wrap(path: string, fd: number, needsNewline: boolean, durability: Durability): JournalWriter {
    let stat;
    try {
      stat = fstatSync(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new JournalWriter(path, fd, stat.ino, stat.size, needsNewline, durability);
  }

  get size(): number {
    return this.knownSize;
  }

  /**
   * Appends one serialized line (ending in "\n") with one write; returns the bytes written. With `maxSize`, a line
   * that would take the journal past it is refused (JournalFullError) before anything is written.
   */
  append(line: string, maxSize = Number.POSITIVE_INFINITY): number {
    if (this.closed) throw new Error(`journal ${this.path} is closed`);
    const data = this.needsNewline ? `\n${line}` : line;
    // The string goes to writeSync as it is: Node encodes it natively for the one write() call, where a Buffer made
    // here first cost a JS allocation (and a new pool every few thoughts) on every call.
    const length = Buffer.byteLength(data, 'utf8');
    if (this.knownSize + length > maxSize) throw new JournalFullError(this.path, this.knownSize, length, maxSize);
    let written: number;
    try {
      written = writeSync(this.fd, data);
    } catch (error) {
      // Part of the line may have reached the file: whatever comes next must start on a fresh line.
      this.needsNewline = true;
      throw error;
    }
    this.knownSize += written;
    if (written !== length) {
      this.needsNewline = true;
      throw new Error(`short write to ${this.path}: ${written} of ${length} bytes (disk full?)`);
    }
    this.needsNewline = false;
    if (this.durability === 'fsync') fsyncSync(this.fd);
    return written;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/** What reading a journal found, with byte positions the index uses to read only what was appended later. */
export interface JournalReadResult {
  meta: SessionMeta;
  /** Present when thoughts were collected (full loads; index scans only need the meta). */
  thoughts?: ThoughtRecord[];
  strategySwitches?: StrategySwitch[];
  /** With thoughts: the session's feedback in arrival order (empty when none). */
  feedback?: FeedbackRecord[];
  ino: number;
  mtimeMs: number;
  /** Changes with the content and with permissions or links (a journal made unreadable by chmod is read again). */
  ctimeMs: number;
  /** File size when read. */
  size: number;
  /** Bytes up to the end of the last complete line: where a later read continues. */
  consumed: number;
  /** Problems found (corrupt or torn lines), already described for a person. */
  problems: string[];
}

/** Applies journal lines to a session, one at a time. */
class JournalReplay {
  meta: SessionMeta | undefined;
  readonly problems: string[] = [];

  constructor(
    private readonly path: string,
    /** How a line is named in reports: its number in the file, or its place among lines appended since a read. */
    private readonly lineLabel: (lineNumber: number) => string,
    base: SessionMeta | undefined,
    readonly thoughts: ThoughtRecord[] | undefined,
    readonly strategySwitches: StrategySwitch[] | undefined,
    /** Collected with the thoughts; meta-only reads check the records' shape and skip them. */
    readonly feedback: FeedbackRecord[] | undefined,
  ) {
    // The replay updates its meta in place (a 5,000-thought journal would otherwise copy it 5,000 times), so it
    // starts from its own copy of the base.
    this.meta = base === undefined ? undefined : { ...base, branchIds: [...base.branchIds] };
  }

  /** Returns false when the rest of the journal is meaningless: its first record is not a valid session record. */
  line(text: string | undefined, lineNumber: number, isLast: boolean): boolean {
    if (text === undefined) {
      this.problems.push(
        `${this.path}:${this.lineLabel(lineNumber)}: line longer than ${MAX_LINE_BYTES} bytes skipped (no record is that long)`,
      );
      return this.meta !== undefined;
    }
    if (text.trim() === '') return true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.problems.push(
        `${this.path}:${this.lineLabel(lineNumber)}: ${isLast ? 'torn last line (incomplete write) ignored' : 'corrupt line skipped (not JSON)'}`,
      );
      return this.meta !== undefined;
    }
    try {
      this.apply(parsed, lineNumber);
    } catch (error) {
      const reason = errorMessage(error);
      this.problems.push(
        `${this.path}:${this.lineLabel(lineNumber)}: ${isLast ? 'invalid last line ignored' : 'invalid line skipped'} (${reason})`,
      );
    }
    return this.meta !== undefined;
  }

  private apply(value: unknown, lineNumber: number): void {
    if (!isObject(value)) throw new SessionFormatError('record', 'expected an object');
    const where = `line ${this.lineLabel(lineNumber)}`;
    switch (value.type) {
      case 'session': {
        if (this.meta !== undefined) throw new SessionFormatError(`${where}.type`, 'a second "session" record');
        this.meta = resetDerived(readSessionMeta(value.meta, `${where}.meta`));
        return;
      }
      case 'thought': {
        const meta = this.requireMeta(where);
        const thought = readThoughtRecord(value.thought, `${where}.thought`);
        if (value.meta !== undefined) {
          if (!isObject(value.meta)) throw new SessionFormatError(`${where}.meta`, 'expected an object');
          // Validate before changing anything, so an invalid line leaves the session as it was.
          const derived = applyThought(meta, thought);
          const patched = readSessionMeta(applyPatch(derived, value.meta as MetaPatch), `${where}.meta`);
          this.meta = withDerivedFrom(patched, { ...derived, branchIds: [...derived.branchIds] });
        } else {
          applyThoughtInPlace(meta, thought);
        }
        if (this.thoughts) {
          // seq is the position in the session: keep it true even if a line was lost in the middle.
          if (thought.seq !== this.thoughts.length) thought.seq = this.thoughts.length;
          this.thoughts.push(thought);
        }
        return;
      }
      case 'meta': {
        const meta = this.requireMeta(where);
        const replacement = readSessionMeta(value.meta, `${where}.meta`);
        const strategySwitch =
          value.strategySwitch === undefined ? undefined : readStrategySwitch(value.strategySwitch, `${where}.strategySwitch`);
        this.meta = withDerivedFrom({ ...replacement, id: meta.id }, { ...meta, branchIds: [...meta.branchIds] });
        if (strategySwitch && this.strategySwitches) this.strategySwitches.push(strategySwitch);
        return;
      }
      case 'feedback': {
        this.requireMeta(where);
        const record = readFeedbackRecord(value.feedback, `${where}.feedback`);
        if (!this.feedback) return;
        if (this.feedback.some((held) => held.id === record.id))
          throw new SessionFormatError(`${where}.feedback.id`, `a second feedback record with id ${JSON.stringify(record.id)}`);
        if (this.feedback.length >= MAX_FEEDBACK_PER_SESSION)
          throw new SessionFormatError(where, `more feedback than a session may hold (${MAX_FEEDBACK_PER_SESSION})`);
        this.feedback.push(record);
        return;
      }
      case 'feedbackDelivered': {
        this.requireMeta(where);
        const ids = requireArray(value.ids, `${where}.ids`).map((id, index) => requireFeedbackId(id, `${where}.ids[${index}]`));
        const at = requireTime(value.at, `${where}.at`);
        const given = value.withSeq === undefined ? undefined : requireInteger(value.withSeq, `${where}.withSeq`, 0);
        if (!this.feedback) return;
        const indexes = ids.map((id, index) => this.feedbackIndex(id, `${where}.ids[${index}]`));
        // Older journals have no withSeq: the mark follows the thought whose reply carried it, so it is the last one read.
        const withSeq = given ?? (this.thoughts && this.thoughts.length > 0 ? this.thoughts.length - 1 : undefined);
        // Delivered once: a repeated mark (two processes racing) keeps the first time.
        for (const index of indexes)
          if (this.feedback[index].deliveredAt === undefined)
            this.feedback[index] = {
              ...this.feedback[index],
              deliveredAt: at,
              ...(withSeq === undefined ? {} : { deliveredWithSeq: withSeq }),
            };
        return;
      }
      case 'feedbackApplied': {
        this.requireMeta(where);
        const id = requireFeedbackId(value.id, `${where}.id`);
        const at = requireTime(value.at, `${where}.at`);
        const bySeq = requireInteger(value.bySeq, `${where}.bySeq`, 0);
        if (!this.feedback) return;
        const index = this.feedbackIndex(id, `${where}.id`);
        if (this.feedback[index].appliedAt === undefined)
          this.feedback[index] = { ...this.feedback[index], appliedAt: at, appliedBySeq: bySeq };
        return;
      }
      default:
        throw new SessionFormatError(`${where}.type`, `unknown record type ${JSON.stringify(value.type)}`);
    }
  }

  private feedbackIndex(id: string, where: string): number {
    const index = (this.feedback ?? []).findIndex((record) => record.id === id);
    if (index < 0) throw new SessionFormatError(where, `no feedback record with id ${JSON.stringify(id)} before this line`);
    return index;
  }

  private requireMeta(where: string): SessionMeta {
    if (this.meta === undefined) throw new SessionFormatError(where, 'record before the "session" record');
    return this.meta;
  }
}

/** A record refused because the journal would grow past the store's limit; nothing was written. */
export class JournalFullError extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly recordBytes: number,
    readonly maxSize: number,
  ) {
    super(`${path} holds ${size} bytes; a record of ${recordBytes} bytes would take it past the limit of ${maxSize} bytes`);
    this.name = 'JournalFullError';
  }
}

/** Thrown when a journal cannot be used at all (no session record, unreadable). */
export class UnreadableJournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableJournalError';
  }
}

/** Replays fd's lines [start, size) into `replay`; returns where the read ended and the last complete line's end. */
function replayFile(replay: JournalReplay, fd: number, start: number, size: number): LineScan {
  let lineNumber = 0;
  return scanLines(fd, start, size, (text, terminated) => replay.line(text, ++lineNumber, !terminated));
}

/**
 * Reads a whole journal, line by line (never as one string, so no size makes it unreadable). Throws
 * UnreadableJournalError when it holds no session, NotARegularFileError for a FIFO, device or symbolic link, and fs
 * errors as they come.
 */
export function readJournal(path: string, withThoughts: boolean): JournalReadResult {
  const { fd, stat } = openRegularFile(path, constants.O_RDONLY);
  try {
    const replay = new JournalReplay(
      path,
      String,
      undefined,
      withThoughts ? [] : undefined,
      withThoughts ? [] : undefined,
      withThoughts ? [] : undefined,
    );
    const scan = replayFile(replay, fd, 0, stat.size);
    if (replay.meta === undefined) {
      throw new UnreadableJournalError(`${path}: not a session journal (no valid "session" record on its first line)`);
    }
    return {
      meta: replay.meta,
      thoughts: replay.thoughts,
      strategySwitches: replay.strategySwitches,
      feedback: replay.feedback,
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      size: scan.end,
      consumed: scan.consumed,
      problems: replay.problems,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * Continues reading a journal from `consumed` (a line boundary recorded by an earlier read), applying what another
 * process appended since to `meta`. Returns undefined when the file no longer continues the one read earlier (it was
 * replaced or truncated): then the caller reads it whole.
 */
export function readJournalTail(path: string, meta: SessionMeta, consumed: number, ino: number): JournalReadResult | undefined {
  // Nothing complete was read before (not even the session record's line end): read the whole journal instead.
  if (consumed <= 0) return undefined;
  const { fd, stat } = openRegularFile(path, constants.O_RDONLY);
  try {
    if (stat.ino !== ino || stat.size < consumed) return undefined;
    // The byte before `consumed` must end a line; compact JSON lines never hold a raw newline, so anything else means
    // our recorded position is not a line boundary of this file any more.
    const before = Buffer.alloc(1);
    if (readSync(fd, before, 0, 1, consumed - 1) !== 1 || before[0] !== 0x0a) return undefined;
    const replay = new JournalReplay(path, (lineNumber) => `appended line ${lineNumber}`, meta, undefined, undefined, undefined);
    const scan = replayFile(replay, fd, consumed, stat.size);
    if (replay.meta === undefined) return undefined;
    return {
      meta: replay.meta,
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      size: scan.end,
      consumed: scan.consumed,
      problems: replay.problems,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole journal of a session, as saveSession writes it: the session, then its history in order. Lines, not one
 * string, so a session of any size can be written.
 */
export function journalLines(snapshot: SessionSnapshot): string[] {
  const switches = [...snapshot.strategySwitches].sort((a, b) => a.atSeq - b.atSeq);
  const firstStrategy = switches.length > 0 ? switches[0].from : snapshot.meta.strategy;
  let meta = resetDerived<SessionMeta>({ ...snapshot.meta, strategy: firstStrategy, stage: undefined, status: 'live' });
  delete meta.stage;
  const lines: string[] = [serializeRecord({ type: 'session', version: JOURNAL_VERSION, meta })];
  let switchIndex = 0;
  for (const thought of snapshot.thoughts) {
    while (switchIndex < switches.length && switches[switchIndex].atSeq <= thought.seq) {
      const strategySwitch = switches[switchIndex++];
      meta = { ...meta, strategy: strategySwitch.to };
      delete meta.stage;
      lines.push(serializeRecord({ type: 'meta', meta, strategySwitch }));
    }
    meta = applyThought(meta, thought);
    lines.push(serializeRecord({ type: 'thought', thought }));
  }
  for (; switchIndex < switches.length; switchIndex++) {
    const strategySwitch = switches[switchIndex];
    meta = { ...meta, strategy: strategySwitch.to };
    delete meta.stage;
    lines.push(serializeRecord({ type: 'meta', meta, strategySwitch }));
  }
  // Feedback as records that carry their delivered/applied state (a reader takes those fields as written).
  for (const feedback of snapshot.feedback ?? []) lines.push(serializeRecord({ type: 'feedback', feedback }));
  // Last, the session's own meta (title, status, stage, times) over what the thoughts imply.
  lines.push(serializeRecord({ type: 'meta', meta: snapshot.meta }));
  return lines;
}
