// The CLI's live trace streaming: on with --otlp-endpoint or the OTEL_EXPORTER_OTLP_* variables, off otherwise. The
// exporter (and its HTTP and protobuf code) is loaded only when it is on. A misconfigured endpoint is reported and
// serving goes on without streaming: traces are never a reason for the server not to run.
import type { ThinkingEngine } from '../engine/engine';
import type { LiveTraceStreamer } from '../telemetry/liveTraces';
import { resolveOtlpTarget } from '../telemetry/otlpEndpoint';
import type { OtlpOptions } from './options';
import { errorMessage } from '../engine/browserSafe/errorMessage';

/** How long the CLI waits, when it stops, for the last spans to reach the collector. */
export const FLUSH_ON_EXIT_MS = 2000;

export async function startTraceStreaming(
  options: OtlpOptions | undefined,
  engine: ThinkingEngine,
  log: (message: string) => void,
  version: string,
): Promise<LiveTraceStreamer | undefined> {
  let target;
  try {
    target = resolveOtlpTarget(options?.endpoint);
  } catch (error) {
    log(`trace streaming is off: ${errorMessage(error)}`);
    return undefined;
  }
  if (target === undefined) {
    if (options?.includeText) log('--otlp-include-text has no effect: no --otlp-endpoint and no OTEL_EXPORTER_OTLP_ENDPOINT');
    return undefined;
  }
  for (const warning of target.warnings) log(`warning: ${warning}`);
  const { startOtlpStreaming } = await import('../telemetry/otlpExporter.js');
  const includeText = options?.includeText ?? false;
  const streamer = startOtlpStreaming(target, { includeText, version, loadSession: (id) => engine.getSession(id) });
  engine.onEvent(streamer.onEngineEvent);
  log(`streaming session traces to ${target.description} (${target.protocol}, ${includeText ? 'with' : 'without'} thought text)`);
  return streamer;
}
