// The inline thought graph (MCP App) as an MCP client sees it: the `ui://` resource (listed, readable, its MIME type,
// no session data in it), the tool metadata that points hosts at it, the two app-only tools (pages of a session,
// open in explorer), and sequentialthinking's reply left exactly as it was for hosts without MCP Apps.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { createServer } from '../../src/mcp/server';
import { LEGACY_RESOURCE_URI_KEY, MCP_APP_MIME_TYPE, THOUGHT_GRAPH_URI } from '../../src/mcp/app/thoughtGraphUri';
import { SESSION_PAGE_MAX_LIMIT } from '../../src/mcp/app/sessionPageTool';
import { NO_EDITOR_HINT } from '../../src/mcp/app/openExplorerTool';
import { OPEN_EXPLORER_TOOL_NAME, SESSION_PAGE_TOOL_NAME, type SessionPage } from '../../src/shared/thoughtGraph';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLI,
  ROOT,
  connectInMemory,
  connectStdio,
  ensureBuiltCli,
  jsonOf,
  tempDir,
  textOf,
  think,
  type ConnectedClient,
  MCP_APPS_CAPABILITIES,
  UNUSED_MODEL,
} from './support/clients';

const quiet = () => {};

function page(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name: SESSION_PAGE_TOOL_NAME, arguments: args }) as Promise<CallToolResult>;
}

async function thinkLine(client: Client, count: number, text = (n: number) => `Thought number ${n}`): Promise<string> {
  let sessionId = '';
  for (let n = 1; n <= count; n++) {
    const reply = jsonOf<{ sessionId?: string }>(
      await think(client, { thought: text(n), thoughtNumber: n, totalThoughts: count, nextThoughtNeeded: n < count }),
    );
    // Compact replies name the session on its first reply.
    sessionId = reply.sessionId ?? sessionId;
  }
  return sessionId;
}

