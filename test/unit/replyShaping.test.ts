// The reply detail step on its own (pure): what compact leaves out against what a connection was told, what standard
// keeps, that full is the reply as built; and the `thoughtExplorer.replyDetail` setting as the server reads it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine, type ThoughtReply } from '../../src/engine/engine';
import { shapeReply, type ToldState } from '../../src/engine/recording/replyShaping';
import { replyDetailSetting } from '../../src/extension/replyDetailSetting';

function reply(extra: Partial<ThoughtReply> & Record<string, unknown> = {}): ThoughtReply {
  return {
    thoughtNumber: 4,
    totalThoughts: 9,
    nextThoughtNeeded: true,
    branches: [],
    thoughtHistoryLength: 4,
    sessionId: 's1',
    strategy: 'linear',
    stage: 'thought_evaluation',
    nextStages: ['thought_revision', 'continuation_decision'],
    guidance: 'Choose the next stage.',
    warnings: [],
    progress: { thoughts: 4, typicalLength: 3, stagesToFinal: 5 },
    ...extra,
  };
}

const told: ToldState = {
  sessionId: 's1',
  strategy: 'linear',
  stage: 'thought_evaluation',
  nextStages: 'thought_revision continuation_decision',
  stagesToFinal: 5,
};

describe('shapeReply', () => {
  it('compact: the five fields only, when the connection was told everything else', () => {
    const shaped = shapeReply(reply(), 'compact', told);
    assert.deepEqual(shaped.reply, { thoughtNumber: 4, totalThoughts: 9, nextThoughtNeeded: true, branches: [], thoughtHistoryLength: 4 });
    assert.deepEqual(shaped.told, told);
  });

  it('compact: everything known is new without a told state or for another session', () => {
    for (const before of [undefined, { ...told, sessionId: 'other' }]) {
      const { reply: shaped } = shapeReply(reply(), 'compact', before);
      assert.equal(shaped.sessionId, 's1');
      assert.equal(shaped.strategy, 'linear');
      assert.equal(shaped.stage, 'thought_evaluation');
      assert.deepEqual(shaped.nextStages, ['thought_revision', 'continuation_decision']);
      assert.equal(shaped.guidance, 'Choose the next stage.');
      assert.equal('warnings' in shaped || 'progress' in shaped, false);
    }
  });

  it('compact, plain session: no stage talk, only the sessionId when new, warnings and what the person said', () => {
    const first = shapeReply(reply({ nudge: undefined }), 'compact', undefined, true);
    assert.deepEqual(first.reply, {
      thoughtNumber: 4,
      totalThoughts: 9,
      nextThoughtNeeded: true,
      branches: [],
      thoughtHistoryLength: 4,
      sessionId: 's1',
    });
    const moved = shapeReply(reply({ stage: 'continuation_decision', nextStages: ['branch_creation'] }), 'compact', first.told, true);
    assert.deepEqual(Object.keys(moved.reply), ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength']);
    const warned = shapeReply(reply({ warnings: ['revisesThought 9 does not exist'] }), 'compact', first.told, true).reply;
    assert.deepEqual(warned.warnings, ['revisesThought 9 does not exist']);
    const noted = shapeReply(
      reply({ userFeedback: [{ id: 'fb-1', kind: 'note', text: 'x' }], guidance: 'The user says: x.' }),
      'compact',
      told,
      true,
    );
    assert.equal(noted.reply.guidance, 'The user says: x.');
    // standard and full do not depend on it.
    assert.equal(shapeReply(reply(), 'standard', told, true).reply.stage, 'thought_evaluation');
  });

  it('compact: guidance again when the next stages change in the same stage, or feedback or a decision arrives', () => {
    const done = shapeReply(reply({ nextStages: [], guidance: 'Session complete.' }), 'compact', told).reply;
    assert.equal(done.guidance, 'Session complete.');
    assert.equal('nextStages' in done, false, 'no empty array');
    const withFeedback = shapeReply(reply({ userFeedback: [{ id: 'fb-1', kind: 'note', text: 'x' }] }), 'compact', told).reply;
    assert.equal(withFeedback.guidance, 'Choose the next stage.');
    assert.equal((withFeedback.userFeedback as unknown[]).length, 1);
    const withDecision = shapeReply(reply({ userDecision: { action: 'timeout', about: 'nextStage' } }), 'compact', told).reply;
    assert.deepEqual(withDecision.userDecision, { action: 'timeout', about: 'nextStage' });
    assert.equal(withDecision.guidance, 'Choose the next stage.');
  });

  it('compact: every warning and every recommendation, empty extras left out', () => {
    const shaped = shapeReply(reply({ warnings: ['w'], recommendation: { tools: [] }, remainingSteps: [] }), 'compact', told).reply;
    assert.deepEqual(shaped.warnings, ['w']);
    assert.deepEqual(shaped.recommendation, { tools: [] });
    assert.equal('remainingSteps' in shaped, false);
  });

  it('standard: session, stage, next stages and guidance always; strategy and progress on change; no empty warnings', () => {
    const same = shapeReply(reply(), 'standard', told).reply;
    assert.deepEqual(Object.keys(same), [
      'thoughtNumber',
      'totalThoughts',
      'nextThoughtNeeded',
      'branches',
      'thoughtHistoryLength',
      'sessionId',
      'stage',
      'nextStages',
      'guidance',
    ]);
    const moved = shapeReply(reply({ progress: { thoughts: 4, typicalLength: 3, stagesToFinal: 4 } }), 'standard', told).reply;
    assert.deepEqual(moved.progress, { thoughts: 4, typicalLength: 3, stagesToFinal: 4 });
  });

  it('full: the reply as built', () => {
    const full = reply();
    assert.equal(shapeReply(full, 'full', told).reply, full);
  });
});

describe('engine.shapeReplyFor', () => {
  it("follows the session's own level over the server's, and forgets what a connection was told on resume", () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const first = engine.process('c', { thought: 'a', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true });
    assert.ok(first.ok);
    assert.equal(engine.shapeReplyFor('c', first.reply).sessionId, first.reply.sessionId);
    const second = engine.process('c', { thought: 'b', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true });
    assert.ok(second.ok);
    assert.equal(engine.shapeReplyFor('c', second.reply).sessionId, undefined);
    assert.equal(engine.shapeReplyFor('c', second.reply, () => 'full').sessionId, first.reply.sessionId);
    engine.setReplyDetail(first.reply.sessionId, 'standard');
    assert.equal(engine.shapeReplyFor('c', second.reply, 'compact').sessionId, first.reply.sessionId);
    engine.setReplyDetail(first.reply.sessionId, undefined);
    assert.equal(engine.shapeReplyFor('c', second.reply).sessionId, undefined);
    engine.resumeSession('c', first.reply.sessionId);
    assert.equal(engine.shapeReplyFor('c', second.reply).sessionId, first.reply.sessionId);
  });
});

describe('thoughtExplorer.replyDetail', () => {
  it('reads a level, and anything else as compact', () => {
    const source = (value: unknown) => ({ get: <T>(key: string) => (key === 'replyDetail' ? (value as T) : undefined) });
    assert.equal(replyDetailSetting(source('full')), 'full');
    assert.equal(replyDetailSetting(source('standard')), 'standard');
    assert.equal(replyDetailSetting(source(undefined)), 'compact');
    assert.equal(replyDetailSetting(source('verbose')), 'compact');
  });
});
