// Streamable HTTP on 127.0.0.1 behind a bearer token: used by the CLI's --http and by the VS Code extension host (the
// same function, so keep it free of CLI concerns). Every request is checked in this order: Host (DNS rebinding),
// Origin, token, then the body's size. One McpServer and one SDK transport per MCP session (mcp-session-id header).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpListener, type IncomingMessage, type Server as HttpListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ThinkingEngine } from '../engine/engine';
import type { ModelGateway } from '../engine/modelGateway';
import { createServer } from './server';

export const MCP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_HTTP_SESSIONS = 64;
const LOOPBACK = '127.0.0.1';

export interface HttpServerOptions {
  engine: ThinkingEngine;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The secret every request must send as `Authorization: Bearer <token>`. */
  token: string;
  maxBodyBytes?: number;
  /** Origins allowed in the Origin header (exact match, e.g. "vscode-webview://..."); requests without Origin pass. */
  allowedOrigins?: readonly string[];
  /** Most MCP sessions open at once; a client past it gets 503 until one closes. */
  maxSessions?: number;
  log?: (message: string) => void;
  /** Called with the method of every JSON-RPC message a client posts (after the checks), e.g. for a status view. */
  onMessage?: (method: string) => void;
  name?: string;
  version?: string;
  /** Passed to every session's server: the host's model for `deliberate`. */
  modelGateway?: ModelGateway;
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
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  if (typeof options.token !== 'string' || options.token.length < 16) throw new RangeError('startHttpServer needs a token of at least 16 characters');
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_HTTP_SESSIONS;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const expectedToken = digest(options.token);
  const sessions = new Map<string, HttpSession>();
  let port = options.port ?? 0;
  let closing = false;

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const created = createServer({ engine: options.engine, name: options.name, version: options.version, modelGateway: options.modelGateway });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, close: () => created.server.close() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      created.cleanup();
    };
    await created.server.connect(transport);
    return transport;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = refuse(request);
    if (refusal) return sendError(response, refusal.status, refusal.message, refusal.headers);

    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !session) return sendError(response, 404, 'Session not found; start a new one with initialize', undefined, -32001);

    if (request.method === 'POST') {
      const body = await readBody(request, maxBodyBytes);
      if (body.kind === 'tooLarge') return sendError(response, 413, `Request body larger than ${maxBodyBytes} bytes`);
      if (body.kind === 'aborted') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.text);
      } catch {
        return sendError(response, 400, 'Parse error: the body is not JSON', undefined, -32700);
      }
      if (options.onMessage) for (const method of methodsOf(parsed)) options.onMessage(method);
      if (session) return session.transport.handleRequest(request, response, parsed);
      if (!isInitialize(parsed)) return sendError(response, 400, 'Bad Request: no mcp-session-id; send initialize first', undefined, -32000);
      if (sessions.size >= maxSessions) return sendError(response, 503, `Too many open MCP sessions (${maxSessions}); close one first`);
      const transport = await openSession();
      return transport.handleRequest(request, response, parsed);
    }
    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!session) return sendError(response, 400, 'Bad Request: mcp-session-id header required', undefined, -32000);
      return session.transport.handleRequest(request, response);
    }
    return sendError(response, 405, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
  };

  /** Host, Origin and token checks; returns why a request is refused, or undefined. */
  const refuse = (request: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined => {
    const host = request.headers.host;
    if (host !== `${LOOPBACK}:${port}` && host !== `localhost:${port}`) return { status: 403, message: 'Forbidden: unexpected Host header' };
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
    handle(request, response).catch((error: unknown) => {
      log(`MCP HTTP request failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
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
      await Promise.allSettled(open.map((session) => session.close()));
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

function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
