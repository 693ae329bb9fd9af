// A session per conversation: VS Code sends every chat's tool calls over one MCP connection and names the chat in
// `_meta["vscode.conversationId"]`. Over one real Streamable HTTP connection, two conversations interleaving thoughts
// without sessionId each keep their own session (with their own revision and branch), each is told its sessionId on
// its own first reply, and a call that names no conversation continues the connection's session as before. The
// number of conversations a connection remembers is bounded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp/httpServer';
import { CONVERSATION_META_KEY, MAX_CONVERSATIONS_PER_CONNECTION, conversationIdOf } from '../../src/mcp/conversations';
import { MAX_CONVERSATION_ID_LENGTH } from '../../src/engine/fieldRules';
import { MCP_APPS_CAPABILITIES, jsonOf, tempDir } from './support/clients';
import { RESULT_SESSION_META_KEY, SESSION_PAGE_TOOL_NAME } from '../../src/shared/thoughtGraph';

const TOKEN = 'conversation-test-token-0123456789abcdef';

describe('a session per conversation over one connection', () => {
  let engine: ThinkingEngine;
  let http: RunningHttpServer;
  let client: Client;

  before(async () => {
    engine = new ThinkingEngine({ store: new FileSessionStore(tempDir()), log: () => {} });
    http = await startHttpServer({ engine, token: TOKEN, port: 0, log: () => {} });
    // Declares MCP Apps, as VS Code does: the inline view's own calls are part of the picture.
    client = new Client({ name: 'vscode-like', version: '1.0.0' }, { capabilities: MCP_APPS_CAPABILITIES });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
  });
  after(async () => {
    await client.close();
    await http.close();
  });

  /** One thought as VS Code sends it for a chat (or with no conversation at all). */
  const think = async (conversation: string | undefined, args: Record<string, unknown>) =>
    jsonOf(
      (await client.callTool({
        name: 'sequentialthinking',
        arguments: { totalThoughts: 4, nextThoughtNeeded: true, ...args },
        ...(conversation === undefined ? {} : { _meta: { [CONVERSATION_META_KEY]: conversation, 'vscode.requestId': 'r' } }),
      })) as CallToolResult,
    );

  it('two chats interleaving thoughts without sessionId each get their own session, revision and branch', async () => {
    const a1 = await think('chat-a', { thought: 'A1', thoughtNumber: 1 });
    const b1 = await think('chat-b', { thought: 'B1', thoughtNumber: 1 });
    assert.equal(typeof a1.sessionId, 'string');
    assert.equal(typeof b1.sessionId, 'string', 'each chat is told its own sessionId on its first reply');
    assert.notEqual(a1.sessionId, b1.sessionId);
    const a2 = await think('chat-a', { thought: 'A2', thoughtNumber: 2 });
    const b2 = await think('chat-b', { thought: 'B2 revises B1', thoughtNumber: 2, isRevision: true, revisesThought: 1 });
    const a3 = await think('chat-a', { thought: 'A3 branches', thoughtNumber: 3, branchFromThought: 1, branchId: 'alt-a' });
    const b3 = await think('chat-b', { thought: 'B3', thoughtNumber: 3, nextThoughtNeeded: false });
    for (const reply of [a2, b2, a3, b3]) assert.equal(reply.sessionId, undefined, 'compact: already told in this chat');
    assert.deepEqual(a3.branches, ['alt-a']);
    assert.deepEqual(b3.branches, []);

    const a = engine.getSession(a1.sessionId as string);
    const b = engine.getSession(b1.sessionId as string);
    assert.deepEqual(
      a?.thoughts.map((thought) => thought.thought),
      ['A1', 'A2', 'A3 branches'],
    );
    assert.deepEqual(
      b?.thoughts.map((thought) => thought.thought),
      ['B1', 'B2 revises B1', 'B3'],
    );
    assert.equal(b?.meta.revisionCount, 1);
    assert.deepEqual(a?.meta.branchIds, ['alt-a']);
    assert.equal(a?.meta.conversationId, 'chat-a', 'the session keeps the chat it came from');
    assert.equal(b?.meta.conversationId, 'chat-b');
  });

  it('every result names its session in _meta for the inline view, whose own calls (no conversation) read the last chat’s session', async () => {
    const result = (await client.callTool({
      name: 'sequentialthinking',
      arguments: { thought: 'V1', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true },
      _meta: { [CONVERSATION_META_KEY]: 'chat-view' },
    })) as CallToolResult;
    const id = jsonOf(result).sessionId as string;
    const second = (await client.callTool({
      name: 'sequentialthinking',
      arguments: { thought: 'V2', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true },
      _meta: { [CONVERSATION_META_KEY]: 'chat-view' },
    })) as CallToolResult;
    assert.equal(jsonOf(second).sessionId, undefined, 'the model is told once');
    assert.equal(second._meta?.[RESULT_SESSION_META_KEY], id, 'the view is told every time');
    const page = jsonOf((await client.callTool({ name: SESSION_PAGE_TOOL_NAME, arguments: {} })) as CallToolResult);
    assert.equal(page.sessionId, id);
  });

  it('a call without a conversation continues the connection’s own session, as before', async () => {
    const c1 = await think(undefined, { thought: 'C1', thoughtNumber: 1 });
    await think('chat-a', { thought: 'A4', thoughtNumber: 4 });
    const c2 = await think(undefined, { thought: 'C2', thoughtNumber: 2 });
    assert.equal(c2.sessionId, undefined);
    const c = engine.getSession(c1.sessionId as string);
    assert.deepEqual(
      c?.thoughts.map((thought) => thought.thought),
      ['C1', 'C2'],
    );
    assert.equal(c?.meta.conversationId, undefined);
  });

  it('resume makes a session current for the calling chat only', async () => {
    const d1 = await think('chat-d', { thought: 'D1', thoughtNumber: 1 });
    const e1 = await think('chat-e', { thought: 'E1', thoughtNumber: 1 });
    await client.callTool({
      name: 'thinking_sessions',
      arguments: { action: 'resume', sessionId: d1.sessionId },
      _meta: { [CONVERSATION_META_KEY]: 'chat-f' },
    });
    const f2 = await think('chat-f', { thought: 'F continues D', thoughtNumber: 2 });
    assert.equal(f2.sessionId, d1.sessionId, 'after a resume the chat is told the session again');
    const e2 = await think('chat-e', { thought: 'E2', thoughtNumber: 2 });
    assert.equal(e2.sessionId, undefined);
    assert.deepEqual(
      engine.getSession(e1.sessionId as string)?.thoughts.map((thought) => thought.thought),
      ['E1', 'E2'],
    );
  });

  it(`remembers at most ${MAX_CONVERSATIONS_PER_CONNECTION} conversations: the least recently used is forgotten`, async () => {
    const first = await think('chat-oldest', { thought: 'O1', thoughtNumber: 1 });
    for (let index = 0; index < MAX_CONVERSATIONS_PER_CONNECTION; index++)
      await think(`chat-filler-${index}`, { thought: `filler ${index}`, thoughtNumber: 1, nextThoughtNeeded: false });
    // Its current session was forgotten: thought 2 has nothing to continue, so it starts a session of its own.
    const again = await think('chat-oldest', { thought: 'O2', thoughtNumber: 2 });
    assert.equal(typeof again.sessionId, 'string');
    assert.notEqual(again.sessionId, first.sessionId);
  });
});

