// The built CLI (dist/cli.js) over stdio, driven by the SDK Client as MCP clients run it: drop-in equality with the
// reference server's five fields, restart and resume on one storage directory, the wire format's edge cases, and
// the export command.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI, ROOT, connectCli, connectReference, ensureBuiltCli, jsonOf, sessions, tempDir, textOf, think } from './support/clients';
import { waitFor } from './support/waitFor';
import { PLAIN_CLIENT_TOOL_NAMES } from './support/toolNames';

const REFERENCE_FIELDS = ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength'] as const;

/** A sequence with plain thoughts, an exceeded estimate, string input, a revision and two branches. */
const SEQUENCE: Record<string, unknown>[] = [
  { thought: 'Restate the problem.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true },
  { thought: 'Plan the approach.', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true },
  { thought: 'First step.', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: true },
  { thought: 'Beyond the estimate.', thoughtNumber: '4', totalThoughts: '3', nextThoughtNeeded: 'true', needsMoreThoughts: true },
  { thought: 'Step 2 was wrong.', thoughtNumber: 5, totalThoughts: 6, nextThoughtNeeded: true, isRevision: true, revisesThought: 2 },
  { thought: 'Alternative A.', thoughtNumber: 6, totalThoughts: 7, nextThoughtNeeded: true, branchFromThought: 3, branchId: 'alt-a' },
  { thought: 'Alternative B.', thoughtNumber: 7, totalThoughts: 8, nextThoughtNeeded: true, branchFromThought: 3, branchId: 'alt-b' },
  { thought: 'More of A.', thoughtNumber: 8, totalThoughts: 8, nextThoughtNeeded: true, branchFromThought: 3, branchId: 'alt-a' },
  { thought: 'Conclusion.', thoughtNumber: 9, totalThoughts: 9, nextThoughtNeeded: false },
];

before(() => ensureBuiltCli());

describe('the CLI over stdio', () => {
  it("answers the reference server's five fields exactly as the reference does, call by call", async () => {
    const ours = await connectCli(tempDir());
    const reference = await connectReference();
    try {
      for (const args of SEQUENCE) {
        const mine = await think(ours.client, args);
        const theirs = await think(reference.client, args);
        assert.equal(mine.isError, undefined, textOf(mine));
        assert.equal(theirs.isError, undefined, textOf(theirs));
        const pick = (value: unknown) =>
          Object.fromEntries(REFERENCE_FIELDS.map((field) => [field, (value as Record<string, unknown>)[field]]));
        assert.deepEqual(pick(mine.structuredContent ?? {}), pick(theirs.structuredContent ?? {}), JSON.stringify(args));
        assert.deepEqual(pick(jsonOf(mine)), pick(JSON.parse(textOf(theirs)) as Record<string, unknown>), JSON.stringify(args));
      }
    } finally {
      await ours.close();
      await reference.close();
    }
  });

  it('lists what a plain client can use and reports a validation error as an isError result', async () => {
    const ours = await connectCli(tempDir());
    try {
      // No MCP Apps, no sampling, no --model-endpoint: neither the app-only tools nor deliberate.
      const { tools } = await ours.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), PLAIN_CLIENT_TOOL_NAMES);
      const refused = await think(ours.client, { thought: 'x', thoughtNumber: 0, totalThoughts: 1, nextThoughtNeeded: true });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /thoughtNumber.*0.*whole number of at least 1/);
    } finally {
      await ours.close();
    }
  });

  it('applies the limit flags', async () => {
    const ours = await connectCli(tempDir(), ['--max-thought-length', '20', '--max-thoughts', '2']);
    try {
      const long = await think(ours.client, { thought: 'x'.repeat(21), thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true });
      assert.equal(long.isError, true);
      assert.match(textOf(long), /at most 20 characters/);
      await think(ours.client, { thought: 'one', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true });
      await think(ours.client, { thought: 'two', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true });
      const full = await think(ours.client, { thought: 'three', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: true });
      assert.equal(full.isError, true);
      assert.match(textOf(full), /full/);
    } finally {
      await ours.close();
    }
  });

  it('delivers replies larger than the pipe buffer intact and in order', async () => {
    const ours = await connectCli(tempDir());
    try {
      const long = (index: number) => `${index}:${'ß∑'.repeat(9_000)}`;
      let sessionId = '';
      for (let number = 1; number <= 12; number++) {
        const reply = jsonOf(
          await think(ours.client, { thought: long(number), thoughtNumber: number, totalThoughts: 12, nextThoughtNeeded: true }),
        );
        // Compact replies name the session on its first reply.
        if (number === 1) sessionId = String(reply.sessionId);
      }
      // About 430 KB of JSON in one reply, then small replies right behind it.
      const [full, list, ping] = await Promise.all([
        sessions(ours.client, { action: 'get', sessionId, detail: 'full' }),
        sessions(ours.client, { action: 'list' }),
        ours.client.ping(),
      ]);
      const thoughts = jsonOf<{ thoughts: { thought: string }[] }>(full).thoughts;
      assert.deepEqual(
        thoughts.map((thought) => thought.thought),
        Array.from({ length: 12 }, (_, index) => long(index + 1)),
      );
      assert.equal(jsonOf<{ total: number }>(list).total, 1);
      assert.deepEqual(ping, {});
    } finally {
      await ours.close();
    }
  });

  it('keeps sessions across a restart: a second process resumes by sessionId', async () => {
    const storage = tempDir();
    const first = await connectCli(storage);
    let sessionId: string;
    try {
      for (const args of SEQUENCE.slice(0, 3)) await think(first.client, args);
      const listed = jsonOf<{ sessions: { sessionId: string }[] }>(await sessions(first.client, { action: 'list' }));
      assert.equal(listed.sessions.length, 1);
      sessionId = listed.sessions[0].sessionId;
    } finally {
      await first.close();
    }
    const second = await connectCli(storage);
    try {
      const resumed = jsonOf<{ sessionId: string; nextThoughtNumber: number; recentThoughts: { thought: string }[] }>(
        await sessions(second.client, { action: 'resume', sessionId }),
      );
      assert.equal(resumed.sessionId, sessionId);
      assert.equal(resumed.nextThoughtNumber, 4);
      assert.equal(resumed.recentThoughts.at(-1)?.thought, 'First step.');
      const next = jsonOf(
        await think(second.client, { thought: 'After the restart.', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: true }),
      );
      assert.equal(next.sessionId, sessionId);
      assert.equal(next.thoughtHistoryLength, 4);
    } finally {
      await second.close();
    }
    const third = await connectCli(storage);
    try {
      // An explicit sessionId continues the saved session without resume.
      const next = jsonOf(
        await think(third.client, { thought: 'Third process.', thoughtNumber: 5, totalThoughts: 5, nextThoughtNeeded: false, sessionId }),
      );
      assert.equal(next.thoughtHistoryLength, 5);
    } finally {
      await third.close();
    }
  });
});

