// Finished spans as plain data and back, to hand them to the export worker: a ReadableSpan has methods (spanContext(),
// a resource object, a trace state) that a message between threads cannot carry. Only what the OTLP serializer reads.
import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';

interface PlainContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: string;
}

export interface PlainSpan {
  name: string;
  kind: SpanKind;
  context: PlainContext;
  parent?: PlainContext;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  links: { context: PlainContext; attributes?: Attributes; droppedAttributesCount?: number }[];
  events: TimedEvent[];
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
  resource: { attributes: Attributes; schemaUrl?: string };
  scope: { name: string; version?: string; schemaUrl?: string };
}

function plainContext(context: SpanContext): PlainContext {
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
    ...(context.isRemote !== undefined ? { isRemote: context.isRemote } : {}),
    ...(context.traceState !== undefined ? { traceState: context.traceState.serialize() } : {}),
  };
}

function spanContext(context: PlainContext): SpanContext {
  const { traceState, ...rest } = context;
  return traceState !== undefined ? { ...rest, traceState: new TraceState(traceState) } : rest;
}

export function toPlainSpan(span: ReadableSpan): PlainSpan {
  return {
    name: span.name,
    kind: span.kind,
    context: plainContext(span.spanContext()),
    ...(span.parentSpanContext !== undefined ? { parent: plainContext(span.parentSpanContext) } : {}),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({
      context: plainContext(link.context),
      ...(link.attributes !== undefined ? { attributes: link.attributes } : {}),
      ...(link.droppedAttributesCount !== undefined ? { droppedAttributesCount: link.droppedAttributesCount } : {}),
    })),
    events: span.events,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
    resource: { attributes: span.resource.attributes, ...(span.resource.schemaUrl ? { schemaUrl: span.resource.schemaUrl } : {}) },
    scope: span.instrumentationScope,
  };
}

/** Spans the serializer can read; spans that shared a resource share one again (the serializer groups by it). */
export function fromPlainSpans(spans: readonly PlainSpan[]): ReadableSpan[] {
  const resources = new Map<string, Resource>();
  return spans.map((span) => {
    const key = JSON.stringify(span.resource);
    let resource = resources.get(key);
    if (resource === undefined) {
      resource = resourceFromAttributes(span.resource.attributes, span.resource.schemaUrl ? { schemaUrl: span.resource.schemaUrl } : {});
      resources.set(key, resource);
    }
    const context = spanContext(span.context);
    return {
      name: span.name,
      kind: span.kind,
      spanContext: () => context,
      ...(span.parent !== undefined ? { parentSpanContext: spanContext(span.parent) } : {}),
      startTime: span.startTime,
      endTime: span.endTime,
      duration: span.duration,
      status: span.status,
      attributes: span.attributes,
      links: span.links.map((link): Link => ({ ...link, context: spanContext(link.context) })),
      events: span.events,
      ended: true,
      resource,
      instrumentationScope: span.scope,
      droppedAttributesCount: span.droppedAttributesCount,
      droppedEventsCount: span.droppedEventsCount,
      droppedLinksCount: span.droppedLinksCount,
    };
  });
}
