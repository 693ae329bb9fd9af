// Live trace streaming to a local OTLP/HTTP receiver: a session with a revision, a branch and a deliberation arrives
// as one trace with its links and attributes (JSON and protobuf); traceparent in a call's _meta puts the session in
// the caller's trace; a dead or hanging collector costs spans (counted), never a reply or a journaled thought.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { createServer } from '../../src/mcp/server';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { startOtlpStreaming } from '../../src/telemetry/otlpExporter';
import type { LiveTraceStreamer } from '../../src/telemetry/liveTraces';
import type { OtlpProtocol } from '../../src/telemetry/otlpEndpoint';
import { GEN_AI, LINK_KIND, SESSION, SESSION_SPAN_NAME, THOUGHT } from '../../src/telemetry/attributeNames';
import { connectDeliberation, type DeliberationHarness, type Script } from './support/scriptedModel';
import { deadEndpoint, startReceiver, type ReceivedSpan, type Receiver } from './support/otlpReceiver';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, connectCli, connectStdio, ensureBuiltCli, tempDir } from './support/clients';
import { waitFor } from './support/waitFor';

const quiet = () => {};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  engine: ThinkingEngine;
  streamer: LiveTraceStreamer;
  harness: DeliberationHarness;
  store: FileSessionStore;
  directory: string;
}

async function rig(
  url: string,
  protocol: OtlpProtocol,
  options: { maxQueueSize?: number; requestTimeoutMillis?: number; script?: Script } = {},
): Promise<Rig> {
  const directory = tempDir('te-otlp-');
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet });
  const streamer = startOtlpStreaming(
    { url, protocol, description: url, warnings: [] },
    {
      includeText: true,
      loadSession: (id) => engine.getSession(id),
      scheduledDelayMillis: 10,
      maxQueueSize: options.maxQueueSize,
      requestTimeoutMillis: options.requestTimeoutMillis,
    },
  );
  engine.onEvent(streamer.onEngineEvent);
  const harness = await connectDeliberation(
    options.script ??
      (() => ({ text: 'A cache hides the slow query; fix the query first.', usage: { inputTokens: 120, outputTokens: 30 } })),
    { engine, telemetry: streamer },
  );
  cleanups.push(async () => {
    await harness.close();
    await streamer.shutdown(500);
    store.close();
  });
  return { engine, streamer, harness, store, directory };
}

