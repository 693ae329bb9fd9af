// The MCP server definition provider: what it offers VS Code, the in-process server it starts on resolve (real HTTP on
// 127.0.0.1, the same engine the views read, 401 without the secret), and how settings and deactivation stop it.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import * as httpServerModule from '../../src/mcp/httpServer';
import { registerMcpProvider, type HttpServerLoader, type McpServerHost } from '../../src/extension/mcpProvider';
import { servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { extensionContext, type McpHttpServerDefinition, resetStub, setConfiguration, stub } from './support/vscodeStub';
import { waitFor } from '../support/waitFor';

// Static import (the loader's laziness is what these tests count, not Node's module loading).
const loadServer: HttpServerLoader = async () => httpServerModule;

let fixture: ServicesFixture;
let context: ReturnType<typeof extensionContext>;
let host: McpServerHost;
let changes: number;

function register(load: HttpServerLoader = loadServer): void {
  host = registerMcpProvider(context as unknown as vscode.ExtensionContext, fixture.services, load);
  changes = 0;
  stub.mcpProviders[0]?.provider.onDidChangeMcpServerDefinitions?.(() => changes++);
}

function provider() {
  const registration = stub.mcpProviders.find((candidate) => candidate.id === 'thoughtExplorer.mcp');
  assert.ok(registration, 'provider thoughtExplorer.mcp is registered');
  return registration.provider;
}

async function resolveDefinition(): Promise<McpHttpServerDefinition> {
  const [definition] = (await provider().provideMcpServerDefinitions()) as McpHttpServerDefinition[];
  const resolved = (await provider().resolveMcpServerDefinition?.(definition)) as McpHttpServerDefinition | undefined;
  assert.ok(resolved, 'the definition resolves');
  return resolved;
}

interface RpcResult {
  status: number;
  sessionId: string | null;
  body: { result?: Record<string, unknown>; error?: { message: string } } | undefined;
}

/** One JSON-RPC request over Streamable HTTP, as VS Code's MCP client sends it (JSON or SSE answer). */
async function rpc(
  url: string,
  headers: Record<string, string>,
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): Promise<RpcResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  const payload = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6);
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), body: payload ? JSON.parse(payload) : undefined };
}

async function initialize(url: string, authorization: string): Promise<Record<string, string>> {
  const init = await rpc(url, { Authorization: authorization }, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'unit-test', version: '1' },
  });
  assert.equal(init.status, 200);
  assert.ok(init.sessionId);
  const headers = { Authorization: authorization, 'mcp-session-id': init.sessionId, 'mcp-protocol-version': '2025-06-18' };
  await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  context = extensionContext('/extension');
});

afterEach(async () => {
  await host?.stop('test over');
  context.disposeAll();
  fixture.cleanup();
});

