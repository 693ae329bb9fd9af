// The tools of one MCP connection, served on the SDK's low-level request path rather than McpServer.registerTool.
// Why: McpServer validates every tools/call request and result with zod (twice for the request), which profiling put
// at a large share of a `sequentialthinking` call. Our tools parse their own arguments (the engine's hand-written
// parser accepts more than a JSON schema validator would: "3", "false", snake_case), so the JSON schemas here are
// what we advertise, and the tools/list answer is built once and reused.
import type { CallToolResult, JSONRPCRequest, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';

export type ToolHandler = (args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;

/** JSON-RPC error codes this module answers with (the values are fixed by JSON-RPC 2.0). */
export const INVALID_PARAMS = -32602;
export const METHOD_NOT_FOUND = -32601;

/** A protocol-level failure (unknown tool, malformed request); tool failures are `isError` results instead. */
export class ToolProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ToolProtocolError';
  }
}

export class ToolRegistry {
  private readonly handlers = new Map<string, ToolHandler>();
  private readonly definitions: Tool[] = [];
  private listResult: ListToolsResult | undefined;

  add(definition: Tool, handler: ToolHandler): void {
    if (this.handlers.has(definition.name)) throw new Error(`Tool "${definition.name}" is already registered`);
    this.definitions.push(definition);
    this.handlers.set(definition.name, handler);
    this.listResult = undefined;
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  /** The tools/list result; the same object on every call. */
  list(): ListToolsResult {
    this.listResult ??= { tools: this.definitions.slice() };
    return this.listResult;
  }

  /**
   * Runs a tools/call request. Throws ToolProtocolError for a malformed request or an unknown tool (JSON-RPC errors);
   * a handler's own failure becomes an `isError` result so it never surfaces as a transport error.
   */
  call(request: Pick<JSONRPCRequest, 'params'>): CallToolResult | Promise<CallToolResult> {
    const params = request.params;
    const name = params?.name;
    if (typeof name !== 'string') throw new ToolProtocolError(INVALID_PARAMS, 'Invalid tools/call request: params.name must be a string');
    const handler = this.handlers.get(name);
    if (!handler) {
      throw new ToolProtocolError(INVALID_PARAMS, `Unknown tool "${name}". Available tools: ${[...this.handlers.keys()].join(', ')}.`);
    }
    const rawArguments = params?.arguments;
    if (rawArguments !== undefined && (rawArguments === null || typeof rawArguments !== 'object' || Array.isArray(rawArguments))) {
      return errorResult(`Invalid arguments for tool "${name}": expected an object, got ${Array.isArray(rawArguments) ? 'an array' : String(rawArguments)}.`);
    }
    const args = (rawArguments ?? {}) as Record<string, unknown>;
    try {
      const result = handler(args);
      if (result instanceof Promise) return result.catch((error: unknown) => errorResult(failureMessage(name, error)));
      return result;
    } catch (error) {
      return errorResult(failureMessage(name, error));
    }
  }
}

/**
 * A result may carry its own JSON text under this symbol (JSON.stringify ignores symbol keys, so every other path
 * serialises it as usual). The stdio transport writes that text instead of serialising the result again: for
 * `sequentialthinking` the text block already is the JSON of the structured content, so building the reply from it
 * avoids serialising the same object twice per call.
 */
export const RESULT_JSON: unique symbol = Symbol('result JSON');

export type ResultWithJson = CallToolResult & { [RESULT_JSON]?: string };

/** The JSON text of a result: the one it carries, or a fresh serialisation. */
export function resultJson(result: object): string {
  return (result as ResultWithJson)[RESULT_JSON] ?? JSON.stringify(result);
}

/** A tool result that tells the agent what went wrong. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function failureMessage(tool: string, error: unknown): string {
  return `Tool "${tool}" failed: ${error instanceof Error ? error.message : String(error)}`;
}