describe('the stdio wire format', () => {
  let child: ReturnType<typeof spawn>;
  const lines: string[] = [];
  let waiters: (() => void)[] = [];

  before(() => {
    child = spawn(process.execPath, [CLI, '--storage-path', tempDir()], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        lines.push(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
      }
      const current = waiters;
      waiters = [];
      for (const wake of current) wake();
    });
  });
  after(() => {
    child.kill();
  });

  async function nextLine(): Promise<Record<string, unknown>> {
    while (lines.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
    return JSON.parse(lines.shift() as string) as Record<string, unknown>;
  }

  it('answers a line that is not JSON with a parse error and keeps serving', async () => {
    child.stdin?.write('this is not json\n');
    const error = await nextLine();
    assert.equal((error.error as { code: number }).code, -32700);
    assert.equal(error.id, null);
    child.stdin?.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    assert.deepEqual(await nextLine(), { result: {}, jsonrpc: '2.0', id: 1 });
  });

  it('answers a message without the JSON-RPC envelope with an invalid request error', async () => {
    child.stdin?.write('{"id":2,"method":"ping"}\n');
    const error = await nextLine();
    assert.equal((error.error as { code: number }).code, -32600);
    assert.equal(error.id, 2);
  });

  it('reassembles messages split across chunks, accepts CRLF and several messages in one chunk', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'sequentialthinking',
        arguments: { thought: 'héllo — ünïcode', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true },
      },
    });
    const bytes = Buffer.from(`${call}\r\n`, 'utf8');
    // Split inside a multi-byte character.
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    child.stdin?.write(bytes.subarray(0, cut));
    // Deliberate: a pause between the two writes, so the server reads the line in two chunks.
    await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin?.write(Buffer.concat([bytes.subarray(cut), Buffer.from('{"jsonrpc":"2.0","id":4,"method":"ping"}\n')]));
    // Both answered; JSON-RPC leaves their order to the server (the quick ping may overtake the tool call).
    const replies = [await nextLine(), await nextLine()].sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(
      replies.map((reply) => reply.id),
      [3, 4],
    );
    const result = replies[0].result as { structuredContent: { thoughtNumber: number } };
    assert.equal(result.structuredContent.thoughtNumber, 1);
  });

  it('answers an unknown tool with an invalid-params error naming it (the spec since 2025-11-25; SDK v2)', async () => {
    child.stdin?.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}\n');
    const reply = await nextLine();
    assert.equal(reply.id, 5);
    const error = reply.error as { code: number; message: string };
    assert.equal(error.code, -32602);
    assert.match(error.message, /Tool nope not found/);
  });
});

