// The OTLP/JSON export of a session and its import: the official serializer's ExportTraceServiceRequest, one trace
// with deterministic ids, and the same session back (feedback, strategy switches, deliberation extras included),
// with the bounds and warnings of every other session file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { exportSession } from '../../src/export/index';
import { sessionSpans, toOtlpJson } from '../../src/telemetry/otlpFile';
import { SessionSpanWriter, sessionTraceOf } from '../../src/telemetry/sessionSpans';
import { callerSpanContext } from '../../src/telemetry/liveTraces';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { looksLikeOtlp, parseSessionFile } from '../../src/telemetry/otlpImport';
import { SessionFormatError } from '../../src/storage/sessionJsonFormats';
import { GEN_AI, LINK_KIND, SESSION_SPAN_NAME, THOUGHT } from '../../src/telemetry/attributeNames';
import { jsonSpans } from '../mcp/support/otlpReceiver';

function richSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  const first = engine.process('c', { thought: 'Plan <b>it</b>', thoughtNumber: 1, totalThoughts: 5, nextThoughtNeeded: true });
  assert.ok(first.ok);
  const sessionId = first.reply.sessionId;
  const send = (args: Record<string, unknown>) => {
    const outcome = engine.process('c', { sessionId, totalThoughts: 5, nextThoughtNeeded: true, ...args });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
  };
  send({ thought: 'Check it', thoughtNumber: 2 });
  assert.ok(engine.addFeedback(sessionId, { kind: 'note', text: 'Mind the cache.' }).ok);
  send({ thought: 'Fix the plan', thoughtNumber: 3, isRevision: true, revisesThought: 2 });
  send({ thought: 'Other idea', thoughtNumber: 3, branchFromThought: 2, branchId: 'alt' });
  send({ thought: 'Weigh both', thoughtNumber: 4, strategy: 'tree_of_thoughts' });
  engine.recordThought(
    'c',
    { thought: 'The critic says: index first.', thoughtNumber: 5, totalThoughts: 5, nextThoughtNeeded: false, sessionId },
    {
      extra: {
        role: 'critical',
        phase: 'role',
        status: 'ok',
        durationMs: 40,
        model: 'scripted-1',
        tokens: { input: 12, output: 7, estimated: false },
      },
    },
  );
  const snapshot = engine.getSession(sessionId);
  assert.ok(snapshot);
  return snapshot;
}

