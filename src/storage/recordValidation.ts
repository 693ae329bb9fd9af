// Checks that data read from disk or from an imported file really has the shape of our model, naming the exact place
// of any problem ("thoughts[3].thoughtNumber: expected a whole number of at least 1, got -2"). Shared by the journal
// reader and the import formats so both accept exactly the same records.
import { MAX_TIMESTAMP, NAME_RULE, SESSION_STATUSES, isName, isTimestamp, isWholeNumberInRange } from '../engine/fieldRules';
import type { EngineLimits } from '../engine/limits';
import type { FeedbackRecord, SessionMeta, SessionSnapshot, SessionStatus, StrategySwitch, ThoughtRecord } from '../engine/model';
import { MAX_CONVERSATION_ID_LENGTH } from '../engine/fieldRules';
import { MAX_FEEDBACK_PER_SESSION, MAX_FEEDBACK_TEXT_LENGTH, isFeedbackKind, FEEDBACK_KINDS } from '../engine/fieldRules';
import { describeValue } from '../engine/fieldRules';
import { isReplyDetail } from '../engine/fieldRules';
import { sessionIdProblem } from './sessionIds';
import { errorMessage } from '../engine/browserSafe/errorMessage';

/** A record or file that does not have the expected shape; `where` names the offending field. */
export class SessionFormatError extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = 'SessionFormatError';
  }
}

export type JsonObject = Record<string, unknown>;

/** How deep a file's values may nest (our own files need about 12 levels; an import deeper than this is refused). */
export const MAX_NESTING_DEPTH = 100;

/** Parses JSON text from outside, refusing text that is not JSON or nests too deep, naming `where` either way. */
export function parseJsonWithin(text: string, where: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SessionFormatError(where, `not valid JSON (${errorMessage(error)})`);
  }
  requireNestingWithin(parsed, where);
  return parsed;
}

/**
 * Refuses a parsed value that nests deeper than `MAX_NESTING_DEPTH`, naming the field where it does. Walked with a
 * stack of its own: the code that reads a value (validation, JSON.stringify) recurses, and a 100,000-deep array threw
 * "Maximum call stack size exceeded", naming nothing.
 */
export function requireNestingWithin(value: unknown, where: string, maxDepth = MAX_NESTING_DEPTH): void {
  interface Frame {
    children: [key: string | number, value: unknown][];
    next: number;
    parent: Frame | undefined;
    key: string | number | undefined;
  }
  const childrenOf = (container: object): [string | number, unknown][] =>
    Array.isArray(container) ? container.map((child, index) => [index, child]) : Object.entries(container);
  if (value === null || typeof value !== 'object') return;
  let frame: Frame | undefined = { children: childrenOf(value), next: 0, parent: undefined, key: undefined };
  let depth = 1;
  while (frame !== undefined) {
    if (frame.next >= frame.children.length) {
      frame = frame.parent;
      depth--;
      continue;
    }
    const [key, child] = frame.children[frame.next++];
    if (child === null || typeof child !== 'object') continue;
    if (depth >= maxDepth) {
      const path: (string | number)[] = [key];
      for (let up: Frame | undefined = frame; up?.key !== undefined; up = up.parent) path.unshift(up.key);
      const shown = path
        .slice(0, 6)
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
        .join('');
      throw new SessionFormatError(
        `${where}${shown}${path.length > 6 ? '…' : ''}`,
        `nested deeper than ${maxDepth} levels; send values nested at most ${maxDepth} levels deep`,
      );
    }
    frame = { children: childrenOf(child), next: 0, parent: frame, key };
    depth++;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function requireObject(value: unknown, where: string): JsonObject {
  if (!isObject(value)) throw new SessionFormatError(where, `expected an object, got ${describeValue(value)}`);
  return value;
}

export function requireArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new SessionFormatError(where, `expected an array, got ${describeValue(value)}`);
  return value;
}

export function requireString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new SessionFormatError(where, `expected a string, got ${describeValue(value)}`);
  return value;
}

export function requireName(value: unknown, where: string): string {
  if (!isName(value)) {
    throw new SessionFormatError(where, `expected ${NAME_RULE}, got ${describeValue(value)}`);
  }
  return value;
}

export function requireInteger(value: unknown, where: string, minimum: number): number {
  if (!isWholeNumberInRange(value, minimum)) {
    throw new SessionFormatError(
      where,
      `expected a whole number from ${minimum} to ${Number.MAX_SAFE_INTEGER}, got ${describeValue(value)}`,
    );
  }
  return value;
}

export function requireTime(value: unknown, where: string): number {
  if (!isTimestamp(value)) {
    throw new SessionFormatError(
      where,
      `expected a time in milliseconds since 1970, from 0 to ${MAX_TIMESTAMP} (the year 2999), got ${describeValue(value)}`,
    );
  }
  return value;
}

export function requireBoolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new SessionFormatError(where, `expected true or false, got ${describeValue(value)}`);
  return value;
}

export function requireSessionId(value: unknown, where: string): string {
  const problem = sessionIdProblem(value);
  if (problem !== undefined) throw new SessionFormatError(where, `${problem}, got ${describeValue(value)}`);
  return value as string;
}

