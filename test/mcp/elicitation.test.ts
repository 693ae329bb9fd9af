// Asking the user at decision points (MCP elicitation) through a real SDK Client that declares elicitation and answers
// accept, decline, cancel or not at all (time-out); a client without the capability is never asked; a point is asked
// once; the thought is recorded whatever the answer; the per-session switch (thinking_sessions configure) and the
// CLI flag turn it on.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { type ElicitRequest, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { createServer } from '../../src/mcp/server';
import type { DecisionPointOptions } from '../../src/mcp/decisionPoints';
import { parseCliArguments } from '../../src/cli/options';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHttpServer } from '../../src/mcp/httpServer';
import { CLI, ensureBuiltCli, jsonOf, sessions, tempDir, think } from './support/clients';

const quiet = () => {};

type Answer = (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult> | ElicitResult;

interface Harness {
  client: Client;
  engine: ThinkingEngine;
  /** Every elicitation/create the server sent, in order. */
  questions: ElicitRequest['params'][];
  /** Methods of every request or notification the server sent to the client. */
  sentMethods: string[];
  /** Every message the server sent to the client. */
  sent: JSONRPCMessage[];
  close(): Promise<void>;
}

async function connect(
  options: { answer?: Answer; decisionPoints?: DecisionPointOptions; engine?: ThinkingEngine; capability?: boolean } = {},
): Promise<Harness> {
  const engine = options.engine ?? new ThinkingEngine({ log: quiet });
  const created = createServer({ engine, decisionPoints: options.decisionPoints ?? { askAtDecisionPoints: true, timeoutMs: 2000 } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sentMethods: string[] = [];
  const sent: JSONRPCMessage[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message: JSONRPCMessage, sendOptions) => {
    sent.push(message);
    if ('method' in message) sentMethods.push(message.method);
    return send(message, sendOptions);
  };
  await created.server.connect(serverTransport);
  const capability = options.capability ?? true;
  const client = new Client({ name: 'elicitation-test', version: '1.0.0' }, { capabilities: capability ? { elicitation: {} } : {} });
  const questions: ElicitRequest['params'][] = [];
  if (capability) {
    const answer = options.answer ?? (() => ({ action: 'cancel' }) as ElicitResult);
    client.setRequestHandler('elicitation/create', async (request, extra) => {
      questions.push(request.params);
      return answer(request.params, extra.mcpReq.signal);
    });
  }
  await client.connect(clientTransport);
  return {
    client,
    engine,
    questions,
    sentMethods,
    sent,
    close: async () => {
      await client.close();
      created.cleanup();
    },
  };
}

/** Thoughts 1-3 of a session in the named linear strategy; thought 4 enters thought_evaluation, where two stages may follow. */
async function upToEvaluation(client: Client): Promise<Record<string, unknown>> {
  const stages = ['problem_reception', 'initial_thought_planning', 'thought_generation', 'thought_evaluation'];
  let reply: Record<string, unknown> = {};
  for (let index = 0; index < stages.length; index++) {
    const result = await think(client, {
      thought: `step ${index + 1}`,
      thoughtNumber: index + 1,
      totalThoughts: 10,
      nextThoughtNeeded: true,
      stage: stages[index],
      ...(index === 0 ? { strategy: 'linear' } : {}),
    });
    assert.ok(!result.isError, JSON.stringify(result.content));
    reply = jsonOf(result) as Record<string, unknown>;
  }
  return reply;
}

describe('elicitation at decision points', () => {
  it('accept: the chosen stage and the note reach the reply; the same point is not asked again', async () => {
    const harness = await connect({
      answer: () => ({ action: 'accept', content: { choice: 'continuation_decision', note: 'consider the Windows runners' } }),
    });
    try {
      const reply = await upToEvaluation(harness.client);
      assert.equal(harness.questions.length, 1);
      const schema = (harness.questions[0] as { requestedSchema: unknown }).requestedSchema as {
        properties: Record<string, { enum?: string[] }>;
      };
      assert.deepEqual(schema.properties.choice.enum, ['thought_revision', 'continuation_decision']);
      assert.ok(schema.properties.note, 'a free-text field');
      assert.match(String(harness.questions[0].message), /thought_evaluation/);
      assert.deepEqual(reply.userDecision, {
        action: 'accept',
        about: 'nextStage',
        choice: 'continuation_decision',
        text: 'consider the Windows runners',
      });
      assert.match(
        String(reply.guidance),
        /^The user chose the next stage: send stage "continuation_decision"\. The user adds: "consider the Windows runners"\./,
      );
      // The thought was recorded before asking.
      assert.equal(reply.thoughtHistoryLength, 4);
      // Another thought in the same stage: the same decision point, not asked again.
      const again = jsonOf(
        await think(harness.client, { thought: 'more evaluation', thoughtNumber: 5, totalThoughts: 10, nextThoughtNeeded: true }),
      );
      assert.equal((again as Record<string, unknown>).userDecision, undefined);
      assert.equal(harness.questions.length, 1);
    } finally {
      await harness.close();
    }
  });

  for (const action of ['decline', 'cancel'] as const) {
    it(`${action}: the reply says so and the session goes on unchanged`, async () => {
      const harness = await connect({ answer: () => ({ action }) });
      try {
        const reply = await upToEvaluation(harness.client);
        assert.deepEqual(reply.userDecision, { action, about: 'nextStage' });
        assert.match(String(reply.guidance), action === 'decline' ? /^The user declined to choose/ : /^The user dismissed the question/);
        assert.equal(reply.stage, 'thought_evaluation');
        assert.deepEqual(reply.nextStages, ['thought_revision', 'continuation_decision']);
        const next = await think(harness.client, {
          thought: 'go on',
          thoughtNumber: 5,
          totalThoughts: 10,
          nextThoughtNeeded: true,
          stage: 'continuation_decision',
        });
        assert.ok(!next.isError);
      } finally {
        await harness.close();
      }
    });
  }

  it('time-out: the wait is bounded, the question is cancelled and the reply says the user did not answer', async () => {
    const harness = await connect({
      decisionPoints: { askAtDecisionPoints: true, timeoutMs: 200 },
      // Never answers (until the client closes).
      answer: (_params, signal) =>
        new Promise<ElicitResult>((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }))),
    });
    try {
      const started = Date.now();
      const reply = await upToEvaluation(harness.client);
      const elapsed = Date.now() - started;
      assert.deepEqual(reply.userDecision, { action: 'timeout', about: 'nextStage' });
      assert.match(String(reply.guidance), /did not answer/);
      assert.ok(elapsed >= 200 && elapsed < 3000, `waited ${elapsed} ms`);
      assert.match(String(reply.guidance), /within 200 ms/);
      // The server withdrew the question: notifications/cancelled names the elicitation request. (The SDK's client
      // ignores a cancellation of request id 0, so the handler's signal is not checked here.)
      const question = harness.sent.find((message) => 'method' in message && message.method === 'elicitation/create') as { id: number };
      const cancelled = harness.sent.find((message) => 'method' in message && message.method === 'notifications/cancelled') as unknown as {
        params: { requestId: number };
      };
      assert.ok(cancelled, 'notifications/cancelled sent');
      assert.equal(cancelled.params.requestId, question.id);
    } finally {
      await harness.close();
    }
  });

  it('a client without the elicitation capability is never asked', async () => {
    const harness = await connect({ capability: false });
    try {
      const reply = await upToEvaluation(harness.client);
      const finished = jsonOf(
        await think(harness.client, { thought: 'done early', thoughtNumber: 5, totalThoughts: 10, nextThoughtNeeded: false }),
      );
      assert.equal(reply.userDecision, undefined);
      assert.equal((finished as Record<string, unknown>).userDecision, undefined);
      assert.ok(!harness.sentMethods.includes('elicitation/create'), `sent: ${harness.sentMethods.join(', ')}`);
    } finally {
      await harness.close();
    }
  });

  it('an early finish asks finish-or-continue; "continue" turns nextThoughtNeeded back on and the session goes on', async () => {
    const harness = await connect({ answer: () => ({ action: 'accept', content: { choice: 'continue' } }) });
    try {
      await think(harness.client, { thought: 'start', thoughtNumber: 1, totalThoughts: 8, nextThoughtNeeded: true });
      const finished = jsonOf(
        await think(harness.client, { thought: 'I am done', thoughtNumber: 2, totalThoughts: 8, nextThoughtNeeded: false }),
      ) as Record<string, unknown>;
      assert.equal(harness.questions.length, 1);
      const schema = (harness.questions[0] as { requestedSchema: unknown }).requestedSchema as {
        properties: Record<string, { enum?: string[] }>;
      };
      assert.deepEqual(schema.properties.choice.enum, ['finish', 'continue']);
      assert.deepEqual(finished.userDecision, { action: 'accept', about: 'earlyFinish', choice: 'continue' });
      assert.equal(finished.nextThoughtNeeded, true);
      assert.match(String(finished.guidance), /^The user asked you to keep thinking: continue with thoughtNumber 3/);
      const more = await think(harness.client, { thought: 'thinking on', thoughtNumber: 3, totalThoughts: 8, nextThoughtNeeded: true });
      assert.ok(!more.isError, JSON.stringify(more.content));
      assert.equal((jsonOf(more) as Record<string, unknown>).sessionId, finished.sessionId);
    } finally {
      await harness.close();
    }
  });

  it('a finish at the end of the plan is not a decision point', async () => {
    const harness = await connect({ answer: () => ({ action: 'accept', content: { choice: 'finish' } }) });
    try {
      await think(harness.client, {
        thought: 'start',
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
        stage: 'problem_reception',
      });
      await think(harness.client, { thought: 'answer', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false });
      // linear: problem_reception is far from final_response, so a finish there is early even at the planned end.
      assert.equal(harness.questions.length, 1);
      const react = await connect({ answer: () => ({ action: 'accept', content: { choice: 'finish' } }) });
      try {
        await think(react.client, {
          thought: 'q',
          thoughtNumber: 1,
          totalThoughts: 2,
          nextThoughtNeeded: true,
          strategy: 'linear',
          stage: 'problem_reception',
        });
        await think(react.client, {
          thought: 'final',
          thoughtNumber: 2,
          totalThoughts: 2,
          nextThoughtNeeded: false,
          stage: 'initial_thought_planning',
        });
        assert.equal(react.questions.length, 1, 'still early by stage');
      } finally {
        await react.close();
      }
    } finally {
      await harness.close();
    }
  });

  it('a client that fails the question: the thought stands and the reply carries a warning, not an error', async () => {
    const harness = await connect({
      answer: () => {
        throw new Error('the form could not be shown');
      },
    });
    try {
      const reply = await upToEvaluation(harness.client);
      assert.equal(reply.userDecision, undefined);
      assert.ok((reply.warnings as string[]).some((warning) => /could not be asked/.test(warning)));
      assert.equal(reply.thoughtHistoryLength, 4);
    } finally {
      await harness.close();
    }
  });

  it('off by default; thinking_sessions configure turns it on (and off) for one session, kept in the store', async () => {
    const dir = tempDir('te-elicit-');
    const store = new FileSessionStore(dir, { log: quiet });
    const engine = new ThinkingEngine({ store, log: quiet });
    const harness = await connect({
      engine,
      decisionPoints: { askAtDecisionPoints: false, timeoutMs: 2000 },
      answer: () => ({ action: 'decline' }),
    });
    try {
      const first = jsonOf(
        await think(harness.client, { thought: 'start', thoughtNumber: 1, totalThoughts: 10, nextThoughtNeeded: true }),
      ) as Record<string, unknown>;
      const sessionId = String(first.sessionId);
      const configured = await sessions(harness.client, { action: 'configure', sessionId, askAtDecisionPoints: true });
      assert.deepEqual(jsonOf(configured), { sessionId, askAtDecisionPoints: true });
      const reopened = new FileSessionStore(dir, { log: quiet });
      assert.equal(reopened.loadSession(sessionId)?.meta.askAtDecisionPoints, true, 'journaled');
      reopened.close();
      const finished = jsonOf(
        await think(harness.client, { thought: 'done', thoughtNumber: 2, totalThoughts: 10, nextThoughtNeeded: false }),
      ) as Record<string, unknown>;
      assert.deepEqual(finished.userDecision, { action: 'decline', about: 'earlyFinish' });
      // "default" clears the session's own setting: the server's (off) applies again.
      assert.deepEqual(jsonOf(await sessions(harness.client, { action: 'configure', sessionId, askAtDecisionPoints: 'default' })), {
        sessionId,
      });
      const after = jsonOf(
        await think(harness.client, { thought: 'and more', thoughtNumber: 3, totalThoughts: 10, nextThoughtNeeded: false }),
      ) as Record<string, unknown>;
      assert.equal(after.userDecision, undefined);
      assert.equal(harness.questions.length, 1);
      const bad = await sessions(harness.client, { action: 'configure', sessionId, askAtDecisionPoints: 'sometimes' });
      assert.ok(bad.isError);
      assert.match(JSON.stringify(bad.content), /Invalid askAtDecisionPoints: got \\"sometimes\\"; expected true, false or \\"default\\"/);
    } finally {
      await harness.close();
      store.close();
    }
  });

  it('the CLI takes --ask-at-decision-points and --decision-timeout', () => {
    assert.deepEqual(parseCliArguments(['--ask-at-decision-points', '--decision-timeout', '5']), {
      kind: 'serve',
      decisionPoints: { timeoutSeconds: 5 },
      limits: {},
    });
    assert.throws(() => parseCliArguments(['--decision-timeout', '5']), /belongs to --ask-at-decision-points/);
    assert.throws(() => parseCliArguments(['export', 'x', '--format', 'md', '--ask-at-decision-points']), /for serving/);
  });

  it('the stdio CLI with --ask-at-decision-points asks a client that declares elicitation', async () => {
    ensureBuiltCli();
    // connectCli's client declares no capabilities: this one declares elicitation.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--storage-path', tempDir('te-elicit-cli-'), '--ask-at-decision-points', '--decision-timeout', '5'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'elicitation-cli-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { choice: 'finish' } };
    });
    await client.connect(transport);
    try {
      await think(client, { thought: 'start', thoughtNumber: 1, totalThoughts: 6, nextThoughtNeeded: true });
      const finished = jsonOf(
        await think(client, { thought: 'done', thoughtNumber: 2, totalThoughts: 6, nextThoughtNeeded: false }),
      ) as Record<string, unknown>;
      assert.equal(asked.length, 1);
      assert.deepEqual(finished.userDecision, { action: 'accept', about: 'earlyFinish', choice: 'finish' });
      assert.equal(finished.nextThoughtNeeded, false);
    } finally {
      await client.close();
    }
  });
});

