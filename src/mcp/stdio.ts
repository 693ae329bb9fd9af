// The stdio transport: newline-delimited JSON-RPC on stdin/stdout, the same wire format as the SDK's
// StdioServerTransport, with a direct path for tools/call. Measured with bench/ (server CPU per call, durable storage
// on): the SDK's Protocol machinery around a tool call (zod checks of every message, an AbortController, a promise
// chain) cost more than the tool itself, so tools/call is answered here, straight from the tool registry; and the
// SDK's transport zod-parses every incoming line, which cost another ~20 µs per call on top of the direct path. Here
// a message is checked only for the JSON-RPC envelope (what routing needs); the tools validate their own arguments.
import type { Readable, Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ThinkingEngine } from '../engine/engine';
import { createServer } from './server';
import { resultJson } from './toolRegistry';

/** The SDK's own default: a line longer than this is refused rather than buffered without bound. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;
const RESOLVED = Promise.resolve();

export interface LineTransportOptions {
  maxLineBytes?: number;
}

/** A request as the direct path sees it (envelope already checked). */
export interface DirectRequest {
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * Answers a request without the SDK's Protocol machinery, or returns undefined to let the request through to it.
 * Throw an error with a numeric `code` for a JSON-RPC error reply.
 */
export type DirectRequestHandler = (request: DirectRequest) => object | Promise<object> | undefined;

export class LineDelimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private started = false;
  private closed = false;
  private readonly maxLineBytes: number;
  /** See DirectRequestHandler; set by serveStdio for tools/call. */
  directRequests: DirectRequestHandler | undefined;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: LineTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineDelimitedTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
    this.output.on('error', this.onOutputError);
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) return RESOLVED;
    if (this.writeLine(`${JSON.stringify(message)}\n`)) return RESOLVED;
    return new Promise((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.output.off('error', this.onOutputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  /** EPIPE and the like: the client is gone, so this connection is over (without a handler it would crash the process). */
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    let newline = data.indexOf(NEWLINE, start);
    while (newline !== -1) {
      this.takeLine(data.subarray(start, newline));
      start = newline + 1;
      newline = data.indexOf(NEWLINE, start);
    }
    if (start < data.length) this.buffer(data.subarray(start));
  };

  private buffer(part: Buffer): void {
    if (this.discarding) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxLineBytes) {
      // Drop the rest of this line; the next newline starts clean.
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      this.onerror?.(new Error(`Incoming message longer than ${this.maxLineBytes} bytes was dropped`));
      return;
    }
    this.pending.push(part);
  }

  private takeLine(tail: Buffer): void {
    let line: Buffer = tail;
    if (this.pending.length > 0 || this.discarding) {
      if (this.discarding) {
        this.discarding = false;
        this.pending = [];
        this.pendingBytes = 0;
        return;
      }
      this.pending.push(tail);
      line = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
    }
    // Lines split at a newline byte, which never occurs inside a multi-byte UTF-8 sequence.
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.reject(null, -32700, `Parse error: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const problem = envelopeProblem(message);
    if (problem !== undefined) {
      const id = typeof message === 'object' && message !== null && 'id' in message ? (message as { id: unknown }).id : null;
      this.reject(typeof id === 'string' || typeof id === 'number' ? id : null, -32600, `Invalid Request: ${problem}`);
      return;
    }
    if (this.directRequests !== undefined && this.tryDirect(message as DirectRequest)) return;
    this.onmessage?.(message as JSONRPCMessage);
  }

  /** True when the direct handler took the request (its reply is sent, now or when its promise settles). */
  private tryDirect(request: DirectRequest): boolean {
    if (request.id === undefined || request.method === undefined) return false;
    let result: object | Promise<object> | undefined;
    try {
      result = (this.directRequests as DirectRequestHandler)(request);
    } catch (error) {
      this.sendError(request.id, error);
      return true;
    }
    if (result === undefined) return false;
    if (result instanceof Promise) {
      result.then(
        (value) => this.sendResult(request.id, value),
        (error: unknown) => this.sendError(request.id, error),
      );
    } else {
      this.sendResult(request.id, result);
    }
    return true;
  }

  private sendResult(id: string | number, result: object): void {
    if (this.closed) return;
    this.writeLine(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson(result)}}\n`);
  }

  private sendError(id: string | number, error: unknown): void {
    const code = typeof error === 'object' && error !== null && Number.isInteger((error as { code?: unknown }).code) ? (error as { code: number }).code : -32603;
    const message = error instanceof Error ? error.message : String(error);
    if (code === -32603) this.onerror?.(error instanceof Error ? error : new Error(message));
    if (!this.closed) this.writeLine(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  /** Writes one line; false when the stream asks the writer to wait for 'drain'. */
  private writeLine(line: string): boolean {
    return this.output.write(line);
  }

  private reject(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    // A JSON-RPC error reply (with id null when the id is unknown), as JSON-RPC 2.0 asks for.
    if (!this.closed) this.writeLine(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }
}

/** Why `value` is not a JSON-RPC 2.0 request, notification or response; undefined when it is one. */
export function envelopeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'a message must be a JSON object';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  const id = message.id;
  const hasId = id !== undefined;
  if (hasId && typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return 'id must be a string or an integer';
  if (message.method !== undefined) {
    if (typeof message.method !== 'string') return 'method must be a string';
    const params = message.params;
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return 'params must be an object';
    return undefined;
  }
  if (!hasId) return 'a message needs a method (request or notification) or an id (response)';
  if (message.result !== undefined) {
    return typeof message.result === 'object' && message.result !== null ? undefined : 'result must be an object';
  }
  const error = message.error as Record<string, unknown> | undefined;
  if (error !== undefined && error !== null && typeof error === 'object' && typeof error.code === 'number' && typeof error.message === 'string') {
    return undefined;
  }
  return 'a response needs a result object or an error with code and message';
}

export interface StdioServerOptions {
  engine: ThinkingEngine;
  name?: string;
  version?: string;
  input?: Readable;
  output?: Writable;
}

export interface RunningStdioServer {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves one MCP connection over stdin/stdout. */
export async function serveStdio(options: StdioServerOptions): Promise<RunningStdioServer> {
  const { server, tools, cleanup } = createServer({ engine: options.engine, connectionId: 'stdio', name: options.name, version: options.version });
  const transport = new LineDelimitedTransport(options.input, options.output);
  // The hot path: tools/call goes straight to the tools (task-augmented calls, which we do not support, are left to
  // the SDK to refuse). Everything else (initialize, lists, resources, prompts, ping) goes through McpServer.
  transport.directRequests = (request) => (request.method === 'tools/call' && request.params?.task === undefined ? tools.call(request) : undefined);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => {
      cleanup();
      resolve();
    };
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
