// The "ask at decision points" settings and the per-session switch in the extension (against the vscode stub): the
// settings as the in-host server's options (read on every use, bad values fall back), and the Sessions command that
// turns the switch on and off for one session, kept in the store.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { TOGGLE_ASK_AT_DECISION_POINTS, registerDecisionPointCommands } from '../../src/extension/decisionPointCommands';
import { decisionPointOptions } from '../../src/extension/decisionPointSettings';
import { DEFAULT_DECISION_TIMEOUT_MS } from '../../src/mcp/decisionPoints';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { extensionContext, resetStub, setConfiguration, stub, workspace } from './support/vscodeStub';

let fixture: ServicesFixture;
let context: ReturnType<typeof extensionContext>;

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  context = extensionContext('/extension');
  registerDecisionPointCommands(context as unknown as vscode.ExtensionContext, fixture.services);
});

afterEach(() => {
  context.disposeAll();
  fixture.cleanup();
});

describe('ask at decision points in VS Code', () => {
  test('the settings become the server options, read each time; bad values fall back to the defaults', () => {
    const options = decisionPointOptions(() => workspace.getConfiguration('thoughtExplorer'));
    const ask = options.askAtDecisionPoints as () => boolean;
    const timeout = options.timeoutMs as () => number;
    assert.equal(ask(), false);
    assert.equal(timeout(), DEFAULT_DECISION_TIMEOUT_MS);
    setConfiguration('steering.askAtDecisionPoints', true);
    setConfiguration('steering.decisionTimeoutSeconds', 15);
    assert.equal(ask(), true);
    assert.equal(timeout(), 15_000);
    setConfiguration('steering.askAtDecisionPoints', 'yes');
    setConfiguration('steering.decisionTimeoutSeconds', 0);
    assert.equal(ask(), false);
    assert.equal(timeout(), DEFAULT_DECISION_TIMEOUT_MS);
  });

  test('the Sessions command turns the switch on and off for one session, and the store keeps it', async () => {
    const engine = fixture.services.engine;
    const first = engine.process('c', thought(1, 3, 'Which cache?'));
    assert.ok(first.ok);
    const sessionId = first.reply.sessionId;
    const toggle = stub.commands.get(TOGGLE_ASK_AT_DECISION_POINTS);
    assert.ok(toggle, 'registered');
    assert.equal(await toggle({ kind: 'session', sessionId }), true);
    assert.equal(engine.getSession(sessionId)?.meta.askAtDecisionPoints, true);
    assert.match(stub.messages.at(-1)?.message ?? '', /You will be asked at decision points of “Which cache\?”/);
    const reopened = new FileSessionStore(fixture.services.storageDirectory, { log: () => undefined });
    assert.equal(reopened.loadSession(sessionId)?.meta.askAtDecisionPoints, true);
    reopened.close();
    assert.equal(await toggle(sessionId), false);
    assert.equal(engine.getSession(sessionId)?.meta.askAtDecisionPoints, false);
    // With the setting on, a session without its own switch starts from on: the command turns it off.
    setConfiguration('steering.askAtDecisionPoints', true);
    const second = engine.process('d', thought(1, 3, 'Another'));
    assert.ok(second.ok);
    assert.equal(await toggle(second.reply.sessionId), false);
  });
});
