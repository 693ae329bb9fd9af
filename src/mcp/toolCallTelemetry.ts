// What the MCP server needs of live trace streaming, without depending on it: the composition root passes an
// implementation (src/telemetry's streamer) when streaming is on.
import type { TraceStreamStats } from '../shared/traceStreamStats';

/** What a decision-point answer says (src/mcp/decisionPoints.ts's UserDecision). */
export interface DecisionFields {
  action: string;
  about: string;
  choice?: string;
  text?: string;
}

export interface ToolCallTelemetry {
  /**
   * Runs a tools/call's work with its request `_meta` (W3C `traceparent`/`tracestate`), so its spans join that trace.
   * `run` may be async: what it records after an await (a deliberation's thoughts) is still this call's.
   */
  inCallContext<T>(meta: unknown, run: () => T): T;
  /**
   * The person's answer at a decision point (not journaled: only the trace keeps it), with the reply it went out on.
   */
  decided?(reply: { sessionId: string; thoughtNumber: number; userDecision?: DecisionFields }): void;
  /** Undefined while streaming is off (the editor's setting may turn it on and off while the server runs). */
  stats(): TraceStreamStats | undefined;
}
