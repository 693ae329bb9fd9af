// Live trace streaming: each recorded thought becomes a span at once (from the engine's events), the session span
// follows when the session ends or the process stops. The SDK's BatchSpanProcessor sends them in the background with
// a bounded queue, so the tool reply never waits on the collector: a slow, failing or absent collector costs spans
// (counted as dropped), never a reply or a journaled thought. The exporter is given by the caller (otlpExporter.ts
// makes the official OTLP/HTTP one), so this module loads no network code.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, trace, type Context, type SpanContext, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator, ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { EngineEvent } from '../engine/events';
import type { SessionSnapshot, ThoughtRecord } from '../engine/model';
import { ThoughtLinkResolver } from '../diagrams/thoughtLinks';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import type { TraceStreamStats } from '../shared/traceStreamStats';
import { SERVICE_NAME, TRACE_SCOPE } from './attributeNames';
import { redactEndpoint } from './otlpEndpoint';
import { SessionSpanWriter, sessionTraceOf, thoughtStartTime, type DecisionRecord, type SessionTrace } from './sessionSpans';

export interface LiveTraceOptions {
  exporter: SpanExporter;
  endpoint: string;
  protocol: string;
  includeText: boolean;
  /** Spans held while the collector is slow; past it new spans are dropped and counted. */
  maxQueueSize?: number;
  /** How long spans wait to be sent together. */
  scheduledDelayMillis?: number;
  /** How long one batch may take before the processor gives up on it. */
  exportTimeoutMillis?: number;
  /** How long one export may take in all: past it its spans count as dropped, whatever the exporter still does. */
  requestLimitMillis?: number;
  version?: string;
  /** The engine's own sessions, to resolve the links of a session this process did not see begin. */
  loadSession?: (id: string) => SessionSnapshot | undefined;
}

export const DEFAULT_MAX_QUEUE_SIZE = 2048;
/** The events a streamed session span keeps (the newest): the SDK's default span limit, which the stream always had. */
const SDK_EVENT_COUNT_LIMIT = 128;
/** How long noted events wait to be made into spans (the batch processor waits longer still to send them). */
const DRAIN_DELAY_MS = 50;
/** Sessions whose links and times the stream keeps at once (an engine holds a few live sessions at a time). */
const MAX_TRACKED_SESSIONS = 256;
/** Sessions whose trace (their own, or a caller's) is remembered after they were forgotten: small entries. */
const MAX_REMEMBERED_TRACES = 4096;

interface LiveSession {
  target: SessionTrace;
  resolver: ThoughtLinkResolver;
  /** Seq the resolver has seen up to (exclusive). */
  nextSeq: number;
  previousTimestamp: number;
  /** The session span is owed: thoughts were sent since it was last written. */
  spanOwed: boolean;
}

/** An event noted for the next drain. */
type Noted =
  | { kind: 'thought'; sessionId: string; createdAt: number; strategy: string; thought: ThoughtRecord; caller: SpanContext | undefined }
  | { kind: 'ended'; sessionId: string; at: number }
  | { kind: 'deleted'; sessionId: string }
  | { kind: 'decision'; sessionId: string; decision: DecisionRecord };

/** W3C trace context fields of a tools/call's `_meta` (strings only; anything else is ignored). */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (typeof carrier[key] === 'string' ? (carrier[key] as string) : undefined),
};
const W3C = new W3CTraceContextPropagator();

/** The caller's span from a request's `_meta` (`traceparent`, `tracestate`), if it carries a valid one. */
export function callerSpanContext(meta: unknown): SpanContext | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const context: Context = W3C.extract(ROOT_CONTEXT, meta as Record<string, unknown>, META_GETTER);
  const span = trace.getSpanContext(context);
  return span && trace.isSpanContextValid(span) ? span : undefined;
}

/** Counts what the exporter sends and loses; the processor itself only logs its drops. */
class CountingExporter implements SpanExporter {
  handed = 0;
  exported = 0;
  failed = 0;
  lastError: string | undefined;