describe('OTLP/JSON session export', () => {
  it('is an ExportTraceServiceRequest: one trace, a session span, a child per thought, links and GenAI attributes', async () => {
    const snapshot = richSession();
    const text = await exportSession(snapshot, 'otlp', { otlpTrace: toOtlpJson });
    assert.ok(looksLikeOtlp(text));
    const spans = jsonSpans(text);
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1);
    const session = spans.find((span) => span.name === SESSION_SPAN_NAME);
    assert.ok(session);
    const thoughts = spans.filter((span) => span !== session);
    assert.equal(thoughts.length, snapshot.thoughts.length);
    assert.ok(thoughts.every((span) => span.parentSpanId === session.spanId));
    const bySeq = new Map(thoughts.map((span) => [span.attributes.get(THOUGHT.seq), span]));
    assert.deepEqual(
      bySeq.get(2)?.links.map((link) => [link.spanId, link.attributes.get(LINK_KIND)]),
      [[bySeq.get(1)?.spanId, 'revises']],
    );
    assert.deepEqual(
      bySeq.get(3)?.links.map((link) => [link.spanId, link.attributes.get(LINK_KIND)]),
      [[bySeq.get(1)?.spanId, 'branches_from']],
    );
    assert.equal(bySeq.get(0)?.attributes.get(THOUGHT.text), 'Plan <b>it</b>');
    assert.equal(bySeq.get(4)?.attributes.get(THOUGHT.strategy), 'tree_of_thoughts');
    assert.equal(bySeq.get(1)?.attributes.get(THOUGHT.strategy), 'linear');
    const role = bySeq.get(5);
    assert.equal(role?.attributes.get(GEN_AI.model), 'scripted-1');
    assert.equal(role?.attributes.get(GEN_AI.operation), 'chat');
    assert.equal(role?.attributes.get(GEN_AI.inputTokens), 12);
    assert.equal(role?.attributes.get(GEN_AI.outputTokens), 7);
    assert.deepEqual(
      session.events.map((event) => event.name),
      ['thought_explorer.strategy_switch', 'thought_explorer.feedback'],
    );
    // A role's span starts when its model call did.
    const raw = JSON.parse(text) as {
      resourceSpans: { scopeSpans: { spans: { spanId: string; startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[];
    };
    const roleRaw = raw.resourceSpans[0].scopeSpans[0].spans.find((span) => span.spanId === role?.spanId);
    assert.equal((BigInt(roleRaw?.endTimeUnixNano ?? 0) - BigInt(roleRaw?.startTimeUnixNano ?? 0)) / 1_000_000n, 40n);
  });

  it('is the same file on every export (ids derived from the session)', () => {
    const snapshot = richSession();
    assert.equal(toOtlpJson(snapshot), toOtlpJson(structuredClone(snapshot)));
  });

  it('imports back to the same session', () => {
    const snapshot = richSession();
    const parsed = parseSessionFile(toOtlpJson(snapshot));
    assert.equal(parsed.format, 'otlp');
    assert.deepEqual(parsed.warnings, []);
    assert.deepEqual(parsed.snapshot, snapshot);
  });

  it('still reads our other formats', () => {
    const snapshot = richSession();
    const json = JSON.stringify({
      format: 'thought-explorer-session',
      version: 1,
      meta: snapshot.meta,
      thoughts: snapshot.thoughts,
      strategySwitches: snapshot.strategySwitches,
      feedback: snapshot.feedback,
    });
    assert.equal(parseSessionFile(json).format, 'thought-explorer');
  });

  it('keeps the bounds of every import: limits, field rules, a trace that is not a session', () => {
    const snapshot = richSession();
    const text = toOtlpJson(snapshot);
    assert.throws(() => parseSessionFile(text, { limits: { maxThoughtsPerSession: 3, maxThoughtLength: 10_000 } }), SessionFormatError);
    assert.throws(() => parseSessionFile(text, { limits: { maxThoughtsPerSession: 100, maxThoughtLength: 5 } }), SessionFormatError);
    const tampered = text.replace('"stringValue": "alt"', '"stringValue": "bad branch\\u0000"');
    assert.throws(() => parseSessionFile(tampered), SessionFormatError);
    assert.throws(() => parseSessionFile('{"resourceSpans": [{"scopeSpans": [{"spans": []}]}]}'), /not a Thought Explorer session trace/);
    assert.throws(() => parseSessionFile('{"resourceSpans": 3}'), SessionFormatError);
    assert.throws(() => parseSessionFile('{"resourceSpans": [ oops'), /not valid JSON/);
  });

  it('imports a trace streamed without text, saying so, and skips spans that are not the session', () => {
    const snapshot = richSession();
    const file = JSON.parse(toOtlpJson(snapshot)) as {
      resourceSpans: { scopeSpans: { spans: { attributes: { key: string }[]; name: string; spanId: string; traceId: string }[] }[] }[];
    };
    const spans = file.resourceSpans[0].scopeSpans[0].spans;
    for (const span of spans) span.attributes = span.attributes.filter((entry) => entry.key !== THOUGHT.text);
    spans.push({ ...spans[0], name: 'agent step', spanId: 'aaaaaaaaaaaaaaaa', attributes: [] });
    const parsed = parseSessionFile(JSON.stringify(file));
    assert.equal(parsed.snapshot.thoughts.length, snapshot.thoughts.length);
    assert.match(parsed.warnings.join(' '), /carry no text/);
    assert.match(parsed.warnings.join(' '), /1 span\(s\) that are not this session's/);
  });
});

describe('spans made without the SDK tracer', () => {
  /** The same spans made again through the SDK's tracer, from what each span says: ids, parent, times, fields. */
  function throughTracer(spans: ReadableSpan[]): ReadableSpan[] {
    const remade: ReadableSpan[] = [];
    let next: { traceId: string; spanId: string } | undefined;
    const provider = new TracerProvider({
      idGenerator: { generateTraceId: () => next?.traceId ?? '', generateSpanId: () => next?.spanId ?? '' },
      sampler: new AlwaysOnSampler(),
      resource: spans[0].resource,
      spanLimits: { eventCountLimit: Number.MAX_SAFE_INTEGER },
      spanProcessors: [
        { onStart: () => {}, onEnd: (span) => void remade.push(span), forceFlush: async () => {}, shutdown: async () => {} },
      ],
    });
    const tracer = provider.getTracer(spans[0].instrumentationScope.name, spans[0].instrumentationScope.version);
    for (const span of spans) {
      next = span.spanContext();
      const parent = span.parentSpanContext ? trace.setSpanContext(ROOT_CONTEXT, span.parentSpanContext) : ROOT_CONTEXT;
      const made = tracer.startSpan(
        span.name,
        {
          kind: span.kind,
          startTime: span.startTime,
          attributes: span.attributes,
          links: span.links.map(({ context, attributes }) => ({ context, attributes })),
        },
        parent,
      );
      for (const event of span.events) made.addEvent(event.name, event.attributes, event.time);
      made.end(span.endTime);
    }
    return remade;
  }

  it("serialise byte for byte as the SDK tracer's spans (JSON and protobuf), with and without a caller", () => {
    const snapshot = richSession();
    const spans = sessionSpans(snapshot);
    // And a session in a caller's trace: the session span under a remote parent with trace state, its thoughts under it.
    const caller = callerSpanContext({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=abc' });
    assert.ok(caller);
    const inCallerTrace: ReadableSpan[] = [];
    const writer = new SessionSpanWriter(
      { onEnd: (span) => void inCallerTrace.push(span) },
      { includeText: false, resource: spans[0].resource, scope: spans[0].instrumentationScope, eventCountLimit: 128 },
    );
    const target = sessionTraceOf(snapshot.meta.id, caller);
    writer.writeSession(target, snapshot, snapshot.meta.updatedAt);
    writer.writeThought(
      target,
      snapshot.thoughts[2],
      'linear',
      { parent: 1, startsBranch: false, revises: 1 },
      snapshot.thoughts[1].timestamp,
      caller,
    );
    writer.writeDecision(
      target,
      { thoughtNumber: 2, seq: 1, about: 'nextStage', action: 'accept', at: snapshot.meta.updatedAt + 5 },
      snapshot.meta.updatedAt,
    );
    for (const list of [spans, inCallerTrace]) {
      const sdk = throughTracer(list);
      assert.equal(sdk.length, list.length);
      assert.deepEqual(
        Buffer.from(JsonTraceSerializer.serializeRequest(list) ?? []),
        Buffer.from(JsonTraceSerializer.serializeRequest(sdk) ?? []),
      );
      assert.deepEqual(
        Buffer.from(ProtobufTraceSerializer.serializeRequest(list) ?? []),
        Buffer.from(ProtobufTraceSerializer.serializeRequest(sdk) ?? []),
      );
    }
  });
});
