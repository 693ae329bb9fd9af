// The explorer's plain-logic parts, in Node: the protocol guards each side applies to what it receives, the webview
// HTML and its Content-Security-Policy, the saved UI state, and the webview's session model (deltas and replay).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, createNonce, explorerHtml } from '../../src/extension/explorer/explorerHtml';
import { strategyView, toSessionView } from '../../src/extension/explorer/sessionView';
import { MAX_SVG_LENGTH, isHostMessage, isWebviewMessage, type HostMessage, type WebviewMessage } from '../../src/shared/protocol';
import { SessionModel } from '../../webview/app/sessionModel';
import { restoreUiState } from '../../webview/app/uiState';
import { findStrategy } from '../../src/engine/strategies/catalog';
import { requireBundle } from './support/explorerPage';
import { reactSession, switchingSession } from './support/sessions';

const DIST = join(__dirname, '..', '..', 'dist');

describe('explorer protocol guards', () => {
  const session = toSessionView(reactSession({ thoughts: 5 }));

  it('accepts every well-formed webview message', () => {
    const valid: WebviewMessage[] = [
      { type: 'ready' },
      { type: 'selectThought', sessionId: 's', seq: 3 },
      { type: 'requestFullSession', sessionId: 's' },
      { type: 'openInPanel' },
      { type: 'openInPanel', sessionId: 's' },
      { type: 'exportSvg', diagram: 'branchTree', svg: '<svg/>' },
      { type: 'renderFailed', diagram: 'stageGraph', message: 'Parse error' },
      { type: 'svgRendered', requestId: 'r1', svgs: { stageGraph: '<svg/>' }, errors: [] },
      { type: 'uiState', activeTab: 'revisionChain' },
      { type: 'uiState', sessionId: 's', activeTab: 'branchTree', selectedSeq: 4 },
    ];
    for (const message of valid) assert.equal(isWebviewMessage(message), true, JSON.stringify(message));
  });

  it('refuses malformed or unknown webview messages instead of trusting them', () => {
    const invalid: unknown[] = [
      null,
      'ready',
      [],
      {},
      { type: 'launchMissiles' },
      { type: 'selectThought', sessionId: 's', seq: -1 },
      { type: 'selectThought', sessionId: 's', seq: 1.5 },
      { type: 'selectThought', seq: 1 },
      { type: 'exportSvg', diagram: 'pieChart', svg: '<svg/>' },
      { type: 'exportSvg', diagram: 'branchTree', svg: 42 },
      { type: 'exportSvg', diagram: 'branchTree', svg: 'x'.repeat(MAX_SVG_LENGTH + 1) },
      { type: 'renderFailed', diagram: 'branchTree' },
      { type: 'svgRendered', requestId: 'r', svgs: { evil: '<svg/>' }, errors: [] },
      { type: 'svgRendered', requestId: 'r', svgs: {}, errors: [1] },
      { type: 'uiState', activeTab: 'pieChart' },
      { type: 'uiState', activeTab: 'stageGraph', selectedSeq: -1 },
      { type: 'uiState', activeTab: 'stageGraph', sessionId: 7 },
    ];
    for (const message of invalid) assert.equal(isWebviewMessage(message), false, JSON.stringify(message)?.slice(0, 80));
  });

  it('accepts every well-formed host message and refuses malformed ones', () => {
    const thought = session.thoughts[4];
    const valid: HostMessage[] = [
      { type: 'snapshot', mode: 'live', session },
      { type: 'snapshot', mode: 'pinned', session: null },
      { type: 'thoughtAdded', sessionId: session.meta.id, meta: session.meta, thought },
      { type: 'sessionUpdated', meta: session.meta, strategy: session.strategy },
      { type: 'theme', kind: 'highContrastLight' },
      { type: 'replayState', playing: true, position: 2, speed: 8 },
      { type: 'requestSvg', requestId: 'r1' },
      { type: 'requestSvg', requestId: 'r2', session },
      { type: 'showInView', tab: 'branchTree' },
      { type: 'showInView', seq: 3 },
    ];
    for (const message of valid) assert.equal(isHostMessage(message), true, message.type);
    const invalid: unknown[] = [
      { type: 'snapshot', mode: 'everything', session: null },
      { type: 'snapshot', mode: 'live' },
      { type: 'thoughtAdded', sessionId: 's', meta: session.meta, thought: { seq: 'one' } },
      { type: 'theme', kind: 'solarized' },
      { type: 'replayState', speed: 16 },
      { type: 'replayState', speed: 0.25 },
      { type: 'replayState', position: -3 },
      { type: 'requestSvg' },
      { type: 'showInView', tab: 'gantt' },
      { type: 'showInView', seq: 1.5 },
      { type: 'sessionUpdated', meta: session.meta, strategy: { name: 'react' } },
      { type: 'snapshot', mode: 'live', session: { ...session, earlierStrategies: [{ stages: 'none' }] } },
      { type: 'eval', code: 'alert(1)' },
    ];
    for (const message of invalid) assert.equal(isHostMessage(message), false, JSON.stringify(message).slice(0, 80));
  });
});

