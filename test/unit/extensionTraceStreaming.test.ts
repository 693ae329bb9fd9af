// The editor's trace streaming: thoughtExplorer.telemetry.* turn it on and off, the MCP server reaches the current
// stream through the host, and the status bar's tooltip says what was sent and dropped.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { registerStatusBar } from '../../src/extension/statusBar';
import { registerTraceStreaming, type TelemetryModule } from '../../src/extension/traceStreaming';
import { startOtlpStreaming } from '../../src/telemetry/otlpExporter';
import { toOtlpJson } from '../../src/telemetry/otlpFile';
import { SESSION_SPAN_NAME, THOUGHT } from '../../src/telemetry/attributeNames';
import { eventually, servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { extensionContext, resetStub, setConfiguration, stub } from './support/vscodeStub';
import { deadEndpoint, startReceiver, type Receiver } from '../mcp/support/otlpReceiver';

let fixture: ServicesFixture;
let context: ReturnType<typeof extensionContext>;
let receiver: Receiver | undefined;
/** The source modules stand in for dist/telemetry.js; `loads` counts how often it was required. */
let loads = 0;
const loader = (): TelemetryModule => {
  loads++;
  return { startOtlpStreaming, toOtlpJson };
};

beforeEach(() => {
  resetStub();
  loads = 0;
  fixture = servicesFixture();
  context = extensionContext('/extension');
});

afterEach(async () => {
  context.disposeAll();
  fixture.cleanup();
  await receiver?.close();
  receiver = undefined;
});

function start() {
  const host = registerTraceStreaming(context as unknown as vscode.ExtensionContext, fixture.services, loader);
  registerStatusBar(context as unknown as vscode.ExtensionContext, fixture.services, host);
  const item = stub.statusBarItems.find((candidate) => candidate.id === 'thoughtExplorer.liveSession');
  assert.ok(item);
  return { host, item };
}

describe('trace streaming in the editor', () => {
  test('is off (and its bundle not loaded) without an endpoint', () => {
    const { host } = start();
    assert.equal(loads, 0);
    assert.equal(host.stats(), undefined);
    assert.equal(
      host.inCallContext({ traceparent: 'x' }, () => 42),
      42,
    );
  });

  test('streams the session to the configured endpoint, without text unless asked, and shows the count', async () => {
    receiver = await startReceiver();
    setConfiguration('telemetry.otlpEndpoint', receiver.url.replace(/\/v1\/traces$/, ''));
    const { host, item } = start();
    assert.equal(loads, 1);
    const engine = fixture.services.engine;
    const first = engine.process('copilot', thought(1, 3, 'Secret plan'));
    assert.ok(first.ok);
    assert.ok(engine.process('copilot', thought(2, 3, 'More', { sessionId: first.reply.sessionId })).ok);
    await eventually(() => receiver!.spans().length >= 2, 10_000, 'two thought spans at the receiver');
    assert.ok(
      receiver.spans().every((span) => !span.attributes.has(THOUGHT.text)),
      'no text without includeThoughtText',
    );
    await eventually(() => /2 spans sent, 0 dropped/.test(item.tooltip ?? ''), 5000, 'the counts in the tooltip');
    assert.match(item.tooltip ?? '', /Traces to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);

    // includeThoughtText: the stream restarts (the old one sends what it holds) and sends the text from then on.
    setConfiguration('telemetry.includeThoughtText', true);
    assert.equal(loads, 2);
    assert.ok(engine.process('copilot', thought(3, 3, 'Done', { sessionId: first.reply.sessionId })).ok);
    await eventually(
      () => receiver!.spans().some((span) => span.attributes.get(THOUGHT.text) === 'Done'),
      10_000,
      'the third thought with its text',
    );
    await eventually(() => receiver!.spans().some((span) => span.name === SESSION_SPAN_NAME), 10_000, 'the session span');

    setConfiguration('telemetry.otlpEndpoint', '');
    assert.equal(host.stats(), undefined, 'off again');
  });

  test('counts what a dead collector costs in the tooltip; every thought is still recorded', async () => {
    setConfiguration('telemetry.otlpEndpoint', await deadEndpoint());
    const { host, item } = start();
    const engine = fixture.services.engine;
    const first = engine.process('copilot', thought(1, 2, 'One'));
    assert.ok(first.ok);
    await eventually(() => (host.stats()?.dropped ?? 0) >= 1, 15_000, 'a dropped span');
    await eventually(() => /0 spans sent, 1 dropped/.test(item.tooltip ?? ''), 5000, 'the drop in the tooltip');
    assert.equal(engine.getSession(first.reply.sessionId)?.thoughts.length, 1);
  });

  test('reports an endpoint it cannot use and stays off', () => {
    setConfiguration('telemetry.otlpEndpoint', 'collector:4318');
    const { host } = start();
    assert.equal(host.stats(), undefined);
    assert.ok(fixture.log.lines.some((line) => /Trace streaming is off: the OTLP endpoint must be an http/.test(line)));
  });
});
