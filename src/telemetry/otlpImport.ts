// An OTLP/JSON trace of a session (our export, or what a collector saved from the live stream) back into a session:
// our lossless session file is rebuilt from the span attributes and handed to the same parser, bounds and warnings as
// every other session file. Plain JSON reading, no SDK: the import command loads nothing more than before.
import type { FeedbackRecord, SessionMeta, StrategySwitch, ThoughtRecord } from '../engine/model';
import {
  LOSSLESS_FORMAT,
  LOSSLESS_VERSION,
  SessionFormatError,
  parseSessionJson,
  type LosslessSessionFile,
  type ParseSessionOptions,
  type ParsedSessionFile,
} from '../storage/sessionJsonFormats';
import { parseJsonWithin } from '../storage/recordValidation';
import { FEEDBACK, FEEDBACK_EVENT, SESSION, SESSION_SPAN_NAME, STRATEGY_SWITCH, STRATEGY_SWITCH_EVENT, THOUGHT } from './attributeNames';

export interface ParsedAnySessionFile extends Omit<ParsedSessionFile, 'format'> {
  format: ParsedSessionFile['format'] | 'otlp';
}

/** An OTLP file names `resourceSpans` at its top, before any span: looking at the start avoids parsing twice. */
export function looksLikeOtlp(text: string): boolean {
  return /^\s*\{\s*"resourceSpans"\s*:/.test(text.slice(0, 200));
}

/**
 * Any session file we read: an OTLP/JSON trace of a session (ours, or one a collector saved), our lossless JSON or
 * the sequentialthinking-plus shape. Throws SessionFormatError naming what is wrong; returns only whole sessions.
 */
export function parseSessionFile(text: string, options: ParseSessionOptions = {}): ParsedAnySessionFile {
  if (!looksLikeOtlp(text)) return parseSessionJson(text, options);
  const parsed = parseJsonWithin(text, 'file');
  const { file, warnings } = losslessFromOtlp(parsed, options);
  const result = parseSessionJson(JSON.stringify(file), options);
  return { ...result, format: 'otlp', warnings: [...warnings, ...result.warnings] };
}

// ---- reading OTLP/JSON back ------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function list(value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SessionFormatError(where, 'expected an array');
  return value;
}

interface OtlpSpan {
  where: string;
  name: string;
  spanId: string;
  parentSpanId: string;
  startMs: number;
  endMs: number;
  attributes: Map<string, unknown>;
  events: { name: string; timeMs: number; attributes: Map<string, unknown> }[];
}

/** An OTLP AnyValue as a plain value (strings, numbers, booleans and arrays of them; anything else is undefined). */
function anyValue(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (typeof value.doubleValue === 'number') return value.doubleValue;
  if (value.intValue !== undefined) {
    const number = typeof value.intValue === 'string' && /^-?\d{1,16}$/.test(value.intValue) ? Number(value.intValue) : value.intValue;
    return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
  }
  if (isObject(value.arrayValue)) return list(value.arrayValue.values, 'arrayValue.values').map(anyValue);
  return undefined;
}

function attributesOf(value: unknown, where: string): Map<string, unknown> {
  const attributes = new Map<string, unknown>();
  for (const entry of list(value, where))
    if (isObject(entry) && typeof entry.key === 'string') attributes.set(entry.key, anyValue(entry.value));
  return attributes;
}

/** Unix nanoseconds (a decimal string or a number) as milliseconds. */
function millis(value: unknown, where: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,22}$/.test(text)) throw new SessionFormatError(where, 'expected Unix nanoseconds');
  return Number(BigInt(text) / 1_000_000n);
}

function readSpans(file: unknown): OtlpSpan[] {
  if (!isObject(file)) throw new SessionFormatError('file', 'expected an OTLP ExportTraceServiceRequest object');
  const spans: OtlpSpan[] = [];
  list(file.resourceSpans, 'resourceSpans').forEach((resource, r) => {
    if (!isObject(resource)) return;
    list(resource.scopeSpans, `resourceSpans[${r}].scopeSpans`).forEach((scope, s) => {
      if (!isObject(scope)) return;
      list(scope.spans, `resourceSpans[${r}].scopeSpans[${s}].spans`).forEach((span, index) => {
        const where = `resourceSpans[${r}].scopeSpans[${s}].spans[${index}]`;
        if (!isObject(span)) throw new SessionFormatError(where, 'expected a span object');
        spans.push({
          where,
          name: typeof span.name === 'string' ? span.name : '',
          spanId: typeof span.spanId === 'string' ? span.spanId : '',
          parentSpanId: typeof span.parentSpanId === 'string' ? span.parentSpanId : '',
          startMs: millis(span.startTimeUnixNano, `${where}.startTimeUnixNano`),
          endMs: millis(span.endTimeUnixNano, `${where}.endTimeUnixNano`),
          attributes: attributesOf(span.attributes, `${where}.attributes`),
          events: list(span.events, `${where}.events`).map((event, e) => {
            if (!isObject(event)) throw new SessionFormatError(`${where}.events[${e}]`, 'expected an event object');
            return {
              name: typeof event.name === 'string' ? event.name : '',
              timeMs: millis(event.timeUnixNano, `${where}.events[${e}].timeUnixNano`),
              attributes: attributesOf(event.attributes, `${where}.events[${e}].attributes`),
            };
          }),
        });
      });
    });
  });
  return spans;
}

/** Copies the attributes that are present; the lossless parser checks their types and bounds. */
function pick<T extends object>(target: T, attributes: Map<string, unknown>, names: Partial<Record<keyof T, string>>): T {
  for (const [field, name] of Object.entries(names) as [string, string][]) {
    if (attributes.get(name) !== undefined) (target as Record<string, unknown>)[field] = attributes.get(name);
  }
  return target;
}