describe('elicitation over Streamable HTTP (as VS Code connects)', () => {
  it("the question travels on the tool call's stream and the answer reaches the reply", async () => {
    const token = 'elicitation-test-token-0123456789';
    const server = await startHttpServer({
      engine: new ThinkingEngine({ log: quiet }),
      token,
      log: quiet,
      decisionPoints: { askAtDecisionPoints: true, timeoutMs: 5000 },
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'elicitation-http-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { choice: 'thought_revision', note: 'thought 3 ignores Windows' } };
    });
    try {
      await client.connect(transport);
      const reply = await upToEvaluation(client);
      assert.equal(asked.length, 1);
      assert.deepEqual(reply.userDecision, {
        action: 'accept',
        about: 'nextStage',
        choice: 'thought_revision',
        text: 'thought 3 ignores Windows',
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('thinking_sessions stats', () => {
  it('per session with sessionId, across sessions otherwise, with strategy and time filters; bad input is refused', async () => {
    const harness = await connect({ decisionPoints: { askAtDecisionPoints: false } });
    try {
      const { client } = harness;
      const first = jsonOf(await think(client, { thought: 'a', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true })) as Record<
        string,
        unknown
      >;
      await think(client, {
        thought: 'a2',
        thoughtNumber: 2,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        isRevision: true,
        revisesThought: 1,
      });
      await think(client, {
        thought: 'a3',
        thoughtNumber: 3,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        branchFromThought: 1,
        branchId: 'alt',
      });
      await think(client, { thought: 'a4', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: false });
      await think(client, { thought: 'b', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: false, strategy: 'react' });

      const one = jsonOf(await sessions(client, { action: 'stats', sessionId: first.sessionId })) as { session: Record<string, unknown> };
      assert.equal(one.session.thoughts, 4);
      assert.equal(one.session.revisions, 1);
      assert.equal(one.session.revisionRate, 0.25);
      assert.equal(one.session.branches, 1);
      assert.equal(one.session.branchThoughts, 1);

      const all = jsonOf(await sessions(client, { action: 'stats' })) as {
        overall: Record<string, unknown> & { byStrategy: { strategy: string; sessions: number }[] };
      };
      assert.equal(all.overall.sessions, 2);
      assert.equal(all.overall.medianLength, 2.5);
      assert.equal(all.overall.revisionRate, 0.5);
      assert.deepEqual(
        all.overall.byStrategy.map((group) => [group.strategy, group.sessions]),
        [
          ['linear', 1],
          ['react', 1],
        ],
      );
      const react = jsonOf(await sessions(client, { action: 'stats', strategy: 'react' })) as { overall: Record<string, unknown> };
      assert.equal(react.overall.sessions, 1);
      const future = jsonOf(await sessions(client, { action: 'stats', since: '2999-01-01' })) as { overall: Record<string, unknown> };
      assert.equal(future.overall.sessions, 0);
      const past = jsonOf(await sessions(client, { action: 'stats', until: new Date(Date.now() + 60_000).toISOString() })) as {
        overall: Record<string, unknown>;
      };
      assert.equal(past.overall.sessions, 2);

      const badDate = await sessions(client, { action: 'stats', since: 'last tuesday' });
      assert.ok(badDate.isError);
      assert.match(JSON.stringify(badDate.content), /Invalid since: got \\"last tuesday\\"; expected an ISO date/);
      const unknown = await sessions(client, { action: 'stats', sessionId: 'nope' });
      assert.ok(unknown.isError);
      assert.match(JSON.stringify(unknown.content), /Invalid sessionId: no session \\"nope\\" exists/);
      const reversed = await sessions(client, { action: 'stats', since: '2026-02-01', until: '2026-01-01' });
      assert.ok(reversed.isError);
    } finally {
      await harness.close();
    }
  });
});
