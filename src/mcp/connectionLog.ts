// Logging to one MCP client (the `logging` capability): what the server has to say about a connection — thoughts it
// refused, store problems while serving it — goes to that client as `notifications/message`, at or above the level the
// client chose with `logging/setLevel`. Nothing is sent before it chooses: a client that never asked (or a reference
// client reading one reply per request) sees no extra lines. One McpServer serves one connection, so the level lives
// here. This adds to the process's stderr log; it replaces none of it.
import type { McpServer } from '@modelcontextprotocol/server';
import type { LoggingLevel, RequestId } from '@modelcontextprotocol/server';

export const LOGGER_NAME = 'thought-explorer';

/**
 * Logs `message` to the client. With `relatedRequestId` (the tool call it is about) the message travels with that
 * call's reply — over HTTP on the same response stream, so it arrives even without a standalone SSE stream.
 */
export type ConnectionLog = (level: LoggingLevel, message: string, relatedRequestId?: RequestId) => void;

/** The spec's levels, least severe first (RFC 5424's order). */
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const SEVERITY = new Map<LoggingLevel, number>(LEVELS.map((level, index) => [level, index]));

/** Serves `logging/setLevel` on `server` (which must declare the logging capability) and returns its log. */
export function createConnectionLog(server: McpServer): ConnectionLog {
  let minimum: LoggingLevel | undefined;
  // Replaces the SDK's own handler, which keys levels by session and offers no per-request sending.
  server.server.setRequestHandler('logging/setLevel', (request) => {
    minimum = request.params.level;
    return {};
  });
  return (level, message, relatedRequestId) => {
    if (!server.isConnected()) return;
    if (minimum === undefined || (SEVERITY.get(level) ?? 0) < (SEVERITY.get(minimum) ?? 0)) return;
    server.server
      .notification(
        { method: 'notifications/message', params: { level, logger: LOGGER_NAME, data: message } },
        relatedRequestId === undefined ? undefined : { relatedRequestId },
      )
      // A client that went away while we spoke is not a failure of the call being logged.
      .catch(() => {});
  };
}
