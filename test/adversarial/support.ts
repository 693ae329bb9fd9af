// Shared pieces of the attack suite: the built CLI as a child process (raw newline-delimited JSON-RPC on stdio, or
// --http on a loopback port with the token it prints), SDK clients for it, the fuzzing seed, and temp stores.
// Only stable interfaces are used: `node dist/cli.js` with its documented flags, and the SDK's client transports.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { CLI } from '../support/httpCli';

export { CLI, startHttpCli, type HttpCli } from '../support/httpCli';

export const ROOT = resolve(__dirname, '..', '..');
export const PROTOCOL_VERSION = '2025-06-18';

export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run "npm run build" before the attack suite.');
}

/** A fixed seed in CI (reproducible), a random one locally (more ground covered); printed either way. */
export function fuzzSeed(name: string): number {
  const fromEnv = process.env.FUZZ_SEED;
  const seed = fromEnv !== undefined ? Number(fromEnv) : process.env.CI ? 20_261_122 : Math.floor(Math.random() * 2 ** 31);
  console.log(`# ${name}: fast-check seed ${seed} (rerun with FUZZ_SEED=${seed})`);
  return seed;
}

export function tempStore(prefix = 'te-adversarial-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

export interface JsonRpcReply {
  jsonrpc?: string;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * The stdio CLI driven line by line: anything can be written (garbage included), every stdout line is parsed and kept
 * in order, and replies can be awaited by id or by predicate.
 */
export class RawStdioServer {
  readonly replies: JsonRpcReply[] = [];
  readonly badStdoutLines: string[] = [];
  stderr = '';
  private buffer = '';
  private waiters: { match: (reply: JsonRpcReply) => boolean; resolve: (reply: JsonRpcReply) => void }[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() !== '') this.onLine(line);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // Keep the tail only: a long run must not hold megabytes of logs.
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    // A killed child's stdin may be gone mid-write: that is expected here, not a test failure.
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolvePromise) => child.once('exit', (code, signal) => resolvePromise({ code, signal })));
  }

  static start(storageDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): RawStdioServer {
    const child = spawn(process.execPath, [CLI, '--storage-path', storageDir, ...extraArgs], { stdio: ['pipe', 'pipe', 'pipe'], env });
    return new RawStdioServer(child);
  }

  private onLine(line: string): void {
    let reply: JsonRpcReply;
    try {
      reply = JSON.parse(line) as JsonRpcReply;
    } catch {
      this.badStdoutLines.push(line);
      return;
    }
    this.replies.push(reply);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.match(reply)) return true;
      waiter.resolve(reply);
      return false;
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  writeLine(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  send(message: object): void {
    this.writeLine(JSON.stringify(message));
  }

  /** The next reply (already received or future) that matches; rejects after `timeoutMs`. */
  waitFor(match: (reply: JsonRpcReply) => boolean, timeoutMs = 5000, from = 0): Promise<JsonRpcReply> {
    const seen = this.replies.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolvePromise, reject) => {
      const waiter = {
        match,
        resolve: (reply: JsonRpcReply) => {
          clearTimeout(timer);
          resolvePromise(reply);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        reject(
          new Error(
            `no matching reply within ${timeoutMs} ms (server ${this.alive ? 'alive' : 'exited'}; stderr tail: ${this.stderr.slice(-400)})`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  request(id: number | string, method: string, params?: object, timeoutMs = 5000): Promise<JsonRpcReply> {
    const from = this.replies.length;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((reply) => reply.id === id, timeoutMs, from);
  }

  async initialize(): Promise<void> {
    const reply = await this.request('init', 'initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'adversarial', version: '1' },
    });
    if (!reply.result) throw new Error(`initialize failed: ${JSON.stringify(reply)}`);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Closes stdin (the clean way a client leaves) and waits for the exit. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The text of a tools/call reply, or undefined when it was an error of any kind. */
export function toolText(reply: JsonRpcReply): { ok: boolean; text: string } {
  if (reply.error) return { ok: false, text: reply.error.message };
  const result = reply.result as unknown as CallToolResult | undefined;
  const first = result?.content?.[0];
  const text = first && first.type === 'text' ? first.text : '';
  return { ok: result?.isError !== true, text };
}

export async function connectHttp(server: { url: string; token: string }, name = 'adversarial'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** A successful tool result's JSON; throws with the error text otherwise. */
export function resultJson<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool call failed: ${resultText(result)}`);
  return JSON.parse(resultText(result)) as T;
}
