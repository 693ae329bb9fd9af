// A session as an OTLP/JSON file: the ExportTraceServiceRequest a collector's OTLP/HTTP receiver takes, and what
// trace tools import. The spans are made by the SDK's tracer and written by the official JSON serializer; otlpImport.ts
// reads such a file back. Loaded only when a session is exported in this format (the SDK costs activation time).
import type { SpanProcessor, ReadableSpan } from '@opentelemetry/sdk-trace';
import { AlwaysOnSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { SessionSnapshot } from '../engine/model';
import { ThoughtLinkResolver } from '../diagrams/thoughtLinks';
import { SERVICE_NAME, TRACE_SCOPE } from './attributeNames';
import { SessionSpanWriter, sessionTraceOf, thoughtStartTime } from './sessionSpans';
import { PresetIdGenerator } from './spanIds';

/** Span limits of a file export: every event and attribute of the session is kept (the file is the whole session). */
const FILE_SPAN_LIMITS = { attributeCountLimit: 1000, eventCountLimit: Number.MAX_SAFE_INTEGER, linkCountLimit: 1000 };

/** The strategy each thought was recorded under, from the session's strategy switches. */
export function strategyAt(snapshot: Pick<SessionSnapshot, 'meta' | 'strategySwitches'>, seq: number): string {
  let strategy = snapshot.strategySwitches[0]?.from ?? snapshot.meta.strategy;
  for (const change of snapshot.strategySwitches) if (change.atSeq <= seq) strategy = change.to;
  return strategy;
}

/** The session's spans, made by the SDK: the session span, then one per thought in arrival order. */
export function sessionSpans(snapshot: SessionSnapshot): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  const collect: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => void spans.push(span),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const ids = new PresetIdGenerator();
  const provider = new TracerProvider({
    idGenerator: ids,
    sampler: new AlwaysOnSampler(),
    resource: resourceFromAttributes({ 'service.name': SERVICE_NAME }),
    spanLimits: FILE_SPAN_LIMITS,
    spanProcessors: [collect],
  });
  const writer = new SessionSpanWriter(provider.getTracer(TRACE_SCOPE), ids, true);
  const target = sessionTraceOf(snapshot.meta.id);
  const last = snapshot.thoughts.at(-1)?.timestamp ?? snapshot.meta.updatedAt;
  writer.writeSession(target, snapshot, Math.max(last, snapshot.meta.updatedAt));
  const resolver = new ThoughtLinkResolver();
  snapshot.thoughts.forEach((thought, index) => {
    const previous = index > 0 ? snapshot.thoughts[index - 1].timestamp : snapshot.meta.createdAt;
    writer.writeThought(
      target,
      thought,
      strategyAt(snapshot, thought.seq),
      resolver.add(thought, index),
      thoughtStartTime(thought, previous),
    );
  });
  return spans;
}

/** The session as an OTLP/JSON ExportTraceServiceRequest (indented, like our other JSON files). */
export function toOtlpJson(snapshot: SessionSnapshot): string {
  const bytes = JsonTraceSerializer.serializeRequest(sessionSpans(snapshot));
  if (bytes === undefined) throw new Error('The OTLP JSON serializer returned nothing for this session.');
  return `${JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), null, 2)}\n`;
}