describe('conversationIdOf', () => {
  it('takes a printable string id as sent, bounded; anything else names no conversation', () => {
    assert.equal(conversationIdOf({ [CONVERSATION_META_KEY]: 'abc-1' }), 'abc-1');
    assert.equal(conversationIdOf({ [CONVERSATION_META_KEY]: '' }), undefined);
    assert.equal(conversationIdOf({ [CONVERSATION_META_KEY]: 42 }), undefined);
    assert.equal(conversationIdOf(undefined), undefined);
    const long = conversationIdOf({ [CONVERSATION_META_KEY]: 'x'.repeat(10_000) });
    assert.match(String(long), /^sha256:[0-9a-f]{64}$/);
    assert.ok(String(long).length <= MAX_CONVERSATION_ID_LENGTH);
    assert.match(String(conversationIdOf({ [CONVERSATION_META_KEY]: 'a\nb' })), /^sha256:/);
  });
});

describe('what an owner was told', () => {
  it('counts a reply as told only once it is sent: after a cancelled thought 1 the next reply names the session', () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const first = engine.process('owner', { thought: 'one', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true });
    assert.ok(first.ok);
    // The call was cancelled after the thought was recorded: the reply never reached the agent.
    assert.equal(typeof engine.shapeReplyFor('owner', first.reply, 'compact', false).sessionId, 'string');
    const second = engine.process('owner', { thought: 'two', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true });
    assert.ok(second.ok);
    assert.equal(engine.shapeReplyFor('owner', second.reply, 'compact').sessionId, first.reply.sessionId);
    const third = engine.process('owner', { thought: 'three', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: false });
    assert.ok(third.ok);
    assert.equal(engine.shapeReplyFor('owner', third.reply, 'compact').sessionId, undefined, 'told once it was sent');
  });
});