const MISSING_TEXT = '[thought text not in this trace]';

function losslessFromOtlp(file: unknown, options: ParseSessionOptions): { file: LosslessSessionFile; warnings: string[] } {
  const warnings: string[] = [];
  const spans = readSpans(file);
  const sessions = spans.filter((span) => span.name === SESSION_SPAN_NAME && typeof span.attributes.get(SESSION.id) === 'string');
  if (sessions.length !== 1) {
    throw new SessionFormatError(
      'resourceSpans',
      sessions.length === 0
        ? `no "${SESSION_SPAN_NAME}" span with a ${SESSION.id} attribute: not a Thought Explorer session trace`
        : `${sessions.length} session spans; import one session per file`,
    );
  }
  const session = sessions[0];
  const maxThoughts = (options.limits?.maxThoughtsPerSession ?? Number.MAX_SAFE_INTEGER) + 0;
  const thoughtSpans = spans.filter((span) => span.parentSpanId === session.spanId && typeof span.attributes.get(THOUGHT.seq) === 'number');
  // Bounded before anything is built from them; the lossless parser repeats the check with its own message.
  if (thoughtSpans.length > maxThoughts)
    throw new SessionFormatError('resourceSpans', `${thoughtSpans.length} thought spans, more than the ${maxThoughts} a session may hold`);
  const others = spans.length - thoughtSpans.length - 1;
  if (others > 0) warnings.push(`${others} span(s) that are not this session's thoughts (e.g. the caller's own spans) were skipped.`);
  thoughtSpans.sort((a, b) => (a.attributes.get(THOUGHT.seq) as number) - (b.attributes.get(THOUGHT.seq) as number));

  let textless = 0;
  const thoughts = thoughtSpans.map((span) => {
    const a = span.attributes;
    const thought = pick({ timestamp: span.endMs } as Partial<ThoughtRecord> & Record<string, unknown>, a, {
      seq: THOUGHT.seq,
      thoughtNumber: THOUGHT.number,
      totalThoughts: THOUGHT.total,
      nextThoughtNeeded: THOUGHT.nextNeeded,
      stage: THOUGHT.stage,
      branchId: THOUGHT.branchId,
      branchFromThought: THOUGHT.branchFrom,
      isRevision: THOUGHT.isRevision,
      revisesThought: THOUGHT.revises,
      needsMoreThoughts: THOUGHT.needsMore,
      thought: THOUGHT.text,
    });
    if (thought.thought === undefined) {
      thought.thought = MISSING_TEXT;
      textless++;
    }
    const extra = a.get(THOUGHT.extra);
    if (typeof extra === 'string') {
      thought.extra = parseJsonWithin(extra, `${span.where} ${THOUGHT.extra}`) as Record<string, unknown>;
    }
    return thought as unknown as ThoughtRecord;
  });
  if (textless > 0)
    warnings.push(`${textless} thought(s) carry no text in this trace (streamed without the text); they read "${MISSING_TEXT}".`);

  const meta = pick(
    { createdAt: session.startMs, updatedAt: session.endMs } as Partial<SessionMeta> & Record<string, unknown>,
    session.attributes,
    {
      id: SESSION.id,
      title: SESSION.title,
      purpose: SESSION.purpose,
      strategy: SESSION.strategy,
      stage: SESSION.stage,
      status: SESSION.status,
      thoughtCount: SESSION.thoughtCount,
      revisionCount: SESSION.revisionCount,
      branchIds: SESSION.branchIds,
      lastThoughtNumber: SESSION.lastThoughtNumber,
      totalThoughts: SESSION.totalThoughts,
      askAtDecisionPoints: SESSION.askAtDecisionPoints,
      replyDetail: SESSION.replyDetail,
      strategyNamed: SESSION.strategyNamed,
      conversationId: SESSION.conversationId,
    },
  );
  const strategySwitches: StrategySwitch[] = [];
  const feedback: (FeedbackRecord & { index: number })[] = [];
  for (const event of session.events) {
    if (event.name === STRATEGY_SWITCH_EVENT) {
      strategySwitches.push(
        pick({ timestamp: event.timeMs } as Partial<StrategySwitch>, event.attributes, {
          atSeq: STRATEGY_SWITCH.atSeq,
          from: STRATEGY_SWITCH.from,
          to: STRATEGY_SWITCH.to,
        }) as StrategySwitch,
      );
    } else if (event.name === FEEDBACK_EVENT) {
      const record = pick({ createdAt: event.timeMs } as Partial<FeedbackRecord> & { index?: number }, event.attributes, {
        index: FEEDBACK.index,
        id: FEEDBACK.id,
        kind: FEEDBACK.kind,
        author: FEEDBACK.author,
        text: FEEDBACK.text,
        thoughtNumber: FEEDBACK.thoughtNumber,
        branchId: FEEDBACK.branchId,
        deliveredAt: FEEDBACK.deliveredAt,
        deliveredWithSeq: FEEDBACK.deliveredWithSeq,
        appliedAt: FEEDBACK.appliedAt,
        appliedBySeq: FEEDBACK.appliedBySeq,
      });
      feedback.push({ ...record, index: typeof record.index === 'number' ? record.index : feedback.length } as FeedbackRecord & {
        index: number;
      });
    }
  }
  feedback.sort((a, b) => a.index - b.index);
  const lossless: LosslessSessionFile = {
    format: LOSSLESS_FORMAT,
    version: LOSSLESS_VERSION,
    meta: meta as SessionMeta,
    thoughts,
    strategySwitches,
  };
  if (feedback.length > 0) lossless.feedback = feedback.map(({ index: _index, ...record }) => record);
  return { file: lossless, warnings };
}
