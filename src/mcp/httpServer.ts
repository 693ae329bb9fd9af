// Streamable HTTP on 127.0.0.1 behind a bearer token: used by the CLI's --http and by the VS Code extension host (the
// same function, so keep it free of CLI concerns). Every request is checked in this order: Host (DNS rebinding),
// Origin, token, then the body's size. One McpServer and one SDK transport per MCP session (mcp-session-id header).
// Sessions a client never closed are reclaimed: after an idle time, and the least recently used idle one when the
// session limit is reached; a session with a request in flight (an open SSE stream included) is never reclaimed.
// With `stateless`, there are no MCP sessions (no mcp-session-id): each POST is served by its own McpServer and
// transport, closed when its response ends, and a thought without sessionId finds its session by statelessContinuation.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpListener, type IncomingMessage, type Server as HttpListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { ThinkingEngine } from '../engine/engine';
import { createServer, type CreateServerOptions } from './server';
import { createStatelessContinuation } from './statelessContinuation';
import { ReplyBudget } from './replyBudget';
import { errorDetail, errorMessage } from '../engine/browserSafe/errorMessage';

export const MCP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_HTTP_SESSIONS = 64;
/** How long an MCP session may go without a request before it is closed (the client then gets 404 and re-initializes). */
export const DEFAULT_HTTP_SESSION_IDLE_MS = 30 * 60_000;
/** What a 503 for "every session busy" tells the client to wait: a request finishing frees a slot for eviction. */
const BUSY_RETRY_AFTER_SECONDS = 5;
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Headers a browser client may send and read across origins (CORS), for origins in allowedOrigins only. */
const CORS_REQUEST_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const CORS_EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After';
const LOOPBACK = '127.0.0.1';

/** modelGateway/toolGateway: passed to createServer for the deliberate tool (the extension passes VS Code's). */
export interface HttpServerOptions extends Pick<
  CreateServerOptions,
  'modelGateway' | 'toolGateway' | 'decisionPoints' | 'openExplorer' | 'replyDetail' | 'telemetry'
> {
  engine: ThinkingEngine;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The secret every request must send as `Authorization: Bearer <token>`. */
  token: string;
  maxBodyBytes?: number;
  /** Origins allowed in the Origin header (exact match, e.g. "vscode-webview://..."); requests without Origin pass. */
  allowedOrigins?: readonly string[];
  /**
   * Most MCP sessions open at once. Past it the least recently used idle session is closed to make room; only when
   * every session has a request in flight is a client refused (503 with Retry-After).
   */
  maxSessions?: number;
  /** Milliseconds without a request after which an MCP session is closed (default 30 minutes). */
  sessionIdleMs?: number;
  log?: (message: string) => void;
  /** Called with the method of every JSON-RPC message a client posts (after the checks), e.g. for a status view. */
  onMessage?: (method: string) => void;
  name?: string;
  version?: string;
  /** The editor's tools for tool recommendations when a call sends none (see createServer). */
  availableTools?: CreateServerOptions['availableTools'];
  /** The tools to advertise, read for each new MCP session (a changed setting applies to the next connection). */
  tools?: () => CreateServerOptions['tools'];
  /**
   * Serve without MCP sessions (the 2026-07-28 revision's way): no mcp-session-id, no initialize needed first, one
   * McpServer per POST; GET and DELETE are refused (405). Threads continue by their sessionId handle.
   */
  stateless?: boolean;
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:53121/mcp */
  url: string;
  port: number;
  /** How many MCP sessions are open now. */
  openSessions(): number;
  /** Closes every MCP session and the listener. */
  close(): Promise<void>;
}

interface HttpSession {
  transport: NodeStreamableHTTPServerTransport;
  close(): Promise<void>;
  closing(): void;
  /** HTTP requests of this session not yet answered (POSTs and open GET streams). */
  inFlight: number;
  /** When the last request ended (or the session started); orders eviction. */
  lastActive: number;
  idleTimer?: NodeJS.Timeout;
  closed: boolean;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  if (typeof options.token !== 'string' || options.token.length < 16)
    throw new RangeError('startHttpServer needs a token of at least 16 characters');
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_HTTP_SESSIONS;
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_HTTP_SESSION_IDLE_MS;
  // setTimeout's own bound: longer delays would fire at once.
  if (!(sessionIdleMs > 0 && sessionIdleMs <= MAX_TIMER_MS))
    throw new RangeError(`startHttpServer needs a sessionIdleMs of 1-${MAX_TIMER_MS}, got ${sessionIdleMs}`);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const expectedToken = digest(options.token);
  const sessions = new Map<string, HttpSession>();
  let port = options.port ?? 0;
  let closing = false;
  const continuation = options.stateless ? createStatelessContinuation(options.engine) : undefined;
  /** Stateless requests being answered: closed with the listener. */
  const statelessInFlight = new Set<() => Promise<void>>();

