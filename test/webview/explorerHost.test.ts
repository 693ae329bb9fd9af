// The host side of one explorer webview (ExplorerConnection) under the vscode stub, with a real engine: what it puts
// in the webview (HTML, CSP, resource roots), when it sends snapshots and deltas, how it follows the live session or
// stays on a pinned one, how it treats malformed messages, and the pre-rendered SVG round trip for exports.
import '../unit/support/vscodeLoader';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { ThinkingEngine } from '../../src/engine/engine';
import type { EngineEvent } from '../../src/engine/events';
import { ExplorerConnection, type ExplorerServices } from '../../src/extension/explorer/explorerConnection';
import { MAX_RESENDS } from '../../src/extension/explorer/snapshotConfirmation';
import { isHostMessage, type HostMessage } from '../../src/shared/protocol';
import type { RequestTimers } from '../../src/shared/requests';
import { ManualTimers } from '../unit/support/manualTimers';
import { EventEmitter, Uri } from '../unit/support/vscodeStub';

/** A stand-in for vscode.Webview that records what the host posts and lets the test post as the webview. */
class FakeWebview {
  options: unknown;
  html = '';
  readonly cspSource = 'https://webview.test';
  readonly posted: HostMessage[] = [];
  private readonly incoming = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.incoming.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`https://webview.test${uri.path}`);
  }
  postMessage(message: unknown): Promise<boolean> {
    assert.ok(isHostMessage(message), `the host posted a message outside the protocol: ${JSON.stringify(message)}`);
    this.posted.push(message);
    return Promise.resolve(true);
  }
  fromWebview(message: unknown): void {
    this.incoming.fire(message);
  }
  last(): HostMessage | undefined {
    return this.posted[this.posted.length - 1];
  }
}

interface Harness {
  engine: ThinkingEngine;
  webview: FakeWebview;
  connection: ExplorerConnection;
  warnings: string[];
  settings: { followLiveSession: boolean };
  opened: (string | undefined)[];
  /** Fires "the store changed on disk", as the store watcher does for another process's writes. */
  diskChanged: () => void;
  /** While false, the engine's events do not reach the explorer (its writes look like another process's). */
  wired: { value: boolean };
}

function thought(engine: ThinkingEngine, connection: string, sessionId: string, thoughtNumber: number): void {
  const outcome = engine.process(connection, {
    sessionId,
    thought: `Thought ${thoughtNumber} of ${sessionId}`,
    thoughtNumber,
    totalThoughts: 5,
    nextThoughtNeeded: true,
  });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
}

function connect(
  options: { mode?: 'live' | 'pinned' | 'replay'; sessionId?: string; follow?: boolean; timers?: RequestTimers } = {},
): Harness {
  // A clock that always moves, so "the session updated last" is never a tie.
  let clock = Date.UTC(2026, 0, 1);
  const engine = new ThinkingEngine({ log: () => undefined, now: () => (clock += 1_000) });
  const events = new EventEmitter<EngineEvent>();
  const wired = { value: true };
  engine.onEvent((event) => {
    if (wired.value) events.fire(event);
  });
  const disk = new EventEmitter<void>();
  const warnings: string[] = [];
  const settings = { followLiveSession: options.follow ?? true };
  const log = {
    info: () => undefined,
    warn: (message: string) => warnings.push(message),
    error: (message: string) => warnings.push(message),
    debug: () => undefined,
    trace: () => undefined,
  };
  const services = {
    engine,
    onEngineEvent: events.event,
    onDidResetEngine: new EventEmitter<void>().event,
    onDidChangeStoreOnDisk: disk.event,
    settings,
    log,
    extensionUri: Uri.file('/ext'),
  } as unknown as ExplorerServices;
  const webview = new FakeWebview();
  const opened: (string | undefined)[] = [];
  const connection = new ExplorerConnection(webview as unknown as vscode.Webview, services, {
    surface: 'view',
    mode: options.mode ?? 'live',
    sessionId: options.sessionId,
    onOpenInPanel: (sessionId) => opened.push(sessionId),
    timers: options.timers,
  });
  return { engine, webview, connection, warnings, settings, opened, diskChanged: () => disk.fire(), wired };
}