describe('the CLI reading requests from a file or a pipe that then ends', () => {
  it('answers every request before it exits, without a warning about drain listeners', async () => {
    const child = spawn(process.execPath, [CLI, '--storage-path', tempDir()], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const thoughts = Array.from({ length: 1000 }, (_, index) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: index + 1,
        method: 'tools/call',
        params: {
          name: 'sequentialthinking',
          arguments: { thought: `${index} ${'x'.repeat(300)}`, thoughtNumber: index + 1, totalThoughts: 1000, nextThoughtNeeded: true },
        },
      }),
    );
    const pings = Array.from({ length: 5000 }, (_, index) => JSON.stringify({ jsonrpc: '2.0', id: `ping-${index}`, method: 'ping' }));
    child.stdin?.end(`${[...thoughts, ...pings].join('\n')}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    const ids = new Set(
      stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { id: unknown }).id),
    );
    assert.equal(ids.size, 6000, 'one answer per request');
    assert.doesNotMatch(stderr, /MaxListenersExceededWarning/);
  });
});

describe('the CLI commands', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });

  it('prints help and the version', () => {
    const help = run(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--storage-path/);
    assert.match(help.stdout, /export <sessionId>/);
    const version = run(['--version']);
    assert.equal(version.status, 0);
    assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('refuses unknown options and formats with exit code 2 and the usage', () => {
    const unknown = run(['--frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown option --frobnicate/);
    const format = run(['export', 'x', '--format', 'pdf']);
    assert.equal(format.status, 2);
    assert.match(format.stderr, /Unknown export format "pdf"/);
  });

  it('exports a saved session as Markdown and JSON, and says so clearly when the session does not exist', async () => {
    const storage = tempDir();
    const client = await connectCli(storage);
    let sessionId: string;
    try {
      sessionId = String(
        jsonOf(
          await think(client.client, {
            thought: 'Exported <script>x</script> thought.',
            thoughtNumber: 1,
            totalThoughts: 1,
            nextThoughtNeeded: false,
          }),
        ).sessionId,
      );
    } finally {
      await client.close();
    }
    const markdown = run(['export', sessionId, '--format', 'md', '--storage-path', storage]);
    assert.equal(markdown.status, 0, markdown.stderr);
    assert.match(markdown.stdout, /```mermaid/);
    const out = join(tempDir(), 'session.json');
    const json = run(['export', sessionId, '--format', 'json', '--out', out, '-s', storage]);
    assert.equal(json.status, 0, json.stderr);
    assert.match(readFileSync(out, 'utf8'), /Exported <script>x<\/script> thought\./);
    const imported = tempDir();
    const importRun = run(['import', out, '-s', imported]);
    assert.equal(importRun.status, 0, importRun.stderr);
    assert.equal(run(['export', sessionId, '--format', 'json', '-s', imported]).status, 0);
    const missing = run(['export', 'no-such-session', '--format', 'md', '-s', storage]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no session "no-such-session"/);
    const traversal = run(['export', '../outside', '--format', 'md', '-s', storage]);
    assert.equal(traversal.status, 1);
    assert.match(traversal.stderr, /path separators/);
  });

  it('serves Streamable HTTP with --http, printing the URL and a bearer token to stderr', async () => {
    const child = spawn(process.execPath, [CLI, '--http', '0', '--storage-path', tempDir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      await waitFor(() => /bearer token: \S+/.test(stderr), 'the bearer token line', 30_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1] as string;
      const token = /bearer token: (\S+)/.exec(stderr)?.[1] as string;
      assert.ok(token.length >= 32, 'a long random token');
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
      const client = new Client({ name: 'cli-http-test', version: '1.0.0' });
      await client.connect(transport);
      const reply = jsonOf(
        await think(client, { thought: 'Over the CLI HTTP server.', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }),
      );
      assert.equal(reply.thoughtHistoryLength, 1);
      await client.close();
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401);
      assert.equal(stdout, '', 'nothing on stdout');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--storage-path', tempDir()], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await waitFor(() => stderr.includes('MCP server on stdio'), 'the server to start', 30_000);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(stderr, /shutting down \(SIGTERM\)/);
  });
});
