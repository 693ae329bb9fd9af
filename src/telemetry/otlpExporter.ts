// The official OTLP/HTTP span exporter for a stream target (JSON or protobuf). Loaded only when streaming is on: the
// exporters bring the HTTP transport and the protobuf writer, which a session without streaming never needs.
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { OtlpStreamTarget } from './otlpEndpoint';
import { LiveTraceStreamer, type LiveTraceOptions } from './liveTraces';

/** How long one request to the collector may take (the exporter retries within it); OTEL_EXPORTER_OTLP_TIMEOUT wins. */
export const EXPORT_TIMEOUT_MS = 10_000;

export function createOtlpExporter(target: OtlpStreamTarget, timeoutMillis?: number): SpanExporter {
  // Headers (OTEL_EXPORTER_OTLP_HEADERS …), timeouts and an endpoint from the variables are read by the exporter itself.
  const config = {
    ...(target.url !== undefined ? { url: target.url } : {}),
    ...(timeoutMillis !== undefined ? { timeoutMillis } : {}),
  };
  return target.protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);
}

/** A streamer that sends to the target with the official exporter. */
export function startOtlpStreaming(
  target: OtlpStreamTarget,
  options: Omit<LiveTraceOptions, 'exporter' | 'endpoint' | 'protocol'> & { requestTimeoutMillis?: number },
): LiveTraceStreamer {
  const { requestTimeoutMillis, ...rest } = options;
  return new LiveTraceStreamer({
    ...rest,
    exporter: createOtlpExporter(target, requestTimeoutMillis),
    endpoint: target.description,
    protocol: target.protocol,
  });
}
