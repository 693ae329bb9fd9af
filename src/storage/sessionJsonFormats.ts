// Session files in and out: our lossless JSON shape, and the sequentialthinking-plus shape `{id, timestamp,
// thoughtHistory, branches}` that sequentialthinking-plus and think-strategies save, so their sessions open here too.
// Imports are validated completely before anything is returned: a file is taken whole or refused with an error that
// names the offending field, never half-imported.
import type { FeedbackRecord, ReferenceThoughtFields, SessionMeta, SessionSnapshot, StrategySwitch, ThoughtRecord } from '../engine/model';
import { describeValue } from '../engine/fieldRules';
import { metaFromThoughts, noThoughtCounters, purposeOf } from '../engine/browserSafe/sessionMeta';
import {
  SessionFormatError,
  readFeedbackList,
  readOptionalThoughtFields,
  readSessionMeta,
  readStrategySwitch,
  readThoughtRecord,
  requireArray,
  requireBoolean,
  requireInteger,
  requireName,
  parseJsonWithin,
  requireObject,
  requireSessionId,
  requireString,
  requireWithinLimits,
  setOwn,
  type JsonObject,
} from './recordValidation';
import { feedbackRefusal, isTimestamp } from '../engine/fieldRules';
import { DEFAULT_LIMITS, type EngineLimits } from '../engine/limits';
import { appendAll } from '../engine/browserSafe/arrayMath';

export { SessionFormatError } from './recordValidation';

export const LOSSLESS_FORMAT = 'thought-explorer-session';
export const LOSSLESS_VERSION = 1;

export interface LosslessSessionFile {
  format: typeof LOSSLESS_FORMAT;
  version: typeof LOSSLESS_VERSION;
  meta: SessionMeta;
  thoughts: ThoughtRecord[];
  strategySwitches: StrategySwitch[];
  /** The person's feedback (absent when none; older files have none). */
  feedback?: FeedbackRecord[];
}

/**
 * The key under which a sequentialthinking-plus thought carries what only we record (`extra`: tool recommendations,
 * deliberation roles, …). Namespaced so other readers of the shape ignore it; our import reads it back.
 */
export const PLUS_EXTRA_KEY = 'thoughtExplorer';

/** The sequentialthinking-plus shape. Branch thoughts appear both in thoughtHistory and under their branch, as the reference keeps them. */
export interface SequentialThinkingPlusFile {
  id: string;
  timestamp: string;
  thoughtHistory: SequentialThinkingPlusThought[];
  branches: Record<string, SequentialThinkingPlusThought[]>;
}

export interface SequentialThinkingPlusThought extends ReferenceThoughtFields {
  [extra: string]: unknown;
}

export interface ParsedSessionFile {
  snapshot: SessionSnapshot;
  format: 'thought-explorer' | 'sequentialthinking-plus';
  /** Things accepted but worth telling (e.g. a revision of a thought the file does not hold). */
  warnings: string[];
}

export interface ParseSessionOptions {
  /** Store the session under this id instead of the file's (e.g. when the file's id is not a valid one). */
  id?: string;
  /** For sequentialthinking-plus files without a usable timestamp. */
  now?: () => number;
  /** The engine's limits the session must keep (default: DEFAULT_LIMITS), as for thoughts sent by an agent. */
  limits?: Pick<EngineLimits, 'maxThoughtLength' | 'maxThoughtsPerSession'>;
}

