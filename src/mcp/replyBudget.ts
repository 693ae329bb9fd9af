// One budget for the replies of one HTTP request without an MCP session: a JSON-RPC batch of many calls is answered
// in one response, so each call's own bound (a `get` page, a thought's reply) is not enough — 100 calls in one 14.5 KB
// POST produced a 1.9 GB response. Past the budget, a call is answered with an error that says to send it on its own.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Characters (as JSON) the replies of one request may take together: four full `get` pages (text and structured
 * form). A single reply is always sent; it has its own bound.
 */
export const REQUEST_REPLY_BUDGET_CHARS = 8_000_000;

export class ReplyBudget {
  private spent = 0;

  constructor(private readonly limit = REQUEST_REPLY_BUDGET_CHARS) {}

  /** The message to send instead of `message`: itself, or (a reply past the budget) a short refusal. */
  admit(message: JSONRPCMessage): JSONRPCMessage {
    if (!('id' in message) || message.id === undefined || !('result' in message || 'error' in message)) return message;
    const size = JSON.stringify(message).length;
    if (this.spent === 0 || this.spent + size <= this.limit) {
      this.spent += size;
      return message;
    }
    const text =
      `This reply (${size} characters) was not sent: the replies to one request may take ${this.limit} characters ` +
      'together, and this batch reached that. Send this call again in a request of its own.';
    this.spent += text.length;
    const result = 'result' in message ? (message.result as { content?: unknown }) : undefined;
    // A tool call is answered as a tool error the agent reads; anything else as a JSON-RPC error.
    return result !== undefined && Array.isArray(result.content)
      ? { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }], isError: true } }
      : { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text } };
  }
}
