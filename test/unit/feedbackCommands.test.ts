// The Sessions tree's steering commands (Note…, Reject Thought…, Explore Alternative…, Conclude Now) and the
// explorer's feedback message, against the vscode stub and the real engine over a real store: what each records,
// and that refusals (finished session, oversized note) are shown and store nothing.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { FEEDBACK_COMMANDS, feedbackFromExplorer, registerFeedbackCommands } from '../../src/extension/feedbackCommands';
import { servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { extensionContext, resetStub, stub } from './support/vscodeStub';

let fixture: ServicesFixture;
let context: ReturnType<typeof extensionContext>;

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  context = extensionContext('/extension');
  registerFeedbackCommands(context as unknown as vscode.ExtensionContext, fixture.services);
});

afterEach(() => {
  context.disposeAll();
  fixture.cleanup();
});

function liveSession(): string {
  const engine = fixture.services.engine;
  const first = engine.process('c', thought(1, 4, 'Cut CI time'));
  assert.ok(first.ok);
  assert.ok(engine.process('c', thought(2, 4, 'Cache node_modules')).ok);
  assert.ok(engine.process('c', thought(3, 4, 'Key on the lockfile')).ok);
  return first.reply.sessionId;
}

async function run(command: string, argument: unknown): Promise<void> {
  const handler = stub.commands.get(command);
  assert.ok(handler, `${command} registered`);
  await handler(argument);
}

const sessionNode = (sessionId: string) => ({ kind: 'session', sessionId });
const thoughtNode = (sessionId: string, thoughtNumber: number) => ({
  kind: 'thought',
  sessionId,
  key: `k${thoughtNumber}`,
  entry: { thought: { thoughtNumber } },
});

describe('steering commands', () => {
  test('Note…, Reject Thought…, Explore Alternative… and Conclude Now record what the person typed', async () => {
    const id = liveSession();
    stub.inputBoxAnswers.push('Consider the Windows runners too');
    await run(FEEDBACK_COMMANDS.note, sessionNode(id));
    stub.inputBoxAnswers.push('It ignores the OS');
    await run(FEEDBACK_COMMANDS.reject, thoughtNode(id, 3));
    stub.inputBoxAnswers.push('alt-remote');
    await run(FEEDBACK_COMMANDS.branch, thoughtNode(id, 2));
    await run(FEEDBACK_COMMANDS.conclude, sessionNode(id));
    const feedback = fixture.services.engine.getSession(id)?.feedback ?? [];
    assert.deepEqual(
      feedback.map((record) => [record.kind, record.thoughtNumber, record.text, record.branchId]),
      [
        ['note', undefined, 'Consider the Windows runners too', undefined],
        ['reject', 3, 'It ignores the OS', undefined],
        ['branch', 2, undefined, 'alt-remote'],
        ['conclude', undefined, undefined, undefined],
      ],
    );
    // The branch name is prefilled from the thought; the reason box refuses empty text before anything is sent.
    assert.equal(stub.inputBoxes[2].value, 'alt-2');
    assert.equal(stub.inputBoxes[1].validateInput?.('   '), 'Type something for the agent');
    assert.equal(stub.inputBoxes[0].validateInput?.('x'.repeat(4001)), 'At most 4000 characters');
    assert.equal(stub.statusMessages.length, 4);
    assert.deepEqual(
      stub.messages.filter((message) => message.kind === 'error'),
      [],
    );
  });

  test('a cancelled input records nothing; a finished session is refused with the engine’s message', async () => {
    const id = liveSession();
    stub.inputBoxAnswers.push(undefined);
    await run(FEEDBACK_COMMANDS.note, sessionNode(id));
    assert.equal(fixture.services.engine.getSession(id)?.feedback, undefined);
    assert.ok(fixture.services.engine.process('c', thought(4, 4, 'Done', { nextThoughtNeeded: false })).ok);
    await run(FEEDBACK_COMMANDS.conclude, sessionNode(id));
    assert.equal(fixture.services.engine.getSession(id)?.feedback, undefined);
    assert.deepEqual(stub.messages, [
      { kind: 'error', message: `Thought Explorer: Session "${id}" is complete; feedback goes to live sessions.` },
    ]);
  });

  test('the explorer’s giveFeedback is answered with the record, or with the refusal for a 1 MB note', () => {
    const id = liveSession();
    const log = { info: () => undefined, warn: () => undefined };
    const engine = fixture.services.engine;
    const ok = feedbackFromExplorer(
      engine,
      { type: 'giveFeedback', requestId: 'r1', sessionId: id, kind: 'reject', thoughtNumber: 2, text: 'no' },
      log,
    );
    assert.equal(ok.type, 'feedbackResult');
    assert.ok(ok.type === 'feedbackResult' && ok.ok && ok.feedback?.kind === 'reject');
    const big = feedbackFromExplorer(
      engine,
      { type: 'giveFeedback', requestId: 'r2', sessionId: id, kind: 'note', text: 'x'.repeat(1024 * 1024) },
      log,
    );
    assert.deepEqual(big, {
      type: 'feedbackResult',
      requestId: 'r2',
      ok: false,
      error: 'Invalid text: 1048576 characters, more than feedback may hold (4000); shorten it.',
    });
    assert.equal(engine.getSession(id)?.feedback?.length, 1);
  });
});