/** The optional reference fields of a thought, shared by our records and by foreign (sequentialthinking-plus) thoughts. */
export function readOptionalThoughtFields(source: JsonObject, where: string, target: ThoughtRecord): void {
  if (source.isRevision !== undefined && source.isRevision !== null)
    target.isRevision = requireBoolean(source.isRevision, `${where}.isRevision`);
  if (source.revisesThought !== undefined && source.revisesThought !== null) {
    target.revisesThought = requireInteger(source.revisesThought, `${where}.revisesThought`, 1);
  }
  if (source.branchFromThought !== undefined && source.branchFromThought !== null) {
    target.branchFromThought = requireInteger(source.branchFromThought, `${where}.branchFromThought`, 1);
  }
  if (source.branchId !== undefined && source.branchId !== null) target.branchId = requireName(source.branchId, `${where}.branchId`);
  if (source.needsMoreThoughts !== undefined && source.needsMoreThoughts !== null) {
    target.needsMoreThoughts = requireBoolean(source.needsMoreThoughts, `${where}.needsMoreThoughts`);
  }
  if (source.stage !== undefined && source.stage !== null) target.stage = requireName(source.stage, `${where}.stage`);
}

/** One of our ThoughtRecords, exactly (unknown keys are ignored, so newer files still open). */
export function readThoughtRecord(value: unknown, where: string): ThoughtRecord {
  const source = requireObject(value, where);
  const record: ThoughtRecord = {
    seq: requireInteger(source.seq, `${where}.seq`, 0),
    thought: requireString(source.thought, `${where}.thought`),
    thoughtNumber: requireInteger(source.thoughtNumber, `${where}.thoughtNumber`, 1),
    totalThoughts: requireInteger(source.totalThoughts, `${where}.totalThoughts`, 1),
    nextThoughtNeeded: requireBoolean(source.nextThoughtNeeded, `${where}.nextThoughtNeeded`),
    timestamp: requireTime(source.timestamp, `${where}.timestamp`),
  };
  readOptionalThoughtFields(source, where, record);
  if (source.extra !== undefined) record.extra = requireObject(source.extra, `${where}.extra`);
  return record;
}

export function readSessionMeta(value: unknown, where: string): SessionMeta {
  const source = requireObject(value, where);
  const status = source.status;
  if (typeof status !== 'string' || !(SESSION_STATUSES as readonly string[]).includes(status)) {
    throw new SessionFormatError(`${where}.status`, `expected one of ${SESSION_STATUSES.join(', ')}, got ${describeValue(status)}`);
  }
  const meta: SessionMeta = {
    id: requireSessionId(source.id, `${where}.id`),
    strategy: requireName(source.strategy, `${where}.strategy`),
    status: status as SessionStatus,
    createdAt: requireTime(source.createdAt, `${where}.createdAt`),
    updatedAt: requireTime(source.updatedAt, `${where}.updatedAt`),
    thoughtCount: requireInteger(source.thoughtCount, `${where}.thoughtCount`, 0),
    revisionCount: requireInteger(source.revisionCount, `${where}.revisionCount`, 0),
    branchIds: requireArray(source.branchIds, `${where}.branchIds`).map((id, index) => requireName(id, `${where}.branchIds[${index}]`)),
    lastThoughtNumber: requireInteger(source.lastThoughtNumber, `${where}.lastThoughtNumber`, 0),
    totalThoughts: requireInteger(source.totalThoughts, `${where}.totalThoughts`, 0),
  };
  if (source.title !== undefined && source.title !== null) meta.title = requireString(source.title, `${where}.title`);
  if (source.purpose !== undefined && source.purpose !== null) meta.purpose = requireString(source.purpose, `${where}.purpose`);
  if (source.stage !== undefined && source.stage !== null) meta.stage = requireName(source.stage, `${where}.stage`);
  if (source.askAtDecisionPoints !== undefined && source.askAtDecisionPoints !== null)
    meta.askAtDecisionPoints = requireBoolean(source.askAtDecisionPoints, `${where}.askAtDecisionPoints`);
  // A level this version does not know (a later one wrote it) falls back to the server's: never a reason to refuse the session.
  if (isReplyDetail(source.replyDetail)) meta.replyDetail = source.replyDetail;
  if (source.strategyNamed === true) meta.strategyNamed = true;
  // Only a provenance label: a malformed one (hand-edited file) is dropped, never a reason to refuse the session.
  if (
    typeof source.conversationId === 'string' &&
    source.conversationId !== '' &&
    source.conversationId.length <= MAX_CONVERSATION_ID_LENGTH
  )
    meta.conversationId = source.conversationId;
  return meta;
}

export function readStrategySwitch(value: unknown, where: string): StrategySwitch {
  const source = requireObject(value, where);
  return {
    atSeq: requireInteger(source.atSeq, `${where}.atSeq`, 0),
    from: requireName(source.from, `${where}.from`),
    to: requireName(source.to, `${where}.to`),
    timestamp: requireTime(source.timestamp, `${where}.timestamp`),
  };
}

