// The official OTLP/HTTP span exporter for a stream target (JSON or protobuf), each connection limited to the request's
// total time. Made in the export worker (exportWorker.ts), or on the main thread where there is no worker bundle.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { OtlpStreamTarget } from './otlpEndpoint';

/** How long one request to the collector may take in all (the exporter retries within it); OTEL_EXPORTER_OTLP_TIMEOUT wins. */
export const EXPORT_TIMEOUT_MS = 10_000;

/** The limit OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT sets (whole milliseconds above 0), as the exporter reads it. */
export function timeoutFromEnvironment(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT;
  const value = raw === undefined ? NaN : Number(raw.trim());
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Agents whose connections live at most `limitMillis` each. The exporter's own time-out is an idle one: a collector
 * that trickles its answer a byte at a time kept each export's socket open for ever (one more per export). Without
 * keep-alive a connection carries one request, so its lifetime is that request's total time limit.
 */
class LimitedAgent extends HttpAgent {
  constructor(private readonly limitMillis: number) {
    super({ keepAlive: false });
  }

  override createConnection(...args: Parameters<HttpAgent['createConnection']>): Socket {
    const socket = super.createConnection(...args) as Socket;
    limitLifetime(socket, this.limitMillis);
    return socket;
  }
}

class LimitedHttpsAgent extends HttpsAgent {
  constructor(private readonly limitMillis: number) {
    super({ keepAlive: false });
  }

  override createConnection(...args: Parameters<HttpsAgent['createConnection']>): Socket {
    const socket = super.createConnection(...args) as Socket;
    limitLifetime(socket, this.limitMillis);
    return socket;
  }
}

function limitLifetime(socket: Socket, limitMillis: number): void {
  const timer = setTimeout(() => socket.destroy(new Error(`the collector took longer than ${limitMillis} ms`)), limitMillis);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

export function createOtlpExporter(target: OtlpStreamTarget, timeoutMillis: number): SpanExporter {
  // Headers (OTEL_EXPORTER_OTLP_HEADERS …) and an endpoint from the variables are read by the exporter itself.
  const config = {
    ...(target.url !== undefined ? { url: target.url } : {}),
    timeoutMillis,
    httpAgentOptions: (protocol: string) =>
      protocol === 'https:' ? new LimitedHttpsAgent(timeoutMillis) : new LimitedAgent(timeoutMillis),
  };
  return target.protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);
}
