// Checks that data read from disk or from an imported file really has the shape of our model, naming the exact place
// of any problem ("thoughts[3].thoughtNumber: expected a whole number of at least 1, got -2"). Shared by the journal
// reader and the import formats so both accept exactly the same records.
import type { SessionMeta, SessionStatus, StrategySwitch, ThoughtRecord } from '../engine/model';
import { describeValue } from '../engine/fieldRules';
import { sessionIdProblem } from './sessionIds';

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

const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
const STATUSES: readonly SessionStatus[] = ['live', 'complete', 'abandoned'];

export type JsonObject = Record<string, unknown>;

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
  if (typeof value !== 'string' || !NAME_PATTERN.test(value)) {
    throw new SessionFormatError(where, `expected 1-64 letters, digits, "_", "-", "." or ":", got ${describeValue(value)}`);
  }
  return value;
}

export function requireInteger(value: unknown, where: string, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new SessionFormatError(where, `expected a whole number of at least ${minimum}, got ${describeValue(value)}`);
  }
  return value;
}

export function requireTime(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new SessionFormatError(where, `expected a time in milliseconds since 1970, got ${describeValue(value)}`);
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

/** The optional reference fields of a thought, shared by our records and by foreign (seed-001) thoughts. */
export function readOptionalThoughtFields(source: JsonObject, where: string, target: ThoughtRecord): void {
  if (source.isRevision !== undefined && source.isRevision !== null) target.isRevision = requireBoolean(source.isRevision, `${where}.isRevision`);
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
  if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)) {
    throw new SessionFormatError(`${where}.status`, `expected one of ${STATUSES.join(', ')}, got ${describeValue(status)}`);
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