/** A feedback id: the engine writes "fb-" and hex; any safe name is accepted back. */
export function requireFeedbackId(value: unknown, where: string): string {
  return requireName(value, where);
}

/** One FeedbackRecord, by the same bounds as feedback typed in the explorer (feedbackRules.ts). */
export function readFeedbackRecord(value: unknown, where: string): FeedbackRecord {
  const source = requireObject(value, where);
  if (!isFeedbackKind(source.kind))
    throw new SessionFormatError(`${where}.kind`, `expected one of ${FEEDBACK_KINDS.join(', ')}, got ${describeValue(source.kind)}`);
  if (source.author !== 'user') throw new SessionFormatError(`${where}.author`, `expected "user", got ${describeValue(source.author)}`);
  const record: FeedbackRecord = {
    id: requireFeedbackId(source.id, `${where}.id`),
    kind: source.kind,
    author: 'user',
    createdAt: requireTime(source.createdAt, `${where}.createdAt`),
  };
  const needsThought = source.kind === 'reject' || source.kind === 'branch';
  if (source.thoughtNumber !== undefined || needsThought)
    record.thoughtNumber = requireInteger(source.thoughtNumber, `${where}.thoughtNumber`, 1);
  const needsText = source.kind === 'reject' || source.kind === 'note';
  if (source.text !== undefined || needsText) {
    const text = requireString(source.text, `${where}.text`);
    if (text.trim() === '') throw new SessionFormatError(`${where}.text`, 'expected text, got an empty string');
    if (text.length > MAX_FEEDBACK_TEXT_LENGTH)
      throw new SessionFormatError(`${where}.text`, `${text.length} characters, more than feedback may hold (${MAX_FEEDBACK_TEXT_LENGTH})`);
    record.text = text;
  }
  if (source.branchId !== undefined) record.branchId = requireName(source.branchId, `${where}.branchId`);
  if (source.deliveredAt !== undefined) record.deliveredAt = requireTime(source.deliveredAt, `${where}.deliveredAt`);
  if (source.deliveredWithSeq !== undefined)
    record.deliveredWithSeq = requireInteger(source.deliveredWithSeq, `${where}.deliveredWithSeq`, 0);
  if (source.appliedAt !== undefined) record.appliedAt = requireTime(source.appliedAt, `${where}.appliedAt`);
  if (source.appliedBySeq !== undefined) record.appliedBySeq = requireInteger(source.appliedBySeq, `${where}.appliedBySeq`, 0);
  return record;
}

/** A session's feedback list: each record valid, ids unique, no more than a session may hold. */
export function readFeedbackList(value: unknown, where: string): FeedbackRecord[] {
  const list = requireArray(value, where);
  if (list.length > MAX_FEEDBACK_PER_SESSION)
    throw new SessionFormatError(where, `${list.length} records, more than a session may hold (${MAX_FEEDBACK_PER_SESSION})`);
  const ids = new Set<string>();
  return list.map((item, index) => {
    const record = readFeedbackRecord(item, `${where}[${index}]`);
    if (ids.has(record.id)) throw new SessionFormatError(`${where}[${index}].id`, `a second record with id ${JSON.stringify(record.id)}`);
    ids.add(record.id);
    return record;
  });
}

/**
 * Sets `key` on `target` as an own data property, whatever the key: a plain assignment of "__proto__" would replace
 * the object's prototype and lose the value. Keys in foreign files are data, kept as they are.
 */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Refuses a session the engine would not have accepted thought by thought: more thoughts than maxThoughtsPerSession,
 * or a thought longer than maxThoughtLength (the same limits as tool input, so an import cannot hold what no agent
 * could have sent). Names the field and the limit.
 */
export function requireWithinLimits(
  snapshot: SessionSnapshot,
  limits: Pick<EngineLimits, 'maxThoughtLength' | 'maxThoughtsPerSession'>,
): void {
  if (snapshot.thoughts.length > limits.maxThoughtsPerSession) {
    throw new SessionFormatError(
      'thoughts',
      `${snapshot.thoughts.length} thoughts, more than a session may hold (maxThoughtsPerSession ${limits.maxThoughtsPerSession}); split the file into several sessions`,
    );
  }
  snapshot.thoughts.forEach((thought, index) => {
    if (thought.thought.length > limits.maxThoughtLength) {
      throw new SessionFormatError(
        `thoughts[${index}].thought`,
        `${thought.thought.length} characters, more than a thought may hold (maxThoughtLength ${limits.maxThoughtLength})`,
      );
    }
  });
}

/** Checks a whole snapshot by the rules the journal reader applies, so a saved session reads back as it was given. */
export function requireStorableSnapshot(snapshot: SessionSnapshot): void {
  readSessionMeta(snapshot.meta, 'meta');
  requireArray(snapshot.thoughts, 'thoughts').forEach((thought, index) => readThoughtRecord(thought, `thoughts[${index}]`));
  requireArray(snapshot.strategySwitches, 'strategySwitches').forEach((strategySwitch, index) =>
    readStrategySwitch(strategySwitch, `strategySwitches[${index}]`),
  );
  if (snapshot.feedback !== undefined) readFeedbackList(snapshot.feedback, 'feedback');
}