  constructor(
    private readonly inner: SpanExporter,
    private readonly changed: () => void,
    private readonly limitMillis: number | undefined,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.handed += spans.length;
    let answered = false;
    // A collector that answers slowly must not leave its spans counted as neither sent nor lost.
    const limit =
      this.limitMillis === undefined
        ? undefined
        : setTimeout(
            () => done({ code: ExportResultCode.FAILED, error: new Error(`the collector did not answer within ${this.limitMillis} ms`) }),
            this.limitMillis,
          );
    limit?.unref();
    const done = (result: ExportResult) => {
      if (answered) return;
      answered = true;
      clearTimeout(limit);
      if (result.code === ExportResultCode.SUCCESS) this.exported += spans.length;
      else {
        this.failed += spans.length;
        this.lastError = result.error ? redactEndpoint(errorMessage(result.error)) : 'the collector did not accept the spans';
      }
      this.changed();
      resultCallback(result);
    };
    try {
      this.inner.export(spans, done);
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * Mirrors the batch processor's queue (spans it accepted minus spans handed to the exporter) so that a span it would
 * drop for a full queue is counted here instead of only logged.
 */
class BoundedQueue implements SpanProcessor {
  accepted = 0;
  droppedFull = 0;

  constructor(
    private readonly inner: BatchSpanProcessor,
    private readonly exporter: CountingExporter,
    private readonly maxQueueSize: number,
    private readonly changed: () => void,
  ) {}

  get queued(): number {
    return this.accepted - this.exporter.handed;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.queued >= this.maxQueueSize) {
      this.droppedFull++;
      this.changed();
      return;
    }
    this.accepted++;
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

export class LiveTraceStreamer {
  private readonly exporter: CountingExporter;
  private readonly queue: BoundedQueue;
  private readonly writer: SessionSpanWriter;
  private readonly sessions = new Map<string, LiveSession>();
  /** Per session: its trace and its newest thought, kept after the session is forgotten (small entries). */
  private readonly remembered = new Map<string, { target: SessionTrace; lastSeq?: number; lastTimestamp?: number }>();
  private readonly listeners = new Set<() => void>();
  /**
   * The caller's span of the tools/call whose work is running. Async-local, not a field: a deliberation records its
   * thoughts after awaits on the model, while other calls run in between, and each must keep its own caller.
   */
  private readonly caller = new AsyncLocalStorage<SpanContext | undefined>();
  private closed = false;
  /** Events noted by the listener, made into spans by the next drain. */
  private pending: Noted[] = [];
  private drainScheduled = false;
  private readonly maxQueueSize: number;
  private readonly notify: () => void;

  constructor(private readonly options: LiveTraceOptions) {
    const changed = () => this.listeners.forEach((listener) => listener());
    this.notify = changed;
    this.exporter = new CountingExporter(options.exporter, changed, options.requestLimitMillis);
    const maxQueueSize = options.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE;
    this.maxQueueSize = maxQueueSize;
    const batch = new BatchSpanProcessor({
      exporter: this.exporter,
      maxQueueSize,
      maxExportBatchSize: Math.min(512, maxQueueSize),
      scheduledDelayMillis: options.scheduledDelayMillis ?? 1000,
      // Longer than the request limit, so that the counting exporter answers (and counts) first.
      exportTimeoutMillis: options.exportTimeoutMillis ?? Math.max(15_000, (options.requestLimitMillis ?? 0) + 1000),
    });
    this.queue = new BoundedQueue(batch, this.exporter, maxQueueSize, changed);
    this.writer = new SessionSpanWriter(this.queue, {
      includeText: options.includeText,
      resource: resourceFromAttributes({
        'service.name': SERVICE_NAME,
        ...(options.version ? { 'service.version': options.version } : {}),
      }),
      scope: { name: TRACE_SCOPE, version: options.version },
      eventCountLimit: SDK_EVENT_COUNT_LIMIT,
    });
  }

  stats(): TraceStreamStats {
    return {
      endpoint: redactEndpoint(this.options.endpoint),
      protocol: this.options.protocol,
      includesText: this.options.includeText,
      exported: this.exporter.exported,
      dropped: this.exporter.failed + this.queue.droppedFull,
      queued: this.queue.queued,
      ...(this.exporter.lastError !== undefined ? { lastError: this.exporter.lastError } : {}),
    };
  }

  /** Called when the counters change (a batch answered, a span dropped). */
  onStatsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs a tools/call's work with its request `_meta`, so a session it starts joins the caller's trace. `run` may be
   * async: thoughts it records after an await (a deliberation's model calls) still carry this call's caller.
   */
  inCallContext<T>(meta: unknown, run: () => T): T {
    return this.caller.run(callerSpanContext(meta), run);
  }

  /**
   * The engine listener: it only notes the event (and the caller's trace context of the call that caused it); the
   * spans are made a moment later, off the tool call's path, so a reply never waits on span work. Never throws into the
   * engine; past the queue's size, events are dropped and counted.
   */
  readonly onEngineEvent = (event: EngineEvent): void => {
    if (this.closed || (event.type !== 'thoughtAdded' && event.type !== 'sessionEnded' && event.type !== 'sessionDeleted')) return;
    if (this.pending.length >= this.maxQueueSize) {
      this.queue.droppedFull++;
      this.notify();
      return;
    }
    // Only what the span needs: the event's session meta (a new object per thought) is not held until the drain.
    this.pending.push(
      event.type === 'thoughtAdded'
        ? {
            kind: 'thought',
            sessionId: event.meta.id,
            createdAt: event.meta.createdAt,
            strategy: event.meta.strategy,
            thought: event.thought,
            caller: this.caller.getStore(),
          }
        : event.type === 'sessionEnded'
          ? { kind: 'ended', sessionId: event.meta.id, at: event.meta.updatedAt }
          : { kind: 'deleted', sessionId: event.sessionId },
    );
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      // A short pause gathers a burst of thoughts into one pass, so span work rarely meets the next tool call.
      setTimeout(this.drain, DRAIN_DELAY_MS).unref();
    }
  };

  /** Makes the spans of the events noted so far. */
  private readonly drain = (): void => {
    this.drainScheduled = false;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    for (const item of events) {
      try {
        if (item.kind === 'thought') this.thoughtAdded(item.sessionId, item.createdAt, item.strategy, item.thought, item.caller);
        else if (item.kind === 'decision') this.decisionAnswered(item.sessionId, item.decision);
        else if (item.kind === 'ended') {
          this.writeSessionSpan(item.sessionId, item.at);
          // Forgotten once its span is out; a thought added later seeds the session again from the engine.
          this.sessions.delete(item.sessionId);
        } else {
          this.sessions.delete(item.sessionId);
          this.remembered.delete(item.sessionId);
        }
      } catch (error) {
        this.queue.droppedFull++;
        this.exporter.lastError = `could not make a span: ${errorMessage(error)}`;
        this.notify();
      }
    }
  };

  private thoughtAdded(
    sessionId: string,
    createdAt: number,
    strategy: string,
    thought: ThoughtRecord,
    caller: SpanContext | undefined,
  ): void {
    let live = this.sessions.get(sessionId);
    if (live === undefined) {
      live = {
        target: this.traceOf(sessionId, caller),
        resolver: new ThoughtLinkResolver(),
        nextSeq: 0,
        previousTimestamp: thought.timestamp,
        spanOwed: false,
      };
      // A session begun before this process saw it (resumed, or written by another process): its earlier thoughts
      // are read once so that links to them resolve.
      if (thought.seq > 0) {
        const snapshot = this.options.loadSession?.(sessionId);
        live.previousTimestamp = snapshot?.meta.createdAt ?? thought.timestamp;
        for (const earlier of snapshot?.thoughts ?? []) {
          if (earlier.seq >= thought.seq) break;
          live.resolver.add(earlier, earlier.seq);
          live.previousTimestamp = earlier.timestamp;
        }
        live.nextSeq = thought.seq;
      } else {
        live.previousTimestamp = createdAt;
      }
      this.sessions.set(sessionId, live);
      // Bounded: the session that went longest without a thought is closed out (its span written) and forgotten.
      if (this.sessions.size > MAX_TRACKED_SESSIONS) {
        const [oldest] = this.sessions.keys();
        this.writeSessionSpan(oldest, Date.now());
        this.sessions.delete(oldest);
      }
    } else {
      // Most recently active last, so the first key is the one to close out when there are too many.
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, live);
    }
    const links = live.resolver.add(thought, thought.seq);
    live.nextSeq = thought.seq + 1;
    // A later call from another caller's trace: linked, while the session stays in the trace it began in.
    const otherCaller =
      caller !== undefined && (caller.traceId !== live.target.caller?.traceId || caller.spanId !== live.target.caller.spanId)
        ? caller
        : undefined;
    this.writer.writeThought(live.target, thought, strategy, links, thoughtStartTime(thought, live.previousTimestamp), otherCaller);
    live.previousTimestamp = thought.timestamp;
    live.spanOwed = true;
    const entry = this.remembered.get(sessionId);
    if (entry !== undefined) {
      entry.lastSeq = thought.seq;
      entry.lastTimestamp = thought.timestamp;
    }
  }

  /**
   * The person's answer at a decision point, from the reply it went out on: a span of its own (the thought's span has
   * long been sent), from the thought's recording to the answer.
   */
  decided(reply: {
    sessionId: string;
    thoughtNumber: number;
    userDecision?: { action: string; about: string; choice?: string; text?: string };
  }): void {
    const answer = reply.userDecision;
    if (this.closed || answer === undefined || this.pending.length >= this.maxQueueSize) return;
    const decision: DecisionRecord = {
      thoughtNumber: reply.thoughtNumber,
      about: answer.about,
      action: answer.action,
      ...(answer.choice !== undefined ? { choice: answer.choice } : {}),
      ...(answer.text !== undefined ? { text: answer.text } : {}),
      at: Date.now(),
    };
    this.pending.push({ kind: 'decision', decision, sessionId: reply.sessionId });
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setTimeout(this.drain, DRAIN_DELAY_MS).unref();
    }
  }

  private decisionAnswered(sessionId: string, decision: DecisionRecord): void {
    // The answer is to the newest thought of the session (the agent waits for this reply before it sends another).
    const entry = this.remembered.get(sessionId);
    const target = entry?.target ?? sessionTraceOf(sessionId);
    const seq = entry?.lastSeq;
    this.writer.writeDecision(target, { ...decision, ...(seq !== undefined ? { seq } : {}) }, entry?.lastTimestamp ?? decision.at);
  }

  /** The trace a session's spans go to, kept after the session is forgotten so that a later thought stays in it. */
  private traceOf(sessionId: string, caller: SpanContext | undefined): SessionTrace {
    let entry = this.remembered.get(sessionId);
    if (entry === undefined) {
      entry = { target: sessionTraceOf(sessionId, caller) };
      this.remembered.set(sessionId, entry);
      if (this.remembered.size > MAX_REMEMBERED_TRACES) this.remembered.delete(this.remembered.keys().next().value as string);
    }
    return entry.target;
  }

  private writeSessionSpan(sessionId: string, endTime: number): void {
    const live = this.sessions.get(sessionId);
    if (live === undefined || !live.spanOwed) return;
    const snapshot = this.options.loadSession?.(sessionId);
    if (snapshot === undefined) return;
    live.spanOwed = false;
    this.writer.writeSession(live.target, snapshot, Math.max(endTime, snapshot.thoughts.at(-1)?.timestamp ?? endTime));
  }

  /**
   * Writes the session spans still owed and sends what is queued, giving up after `timeoutMs` (what is not sent by
   * then is counted as dropped by the exporter's own timeout, or lost with the process).
   */
  async shutdown(timeoutMs = 2000): Promise<void> {
    if (this.closed) return;
    this.drain();
    for (const [id, live] of this.sessions) if (live.spanOwed) this.writeSessionSpan(id, Date.now());
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([this.queue.shutdown().catch(() => {}), deadline]);
    clearTimeout(timer);
  }

  /** Sends what is queued now (tests, and the editor before it reloads). */
  async flush(): Promise<void> {
    this.drain();
    await this.queue.forceFlush().catch(() => {});
  }
}
