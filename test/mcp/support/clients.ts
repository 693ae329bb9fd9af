// Test helpers: real SDK Clients connected to our server over the in-memory transport, over stdio (the built CLI) and
// to the reference server, plus small accessors for tool results.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client';
import type { ModelGateway } from '../../../src/engine/modelGateway';
import type { ThinkingEngine } from '../../../src/engine/engine';
import { createServer, type CreateServerOptions } from '../../../src/mcp/server';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const REFERENCE_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-sequential-thinking', 'dist', 'index.js');

export function tempDir(prefix = 'te-mcp-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Builds dist/cli.js when it is missing (the stdio tests spawn the built CLI, as users do). */
export function ensureBuiltCli(): void {
  if (!existsSync(CLI)) execFileSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

export interface ConnectedClient {
  client: Client;
  close(): Promise<void>;
}

/** What a host that renders MCP Apps declares (ext-apps' extension, as VS Code sends it). */
export const MCP_APPS_CAPABILITIES: ClientCapabilities = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** A model gateway for servers that must list `deliberate` without running it (a host model is configured). */
export const UNUSED_MODEL: ModelGateway = {
  description: 'a host model the test never calls',
  complete: () => Promise.reject(new Error('not called in this test')),
};

/** A real Client over the in-memory transport; by default it declares MCP Apps support, as VS Code does. */
export async function connectInMemory(
  engine: ThinkingEngine,
  connectionId?: string,
  options: Omit<CreateServerOptions, 'engine' | 'connectionId'> = {},
  capabilities: ClientCapabilities = MCP_APPS_CAPABILITIES,
): Promise<ConnectedClient> {
  const created = createServer({ ...options, engine, connectionId });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverTransport);
  const client = new Client({ name: 'thought-explorer-test', version: '1.0.0' }, { capabilities });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      created.cleanup();
    },
  };
}

function processEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...extra };
}

export interface StdioClient extends ConnectedClient {
  transport: StdioClientTransport;
}

export async function connectStdio(command: string, args: string[], env: Record<string, string> = {}): Promise<StdioClient> {
  const transport = new StdioClientTransport({ command, args, env: processEnv(env), stderr: 'pipe' });
  const client = new Client({ name: 'thought-explorer-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

export function connectCli(storageDir: string, extraArgs: string[] = []): Promise<StdioClient> {
  return connectStdio(process.execPath, [CLI, '--storage-path', storageDir, ...extraArgs]);
}

export function connectReference(): Promise<StdioClient> {
  return connectStdio(process.execPath, [REFERENCE_SERVER], { DISABLE_THOUGHT_LOGGING: 'true' });
}

export function think(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name: 'sequentialthinking', arguments: args }) as Promise<CallToolResult>;
}

export function sessions(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name: 'thinking_sessions', arguments: args }) as Promise<CallToolResult>;
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text') throw new Error(`expected a text result, got ${JSON.stringify(result.content)}`);
  return first.text;
}

/** The JSON in a successful result's text, typed loosely for assertions. */
export function jsonOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool call failed: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}