/** Our own shape: everything the store holds, re-importable without loss. */
export function toLosslessJson(snapshot: SessionSnapshot): string {
  const file: LosslessSessionFile = {
    format: LOSSLESS_FORMAT,
    version: LOSSLESS_VERSION,
    meta: snapshot.meta,
    thoughts: snapshot.thoughts,
    strategySwitches: snapshot.strategySwitches,
  };
  if (snapshot.feedback !== undefined && snapshot.feedback.length > 0) file.feedback = snapshot.feedback;
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The sequentialthinking-plus shape, for tools that read sequentialthinking-plus / think-strategies sessions. */
export function toSequentialThinkingPlusJson(snapshot: SessionSnapshot): string {
  // Branch names are the agent's: a null-prototype object makes "__proto__" or "constructor" plain keys.
  const branches: Record<string, SequentialThinkingPlusThought[]> = Object.create(null) as Record<string, SequentialThinkingPlusThought[]>;
  const thoughtHistory = snapshot.thoughts.map((record) => {
    const thought: SequentialThinkingPlusThought = {
      thought: record.thought,
      thoughtNumber: record.thoughtNumber,
      totalThoughts: record.totalThoughts,
      nextThoughtNeeded: record.nextThoughtNeeded,
      isRevision: record.isRevision ?? false,
    };
    if (record.revisesThought !== undefined) thought.revisesThought = record.revisesThought;
    if (record.branchFromThought !== undefined) thought.branchFromThought = record.branchFromThought;
    if (record.branchId !== undefined) thought.branchId = record.branchId;
    if (record.needsMoreThoughts !== undefined) thought.needsMoreThoughts = record.needsMoreThoughts;
    if (record.stage !== undefined) thought.stage = record.stage;
    thought.timestamp = new Date(record.timestamp).toISOString();
    if (record.extra !== undefined && Object.keys(record.extra).length > 0) thought[PLUS_EXTRA_KEY] = record.extra;
    if (record.branchId !== undefined && record.branchFromThought !== undefined) (branches[record.branchId] ??= []).push(thought);
    return thought;
  });
  const file: SequentialThinkingPlusFile & { strategy: string } = {
    id: snapshot.meta.id,
    timestamp: new Date(snapshot.meta.createdAt).toISOString(),
    thoughtHistory,
    branches,
    strategy: snapshot.meta.strategy,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Parses a session file in either shape. Throws SessionFormatError naming what is wrong; returns only whole sessions. */
export function parseSessionJson(text: string, options: ParseSessionOptions = {}): ParsedSessionFile {
  const parsed = parseJsonWithin(text, 'file');
  const file = requireObject(parsed, 'file');
  let result: ParsedSessionFile | undefined;
  if (file.format !== undefined) {
    if (file.format !== LOSSLESS_FORMAT)
      throw new SessionFormatError('format', `expected "${LOSSLESS_FORMAT}", got ${describeValue(file.format)}`);
    result = parseLossless(file, options);
  } else if (file.thoughtHistory !== undefined) {
    result = parseSequentialThinkingPlus(file, options);
  }
  if (result !== undefined) {
    requireWithinLimits(result.snapshot, options.limits ?? DEFAULT_LIMITS);
    appendAll(result.warnings, boundExtras(result.snapshot.thoughts));
    appendAll(result.warnings, dropRefusedFeedback(result.snapshot));
    return result;
  }
  throw new SessionFormatError(
    'file',
    `not a session file: expected {"format": "${LOSSLESS_FORMAT}", ...} or the sequentialthinking-plus shape {id, timestamp, thoughtHistory, branches}`,
  );
}

function parseLossless(file: JsonObject, options: ParseSessionOptions): ParsedSessionFile {
  if (file.version !== LOSSLESS_VERSION)
    throw new SessionFormatError('version', `expected ${LOSSLESS_VERSION}, got ${describeValue(file.version)}`);
  const meta = readSessionMeta(file.meta, 'meta');
  if (options.id !== undefined) meta.id = requireSessionId(options.id, 'id');
  const thoughts = requireArray(file.thoughts, 'thoughts').map((value, index) => {
    const thought = readThoughtRecord(value, `thoughts[${index}]`);
    if (thought.seq !== index)
      throw new SessionFormatError(`thoughts[${index}].seq`, `expected ${index} (thoughts in arrival order), got ${thought.seq}`);
    return thought;
  });
  const strategySwitches = requireArray(file.strategySwitches ?? [], 'strategySwitches').map((value, index) => {
    const strategySwitch = readStrategySwitch(value, `strategySwitches[${index}]`);
    if (strategySwitch.atSeq > thoughts.length) {
      throw new SessionFormatError(
        `strategySwitches[${index}].atSeq`,
        `expected at most ${thoughts.length} (the number of thoughts), got ${strategySwitch.atSeq}`,
      );
    }
    return strategySwitch;
  });
  // The counters must agree with the thoughts: a file that disagrees with itself is refused rather than guessed at.
  const derived = metaFromThoughts(meta, thoughts);
  for (const field of ['thoughtCount', 'revisionCount', 'lastThoughtNumber'] as const) {
    if (meta[field] !== derived[field])
      throw new SessionFormatError(`meta.${field}`, `the thoughts give ${derived[field]}, the meta says ${meta[field]}`);
  }
  if (JSON.stringify(meta.branchIds) !== JSON.stringify(derived.branchIds)) {
    throw new SessionFormatError(
      'meta.branchIds',
      `the thoughts give ${describeValue(derived.branchIds)}, the meta says ${describeValue(meta.branchIds)}`,
    );
  }
  const warnings = referenceWarnings(thoughts);
  const snapshot: SessionSnapshot = { meta, thoughts, strategySwitches };
  if (file.feedback !== undefined) {
    const feedback = readFeedbackList(file.feedback, 'feedback');
    if (feedback.length > 0) snapshot.feedback = feedback;
  }
  return { snapshot, format: 'thought-explorer', warnings };
}

const PLUS_KNOWN_FIELDS = new Set([
  'thought',
  'thoughtNumber',
  'totalThoughts',
  'nextThoughtNeeded',
  'isRevision',
  'revisesThought',
  'branchFromThought',
  'branchId',
  'needsMoreThoughts',
  'stage',
  'timestamp',
]);

function parseSequentialThinkingPlus(file: JsonObject, options: ParseSessionOptions): ParsedSessionFile {
  const warnings: string[] = [];
  const id = options.id !== undefined ? requireSessionId(options.id, 'id') : requireSessionId(file.id, 'id');
  const now = options.now ?? Date.now;
  let createdAt: number;
  if (file.timestamp === undefined) {
    createdAt = now();
    warnings.push('The file has no timestamp; the session is dated now.');
  } else {
    createdAt = parseTime(file.timestamp, 'timestamp');
  }
  const strategy = file.strategy === undefined || file.strategy === null ? 'linear' : requireName(file.strategy, 'strategy');

  const history = requireArray(file.thoughtHistory, 'thoughtHistory');
  const thoughts: ThoughtRecord[] = history.map((value, index) => readPlusThought(value, `thoughtHistory[${index}]`, index, createdAt));
  // The history's own last thought says whether the thinking finished; branch-only thoughts added below do not.
  const finished = thoughts.length > 0 && !thoughts[thoughts.length - 1].nextThoughtNeeded;

  // Branch thoughts are normally in thoughtHistory too; any that are only under `branches` are added after it.
  if (file.branches !== undefined && file.branches !== null) {
    const branches = requireObject(file.branches, 'branches');
    const known = new Set(thoughts.map(plusThoughtKey));
    for (const [branchId, list] of Object.entries(branches)) {
      requireName(branchId, `branches[${JSON.stringify(branchId)}] (branch name)`);
      requireArray(list, `branches.${branchId}`).forEach((value, index) => {
        const where = `branches.${branchId}[${index}]`;
        const thought = readPlusThought(value, where, thoughts.length, createdAt);
        if (thought.branchId !== undefined && thought.branchId !== branchId) {
          throw new SessionFormatError(
            `${where}.branchId`,
            `expected "${branchId}" (the branch it is listed under), got ${describeValue(thought.branchId)}`,
          );
        }
        thought.branchId = branchId;
        if (!known.has(plusThoughtKey(thought))) {
          known.add(plusThoughtKey(thought));
          thoughts.push(thought);
          warnings.push(`${where} was only listed under its branch; it is added after the thought history.`);
        }
      });
    }
  }
  if (thoughts.length === 0) throw new SessionFormatError('thoughtHistory', 'expected at least one thought');

  const meta = metaFromThoughts<SessionMeta>(
    {
      id,
      strategy,
      status: 'live',
      createdAt,
      updatedAt: createdAt,
      ...noThoughtCounters(),
      totalThoughts: thoughts[0].totalThoughts,
      purpose: purposeOf(thoughts[0].thought),
    },
    thoughts,
  );
  // A saved session is not live anywhere: it either finished or was left.
  meta.status = finished ? 'complete' : 'abandoned';
  appendAll(warnings, referenceWarnings(thoughts));
  return { snapshot: { meta, thoughts, strategySwitches: [] }, format: 'sequentialthinking-plus', warnings };
}

function readPlusThought(value: unknown, where: string, seq: number, createdAt: number): ThoughtRecord {
  const source = requireObject(value, where);
  const thought = requireString(source.thought, `${where}.thought`);
  if (thought.trim() === '') throw new SessionFormatError(`${where}.thought`, 'expected a non-empty string');
  const record: ThoughtRecord = {
    seq,
    thought,
    thoughtNumber: requireInteger(source.thoughtNumber, `${where}.thoughtNumber`, 1),
    totalThoughts: requireInteger(source.totalThoughts, `${where}.totalThoughts`, 1),
    nextThoughtNeeded: requireBoolean(source.nextThoughtNeeded, `${where}.nextThoughtNeeded`),
    timestamp: source.timestamp === undefined || source.timestamp === null ? createdAt : parseTime(source.timestamp, `${where}.timestamp`),
  };
  // As the reference does, an exceeded estimate grows to the thought's number.
  if (record.totalThoughts < record.thoughtNumber) record.totalThoughts = record.thoughtNumber;
  readOptionalThoughtFields(source, where, record);
  if (record.revisesThought !== undefined && record.isRevision !== true) {
    throw new SessionFormatError(`${where}.revisesThought`, 'expected isRevision: true alongside it');
  }
  if (record.branchFromThought !== undefined && record.branchId === undefined) {
    throw new SessionFormatError(`${where}.branchId`, `expected a branch name alongside branchFromThought ${record.branchFromThought}`);
  }
  // Fields other tools added are kept as they are; ours come back from their namespace (and win over a same-named one).
  const extra: Record<string, unknown> = {};
  for (const [key, fieldValue] of Object.entries(source))
    if (!PLUS_KNOWN_FIELDS.has(key) && key !== PLUS_EXTRA_KEY) setOwn(extra, key, fieldValue);
  if (source[PLUS_EXTRA_KEY] !== undefined && source[PLUS_EXTRA_KEY] !== null) {
    for (const [key, fieldValue] of Object.entries(requireObject(source[PLUS_EXTRA_KEY], `${where}.${PLUS_EXTRA_KEY}`)))
      setOwn(extra, key, fieldValue);
  }
  if (Object.keys(extra).length > 0) record.extra = extra;
  return record;
}

function plusThoughtKey(thought: ThoughtRecord): string {
  return JSON.stringify([thought.thoughtNumber, thought.branchId ?? null, thought.thought]);
}

function parseTime(value: unknown, where: string): number {
  const time = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!isTimestamp(time)) {
    throw new SessionFormatError(
      where,
      `expected an ISO date or milliseconds since 1970, from 1970 to the year 2999, got ${describeValue(value)}`,
    );
  }
  return time;
}

/**
 * Revisions and branches that point at thoughts the file does not hold before them: kept, but said, as the engine
 * records such a thought live with a warning (sessionRules.ts).
 */
function referenceWarnings(thoughts: readonly ThoughtRecord[]): string[] {
  const numbers = new Set<number>();
  const warnings: string[] = [];
  for (const thought of thoughts) {
    if (thought.revisesThought !== undefined && !numbers.has(thought.revisesThought)) {
      warnings.push(`Thought ${thought.seq + 1} revises thought ${thought.revisesThought}, which the file does not hold before it.`);
    }
    if (thought.branchFromThought !== undefined && !numbers.has(thought.branchFromThought)) {
      warnings.push(
        `Thought ${thought.seq + 1} branches from thought ${thought.branchFromThought}, which the file does not hold before it.`,
      );
    }
    numbers.add(thought.thoughtNumber);
  }
  return warnings;
}

/**
 * Most characters (as JSON) of the fields a thought carries besides the thought model's own (`extra`: other tools'
 * fields, our QA steps, recommendations and deliberation facts) that an import keeps; fields past it are dropped.
 */
export const MAX_IMPORTED_EXTRA_LENGTH = 64_000;

/** Drops, field by field, what makes a thought's extra longer than MAX_IMPORTED_EXTRA_LENGTH; says what and why. */
function boundExtras(thoughts: ThoughtRecord[]): string[] {
  const warnings: string[] = [];
  for (const thought of thoughts) {
    if (thought.extra === undefined) continue;
    let size = 2;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(thought.extra)) {
      const length = (JSON.stringify(value) ?? '').length + JSON.stringify(key).length + 2;
      if (size + length > MAX_IMPORTED_EXTRA_LENGTH) {
        warnings.push(
          `Thought ${thought.seq + 1}: field ${describeValue(key)} (${length} characters) dropped; the fields a thought carries besides its own may take at most ${MAX_IMPORTED_EXTRA_LENGTH} characters.`,
        );
        continue;
      }
      size += length;
      setOwn(kept, key, value);
    }
    if (Object.keys(kept).length > 0) thought.extra = kept;
    else delete thought.extra;
  }
  return warnings;
}

/**
 * Feedback the engine would have refused when it was given (about a thought the session does not hold, or given after
 * the session ended) is dropped, with the engine's own reason: an import means the same rules as live.
 */
function dropRefusedFeedback(snapshot: SessionSnapshot): string[] {
  if (snapshot.feedback === undefined) return [];
  const { meta, thoughts } = snapshot;
  const thoughtNumbers = new Set(thoughts.map((thought) => thought.thoughtNumber));
  const endedAt =
    meta.status === 'live' ? Number.POSITIVE_INFINITY : thoughts.reduce((latest, thought) => Math.max(latest, thought.timestamp), 0);
  const warnings: string[] = [];
  snapshot.feedback = snapshot.feedback.filter((record) => {
    const status = record.createdAt <= endedAt ? 'live' : meta.status;
    const refusal = feedbackRefusal({ id: meta.id, status, thoughtNumbers }, record.thoughtNumber);
    if (refusal === undefined) return true;
    warnings.push(`Feedback ${record.id} dropped: ${refusal}${status === 'live' ? '' : ' (it was given after the session ended)'}`);
    return false;
  });
  if (snapshot.feedback.length === 0) delete snapshot.feedback;
  return warnings;
}