describe('explorer HTML and Content-Security-Policy', () => {
  const options = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/explorer.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/explorer.css',
    codiconUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/codicon.css',
    surface: 'view' as const,
  };

  it('allows nothing by default, scripts only by nonce, styles and fonts only from the extension', () => {
    assert.equal(
      contentSecurityPolicy(options.cspSource, 'abc'),
      `default-src 'none'; script-src 'nonce-abc'; style-src ${options.cspSource} 'unsafe-inline'; img-src ${options.cspSource} data:; font-src ${options.cspSource}`,
    );
  });

  it('loads exactly one script, the bundle, carrying the nonce of its CSP', () => {
    const html = explorerHtml({ ...options, nonce: 'n0nce' });
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    assert.deepEqual(scripts, [`<script type="module" nonce="n0nce" src="${options.scriptUri}">`]);
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-n0nce';/);
    assert.ok(html.includes(`<link rel="stylesheet" href="${options.codiconUri}" id="vscode-codicon-stylesheet">`));
    assert.ok(!/https?:\/\/(?!file\+\.vscode-resource)/.test(html), 'no CDN or other origin');
  });

  it('uses a fresh crypto-random nonce for every document', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
    const first = /nonce="([^"]+)"/.exec(explorerHtml(options))?.[1];
    const second = /nonce="([^"]+)"/.exec(explorerHtml(options))?.[1];
    assert.ok(first && second && first !== second);
  });
});

describe('explorer bundle', () => {
  it('carries no strategy catalog: the host sends the strategies it draws', () => {
    requireBundle();
    // A `write` hint exists only in the catalog (StrategyView leaves it out): the extension bundle has it, the webview's must not.
    const catalogOnly = findStrategy('linear')?.stages[0].write;
    assert.ok(catalogOnly);
    // The host's engine is in dist/core.js, which the extension bundle shares with the MCP server bundle.
    const host = ['extension.js', 'core.js'].map((bundle) => readFileSync(join(DIST, bundle), 'utf8')).join('\n');
    assert.ok(host.includes(catalogOnly), 'the probe is spelled as the bundler writes it');
    assert.equal(readFileSync(join(DIST, 'webview', 'explorer.js'), 'utf8').includes(catalogOnly), false);
  });
});

describe('explorer UI state and session model', () => {
  it('restores only valid saved state', () => {
    assert.deepEqual(restoreUiState(undefined), { activeTab: 'stageGraph' });
    assert.deepEqual(restoreUiState({ activeTab: 'revisionChain', selectedSeq: 4, sessionId: 's' }), {
      activeTab: 'revisionChain',
      selectedSeq: 4,
      sessionId: 's',
    });
    assert.deepEqual(restoreUiState({ activeTab: 'x' as never, selectedSeq: -2 }), { activeTab: 'stageGraph' });
  });

  it('appends live thoughts in order and reports duplicates, gaps and other sessions', () => {
    const full = reactSession({ thoughts: 8 });
    const model = new SessionModel();
    model.load(toSessionView({ ...full, thoughts: full.thoughts.slice(0, 5) }), false);
    assert.equal(model.addThought('other', full.meta, full.thoughts[5]), 'otherSession');
    assert.equal(model.addThought(full.meta.id, full.meta, full.thoughts[4]), 'duplicate');
    assert.equal(model.addThought(full.meta.id, full.meta, full.thoughts[6]), 'gap');
    assert.equal(model.addThought(full.meta.id, full.meta, full.thoughts[5]), 'appended');
    assert.equal(model.position, 6);
    assert.equal(model.shownThoughts().length, 6);
  });

  it("keeps the host's strategy views: the current one, the ones switched away from, and a switch arriving live", () => {
    const model = new SessionModel();
    model.load(toSessionView(switchingSession()), true);
    assert.equal(model.strategyNamed('step_back')?.title, 'Step-back');
    assert.deepEqual(
      model
        .strategyNamed('linear')
        ?.stages.map((stage) => stage.name)
        .slice(0, 2),
      ['problem_reception', 'initial_thought_planning'],
    );
    assert.equal(model.strategyNamed('react'), undefined, 'only what the host sent');

    const live = toSessionView(reactSession({ thoughts: 5 }));
    model.load(live, false);
    const selfAsk = strategyView('self_ask');
    assert.ok(selfAsk);
    assert.equal(model.updateMeta({ ...live.meta, strategy: 'self_ask' }, selfAsk), true);
    assert.equal(model.strategy?.name, 'self_ask');
    assert.equal(model.strategyNamed('react')?.name, 'react', 'the strategy switched away from stays known for a replay');
  });

  it('describes only the replayed prefix during a replay', () => {
    const full = reactSession({ thoughts: 12, complete: true });
    const model = new SessionModel();
    model.load(toSessionView(full), true);
    assert.equal(model.position, 0);
    model.seek(3);
    const prefix = model.shownSnapshot();
    assert.ok(prefix);
    assert.equal(prefix.thoughts.length, 3);
    assert.equal(prefix.meta.stage, full.thoughts[2].stage);
    assert.equal(prefix.meta.status, 'live', 'not complete before the last thought');
    assert.equal(prefix.meta.thoughtCount, 3);
    assert.equal(model.seek(99), full.thoughts.length);
    assert.equal(model.shownSnapshot()?.meta.status, 'complete');
  });
});
