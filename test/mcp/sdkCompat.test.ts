// Clients from both SDK lines against the CLI: a client from SDK 1.32 (`@modelcontextprotocol/sdk`, what most clients
// ship today) and one from SDK 2.4 (`@modelcontextprotocol/client`) each run a whole session — thoughts, a revision, a
// branch, `thinking_sessions get`, a resource read — over stdio and over Streamable HTTP; and every protocol version
// from 2025-03-26 to 2025-11-25 still negotiates.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, ensureBuiltCli, tempDir } from './support/clients';
import { startHttpCli, type HttpCli } from '../support/httpCli';

/** What both SDK lines' clients offer that a session needs (their types differ; the calls do not). */
interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  getServerVersion(): { name: string } | undefined;
  close(): Promise<void>;
}

interface ToolReply {
  isError?: boolean;
  content: { type: string; text?: string }[];
}

async function call(client: AnyClient, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolReply;
  const text = result.content[0]?.text ?? '';
  assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Thoughts 1-2, a revision of 1, a branch from 2, `thinking_sessions get` and the session's resource. */
async function fullSession(client: AnyClient, label: string): Promise<void> {
  assert.equal(client.getServerVersion()?.name, 'thought-explorer');
  const first = await call(client, 'sequentialthinking', {
    thought: `${label}: first`,
    thoughtNumber: 1,
    totalThoughts: 4,
    nextThoughtNeeded: true,
  });
  const sessionId = first.sessionId as string;
  assert.ok(sessionId, 'thought 1 names its session');
  await call(client, 'sequentialthinking', {
    thought: `${label}: second`,
    thoughtNumber: 2,
    totalThoughts: 4,
    nextThoughtNeeded: true,
    sessionId,
  });
  const revision = await call(client, 'sequentialthinking', {
    thought: `${label}: the first was wrong`,
    thoughtNumber: 3,
    totalThoughts: 4,
    nextThoughtNeeded: true,
    isRevision: true,
    revisesThought: 1,
    sessionId,
  });
  assert.equal(revision.thoughtHistoryLength, 3);
  const branch = await call(client, 'sequentialthinking', {
    thought: `${label}: another way`,
    thoughtNumber: 4,
    totalThoughts: 4,
    nextThoughtNeeded: false,
    branchFromThought: 2,
    branchId: 'alt',
    sessionId,
  });
  assert.deepEqual(branch.branches, ['alt']);
  const got = await call(client, 'thinking_sessions', { action: 'get', sessionId, detail: 'full' });
  const thoughts = got.thoughts as { thought: string; isRevision?: boolean; branchId?: string }[];
  assert.deepEqual(
    thoughts.map((thought) => thought.thought),
    [`${label}: first`, `${label}: second`, `${label}: the first was wrong`, `${label}: another way`],
  );
  assert.equal(thoughts[2].isRevision, true);
  assert.equal(thoughts[3].branchId, 'alt');
  const resource = await client.readResource({ uri: `thinking://sessions/${sessionId}` });
  const text = (resource.contents[0] as { text: string }).text;
  assert.equal((JSON.parse(text) as { thoughts: unknown[] }).thoughts.length, 4);
}

/** Connects `client` over `transport`, plays the full session and closes the client, whatever happened. */
async function sessionOver<T>(
  client: { connect(transport: T): Promise<void>; close(): Promise<void> },
  transport: T,
  label: string,
): Promise<void> {
  await client.connect(transport);
  try {
    await fullSession(client as unknown as AnyClient, label);
  } finally {
    await client.close();
  }
}

describe('SDK 1.32 and SDK 2.4 clients against the CLI', () => {
  let http: HttpCli;
  before(async () => {
    ensureBuiltCli();
    http = await startHttpCli(tempDir());
  });
  after(async () => {
    await http.stop();
  });
  const headers = () => ({ requestInit: { headers: { Authorization: `Bearer ${http.token}` } } });

  const stdioArgs = () => ({ command: process.execPath, args: [CLI, '--storage-path', tempDir()], stderr: 'pipe' as const });

  it('SDK 1.32 over stdio', () =>
    sessionOver(new ClientV1({ name: 'sdk-1.32', version: '1.0.0' }), new StdioClientTransportV1(stdioArgs()), 'v1 stdio'));

  it('SDK 2.4 over stdio', () =>
    sessionOver(new Client({ name: 'sdk-2.4', version: '1.0.0' }), new StdioClientTransport(stdioArgs()), 'v2 stdio'));

  it('SDK 1.32 over Streamable HTTP', () =>
    sessionOver(
      new ClientV1({ name: 'sdk-1.32', version: '1.0.0' }),
      new StreamableHTTPClientTransportV1(new URL(http.url), headers()),
      'v1 http',
    ));

  it('SDK 2.4 over Streamable HTTP', () =>
    sessionOver(
      new Client({ name: 'sdk-2.4', version: '1.0.0' }),
      new StreamableHTTPClientTransport(new URL(http.url), headers()),
      'v2 http',
    ));
});

describe('protocol versions', () => {
  before(() => ensureBuiltCli());

  /** The version the CLI answers a raw `initialize` with over stdio. */
  async function negotiated(protocolVersion: string): Promise<string> {
    const child = spawn(process.execPath, [CLI, '--storage-path', tempDir()], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const end = out.indexOf('\n');
          if (end !== -1) resolve(out.slice(0, end));
        });
        child.once('exit', () => reject(new Error(`the CLI exited before answering: ${out}`)));
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
        );
      });
      return (JSON.parse(line) as { result: { protocolVersion: string } }).result.protocolVersion;
    } finally {
      child.kill('SIGTERM');
    }
  }

  for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    it(`negotiates ${version}`, async () => {
      assert.equal(await negotiated(version), version);
    });
  }
});
