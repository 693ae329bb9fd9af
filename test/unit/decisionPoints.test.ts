// The rule for a decision point (src/engine/decisionPoints.ts): several next stages on entering a stage, or a finish
// that comes early by the strategy's stages or by the agent's own estimate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decisionPointOf, type DecisionPointInput } from '../../src/engine/decisionPoints';

const reply = (fields: Partial<DecisionPointInput>): DecisionPointInput => ({
  thoughtNumber: 4,
  totalThoughts: 10,
  nextThoughtNeeded: true,
  stage: 'thought_evaluation',
  nextStages: ['thought_revision', 'continuation_decision'],
  progress: { stagesToFinal: 4 },
  ...fields,
});

describe('decisionPointOf', () => {
  it('several next stages: a point on entering the stage only', () => {
    assert.deepEqual(decisionPointOf(reply({}), true), {
      kind: 'nextStage',
      key: 'stage:thought_evaluation@4',
      stage: 'thought_evaluation',
      choices: ['thought_revision', 'continuation_decision'],
    });
    assert.equal(decisionPointOf(reply({}), false), undefined);
    assert.equal(decisionPointOf(reply({ nextStages: ['thought_generation'] }), true), undefined);
    assert.equal(decisionPointOf(reply({ nextStages: [] }), true), undefined);
  });

  it('an early finish: far from final_response, or two or more planned thoughts left', () => {
    assert.equal(decisionPointOf(reply({ nextThoughtNeeded: false }), false)?.kind, 'earlyFinish');
    assert.equal(
      decisionPointOf(reply({ nextThoughtNeeded: false, progress: { stagesToFinal: 0 }, thoughtNumber: 8 }), false)?.kind,
      'earlyFinish',
    );
    assert.equal(decisionPointOf(reply({ nextThoughtNeeded: false, progress: { stagesToFinal: 1 }, thoughtNumber: 9 }), false), undefined);
    assert.equal(decisionPointOf(reply({ nextThoughtNeeded: false, progress: { stagesToFinal: 0 }, thoughtNumber: 10 }), true), undefined);
    assert.deepEqual(decisionPointOf(reply({ nextThoughtNeeded: false }), true)?.choices, ['finish', 'continue']);
  });
});
