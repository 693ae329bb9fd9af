// Trace and span ids derived from the session, so that exporting a session twice (or streaming it, then exporting
// it) gives the same ids, and a link can name a thought's span before or after that span is sent.
import { createHash } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace';

function digest(text: string, hexLength: number): string {
  const hex = createHash('sha256').update(text).digest('hex').slice(0, hexLength);
  // All-zero ids are invalid in OTLP; a sha-256 prefix of zeros is practically impossible, but stay valid anyway.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

export const sessionTraceId = (sessionId: string): string => digest(`thought-explorer trace\u0000${sessionId}`, 32);
export const sessionSpanId = (sessionId: string): string => digest(`thought-explorer session\u0000${sessionId}`, 16);
export const thoughtSpanId = (sessionId: string, seq: number): string =>
  digest(`thought-explorer thought\u0000${sessionId}\u0000${seq}`, 16);

export const decisionSpanId = (sessionId: string, thoughtNumber: number, at: number): string =>
  digest(`thought-explorer decision\u0000${sessionId}\u0000${thoughtNumber}\u0000${at}`, 16);

/**
 * The SDK's tracer asks its IdGenerator for each new span's ids; this one hands out the ids the next span must have.
 * Tracer.startSpan is synchronous, so setting them right before it is safe.
 */
export class PresetIdGenerator implements IdGenerator {
  private traceId: string | undefined;
  private spanId: string | undefined;

  preset(spanId: string, traceId?: string): void {
    this.spanId = spanId;
    this.traceId = traceId;
  }

  generateTraceId(): string {
    const id = this.traceId;
    this.traceId = undefined;
    if (id === undefined) throw new Error('PresetIdGenerator: no trace id was preset for this span');
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId;
    this.spanId = undefined;
    if (id === undefined) throw new Error('PresetIdGenerator: no span id was preset for this span');
    return id;
  }
}
