// MCP over stdin/stdout: SDK v2's StdioServerTransport (start, send, close; closing on stdin's end and on a stdout
// error such as EPIPE, which it now does itself), with what it still lacks added by a thin subclass. Its reader drops
// a line it cannot decode without a word and closes the whole connection on a line over its buffer limit, so a client
// waits forever for that request's answer; here every such line is answered with a JSON-RPC error, and the connection
// goes on. At stdin's end it aborts the requests still running; here they are answered first (`cmd < requests`). Its
// send adds an 'error' and a 'drain' listener per message waiting for room; here one 'drain' serves them all.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { ThinkingEngine } from '../engine/engine';
import { createServer, type CreateServerOptions } from './server';
import { errorMessage } from '../engine/browserSafe/errorMessage';

/** The SDK's own default: a line longer than this is refused rather than buffered without bound. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
/** JSON-RPC 2.0's codes for a line that is not JSON and for JSON that is not a valid message. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;
/** How much of the start and end of an over-long line is kept to find its id (see idOfDiscardedLine). */
const KEPT_EDGE_BYTES = 256;
const RESOLVED = Promise.resolve();
/** After stdin ends, how long requests still running may take to be answered before the connection closes anyway. */
const DRAIN_TIMEOUT_MS = 30_000;
/** Most requests of ours remembered as awaiting an answer. */
const MAX_AWAITED = 1000;

export interface StdioTransportOptions {
  maxLineBytes?: number;
}

type RequestId = string | number;

export class CheckedStdioServerTransport extends StdioServerTransport {
  /** Called once when stdin ends: the client is going, so nothing unasked-for should be sent any more. */
  oninputend?: () => void;
  private readonly maxLineBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** While a line over the limit goes by: its first and last bytes, to find its id when it ends. */
  private discarding: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;
  /** Requests read and not yet answered: at stdin's end they still get their answers before the connection closes. */
  private readonly unanswered = new Set<RequestId>();
  /** Requests this server sent (sampling, elicitation) whose answers have not come: an over-long answer fails one. */
  private readonly awaiting = new Set<RequestId>();
  private inputEnded = false;
  private drainTimer: NodeJS.Timeout | undefined;
  /** Resolves when stdout has room again; one for all the messages waiting (see send). */
  private outputDrained: Promise<void> | undefined;

  constructor(
    input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    super(input, output);
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    // The SDK's reader and its stdin-end handler are replaced by ours (framing with a line limit, an answer for every
    // bad line; answers before closing); the SDK's start() and close() attach and detach them as their own.
    this._ondata = (chunk: Buffer) => this.onChunk(chunk);
    this._onstdinclose = () => this.onInputEnd();
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.discarding = undefined;
    clearTimeout(this.drainTimer);
    await super.close();
  }

  /**
   * The SDK's send, but one 'drain' listener for all the messages waiting for room in stdout rather than one each: a
   * burst of thousands of answers to a slow reader would otherwise print MaxListenersExceededWarning.
   */
  override send(message: JSONRPCMessage): Promise<void> {
    // After EPIPE or close, stdout is gone: writing would only raise more errors.
    if (this.closed) return RESOLVED;
    if ('method' in message && 'id' in message) {
      this.awaiting.add(message.id);
      // Answers to cancelled or timed-out requests never come: keep the newest only.
      if (this.awaiting.size > MAX_AWAITED) this.awaiting.delete(this.awaiting.values().next().value as RequestId);
    }
    if (
      'id' in message &&
      !('method' in message) &&
      this.unanswered.delete(message.id as RequestId) &&
      this.inputEnded &&
      this.unanswered.size === 0
    ) {
      this.closeWhenWritten();
    }
    if (this.output.write(serializeMessage(message)) && this.outputDrained === undefined) return RESOLVED;
    this.outputDrained ??= new Promise<void>((resolve) =>
      this.output.once('drain', () => {
        this.outputDrained = undefined;
        resolve();
      }),
    );
    return this.outputDrained;
  }

