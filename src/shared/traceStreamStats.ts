// The live trace stream's counters, one shape for the streamer that counts them (src/telemetry) and the MCP tool and
// status bar that show them.

/** What `thinking_sessions stats` and the status bar show about the stream. */
export interface TraceStreamStats {
  /** Where spans go (the traces URL, or "from OTEL_EXPORTER_OTLP_* variables"). */
  endpoint: string;
  protocol: string;
  includesText: boolean;
  /** Spans the collector accepted. */
  exported: number;
  /** Spans lost: the queue was full, or the collector refused, failed or did not answer in time. */
  dropped: number;
  /** Spans waiting to be sent. */
  queued: number;
  lastError?: string;
}
