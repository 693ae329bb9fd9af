// A session per chat, in real VS Code: VS Code keeps one MCP connection to our server and sends every chat's tool
// calls over it, naming the chat in `_meta["vscode.conversationId"]`. Two chats through the test participant @thinker
// (helper extension: the scripted model's tool calls go through vscode.lm.invokeTool with each chat's
// toolInvocationToken, so through VS Code's own MCP client) interleave their thoughts without sessionId, one tool call
// each in turn: each gets a session of its own, with its own revision and branch. A call outside any chat (no
// conversation) continues the connection's session as before.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { HELPER_ID, type HelperApi, type ScriptedReply, type ScriptedRequest } from './scriptedChat';
import { EXTENSION_ID, eventually, invokeJson, sequentialThinkingTool } from './support';

type Chat = 'a' | 'b';

/** A plain four-thought session with a revision (3 revises 2) and a branch (4 from 1), marked by its chat. */
function chatThoughts(marker: string): Record<string, unknown>[] {
  return [
    { thought: `${marker}: restate the problem`, thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true },
    { thought: `${marker}: a first approach`, thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true },
    {
      thought: `${marker}: the approach, corrected`,
      thoughtNumber: 3,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 2,
    },
    {
      thought: `${marker}: another way from the start`,
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: false,
      branchFromThought: 1,
      branchId: `${marker}-alt`,
    },
  ];
}

suite('a session per chat (VS Code conversation id)', () => {
  let helper: HelperApi;
  let api: ThoughtExplorerApi;
  let tool: string;

  suiteSetup(async function () {
    this.timeout(150_000);
    const helperExtension = vscode.extensions.getExtension<HelperApi>(HELPER_ID);
    assert.ok(helperExtension, `${HELPER_ID} is not installed: run the suite through npm run test:vscode`);
    helper = await helperExtension.activate();
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    tool = await sequentialThinkingTool(90_000);
  });

  teardown(() => helper.reset());

  test('two chats interleaving thoughts without sessionId each get their own session; a call outside a chat continues as before', async function () {
    this.timeout(180_000);
    const id = randomUUID().slice(0, 8);
    // Outside any chat: the connection's own session, started before the chats and continued after them.
    const outside = `outside-${id}`;
    const first = await invokeJson(tool, { thought: `${outside}: 1`, thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    const outsideSession = first.sessionId as string;
    assert.equal(typeof outsideSession, 'string');

    const markers: Record<Chat, string> = { a: `chat-a-${id}`, b: `chat-b-${id}` };
    const scripts: Record<Chat, Record<string, unknown>[]> = { a: chatThoughts(markers.a), b: chatThoughts(markers.b) };
    const steps: Record<Chat, number> = { a: 0, b: 0 };
    const other = (chat: Chat): Chat => (chat === 'a' ? 'b' : 'a');
    // One tool call at a time, the chats taking turns: a1 b1 a2 b2 …
    let turn: Chat = 'a';
    const order: string[] = [];
    helper.setResponder(async (request: ScriptedRequest): Promise<ScriptedReply> => {
      const chat: Chat = request.texts.some((text) => text.includes(markers.a)) ? 'a' : 'b';
      // A request after the first means this chat's last tool call is done: the other chat's turn, while it has any.
      if (steps[chat] > 0 && steps[other(chat)] < scripts[other(chat)].length) turn = other(chat);
      if (steps[chat] >= scripts[chat].length) {
        turn = other(chat);
        return { text: `${chat} done` };
      }
      await eventually(() => turn === chat || undefined, `chat ${chat}'s turn`, 60_000, 50);
      const name = request.offeredTools.find((offered) => offered.endsWith('sequentialthinking'));
      assert.ok(name, `sequentialthinking was not offered to @thinker: ${request.offeredTools.join(', ')}`);
      order.push(`${chat}${steps[chat] + 1}`);
      return { toolCalls: [{ name, input: scripts[chat][steps[chat]++] }] };
    });
    const modelSelector = { vendor: helper.vendor, id: helper.modelId };
    const askIn = (chat: Chat) =>
      vscode.commands.executeCommand('workbench.action.chat.open', {
        query: `@thinker Think it through: ${markers[chat]}`,
        mode: 'ask',
        modelSelector,
        blockOnResponse: true,
      });
    const chatA = askIn('a');
    await eventually(() => steps.a >= 1 || undefined, 'chat a to make its first call', 60_000);
    // A second chat beside the first, which is still waiting for its turn.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const chatB = askIn('b');
    await Promise.all([chatA, chatB]);
    await eventually(() => (steps.a === 4 && steps.b === 4) || undefined, 'both chats to finish their thoughts', 60_000);
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4', 'b4'], 'the chats took turns');

    const sessionOf = (marker: string) => {
      const meta = api.engine().listSessions({ text: marker }).sessions[0];
      assert.ok(meta, `no session for ${marker}`);
      const session = api.engine().getSession(meta.id);
      assert.ok(session);
      return session;
    };
    const [a, b] = [sessionOf(markers.a), sessionOf(markers.b)];
    assert.notEqual(a.meta.id, b.meta.id);
    for (const [chat, session] of [
      ['a', a],
      ['b', b],
    ] as const) {
      assert.deepEqual(
        session.thoughts.map((thought) => thought.thought),
        scripts[chat].map((call) => call.thought),
        `chat ${chat}'s session holds its own four thoughts, in order`,
      );
      assert.equal(session.meta.revisionCount, 1);
      assert.deepEqual(session.meta.branchIds, [`${markers[chat]}-alt`]);
      assert.equal(typeof session.meta.conversationId, 'string', 'the session keeps the chat it came from');
    }
    assert.notEqual(a.meta.conversationId, b.meta.conversationId);

    const second = await invokeJson(tool, { thought: `${outside}: 2`, thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false });
    assert.equal(second.thoughtHistoryLength, 2);
    const outsideThoughts = api
      .engine()
      .getSession(outsideSession)
      ?.thoughts.map((thought) => thought.thought);
    assert.deepEqual(outsideThoughts, [`${outside}: 1`, `${outside}: 2`]);
    assert.equal(api.engine().getSession(outsideSession)?.meta.conversationId, undefined);
    // The Sessions tree on screen (for --screenshot): each chat's session names its chat.
    await vscode.commands.executeCommand('thoughtExplorer.sessions.focus');
  });
});