  /** stdin ended: the client sends nothing more, but may still wait for answers to what it sent (`cmd < requests`). */
  private onInputEnd(): void {
    // The SDK calls this on 'end' and again on 'close'.
    if (this.inputEnded) return;
    this.inputEnded = true;
    this.oninputend?.();
    if (this.unanswered.size === 0) {
      this.closeWhenWritten();
      return;
    }
    this.drainTimer = setTimeout(() => void this.close(), DRAIN_TIMEOUT_MS);
  }

  /** Closes once everything written so far has left (the process may exit on close, dropping what stdout still holds). */
  private closeWhenWritten(): void {
    this.output.write('', () => void this.close());
  }

  private onChunk(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    let newline = data.indexOf(NEWLINE, start);
    while (newline !== -1 && !this.closed) {
      this.endLine(data.subarray(start, newline));
      start = newline + 1;
      newline = data.indexOf(NEWLINE, start);
    }
    if (start < data.length && !this.closed) this.continueLine(data.subarray(start));
  }

  /** A part of a line whose end has not arrived yet. */
  private continueLine(part: Buffer): void {
    if (this.discarding) {
      this.discarding.tail = lastBytes(Buffer.concat([this.discarding.tail, part]), KEPT_EDGE_BYTES);
      return;
    }
    if (this.pendingBytes + part.length <= this.maxLineBytes) {
      this.pending.push(part);
      this.pendingBytes += part.length;
      return;
    }
    // Too long: keep only its edges until the newline, then answer it.
    const line = Buffer.concat([...this.pending, part]);
    this.discarding = { head: Buffer.from(line.subarray(0, KEPT_EDGE_BYTES)), tail: lastBytes(line, KEPT_EDGE_BYTES) };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endLine(last: Buffer): void {
    if (this.discarding || this.pendingBytes + last.length > this.maxLineBytes) {
      const head = this.discarding?.head ?? Buffer.concat([...this.pending, last]).subarray(0, KEPT_EDGE_BYTES);
      const tail = lastBytes(Buffer.concat([this.discarding?.tail ?? Buffer.concat(this.pending), last]), KEPT_EDGE_BYTES);
      this.discarding = undefined;
      this.pending = [];
      this.pendingBytes = 0;
      const headText = head.toString('utf8');
      const id = idOfDiscardedLine(headText, tail.toString('utf8'));
      if (id !== null && this.awaiting.has(id) && !/"method"\s*:/.test(headText)) {
        // The client's answer to our request (a sampling answer, say): failing that request now beats waiting for
        // its time-out, and answering an answer would make no sense to the client.
        this.awaiting.delete(id);
        this.onerror?.(new Error(`an answer longer than ${this.maxLineBytes} bytes was dropped`));
        this.onmessage?.({
          jsonrpc: '2.0',
          id,
          error: {
            code: INVALID_REQUEST,
            message: `the client's answer was longer than ${this.maxLineBytes} bytes, the most one stdio line may hold; it was not read`,
          },
        } as JSONRPCMessage);
        return;
      }
      this.answer(
        id,
        INVALID_REQUEST,
        `Invalid Request: message longer than ${this.maxLineBytes} bytes, the most one line may hold; nothing of it was read. Send smaller messages.`,
      );
      return;
    }
    let line = last;
    if (this.pending.length > 0) {
      this.pending.push(last);
      line = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
    }
    // Lines split at a newline byte, which never occurs inside a multi-byte UTF-8 sequence.
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    this.takeMessage(text);
  }

  private takeMessage(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      this.refuse(text, error);
      return;
    }
    // JSON numbers beyond 2^53-1 lose digits when parsed: the answer would carry another id than the one sent.
    if ('id' in message && typeof message.id === 'number' && !Number.isSafeInteger(message.id)) {
      this.answer(null, INVALID_REQUEST, unsafeIdReason(text, message.id));
      return;
    }
    if (!('method' in message) && 'id' in message) this.awaiting.delete(message.id as RequestId);
    if ('method' in message) {
      if ('id' in message) this.unanswered.add(message.id);
      // A cancelled request is never answered (the SDK drops it).
      else if (message.method === 'notifications/cancelled')
        this.unanswered.delete((message.params as { requestId?: RequestId } | undefined)?.requestId as RequestId);
    }
    this.onmessage?.(message);
  }

