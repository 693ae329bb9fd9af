// A session as an OTLP/JSON file: the ExportTraceServiceRequest a collector's OTLP/HTTP receiver takes, and what
// trace tools import. The spans are written by the official JSON serializer; otlpImport.ts reads such a file back. Loaded only when a session is exported in this format (the SDK costs activation time).
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { SessionSnapshot } from '../engine/model';
import { ThoughtLinkResolver } from '../diagrams/thoughtLinks';
import { SERVICE_NAME, TRACE_SCOPE } from './attributeNames';
import { SessionSpanWriter, sessionTraceOf, thoughtStartTime } from './sessionSpans';

/** The strategy each thought was recorded under, from the session's strategy switches. */
export function strategyAt(snapshot: Pick<SessionSnapshot, 'meta' | 'strategySwitches'>, seq: number): string {
  let strategy = snapshot.strategySwitches[0]?.from ?? snapshot.meta.strategy;
  for (const change of snapshot.strategySwitches) if (change.atSeq <= seq) strategy = change.to;
  return strategy;
}

/** The session's spans: the session span, then one per thought in arrival order. */
export function sessionSpans(snapshot: SessionSnapshot): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  // Every event of the session is kept: the file is the whole session.
  const writer = new SessionSpanWriter(
    { onEnd: (span) => void spans.push(span) },
    {
      includeText: true,
      resource: resourceFromAttributes({ 'service.name': SERVICE_NAME }),
      scope: { name: TRACE_SCOPE },
      eventCountLimit: Number.MAX_SAFE_INTEGER,
    },
  );
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