describe('MCP server definition provider', () => {
  test('offers one HTTP definition; the server starts only on resolve, on 127.0.0.1 with a random bearer secret', async () => {
    let loads = 0;
    register(async () => {
      loads++;
      return loadServer();
    });
    const definitions = (await provider().provideMcpServerDefinitions()) as McpHttpServerDefinition[];
    assert.equal(definitions.length, 1);
    assert.equal(definitions[0].label, 'Thought Explorer');
    assert.equal(definitions[0].version, '9.9.9');
    assert.equal(definitions[0].headers.Authorization, undefined);
    assert.equal(loads, 0, 'the server module is not loaded before VS Code resolves the definition');
    assert.equal(host.url, undefined);

    const resolved = await resolveDefinition();
    assert.equal(loads, 1);
    assert.equal(resolved.uri.scheme, 'http');
    assert.match(resolved.uri.authority, /^127\.0\.0\.1:\d+$/);
    assert.equal(resolved.uri.toString(), host.url);
    const authorization = resolved.headers.Authorization;
    assert.match(authorization, /^Bearer [A-Za-z0-9_-]{43}$/);

    // A second resolve (VS Code restarting the server) reuses the running one.
    const again = await resolveDefinition();
    assert.equal(again.headers.Authorization, authorization);
    assert.equal(loads, 1);
  });

  test('a request without the secret, or with a wrong one, gets 401', async () => {
    register();
    const resolved = await resolveDefinition();
    const url = resolved.uri.toString();
    const missing = await rpc(url, {}, 'initialize', {});
    assert.equal(missing.status, 401);
    const wrong = await rpc(url, { Authorization: 'Bearer not-the-secret-at-all-not-it' }, 'initialize', {});
    assert.equal(wrong.status, 401);
    assert.equal(host.status().requests.initialize, undefined, 'refused requests are not counted as received');
  });

  test('initialize and tools/list are counted; a tool call lands in the engine the views read', async () => {
    register();
    const resolved = await resolveDefinition();
    const url = resolved.uri.toString();
    const headers = await initialize(url, resolved.headers.Authorization);
    const tools = await rpc(url, headers, 'tools/list', {}, 2);
    const names = ((tools.body?.result?.tools as { name: string }[] | undefined) ?? []).map((tool) => tool.name);
    assert.ok(names.includes('sequentialthinking'), `tools: ${names.join(', ')}`);

    const call = await rpc(url, headers, 'tools/call', { name: 'sequentialthinking', arguments: thought(1, 2, 'Through HTTP') }, 3);
    assert.equal(call.status, 200);
    const listed = fixture.services.engine.listSessions({}).sessions;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].purpose, 'Through HTTP');

    const status = host.status();
    assert.equal(status.running, true);
    assert.equal(status.url, url);
    assert.equal(status.requests.initialize, 1);
    assert.equal(status.requests['tools/list'], 1);
    assert.equal(status.requests['tools/call'], 1);
    // Method names are the client's: "__proto__" and "constructor" are counted like any other.
    await rpc(url, headers, '__proto__', {}, 4);
    await rpc(url, headers, 'constructor', {}, 5);
    const counted = host.status().requests;
    assert.equal(Object.getOwnPropertyDescriptor(counted, '__proto__')?.value, 1);
    assert.equal(Object.getOwnPropertyDescriptor(counted, 'constructor')?.value, 1);
    assert.equal(status.clientsInitialized, 1);
    assert.equal(status.clientsOpen, 1);
  });

  test('disabling the server in settings stops it and withdraws the definition; enabling offers it again', async () => {
    register();
    const resolved = await resolveDefinition();
    const url = resolved.uri.toString();
    setConfiguration('mcpServer.enabled', false);
    fixture.services.reloadSettings();
    await waitFor(() => changes === 1, 'one change');
    assert.deepEqual(await provider().provideMcpServerDefinitions(), []);
    assert.equal(host.url, undefined);
    await assert.rejects(fetch(url, { method: 'POST' }), 'the listener is closed');
    assert.equal(await provider().resolveMcpServerDefinition?.(resolved), undefined);

    setConfiguration('mcpServer.enabled', true);
    fixture.services.reloadSettings();
    await waitFor(() => changes === 2, 'two changes');
    assert.equal(((await provider().provideMcpServerDefinitions()) as unknown[]).length, 1);
  });

  test('a change of storage path keeps the server and its connections; the next thought lands in the new store', async () => {
    register();
    const resolved = await resolveDefinition();
    const url = resolved.uri.toString();
    const headers = await initialize(url, resolved.headers.Authorization);
    await rpc(url, headers, 'tools/call', { name: 'sequentialthinking', arguments: thought(1, 2, 'Before the move') }, 2);
    const oldEngine = fixture.services.engine;
    setConfiguration('storagePath', `${fixture.directory}-moved`);
    fixture.services.reloadSettings();
    await waitFor(() => fixture.services.engine !== oldEngine, 'a new engine');
    assert.equal(host.url, url, 'same server');
    // VS Code is not told: a change event would make it reconnect and cancel a tool call in flight.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(changes, 0, 'no definition change announced');
    const [offered] = (await provider().provideMcpServerDefinitions()) as McpHttpServerDefinition[];
    assert.equal(offered.uri.toString(), url, 'VS Code is offered the same definition');
    assert.equal(offered.headers.Authorization, resolved.headers.Authorization);
    const call = await rpc(url, headers, 'tools/call', { name: 'sequentialthinking', arguments: thought(1, 2, 'After the move') }, 3);
    assert.equal(call.status, 200, 'the MCP session survived');
    assert.notEqual(fixture.services.engine, oldEngine);
    assert.deepEqual(
      fixture.services.engine.listSessions({}).sessions.map((meta) => meta.purpose),
      ['After the move'],
    );
  });

  test('raising maxThoughtLength beyond the body limit restarts the server with a new secret', async () => {
    register();
    const first = await resolveDefinition();
    setConfiguration('limits.maxThoughtLength', 1_000_000);
    fixture.services.reloadSettings();
    await waitFor(() => changes === 1, 'one change');
    assert.equal(host.url, undefined);
    const second = await resolveDefinition();
    assert.notEqual(second.headers.Authorization, first.headers.Authorization, 'a new secret per start');
    const headers = await initialize(second.uri.toString(), second.headers.Authorization);
    const long = 'x'.repeat(300_000);
    const call = await rpc(second.uri.toString(), headers, 'tools/call', { name: 'sequentialthinking', arguments: thought(1, 2, long) }, 2);
    assert.equal(call.status, 200);
    assert.equal(fixture.services.engine.listSessions({}).sessions.length, 1);
  });

  test('concurrent resolves share one start', async () => {
    let loads = 0;
    register(async () => {
      loads++;
      return loadServer();
    });
    const [a, b] = await Promise.all([resolveDefinition(), resolveDefinition()]);
    assert.equal(loads, 1);
    assert.equal(a.uri.toString(), b.uri.toString());
  });

  test('a server module that fails to load is reported, and the next resolve tries again', async () => {
    let fail = true;
    register(async () => {
      if (fail) throw new Error('bundle missing');
      return loadServer();
    });
    await assert.rejects(resolveDefinition(), /bundle missing/);
    assert.equal(host.status().lastError, 'bundle missing');
    assert.ok(fixture.log.lines.some((line) => line.includes('MCP server could not start: bundle missing')));
    fail = false;
    await resolveDefinition();
    assert.equal(host.status().running, true);
  });

  test('deactivation closes the server', async () => {
    register();
    const resolved = await resolveDefinition();
    context.disposeAll();
    await waitFor(() => host.url === undefined, 'the server URL to be cleared');
    // The port closes once the server has shut down: poll until a request is refused (the condition, not a fixed delay).
    await waitFor(
      () =>
        fetch(resolved.uri.toString(), { method: 'POST' }).then(
          () => false,
          () => true,
        ),
      'the server to stop answering after deactivation',
      3000,
    );
  });
});