  /** Answers a line the SDK could not decode: not JSON (-32700), or JSON that is no JSON-RPC message (-32600). */
  private refuse(text: string, error: unknown): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.answer(null, PARSE_ERROR, `Parse error: ${errorMessage(error)}`);
      return;
    }
    const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
    if (typeof id === 'number' && Math.abs(id) > Number.MAX_SAFE_INTEGER) {
      this.answer(null, INVALID_REQUEST, unsafeIdReason(text, id));
      return;
    }
    const answerId = typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
    this.answer(answerId, INVALID_REQUEST, `Invalid Request: ${messageProblem(value)}`);
  }

  /** A JSON-RPC error reply (id null when the id is unknown, as JSON-RPC 2.0 asks), also reported to onerror. */
  private answer(id: RequestId | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return Buffer.from(buffer.subarray(Math.max(0, buffer.length - count)));
}

/** Names the id as sent (its digits from the line where they can be found: the parsed number has lost some). */
function unsafeIdReason(line: string, id: number): string {
  const sent = topLevelIdText(line, line) ?? String(id);
  return `Invalid Request: id ${sent} is beyond ${Number.MAX_SAFE_INTEGER} (2^53-1), where JSON numbers lose digits; send a smaller number or a string id.`;
}

const ID = String.raw`"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")`;
/** The id as the first member (or the second, after "jsonrpc") of the top-level object, or its last member. */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`);
const TRAILING_ID = new RegExp(String.raw`[,{]\s*${ID}\s*\}\s*$`);

/**
 * The id of a line too long to read, from its first and last bytes, so the client's pending request gets its answer.
 * Only where it is certainly the top-level id: at the very start of the object, or its last member (a nested object
 * ending there would leave another closing brace after it). The SDK's Client writes it last. Null when not found.
 */
export function idOfDiscardedLine(head: string, tail: string): RequestId | null {
  const raw = topLevelIdText(head, tail);
  if (raw === undefined) return null;
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return null;
    }
  }
  const number = Number(raw);
  return Number.isSafeInteger(number) ? number : null;
}

/** The JSON text of the top-level id, found at the start of `head` or the end of `tail` (see idOfDiscardedLine). */
function topLevelIdText(head: string, tail: string): string | undefined {
  return (LEADING_ID.exec(head) ?? TRAILING_ID.exec(tail.replace(/\r$/, '')))?.[1];
}

/** Why `value` (valid JSON) is not a JSON-RPC 2.0 request, notification or response, in a few words. */
export function messageProblem(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'a message must be a JSON object';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  const id = message.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id)))
    return 'id must be a string or a whole number';
  if (message.method !== undefined) {
    if (typeof message.method !== 'string') return 'method must be a string';
    const params = message.params;
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return 'params must be an object';
    return 'not a valid request or notification';
  }
  if (id === undefined) return 'a message needs a method (request or notification) or an id (response)';
  return 'a response needs a result object or an error with code and message';
}

/** modelGateway/toolGateway: passed to createServer for the deliberate tool. */
export interface StdioServerOptions extends Pick<
  CreateServerOptions,
  'modelGateway' | 'toolGateway' | 'decisionPoints' | 'tools' | 'replyDetail' | 'telemetry'
> {
  engine: ThinkingEngine;
  name?: string;
  version?: string;
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
}

export interface RunningStdioServer {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves one MCP connection over stdin/stdout. */
export async function serveStdio(options: StdioServerOptions): Promise<RunningStdioServer> {
  const { server, cleanup, closing } = createServer({
    engine: options.engine,
    connectionId: 'stdio',
    name: options.name,
    version: options.version,
    modelGateway: options.modelGateway,
    toolGateway: options.toolGateway,
    decisionPoints: options.decisionPoints,
    tools: options.tools,
    replyDetail: options.replyDetail,
    telemetry: options.telemetry,
  });
  const transport = new CheckedStdioServerTransport(options.input, options.output, { maxLineBytes: options.maxLineBytes });
  transport.oninputend = closing;
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => {
      cleanup();
      resolve();
    };
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