describe('MCP App: the thought graph resource and tool metadata', () => {
  let connected: ConnectedClient;
  let tools: Tool[];
  before(async () => {
    connected = await connectInMemory(new ThinkingEngine({ log: quiet }), undefined, { modelGateway: UNUSED_MODEL });
    tools = (await connected.client.listTools()).tools;
  });
  after(() => connected.close());

  it('uses the same MIME type and legacy key as @modelcontextprotocol/ext-apps', async () => {
    const extApps = await import('@modelcontextprotocol/ext-apps/server');
    assert.equal(MCP_APP_MIME_TYPE, extApps.RESOURCE_MIME_TYPE);
    assert.equal(LEGACY_RESOURCE_URI_KEY, extApps.RESOURCE_URI_META_KEY);
  });

  it('points sequentialthinking and deliberate at the ui:// resource, visible to the model', () => {
    for (const name of ['sequentialthinking', 'deliberate']) {
      const tool = tools.find((candidate) => candidate.name === name) as Tool;
      assert.deepEqual(tool._meta, { ui: { resourceUri: THOUGHT_GRAPH_URI }, [LEGACY_RESOURCE_URI_KEY]: THOUGHT_GRAPH_URI }, name);
    }
    const thinkingSessions = tools.find((candidate) => candidate.name === 'thinking_sessions') as Tool;
    assert.equal(thinkingSessions._meta, undefined);
  });

  it('lists the two app-only tools with visibility ["app"], read-only', () => {
    for (const name of [SESSION_PAGE_TOOL_NAME, OPEN_EXPLORER_TOOL_NAME]) {
      const tool = tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} listed`);
      assert.deepEqual((tool._meta as { ui: unknown }).ui, { resourceUri: THOUGHT_GRAPH_URI, visibility: ['app'] });
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.destructiveHint, false);
    }
  });

  it('lists the resource with a clear name, description and the MCP App MIME type', async () => {
    const { resources } = await connected.client.listResources();
    const resource = resources.find((candidate) => candidate.uri === THOUGHT_GRAPH_URI);
    assert.ok(resource, 'ui:// resource listed');
    assert.equal(resource.mimeType, MCP_APP_MIME_TYPE);
    assert.equal(resource.name, 'thought-graph');
    assert.match(resource.title ?? '', /thought graph/i);
    assert.match(resource.description ?? '', /branch tree.*sequentialthinking/);
  });

  it('reads as one self-contained HTML document: inline script under a hash-only CSP, connect-src none, no remote loads', async () => {
    const { contents } = await connected.client.readResource({ uri: THOUGHT_GRAPH_URI });
    assert.equal(contents.length, 1);
    const [content] = contents;
    assert.equal(content.mimeType, MCP_APP_MIME_TYPE);
    const html = (content as { text: string }).text;
    assert.match(html, /^<!doctype html>/);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'none'/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(html, /<script[^>]+src=/i, 'no external script');
    assert.doesNotMatch(html, /<link[^>]+href=/i, 'no external stylesheet');
    assert.equal(html.match(/<script>/g)?.length, 1);
    assert.deepEqual((content._meta as { ui: { csp: unknown } }).ui.csp, { connectDomains: [], resourceDomains: [] });
  });

  it('never carries session data: thought text reaches the view only through tool results', async () => {
    const marker = 'Zebra-marker-7c1f thought text';
    await think(connected.client, { thought: marker, thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false });
    const { contents } = await connected.client.readResource({ uri: THOUGHT_GRAPH_URI });
    assert.equal((contents[0] as { text: string }).text.includes('Zebra-marker-7c1f'), false);
  });
});

describe('MCP App: the session page tool', () => {
  let connected: ConnectedClient;
  before(async () => {
    connected = await connectInMemory(new ThinkingEngine({ log: quiet }));
  });
  after(() => connected.close());

  it('says what to send when the connection has no session yet', async () => {
    const result = await page(connected.client, {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /sessionId/);
  });

  it("pages through the connection's current session from an offset", async () => {
    const sessionId = await thinkLine(connected.client, 7);
    const first = jsonOf<SessionPage>(await page(connected.client, { limit: 3 }));
    assert.equal(first.sessionId, sessionId);
    assert.deepEqual(
      first.thoughts.map((thought) => thought.thoughtNumber),
      [1, 2, 3],
    );
    assert.equal(first.nextOffset, 3);
    assert.equal(first.thoughtCount, 7);
    assert.equal(first.strategy, 'linear');
    assert.equal(first.title, 'Thought number 1', "untitled: the session's purpose");
    const second = jsonOf<SessionPage>(await page(connected.client, { sessionId, offset: first.nextOffset, limit: '3' }));
    assert.deepEqual(
      second.thoughts.map((thought) => thought.thoughtNumber),
      [4, 5, 6],
    );
    const last = jsonOf<SessionPage>(await page(connected.client, { sessionId, offset: 6 }));
    assert.deepEqual(
      last.thoughts.map((thought) => thought.thought),
      ['Thought number 7'],
    );
    assert.equal(last.nextOffset, undefined);
    assert.equal(last.thoughts[0].nextThoughtNeeded, false);
    // structuredContent carries the same page as the text.
    const result = await page(connected.client, { sessionId, offset: 6 });
    assert.deepEqual(result.structuredContent, JSON.parse(textOf(result)));
  });

  it('carries branches, revisions and stages for the tree', async () => {
    const client = connected.client;
    const { sessionId } = jsonOf<{ sessionId: string }>(
      await think(client, {
        thought: 'Root',
        thoughtNumber: 1,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        sessionId: undefined,
        strategy: 'linear',
      }),
    );
    await think(client, {
      thought: 'Fork',
      thoughtNumber: 2,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      branchFromThought: 1,
      branchId: 'alt',
      sessionId,
    });
    await think(client, {
      thought: 'Fix',
      thoughtNumber: 3,
      totalThoughts: 3,
      nextThoughtNeeded: false,
      isRevision: true,
      revisesThought: 1,
      sessionId,
    });
    const result = jsonOf<SessionPage>(await page(client, { sessionId }));
    assert.deepEqual(result.branchIds, ['alt']);
    assert.equal(result.revisionCount, 1);
    assert.equal(result.thoughts[1].branchId, 'alt');
    assert.equal(result.thoughts[1].branchFromThought, 1);
    assert.equal(result.thoughts[2].revisesThought, 1);
    assert.ok(result.thoughts.every((thought) => typeof thought.stage === 'string'));
  });

  it('refuses a bad offset, limit or session with what to send', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ offset: -1 }, /"offset" was -1; send a whole number from 0/],
      [{ offset: 'two' }, /"offset" was "two"/],
      [{ limit: 0 }, /"limit" was 0; send a whole number from 1 to 500/],
      [{ limit: SESSION_PAGE_MAX_LIMIT + 1 }, /"limit" was 501/],
      [{ sessionId: 'no-such-session' }, /^Invalid sessionId: no session "no-such-session" exists/],
    ];
    for (const [args, expected] of cases) {
      const result = await page(connected.client, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), expected);
    }
  });

  it('shows an unknown session id bounded, in both app tools', async () => {
    const sessionId = `x${'y'.repeat(100_000)}`;
    for (const name of [SESSION_PAGE_TOOL_NAME, OPEN_EXPLORER_TOOL_NAME]) {
      const result = (await connected.client.callTool({ name, arguments: { sessionId } })) as CallToolResult;
      assert.equal(result.isError, true, name);
      assert.match(textOf(result), /^Invalid sessionId: no session "xyyy.*\.\.\. exists\./, name);
      assert.ok(textOf(result).length < 400, `${name}: ${textOf(result).length} characters`);
    }
  });
});

describe('MCP App: the open-in-explorer tool', () => {
  it('outside VS Code: says how to open the session, opens nothing', async () => {
    const connected = await connectInMemory(new ThinkingEngine({ log: quiet }));
    try {
      const sessionId = await thinkLine(connected.client, 1);
      const result = (await connected.client.callTool({ name: OPEN_EXPLORER_TOOL_NAME, arguments: {} })) as CallToolResult;
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { opened: false, sessionId, hint: NO_EDITOR_HINT });
    } finally {
      await connected.close();
    }
  });

  it("inside the editor: asks the host to open the session's explorer", async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const opened: string[] = [];
    const created = createServer({ engine, openExplorer: (sessionId) => void opened.push(sessionId) });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await created.server.connect(serverTransport);
    const client = new Client({ name: 'mcp-app-test', version: '1.0.0' }, { capabilities: MCP_APPS_CAPABILITIES });
    await client.connect(clientTransport);
    try {
      const sessionId = await thinkLine(client, 2);
      const result = (await client.callTool({ name: OPEN_EXPLORER_TOOL_NAME, arguments: { sessionId } })) as CallToolResult;
      assert.deepEqual(result.structuredContent, { opened: true, sessionId });
      assert.deepEqual(opened, [sessionId]);
      const unknown = (await client.callTool({ name: OPEN_EXPLORER_TOOL_NAME, arguments: { sessionId: 'nope' } })) as CallToolResult;
      assert.equal(unknown.isError, true);
      assert.deepEqual(opened, [sessionId]);
    } finally {
      await client.close();
      created.cleanup();
    }
  });
});

describe('MCP App: hosts without MCP Apps see the same sequentialthinking reply', () => {
  it('returns exactly the text and structuredContent the engine replies, nothing else', async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const connected = await connectInMemory(engine, 'via-mcp', {}, {});
    const direct = new ThinkingEngine({ log: quiet });
    try {
      const calls = [
        { thought: 'One', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true },
        { thought: 'Two', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true, branchFromThought: 1, branchId: 'b' },
        { thought: 'Three', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: false },
      ];
      for (const args of calls) {
        const result = await think(connected.client, args);
        assert.deepEqual(Object.keys(result).sort(), ['content', 'structuredContent']);
        assert.equal(result.content.length, 1);
        const expected = direct.process('direct', args);
        assert.ok(expected.ok);
        // The engine's reply at the default detail level (compact), as this connection was told it.
        const reply = direct.shapeReplyFor('direct', expected.reply);
        if ('sessionId' in reply) reply.sessionId = (result.structuredContent as { sessionId: string }).sessionId;
        assert.deepEqual(result.structuredContent, reply);
        assert.equal(textOf(result), JSON.stringify(result.structuredContent));
      }
    } finally {
      await connected.close();
    }
  });
});

describe('MCP App: served by the stdio CLI on its own', () => {
  it('dist/cli.js alone (with the bundle it loads, no dist/mcp-app beside it) serves the same document, embedded at build time', async () => {
    ensureBuiltCli();
    const alone = tempDir('te-mcp-app-cli-');
    copyFileSync(CLI, join(alone, 'cli.js'));
    copyFileSync(join(ROOT, 'dist', 'cli-main.js'), join(alone, 'cli-main.js'));
    const connected = await connectStdio(process.execPath, [join(alone, 'cli.js'), '--storage-path', join(alone, 'store')]);
    try {
      const { contents } = await connected.client.readResource({ uri: THOUGHT_GRAPH_URI });
      assert.equal(contents[0].mimeType, MCP_APP_MIME_TYPE);
      const built = readFileSync(join(ROOT, 'dist', 'mcp-app', 'thought-graph.html'), 'utf8');
      assert.equal((contents[0] as { text: string }).text, built);
    } finally {
      await connected.close();
    }
  });
});