function think(h: DeliberationHarness, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<CallToolResult> {
  return h.client.callTool({ name: 'sequentialthinking', arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<CallToolResult>;
}

function ok(result: CallToolResult): Record<string, unknown> {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

/** Thoughts 1, 2, a revision of 2, a branch from 2, then a deliberation in the same session. Returns its id. */
async function sessionWithEverything(h: DeliberationHarness, meta?: Record<string, unknown>): Promise<string> {
  const first = ok(await think(h, { thought: 'Why is the page slow?', thoughtNumber: 1, totalThoughts: 5, nextThoughtNeeded: true }, meta));
  const sessionId = first.sessionId as string;
  ok(await think(h, { thought: 'The query scans the table.', thoughtNumber: 2, totalThoughts: 5, nextThoughtNeeded: true, sessionId }));
  ok(
    await think(h, {
      thought: 'Not a scan: a missing index.',
      thoughtNumber: 3,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 2,
      sessionId,
    }),
  );
  ok(
    await think(h, {
      thought: 'Or cache the page.',
      thoughtNumber: 3,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      branchFromThought: 2,
      branchId: 'cache',
      sessionId,
    }),
  );
  const deliberation = await h.deliberate({ problem: 'Index or cache?', sessionId, plan: { strategy: 'direct', role: 'critical' } });
  assert.notEqual(deliberation.isError, true, JSON.stringify(deliberation.content));
  return sessionId;
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const attribute = (span: ReceivedSpan, key: string) => span.attributes.get(key);

for (const protocol of ['http/json', 'http/protobuf'] as const) {
  describe(`live OTLP streaming over ${protocol}`, () => {
    it('sends a session with a revision, a branch and a deliberation as one trace with its links and attributes', async () => {
      const receiver: Receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const { harness, streamer, engine } = await rig(receiver.url, protocol);
      const sessionId = await sessionWithEverything(harness);
      const thoughts = engine.getSession(sessionId)?.thoughts ?? [];
      await streamer.flush();
      // Every thought and the session span (the deliberation's final thought ended the session).
      await waitFor(() => receiver.spans().length >= thoughts.length + 1, 'every span at the receiver');
      assert.ok(receiver.requests.every((request) => request.contentType.includes(protocol === 'http/json' ? 'json' : 'protobuf')));

      const spans = receiver.spans();
      assert.equal(new Set(spans.map((span) => span.traceId)).size, 1, 'one trace');
      const [session] = byName(spans, SESSION_SPAN_NAME);
      assert.ok(session, 'the session span');
      assert.equal(session.parentSpanId, '');
      const thoughtSpans = spans.filter((span) => span !== session);
      assert.equal(thoughtSpans.length, thoughts.length);
      assert.ok(
        thoughtSpans.every((span) => span.parentSpanId === session.spanId),
        'thought spans are children of the session span',
      );
      const bySeq = new Map(thoughtSpans.map((span) => [attribute(span, THOUGHT.seq), span]));

      const revision = bySeq.get(2) as ReceivedSpan;
      assert.equal(attribute(revision, THOUGHT.revises), 2);
      assert.equal(attribute(revision, THOUGHT.isRevision), true);
      assert.deepEqual(
        revision.links.map((link) => [link.spanId, link.attributes.get(LINK_KIND)]),
        [[bySeq.get(1)?.spanId, 'revises']],
      );
      const branch = bySeq.get(3) as ReceivedSpan;
      assert.equal(attribute(branch, THOUGHT.branchId), 'cache');
      assert.deepEqual(
        branch.links.map((link) => [link.spanId, link.attributes.get(LINK_KIND)]),
        [[bySeq.get(1)?.spanId, 'branches_from']],
      );
      assert.equal(attribute(bySeq.get(0) as ReceivedSpan, THOUGHT.text), 'Why is the page slow?');
      assert.equal(attribute(bySeq.get(0) as ReceivedSpan, THOUGHT.number), 1);
      assert.ok(typeof attribute(bySeq.get(0) as ReceivedSpan, THOUGHT.stage) === 'string');
      assert.ok(typeof attribute(bySeq.get(0) as ReceivedSpan, THOUGHT.strategy) === 'string');

      const role = thoughtSpans.find((span) => attribute(span, THOUGHT.role) === 'critical');
      assert.ok(role, 'the deliberation role span');
      assert.equal(attribute(role, GEN_AI.operation), 'chat');
      assert.equal(attribute(role, GEN_AI.model), 'scripted-1');
      assert.equal(attribute(role, GEN_AI.inputTokens), 120);
      assert.equal(attribute(role, GEN_AI.outputTokens), 30);
      assert.equal(role.name, 'chat scripted-1');
      assert.equal(streamer.stats().dropped, 0);
    });

    it("puts the session in the caller's trace when the call's _meta carries traceparent", async () => {
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const { harness, streamer } = await rig(receiver.url, protocol);
      const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
      const callerSpan = '00f067aa0ba902b7';
      const sessionId = await sessionWithEverything(harness, {
        traceparent: `00-${callerTrace}-${callerSpan}-01`,
        tracestate: 'vendor=abc',
      });
      // A later call from another trace: the thought stays in the session's trace, linked to that caller.
      const laterTrace = '0af7651916cd43dd8448eb211c80319c';
      const laterSpan = 'b7ad6b7169203331';
      const laterText = 'Measured: the index wins.';
      ok(
        await think(
          harness,
          { thought: laterText, thoughtNumber: 5, totalThoughts: 5, nextThoughtNeeded: false, sessionId },
          { traceparent: `00-${laterTrace}-${laterSpan}-01` },
        ),
      );
      await streamer.flush();
      await waitFor(() => receiver.spans().some((span) => span.name === SESSION_SPAN_NAME), 'the session span');
      await waitFor(() => receiver.spans().some((span) => span.attributes.get(THOUGHT.text) === laterText), 'the later thought');
      const later = receiver.spans().find((span) => span.attributes.get(THOUGHT.text) === laterText);
      assert.deepEqual(
        later?.links.map((link) => [link.traceId, link.spanId, link.attributes.get(LINK_KIND)]),
        [[laterTrace, laterSpan, 'caller']],
      );
      const spans = receiver.spans();
      assert.ok(
        spans.every((span) => span.traceId === callerTrace),
        "every span in the caller's trace",
      );
      const [session] = byName(spans, SESSION_SPAN_NAME);
      assert.equal(session.parentSpanId, callerSpan);
      assert.equal(session.traceState, 'vendor=abc');
    });
  });
}

describe("a deliberation in the caller's trace", () => {
  const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
  /** The session span of a session, and the thought spans under it. */
  function sessionSpans(spans: ReceivedSpan[], sessionId: string): { session: ReceivedSpan; thoughts: ReceivedSpan[] } {
    const session = spans.find((span) => span.name === SESSION_SPAN_NAME && attribute(span, SESSION.id) === sessionId);
    assert.ok(session, `the session span of ${sessionId}`);
    return { session, thoughts: spans.filter((span) => span.parentSpanId === session.spanId) };
  }

  it("records its thoughts, made after each model call, in the caller's trace while other calls run in between", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    // The model takes a while, so that other calls are answered while the deliberation awaits it.
    const { harness, streamer } = await rig(receiver.url, 'http/json', {
      script: () => ({ text: 'Fix the query first.', delayMs: 300, usage: { inputTokens: 50, outputTokens: 10 } }),
    });
    const callerTrace = '5cf92f3577b34da6a3ce929d0e0e4737';
    const callerSpan = '10f067aa0ba902b8';
    const deliberation = harness.deliberate(
      { problem: 'Index or cache?', plan: { strategy: 'direct', role: 'critical' } },
      { meta: { traceparent: traceparent(callerTrace, callerSpan), tracestate: 'vendor=deliberate' } },
    );
    await waitFor(() => harness.log.inFlight === 1, 'the model call under way');
    // Meanwhile: a session from another caller's trace, and one from no trace at all (each ends at once).
    const otherTrace = '1af7651916cd43dd8448eb211c80319d';
    const otherSpan = 'c7ad6b7169203332';
    const other = ok(
      await think(
        harness,
        { thought: 'Elsewhere.', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
        { traceparent: traceparent(otherTrace, otherSpan) },
      ),
    );
    const plain = ok(await think(harness, { thought: 'No trace.', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }));
    const result = await deliberation;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const sessionId = (result.structuredContent as { sessionId: string }).sessionId;
    assert.equal(harness.log.calls.length, 1);

    await streamer.flush();
    const ended = [sessionId, other.sessionId, plain.sessionId];
    await waitFor(
      () => ended.every((id) => receiver.spans().some((span) => span.name === SESSION_SPAN_NAME && attribute(span, SESSION.id) === id)),
      'the three session spans',
    );
    await waitFor(() => receiver.spans().length >= 2 + 1 + 1 + 3, 'every thought span');
    const spans = receiver.spans();

    const deliberated = sessionSpans(spans, sessionId);
    assert.equal(deliberated.session.traceId, callerTrace);
    assert.equal(deliberated.session.parentSpanId, callerSpan);
    assert.equal(deliberated.session.traceState, 'vendor=deliberate');
    assert.deepEqual(
      deliberated.thoughts.map((span) => [attribute(span, THOUGHT.role), span.traceId]),
      [
        ['framing', callerTrace],
        ['critical', callerTrace],
      ],
      "the framing thought and the role's thought, recorded after the model answered, in the caller's trace",
    );
    assert.ok(
      deliberated.thoughts.every((span) => span.links.length === 0),
      'no caller link: the session is in its trace',
    );

    const elsewhere = sessionSpans(spans, other.sessionId as string);
    assert.deepEqual(
      [elsewhere.session.traceId, elsewhere.session.parentSpanId, ...elsewhere.thoughts.map((span) => span.traceId)],
      [otherTrace, otherSpan, otherTrace],
    );
    const untraced = sessionSpans(spans, plain.sessionId as string);
    assert.equal(untraced.session.parentSpanId, '');
    assert.ok(
      [untraced.session, ...untraced.thoughts].every((span) => span.traceId !== callerTrace && span.traceId !== otherTrace),
      'a call without traceparent starts its own trace, whatever runs beside it',
    );
  });

  it('links every thought of a deliberation into an existing session to the caller', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const { harness, streamer } = await rig(receiver.url, 'http/protobuf');
    const first = ok(
      await think(harness, { thought: 'Why is the page slow?', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }),
    );
    const sessionId = first.sessionId as string;
    const callerTrace = '6cf92f3577b34da6a3ce929d0e0e4738';
    const callerSpan = '20f067aa0ba902b9';
    const result = await harness.deliberate(
      { problem: 'Index or cache?', sessionId, plan: { strategy: 'direct', role: 'critical' } },
      { meta: { traceparent: traceparent(callerTrace, callerSpan) } },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    await streamer.flush();
    await waitFor(() => receiver.spans().some((span) => span.name === SESSION_SPAN_NAME), 'the session span');
    await waitFor(() => receiver.spans().length >= 1 + 3, 'every thought span');
    const { session, thoughts } = sessionSpans(receiver.spans(), sessionId);
    assert.notEqual(session.traceId, callerTrace, 'the session stays in the trace it began in');
    assert.deepEqual(
      thoughts.map((span) => [
        attribute(span, THOUGHT.role) ?? 'none',
        span.links.map((link) => [link.traceId, link.spanId, link.attributes.get(LINK_KIND)]),
      ]),
      [
        ['none', []],
        ['framing', [[callerTrace, callerSpan, 'caller']]],
        ['critical', [[callerTrace, callerSpan, 'caller']]],
      ],
    );
  });
});

describe('live OTLP streaming never gets in the way', () => {
  const cases = [
    ['a dead endpoint (connection refused)', async () => ({ url: await deadEndpoint(), close: async () => {} })],
    [
      'a hanging endpoint (accepts, never answers)',
      async () => {
        const receiver = await startReceiver('hang');
        return { url: receiver.url, close: () => receiver.close() };
      },
    ],
  ] as const;
  for (const [what, endpoint] of cases) {
    it(`${what}: every reply arrives, no thought is lost, the lost spans are counted`, async () => {
      const target = await endpoint();
      cleanups.push(target.close);
      const { harness, streamer, engine, directory } = await rig(target.url, 'http/protobuf', {
        maxQueueSize: 4,
        requestTimeoutMillis: 300,
      });
      const count = 12;
      let sessionId: string | undefined;
      for (let number = 1; number <= count; number++) {
        const reply = ok(
          await think(harness, {
            thought: `Step ${number}`,
            thoughtNumber: number,
            totalThoughts: count,
            nextThoughtNeeded: number < count,
            ...(sessionId ? { sessionId } : {}),
          }),
        );
        sessionId = (reply.sessionId as string | undefined) ?? sessionId;
      }
      assert.ok(sessionId);
      assert.equal(engine.getSession(sessionId)?.thoughts.length, count);
      // On disk, read by a store that never saw them.
      const fresh = new FileSessionStore(directory, { log: quiet });
      assert.equal(fresh.loadSession(sessionId)?.thoughts.length, count);
      fresh.close();
      // Every span (12 thoughts and the session span) is either dropped at the full queue or failed at the collector.
      await waitFor(() => streamer.stats().dropped === count + 1, `${count + 1} dropped spans (now ${streamer.stats().dropped})`, 20_000);
      assert.equal(streamer.stats().exported, 0);
      assert.ok(streamer.stats().lastError, 'the last error is told');
      const stats = (await harness.client.callTool({ name: 'thinking_sessions', arguments: { action: 'stats' } })) as CallToolResult;
      assert.equal((ok(stats).traceStream as { dropped: number }).dropped, count + 1);
    });
  }
});

describe('decision-point answers in the trace', () => {
  it("the person's answer is a span from the thought to the answer, linked to the thought", async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const engine = new ThinkingEngine({ log: quiet });
    const streamer = startOtlpStreaming(
      { url: receiver.url, protocol: 'http/json', description: receiver.url, warnings: [] },
      { includeText: false, loadSession: (id) => engine.getSession(id), scheduledDelayMillis: 10 },
    );
    engine.onEvent(streamer.onEngineEvent);
    const { server } = createServer({ engine, telemetry: streamer, decisionPoints: { askAtDecisionPoints: true, timeoutMs: 5000 } });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'decider', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', (request) => {
      // A form request (the URL kind has no schema): the first choice offered.
      const schema = (request.params as { requestedSchema: { properties: Record<string, { enum?: string[] }> } }).requestedSchema;
      const choice = schema.properties.choice.enum?.[0];
      assert.ok(choice, 'the form offers choices');
      return { action: 'accept', content: { choice, note: 'Private reasons.' } };
    });
    await client.connect(clientTransport);
    cleanups.push(async () => {
      await client.close();
      await streamer.shutdown(500);
    });
    // Finishing at the first thought is an early finish: the person is asked.
    const reply = ok(
      (await client.callTool({
        name: 'sequentialthinking',
        arguments: { thought: 'Done already.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: false },
      })) as CallToolResult,
    );
    assert.ok(reply.userDecision, 'the reply carries the answer');
    await streamer.flush();
    await waitFor(() => receiver.spans().some((span) => span.name.startsWith('decision ')), 'the decision span');
    const spans = receiver.spans();
    const decision = spans.find((span) => span.name.startsWith('decision ')) as ReceivedSpan;
    const thoughtSpan = spans.find((span) => span.attributes.get(THOUGHT.seq) === 0) as ReceivedSpan;
    const session = spans.find((span) => span.name === SESSION_SPAN_NAME) as ReceivedSpan;
    assert.equal(decision.parentSpanId, session.spanId);
    assert.equal(decision.attributes.get('thought_explorer.decision.action'), 'accept');
    assert.equal(decision.attributes.get('thought_explorer.decision.about'), 'earlyFinish');
    assert.equal(decision.attributes.has('thought_explorer.decision.text'), false, 'the note is text: not sent without include text');
    assert.deepEqual(
      decision.links.map((link) => [link.spanId, link.attributes.get(LINK_KIND)]),
      [[thoughtSpan.spanId, 'decides']],
    );
  });
});

describe('the CLI streams and exports traces', () => {
  it('--otlp-endpoint: streams the session and sends what it holds when stdin closes', async () => {
    ensureBuiltCli();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const base = receiver.url.replace(/\/v1\/traces$/, '');
    const cli = await connectCli(tempDir('te-otlp-cli-'), ['--otlp-endpoint', base]);
    for (let number = 1; number <= 3; number++)
      ok(
        (await cli.client.callTool({
          name: 'sequentialthinking',
          arguments: { thought: `Step ${number}`, thoughtNumber: number, totalThoughts: 3, nextThoughtNeeded: true },
        })) as CallToolResult,
      );
    await cli.close();
    // The session is still live: its span is written and sent on the way out, with the thoughts still queued.
    await waitFor(() => receiver.spans().some((span) => span.name === SESSION_SPAN_NAME), 'the session span, sent on exit', 10_000);
    const spans = receiver.spans();
    assert.equal(spans.length, 4);
    assert.ok(
      receiver.requests.every((request) => request.contentType.includes('protobuf')),
      'http/protobuf by default',
    );
    // No --otlp-include-text: no text leaves the machine.
    assert.ok(spans.every((span) => !span.attributes.has(THOUGHT.text)));
  });

  it('honours OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_PROTOCOL=http/json', async () => {
    ensureBuiltCli();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const cli = await connectStdio(process.execPath, [CLI, '--storage-path', tempDir('te-otlp-env-'), '--otlp-include-text'], {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    ok(
      (await cli.client.callTool({
        name: 'sequentialthinking',
        arguments: { thought: 'Only one', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
      })) as CallToolResult,
    );
    await cli.close();
    await waitFor(() => receiver.spans().length === 2, 'the thought and the session span', 10_000);
    assert.ok(receiver.requests.every((request) => request.contentType.includes('json')));
    assert.equal(
      receiver
        .spans()
        .find((span) => span.name !== SESSION_SPAN_NAME)
        ?.attributes.get(THOUGHT.text),
      'Only one',
    );
  });

  it('export --format otlp, then import: the same session in another store', async () => {
    ensureBuiltCli();
    const directory = tempDir('te-otlp-export-');
    const engine = new ThinkingEngine({ store: new FileSessionStore(directory, { log: quiet }), log: quiet });
    let sessionId = '';
    for (let number = 1; number <= 3; number++) {
      const outcome = engine.process('c', {
        thought: `Step ${number}`,
        thoughtNumber: number,
        totalThoughts: 3,
        nextThoughtNeeded: number < 3,
        ...(number === 3 ? { isRevision: true, revisesThought: 2, sessionId } : sessionId ? { sessionId } : {}),
      });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      sessionId = outcome.reply.sessionId;
    }
    const file = join(directory, 'session.otlp.json');
    const exported = spawnSync(process.execPath, [CLI, 'export', sessionId, '--format', 'otlp', '--out', file, '-s', directory], {
      encoding: 'utf8',
    });
    assert.equal(exported.status, 0, exported.stderr);
    const other = tempDir('te-otlp-import-');
    const imported = spawnSync(process.execPath, [CLI, 'import', file, '-s', other], { encoding: 'utf8' });
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stderr, /imported otlp session/);
    const back = new FileSessionStore(other, { log: quiet });
    assert.deepEqual(back.loadSession(sessionId)?.thoughts, engine.getSession(sessionId)?.thoughts);
    back.close();
  });
});