describe('explorer host connection', () => {
  let harness: Harness;

  beforeEach(() => {
    harness = connect();
  });

  it('serves the bundle under a nonce CSP and may load only from dist/webview', () => {
    const { webview } = harness;
    assert.deepEqual(JSON.parse(JSON.stringify(webview.options)), {
      enableScripts: true,
      localResourceRoots: [JSON.parse(JSON.stringify(Uri.file('/ext/dist/webview')))],
    });
    const nonce = /script-src 'nonce-([^']+)'/.exec(webview.html)?.[1];
    assert.ok(nonce);
    assert.ok(webview.html.includes(`default-src 'none'; script-src 'nonce-${nonce}'; style-src https://webview.test 'unsafe-inline'`));
    assert.ok(webview.html.includes(`<script type="module" nonce="${nonce}" src="https://webview.test/ext/dist/webview/explorer.js">`));
  });

  it('posts nothing before ready, then a snapshot of the live session, then deltas', () => {
    const { engine, webview } = harness;
    thought(engine, 'agent', 'first', 1);
    assert.equal(webview.posted.length, 0, 'nothing is posted to a webview that has not said ready');
    webview.fromWebview({ type: 'ready' });
    const snapshot = webview.last();
    assert.ok(snapshot?.type === 'snapshot');
    assert.equal(snapshot.mode, 'live');
    assert.equal(snapshot.session?.meta.id, 'first');
    assert.equal(snapshot.session?.thoughts.length, 1);
    assert.equal(snapshot.session?.strategy?.name, 'linear');

    thought(engine, 'agent', 'first', 2);
    const delta = webview.last();
    assert.ok(delta?.type === 'thoughtAdded');
    assert.equal(delta.sessionId, 'first');
    assert.equal(delta.thought.seq, 1);
    assert.deepEqual(harness.connection.status, { surface: 'view', mode: 'live', ready: true, sessionId: 'first', thoughtsSent: 2 });
  });

  it('follows a new live session when the setting says so, and stays put when it does not', () => {
    const { engine, webview, settings } = harness;
    thought(engine, 'agent', 'first', 1);
    webview.fromWebview({ type: 'ready' });
    thought(engine, 'other-agent', 'second', 1);
    const switched = webview.last();
    assert.ok(switched?.type === 'snapshot');
    assert.equal(switched.session?.meta.id, 'second');
    assert.equal(harness.connection.shownSessionId, 'second');

    settings.followLiveSession = false;
    const before = webview.posted.length;
    thought(engine, 'agent', 'third', 1);
    thought(engine, 'agent', 'third', 2);
    assert.deepEqual(
      webview.posted.slice(before),
      [{ type: 'liveSessionOffer', session: { id: 'third', title: 'Thought 1 of third' } }],
      'another session does not take over the view: it is offered, once',
    );
    assert.equal(harness.connection.shownSessionId, 'second');
    // Only the offered session may be switched to; taking the offer shows it and withdraws the offer.
    webview.fromWebview({ type: 'switchToSession', sessionId: 'first' });
    assert.equal(harness.connection.shownSessionId, 'second');
    webview.fromWebview({ type: 'switchToSession', sessionId: 'third' });
    assert.deepEqual(
      webview.posted.slice(-2).map((message) => (message.type === 'snapshot' ? `snapshot ${message.session?.meta.id}` : message)),
      [{ type: 'liveSessionOffer', session: null }, 'snapshot third'],
    );
    assert.equal(harness.connection.status.offeredSessionId, undefined);
  });

  it('stays on a pinned session and re-sends the snapshot when the view comes back', () => {
    const { engine, webview, connection } = harness;
    thought(engine, 'agent', 'pinned', 1);
    thought(engine, 'other', 'busy', 1);
    webview.fromWebview({ type: 'ready' });
    connection.show('pinned');
    const pinned = webview.last();
    assert.ok(pinned?.type === 'snapshot');
    assert.equal(pinned.mode, 'pinned');
    assert.equal(pinned.session?.meta.id, 'pinned');

    let before = webview.posted.length;
    thought(engine, 'other', 'busy', 2);
    thought(engine, 'other', 'busy', 3);
    assert.deepEqual(
      webview.posted.slice(before).map((message) => message.type),
      ['liveSessionOffer'],
      'a pinned view stays, and offers the other live session once',
    );
    assert.equal(connection.shownSessionId, 'pinned');

    // Hidden: the document is gone; nothing is posted until the new one says ready, which gets a fresh snapshot (and
    // the offer again: the new document knows of none).
    connection.markHidden();
    before = webview.posted.length;
    thought(engine, 'agent', 'pinned', 2);
    assert.equal(webview.posted.length, before);
    webview.fromWebview({ type: 'ready' });
    const [again, offer] = webview.posted.slice(before);
    assert.ok(again?.type === 'snapshot');
    assert.equal(again.session?.thoughts.length, 2, 'the thought added while hidden is in the new snapshot');
    assert.deepEqual(offer, { type: 'liveSessionOffer', session: { id: 'busy', title: 'Thought 1 of busy' } });
    // The offered session ends: the offer goes.
    assert.ok(
      engine.process('other', { sessionId: 'busy', thought: 'Done.', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: false }).ok,
    );
    assert.deepEqual(webview.last(), { type: 'liveSessionOffer', session: null });
  });

  it('starts a replay playing from the first thought when its panel opens, and only then', () => {
    const replay = connect({ mode: 'replay', sessionId: 'story' });
    thought(replay.engine, 'agent', 'story', 1);
    thought(replay.engine, 'agent', 'story', 2);
    replay.webview.fromWebview({ type: 'ready' });
    assert.deepEqual(
      replay.webview.posted.map((message) => message.type),
      ['snapshot', 'replayState'],
    );
    assert.deepEqual(replay.webview.last(), { type: 'replayState', playing: true, position: 0 });
    const snapshot = replay.webview.posted[0];
    assert.ok(snapshot.type === 'snapshot' && snapshot.mode === 'replay' && snapshot.session?.thoughts.length === 2);
    replay.connection.markHidden();
    replay.webview.fromWebview({ type: 'ready' });
    assert.equal(replay.webview.last()?.type, 'snapshot', 'shown again: the webview resumes from its saved position');
  });

  it('picks up thoughts another process wrote to the store, and follows its newer live session', () => {
    const { engine, webview, wired, diskChanged, connection } = harness;
    thought(engine, 'agent', 'shared', 1);
    webview.fromWebview({ type: 'ready' });
    wired.value = false;
    thought(engine, 'cli', 'shared', 2);
    thought(engine, 'cli', 'shared', 3);
    const before = webview.posted.length;
    diskChanged();
    const deltas = webview.posted.slice(before);
    assert.deepEqual(
      deltas.map((message) => (message.type === 'thoughtAdded' ? message.thought.seq : message.type)),
      [1, 2],
    );
    diskChanged();
    assert.equal(webview.last()?.type, 'sessionUpdated', 'nothing new: only the meta is refreshed');

    thought(engine, 'cli', 'from-cli', 1);
    diskChanged();
    const followed = webview.last();
    assert.ok(followed?.type === 'snapshot');
    assert.equal(followed.session?.meta.id, 'from-cli');
    assert.equal(connection.status.thoughtsSent, 1);
  });

  it('re-sends the whole session, with both strategies, when another process switched its strategy', () => {
    const { engine, webview, wired, diskChanged } = harness;
    thought(engine, 'agent', 'switched', 1);
    webview.fromWebview({ type: 'ready' });
    wired.value = false;
    const outcome = engine.process('cli', {
      sessionId: 'switched',
      strategy: 'step_back',
      thought: 'Step back',
      thoughtNumber: 2,
      totalThoughts: 5,
      nextThoughtNeeded: true,
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    diskChanged();
    const resent = webview.last();
    assert.ok(resent?.type === 'snapshot', 'a snapshot carries the new strategy view; a bare delta would not');
    assert.equal(resent.session?.strategy?.name, 'step_back');
    assert.deepEqual(
      resent.session?.earlierStrategies?.map((strategy) => strategy.name),
      ['linear'],
    );
  });

  it('re-sends the whole session when an update changes its thoughts without deltas (concurrent writers, import)', () => {
    const { engine, webview } = harness;
    thought(engine, 'agent', 'rewritten', 1);
    webview.fromWebview({ type: 'ready' });
    const shown = engine.getSession('rewritten');
    assert.ok(shown);
    const second = { ...shown.thoughts[0], seq: 1, thoughtNumber: 2, thought: 'Written by another process' };
    engine.importSession({
      ...shown,
      meta: { ...shown.meta, thoughtCount: 2, lastThoughtNumber: 2 },
      thoughts: [...shown.thoughts, second],
    });
    const resent = webview.last();
    assert.ok(resent?.type === 'snapshot', 'a snapshot, not a bare meta update');
    assert.equal(resent.session?.thoughts.length, 2);
  });

  it('answers a gap with the full session, and clears the view when its session is deleted', () => {
    const { engine, webview } = harness;
    thought(engine, 'agent', 'gone', 1);
    webview.fromWebview({ type: 'ready' });
    const count = webview.posted.length;
    webview.fromWebview({ type: 'requestFullSession', sessionId: 'gone' });
    assert.equal(webview.posted.length, count + 1);
    assert.equal(webview.last()?.type, 'snapshot');
    engine.deleteSession('gone');
    const cleared = webview.last();
    assert.ok(cleared?.type === 'snapshot');
    assert.equal(cleared.session, null);
  });

  it('refuses malformed messages with a log line instead of acting on them', () => {
    const { webview, warnings, opened } = harness;
    webview.fromWebview({ type: 'openInPanel', sessionId: 42 });
    webview.fromWebview({ type: 'exec', command: 'rm -rf /' });
    webview.fromWebview('ready');
    assert.equal(opened.length, 0);
    assert.equal(webview.posted.length, 0);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /does not understand/);
    webview.fromWebview({ type: 'openInPanel', sessionId: 'x' });
    assert.deepEqual(opened, ['x']);
  });

  it('gets pre-rendered SVGs from the webview for exports, and {} when it is not ready', async () => {
    const { engine, webview, connection } = harness;
    assert.deepEqual(await connection.requestSvgs(), {});
    thought(engine, 'agent', 'export-me', 1);
    webview.fromWebview({ type: 'ready' });
    const pending = connection.requestSvgs();
    const request = webview.last();
    assert.ok(request?.type === 'requestSvg');
    assert.equal(request.session, undefined, 'the shown session needs no copy');
    webview.fromWebview({ type: 'svgRendered', requestId: 'someone-else', svgs: { stageGraph: '<svg>wrong</svg>' }, errors: [] });
    webview.fromWebview({
      type: 'svgRendered',
      requestId: request.requestId,
      svgs: { stageGraph: '<svg>stage</svg>', branchTree: '<svg>tree</svg>' },
      errors: [],
    });
    assert.deepEqual(await pending, { stageGraph: '<svg>stage</svg>', branchTree: '<svg>tree</svg>' });

    // Another session than the one shown travels with the request.
    thought(engine, 'other', 'not-shown', 1);
    harness.settings.followLiveSession = false;
    const other = connection.requestSvgs('export-me');
    const second = webview.last();
    assert.ok(second?.type === 'requestSvg');
    webview.fromWebview({ type: 'svgRendered', requestId: second.requestId, svgs: {}, errors: ['Branch tree: failed'] });
    assert.deepEqual(await other, {});
    connection.dispose();
  });

  it('exports without pre-rendered SVGs when the webview does not answer in time, and drops the late answer', async () => {
    const timers = new ManualTimers();
    const { engine, webview, connection, warnings } = connect({ timers });
    thought(engine, 'agent', 'slow', 1);
    webview.fromWebview({ type: 'ready' });
    // The page says it shows the session (as after every snapshot): no snapshot is awaited any more.
    webview.fromWebview({ type: 'uiState', sessionId: 'slow', activeTab: 'stageGraph' });
    const pending = connection.requestSvgs();
    const request = webview.last();
    assert.ok(request?.type === 'requestSvg');
    assert.deepEqual(timers.waiting(), [120_000]);
    timers.fire();
    assert.deepEqual(await pending, {});
    assert.match(warnings.join('\n'), /did not render the diagrams for export in time/);
    webview.fromWebview({ type: 'svgRendered', requestId: request.requestId, svgs: { stageGraph: '<svg/>' }, errors: ['late'] });
    assert.ok(!warnings.some((warning) => warning.includes('late')), 'an answer nobody waits for is dropped');
    // Closing the explorer ends a waiting export the same way, and clears its timer.
    const closed = connection.requestSvgs();
    connection.dispose();
    assert.deepEqual(await closed, {});
    assert.deepEqual(timers.waiting(), []);
  });

  it('sends a snapshot again until the page says it shows that session, a bounded number of times', () => {
    // VS Code can lose a message to a webview and still answer true (a frame swapped under load): the page kept the
    // previous session on screen and nothing told the host.
    const timers = new ManualTimers();
    const { engine, webview, connection, warnings } = connect({ mode: 'pinned', sessionId: 'earlier', timers });
    thought(engine, 'agent', 'earlier', 1);
    thought(engine, 'cli', 'picked', 1);
    webview.fromWebview({ type: 'ready' });
    webview.fromWebview({ type: 'uiState', sessionId: 'earlier', activeTab: 'stageGraph' });
    assert.deepEqual(timers.waiting(), [], 'the page shows the session it was sent');
    const snapshotsOf = (id: string) =>
      webview.posted.filter((message) => message.type === 'snapshot' && message.session?.meta.id === id).length;

    connection.show('picked');
    assert.equal(snapshotsOf('picked'), 1);
    // The page answers with what it still shows (its uiState posted before the snapshot arrived): not a confirmation.
    webview.fromWebview({ type: 'uiState', sessionId: 'earlier', activeTab: 'stageGraph' });
    timers.fire();
    assert.equal(snapshotsOf('picked'), 2, 'unconfirmed: sent again');
    webview.fromWebview({ type: 'uiState', sessionId: 'picked', activeTab: 'stageGraph' });
    assert.deepEqual(timers.waiting(), [], 'confirmed: nothing more is sent');
    assert.deepEqual(warnings, []);

    // A page that never confirms gets a bounded number of snapshots, then one warning in the output channel.
    connection.show('earlier');
    for (let round = 0; round < 10; round++) timers.fire();
    assert.equal(snapshotsOf('earlier'), 1 + 1 + MAX_RESENDS);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /still does not show session earlier after 4 snapshots/);

    // A hidden page is gone: nothing is awaited from it; the new page's ready starts over.
    connection.show('picked');
    connection.markHidden();
    assert.deepEqual(timers.waiting(), []);
    connection.dispose();
  });

  it("answers requestInsights with the figures and the request's id", () => {
    const { engine, webview } = harness;
    thought(engine, 'agent', 'counted', 1);
    webview.fromWebview({ type: 'ready' });
    webview.fromWebview({ type: 'requestInsights', requestId: 'insights-1', sessionId: 'counted', filter: { range: 'all' } });
    const answer = webview.last();
    assert.ok(answer?.type === 'insights');
    assert.equal(answer.requestId, 'insights-1');
    assert.equal(answer.session?.sessionId, 'counted');
    assert.equal(answer.overall.sessions, 1);
  });
});
