// The shapes of a failed tool call: an `isError` result whose text tells the agent what went wrong. Tool failures are
// results, never JSON-RPC errors, so the agent reads them and can correct its next call.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** An unexpected failure inside a tool (a bug or a broken store): named, so it is never mistaken for bad input. */
export function toolFailure(tool: string, error: unknown): CallToolResult {
  return errorResult(`Tool "${tool}" failed: ${errorMessage(error)}`);
}
