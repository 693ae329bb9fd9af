// The stage graph counts visits and transitions by the agent's stage names: names that are also Object.prototype
// members ("__proto__", "constructor", "toString") are stages like any other, counted and drawn as such.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine } from '../../src/engine/engine';
import { edgeKey, stageGraphSource, stageGraphState } from '../../src/diagrams/stageGraph';

const NAMES = ['__proto__', 'constructor', 'toString'];

function sessionWithStages(stages: string[]) {
  const engine = new ThinkingEngine({ log: () => {} });
  let sessionId: string | undefined;
  stages.forEach((_, index) => {
    const outcome = engine.process('c', {
      thought: `t${index + 1}`,
      thoughtNumber: index + 1,
      totalThoughts: stages.length,
      nextThoughtNeeded: index + 1 < stages.length,
      ...(sessionId ? { sessionId } : {}),
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    sessionId = outcome.reply.sessionId;
  });
  const snapshot = engine.getSession(sessionId as string);
  assert.ok(snapshot);
  // The agent's own stage names, as a journal written by any client may hold them.
  return { ...snapshot, thoughts: snapshot.thoughts.map((thought, index) => ({ ...thought, stage: stages[index] })) };
}

describe('stage graph with prototype-like stage names', () => {
  it('counts visits and transitions of "__proto__", "constructor" and "toString"', () => {
    const snapshot = sessionWithStages([...NAMES, '__proto__', 'constructor']);
    const state = stageGraphState(snapshot);
    assert.deepEqual(Object.entries(state.visits).sort(), [
      ['__proto__', 2],
      ['constructor', 2],
      ['toString', 1],
    ]);
    assert.equal(Object.getOwnPropertyDescriptor(state.edgeCounts, edgeKey('__proto__', 'constructor'))?.value, 2);
    assert.equal(Object.getOwnPropertyDescriptor(state.edgeCounts, edgeKey('toString', '__proto__'))?.value, 1);
    assert.equal(state.current, 'constructor');
  });

  it('draws a strategy whose stages carry those names, with the visits taken', () => {
    const snapshot = sessionWithStages(['__proto__', 'constructor']);
    const strategy = {
      stages: NAMES.map((name) => ({ name })),
      transitions: { ['__proto__']: ['constructor'], constructor: ['toString'], toString: [] },
    };
    // After a JSON round trip (as through postMessage) the counts have a prototype again; "toString" stays unvisited.
    const source = stageGraphSource(JSON.parse(JSON.stringify(snapshot)), strategy);
    assert.match(source, /@-->\|"[^"]*1"\|/, source);
    assert.match(source, /class \S+ unvisited/, source);
    assert.doesNotMatch(source, /function|NaN|\[object/, source);
  });
});