  const newServer = () =>
    createServer({
      engine: options.engine,
      name: options.name,
      version: options.version,
      modelGateway: options.modelGateway,
      toolGateway: options.toolGateway,
      decisionPoints: options.decisionPoints,
      replyDetail: options.replyDetail,
      telemetry: options.telemetry,
      availableTools: options.availableTools,
      openExplorer: options.openExplorer,
      tools: options.tools?.(),
      continuation,
    });

  /** One request without an MCP session: its own server and transport, closed when the response ends. */
  const serveStateless = async (request: IncomingMessage, response: ServerResponse, parsed: unknown): Promise<void> => {
    const created = newServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // A batch's replies share one budget (replyBudget.ts).
    const budget = new ReplyBudget();
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => send(budget.admit(message), sendOptions);
    const close = () => created.server.close();
    statelessInFlight.add(close);
    response.once('close', () => {
      statelessInFlight.delete(close);
      close().catch((error: unknown) => log(`closing a stateless MCP request: ${errorMessage(error)}`));
    });
    await created.server.connect(transport);
    await transport.handleRequest(request, response, parsed);
  };

  const openSession = async (): Promise<HttpSession> => {
    const created = newServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, session);
      },
    });
    const session: HttpSession = {
      transport,
      close: () => created.server.close(),
      closing: created.closing,
      inFlight: 0,
      lastActive: Date.now(),
      closed: false,
    };
    transport.onclose = () => {
      session.closed = true;
      clearTimeout(session.idleTimer);
      // Only this session's entry: an evicted session's id may not be in the map any more.
      if (transport.sessionId !== undefined && sessions.get(transport.sessionId) === session) sessions.delete(transport.sessionId);
      created.cleanup();
    };
    await created.server.connect(transport);
    return session;
  };

  const reclaim = (sessionId: string, session: HttpSession, why: string) => {
    if (sessions.get(sessionId) !== session) return;
    sessions.delete(sessionId);
    clearTimeout(session.idleTimer);
    log(`MCP HTTP session ${sessionId} closed: ${why}`);
    session.close().catch((error: unknown) => log(`closing MCP HTTP session ${sessionId}: ${errorMessage(error)}`));
  };

  /** Counts a request against its session until its response ends (or the connection drops). */
  const track = (session: HttpSession, response: ServerResponse) => {
    session.inFlight += 1;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    response.once('close', () => {
      session.inFlight -= 1;
      session.lastActive = Date.now();
      if (session.inFlight > 0 || closing || session.closed) return;
      const id = session.transport.sessionId;
      // An initialize that did not start a session (refused by the transport) leaves nothing behind.
      if (id === undefined) {
        void session.close();
        return;
      }
      session.idleTimer = setTimeout(() => {
        if (session.inFlight === 0) reclaim(id, session, `idle for ${Math.round(sessionIdleMs / 1000)} s`);
      }, sessionIdleMs);
      // An idle session must not keep the process alive.
      session.idleTimer.unref();
    });
  };

  /** Makes room for one more session: closes the least recently used idle one. False when every session is busy. */
  const makeRoom = (): boolean => {
    if (sessions.size < maxSessions) return true;
    let oldest: [string, HttpSession] | undefined;
    for (const entry of sessions) {
      if (entry[1].inFlight === 0 && (oldest === undefined || entry[1].lastActive < oldest[1].lastActive)) oldest = entry;
    }
    if (!oldest) return false;
    reclaim(oldest[0], oldest[1], `least recently used of ${maxSessions} sessions, to admit a new client`);
    return true;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = refuse(request);
    if (refusal) return sendError(response, refusal.status, refusal.message, refusal.headers);
    // Only an allowed Origin gets here with one: let its browser read the reply.
    if (request.headers.origin !== undefined) setCorsHeaders(response, request.headers.origin);

    if (options.stateless) {
      if (request.method !== 'POST')
        return sendError(response, 405, 'Method not allowed: this server runs without MCP sessions (stateless); only POST', {
          Allow: 'POST',
        });
      const body = await readJsonBody(request, response);
      if (body === undefined) return;
      return serveStateless(request, response, body.parsed);
    }
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !session)
      return sendError(response, 404, 'Session not found; start a new one with initialize', undefined, -32001);
    if (session) track(session, response);

    if (request.method === 'POST') {
      const body = await readJsonBody(request, response);
      if (body === undefined) return;
      const { parsed } = body;
      if (session) return session.transport.handleRequest(request, response, parsed);
      if (!isInitialize(parsed))
        return sendError(response, 400, 'Bad Request: no mcp-session-id; send initialize first', undefined, -32000);
      if (!makeRoom()) {
        return sendError(
          response,
          503,
          `All ${maxSessions} MCP sessions have a request in flight; retry in ${BUSY_RETRY_AFTER_SECONDS} seconds`,
          {
            'Retry-After': String(BUSY_RETRY_AFTER_SECONDS),
          },
        );
      }
      const created = await openSession();
      track(created, response);
      return created.transport.handleRequest(request, response, parsed);
    }
    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!session) return sendError(response, 400, 'Bad Request: mcp-session-id header required', undefined, -32000);
      // The client is leaving: nothing more is sent to it while the session closes.
      if (request.method === 'DELETE') session.closing();
      return session.transport.handleRequest(request, response);
    }
    return sendError(response, 405, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
  };

  /** The POST body parsed, after the size check; undefined when the response has been sent (or the client left). */
  const readJsonBody = async (request: IncomingMessage, response: ServerResponse): Promise<{ parsed: unknown } | undefined> => {
    const body = await readBody(request, maxBodyBytes);
    if (body.kind === 'tooLarge') {
      sendError(response, 413, `Request body larger than ${maxBodyBytes} bytes`);
      return undefined;
    }
    if (body.kind === 'aborted') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      sendError(response, 400, 'Parse error: the body is not JSON', undefined, -32700);
      return undefined;
    }
    if (options.onMessage) for (const method of methodsOf(parsed)) options.onMessage(method);
    return { parsed };
  };

  /** A browser's CORS preflight from an allowed Origin: it carries no token, so it is answered before the token check. */
  const preflight = (request: IncomingMessage, response: ServerResponse): boolean => {
    const origin = request.headers.origin;
    if (request.method !== 'OPTIONS' || origin === undefined || !allowedOrigins.has(origin) || !hostAllowed(request.headers.host))
      return false;
    setCorsHeaders(response, origin);
    response.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, DELETE',
      'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS,
      'Access-Control-Max-Age': '600',
    });
    response.end();
    return true;
  };

  const hostAllowed = (host: string | undefined) => host === `${LOOPBACK}:${port}` || host === `localhost:${port}`;

  /** Host, Origin and token checks; returns why a request is refused, or undefined. */
  const refuse = (request: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined => {
    if (!hostAllowed(request.headers.host)) return { status: 403, message: 'Forbidden: unexpected Host header' };
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return { status: 403, message: 'Forbidden: Origin not allowed' };
    const authorization = request.headers.authorization;
    const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    // Compare digests so the comparison takes the same time whatever the token's length or content.
    if (!match || !timingSafeEqual(digest(match[1]), expectedToken)) {
      return { status: 401, message: 'Unauthorized: send Authorization: Bearer <token>', headers: { 'WWW-Authenticate': 'Bearer' } };
    }
    const path = (request.url ?? '').split('?')[0];
    if (path !== MCP_PATH) return { status: 404, message: `Not found; the MCP endpoint is ${MCP_PATH}` };
    return undefined;
  };

  const listener: HttpListener = createHttpListener((request, response) => {
    if (closing) return sendError(response, 503, 'Server is closing');
    if (preflight(request, response)) return;
    handle(request, response).catch((error: unknown) => {
      log(`MCP HTTP request failed: ${errorDetail(error)}`);
      if (!response.headersSent) sendError(response, 500, 'Internal server error', undefined, -32603);
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, LOOPBACK, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  port = (listener.address() as AddressInfo).port;
  listener.on('error', (error) => log(`MCP HTTP server error: ${error.message}`));

  return {
    url: `http://${LOOPBACK}:${port}${MCP_PATH}`,
    port,
    openSessions: () => sessions.size,
    close: async () => {
      if (closing) return;
      closing = true;
      const open = [...sessions.values()];
      sessions.clear();
      for (const session of open) clearTimeout(session.idleTimer);
      await Promise.allSettled([...open.map((session) => session.close()), ...[...statelessInFlight].map((close) => close())]);
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        // Open SSE streams would otherwise keep the listener alive.
        listener.closeAllConnections();
      });
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const methods: string[] = [];
  for (const message of messages) {
    const method = typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
    if (typeof method === 'string') methods.push(method);
  }
  return methods;
}

function isInitialize(body: unknown): boolean {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as { method?: unknown }).method === 'initialize';
}

type BodyResult = { kind: 'ok'; text: string } | { kind: 'tooLarge' } | { kind: 'aborted' };

function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return Promise.resolve({ kind: 'tooLarge' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        finish({ kind: 'tooLarge' });
        // Keep reading (and discarding) so the 413 can be delivered on this connection.
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => finish({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    request.on('error', () => finish({ kind: 'aborted' }));
    request.on('aborted', () => finish({ kind: 'aborted' }));
  });
}

function setCorsHeaders(response: ServerResponse, origin: string): void {
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
  response.setHeader('Vary', 'Origin');
}

function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
