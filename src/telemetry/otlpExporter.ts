// Live streaming to a target with the official OTLP/HTTP exporter (JSON or protobuf), run in a worker thread where the
// worker bundle is there. Loaded only when streaming is on: the exporters bring the HTTP transport and the protobuf
// writer, which a session without streaming never needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { OtlpStreamTarget } from './otlpEndpoint';
import { LiveTraceStreamer, type LiveTraceOptions } from './liveTraces';
import { EXPORT_TIMEOUT_MS, createOtlpExporter, timeoutFromEnvironment } from './otlpHttpExporter';
import { WorkerSpanExporter } from './workerSpanExporter';

export { EXPORT_TIMEOUT_MS, createOtlpExporter } from './otlpHttpExporter';

/** The export worker's bundle (esbuild.mjs), beside the bundle this runs from; absent when run from source. */
const WORKER_BUNDLE = 'otlpWorker.js';

/** A streamer that sends to the target with the official exporter. */
export function startOtlpStreaming(
  target: OtlpStreamTarget,
  options: Omit<LiveTraceOptions, 'exporter' | 'endpoint' | 'protocol'> & { requestTimeoutMillis?: number },
  env: NodeJS.ProcessEnv = process.env,
): LiveTraceStreamer {
  const { requestTimeoutMillis, ...rest } = options;
  const limit = requestTimeoutMillis ?? timeoutFromEnvironment(env) ?? EXPORT_TIMEOUT_MS;
  return new LiveTraceStreamer({
    ...rest,
    // Encoding spans (10 MB for 512 thoughts with their text) and sending them run on the worker's thread, so a tool
    // call never waits on it; from source (tests under tsx) the exporter runs here.
    exporter: existsSync(join(__dirname, WORKER_BUNDLE))
      ? new WorkerSpanExporter(join(__dirname, WORKER_BUNDLE), { target, timeoutMillis: limit })
      : createOtlpExporter(target, limit),
    requestLimitMillis: limit,
    endpoint: target.description,
    protocol: target.protocol,
  });
}
