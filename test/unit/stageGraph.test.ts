// Specification of the stage graph diagram: the plain strategy flowchart and the session flowchart (visited stages,
// current stage, transition counts, counting since a strategy switch), stable node ids, and Mermaid itself accepting
// the graph of each of the twelve strategies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { mermaidId } from '../../src/diagrams/mermaidText';
import { edgeKey, stageEdgeId, stageGraphSource, stageGraphState, stageNodeId, strategyGraphSource } from '../../src/diagrams/stageGraph';
import { stageWords } from '../../src/diagrams/thoughtGraph';
import { STRATEGIES, findStrategy } from '../../src/engine/strategies/catalog';
import { parseMermaid } from '../support/mermaidParse';

/** The session's graph with its strategy from the catalog, as exports and resources draw it. */
function sessionGraphSource(snapshot: SessionSnapshot): string {
  return stageGraphSource(snapshot, findStrategy(snapshot.meta.strategy));
}

function sessionThrough(strategy: string, stages: (string | { strategy: string; stage?: string })[]): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  let id = '';
  stages.forEach((step, index) => {
    const args = typeof step === 'string' ? { stage: step } : step;
    const outcome = engine.process('graph', {
      thought: `t${index + 1}`,
      thoughtNumber: index + 1,
      totalThoughts: stages.length,
      nextThoughtNeeded: true,
      strategy,
      ...args,
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    id = outcome.reply.sessionId;
    strategy = outcome.reply.strategy;
  });
  const snapshot = engine.getSession(id);
  assert.ok(snapshot);
  return snapshot;
}

/** The line that declares a node, whatever its shape. */
function nodeLine(source: string, stage: string): string {
  const line = source
    .split('\n')
    .find(
      (candidate) =>
        candidate.trim().startsWith(`${stageNodeId(stage)}(`) ||
        candidate.trim().startsWith(`${stageNodeId(stage)}[`) ||
        candidate.trim().startsWith(`${stageNodeId(stage)}{`),
    );
  assert.ok(line, `no node for ${stage}`);
  return line;
}

function classOf(source: string, stage: string): string | undefined {
  for (const line of source.split('\n')) {
    const match = /^\s*class (\S+) (\w+)$/.exec(line);
    if (match && match[1].split(',').includes(stageNodeId(stage))) return match[2];
  }
  return undefined;
}

function edgeLine(source: string, from: string, to: string): string {
  const line = source.split('\n').find((candidate) => candidate.includes(` ${stageEdgeId(from, to)}@`));
  assert.ok(line, `no edge ${from} -> ${to}`);
  return line;
}

describe('strategyGraphSource', () => {
  it('draws every stage with a stable id and every transition of the table, nothing else', () => {
    for (const strategy of STRATEGIES) {
      const source = strategyGraphSource(strategy);
      assert.ok(source.startsWith('flowchart TD\n'));
      for (const stage of strategy.stages) {
        assert.equal(stageNodeId(stage.name), mermaidId('s', stage.name));
        assert.ok(nodeLine(source, stage.name).includes(`"${stageWords(stage.name)}"`), 'the stage read as words');
      }
      const edges = source.split('\n').filter((line) => line.includes('@-->'));
      const expected = Object.values(strategy.transitions).reduce((sum, targets) => sum + targets.length, 0);
      assert.equal(edges.length, expected, strategy.name);
      for (const [from, targets] of Object.entries(strategy.transitions)) {
        for (const to of targets)
          assert.match(edgeLine(source, from, to), new RegExp(`^  ${stageNodeId(from)} \\S+@--> ${stageNodeId(to)}$`));
      }
      assert.doesNotMatch(source, /^\s*class /m, 'the plain graph carries no session state');
    }
  });

  it('shapes start and end as stadiums and decision points as hexagons', () => {
    const react = findStrategy('react');
    assert.ok(react);
    const source = strategyGraphSource(react);
    assert.equal(nodeLine(source, 'problem_reception').trim(), `${stageNodeId('problem_reception')}(["problem reception"])`);
    assert.equal(nodeLine(source, 'final_response').trim(), `${stageNodeId('final_response')}(["final response"])`);
    assert.equal(nodeLine(source, 'evaluation_checkpoint').trim(), `${stageNodeId('evaluation_checkpoint')}{{"evaluation checkpoint"}}`);
    assert.equal(nodeLine(source, 'action_planning').trim(), `${stageNodeId('action_planning')}["action planning"]`);
  });
});

describe('stageGraphSource and stageGraphState', () => {
  const loop = ['action_planning', 'action_execution', 'observation_reception', 'reasoning_update', 'evaluation_checkpoint'];
  const react = sessionThrough('react', ['problem_reception', 'initial_reasoning', ...loop, ...loop, ...loop, ...loop, 'action_planning']);

  it('computes visits, transition counts and the current stage', () => {
    const state = stageGraphState(react);
    assert.equal(state.strategy, 'react');
    assert.equal(state.current, 'action_planning');
    assert.equal(state.visits.action_planning, 5);
    assert.equal(state.visits.problem_reception, 1);
    assert.equal(state.visits.solution_formulation, undefined);
    assert.equal(state.edgeCounts[edgeKey('evaluation_checkpoint', 'action_planning')], 4);
    assert.equal(state.edgeCounts[edgeKey('action_planning', 'action_execution')], 4);
    assert.equal(state.sinceSeq, 0);
  });

  it('marks visited, current and unvisited stages and labels taken transitions with their count', () => {
    const source = sessionGraphSource(react);
    assert.equal(classOf(source, 'action_planning'), 'current');
    assert.equal(classOf(source, 'reasoning_update'), 'visited');
    assert.equal(classOf(source, 'solution_formulation'), 'unvisited');
    assert.equal(classOf(source, 'final_response'), 'unvisited');
    assert.match(source, /^\s*classDef visited /m);
    assert.match(source, /^\s*classDef current /m);
    assert.match(source, /^\s*classDef unvisited /m);
    // ×4 as a Mermaid entity code, so no raw non-ASCII reaches the parser.
    assert.ok(edgeLine(source, 'evaluation_checkpoint', 'action_planning').includes('-->|"×4"|'));
    assert.ok(edgeLine(source, 'problem_reception', 'initial_reasoning').includes('-->|"×1"|'));
    assert.ok(edgeLine(source, 'evaluation_checkpoint', 'solution_formulation').endsWith(`@--> ${stageNodeId('solution_formulation')}`));
    assert.match(source, /^\s*linkStyle [\d,]+ stroke-width:3px$/m);
  });

  it('keeps node ids and the edge list the same as the plain graph, so highlights move without a re-render', () => {
    const strategy = findStrategy('react');
    assert.ok(strategy);
    const structure = (source: string) =>
      source
        .split('\n')
        .filter((line) => !/^\s*(class|classDef|linkStyle|%%)/.test(line))
        .map((line) => line.replace(/\|"[^"]*"\|/, '').replace(/ \(\d+\)"/, '"'));
    assert.deepEqual(structure(sessionGraphSource(react)), structure(strategyGraphSource(strategy)));
    assert.deepEqual(structure(sessionGraphSource(react)), structure(strategyGraphSource(strategy, { reserveCounts: true })));
  });

  it("writes each stage's thought count into its label (the live view reserves room for it)", () => {
    const strategy = findStrategy('react');
    assert.ok(strategy);
    const source = sessionGraphSource(react);
    const visits = stageGraphState(react).visits;
    for (const stage of strategy.stages) {
      assert.ok(source.includes(`"${stageWords(stage.name)} (${visits[stage.name] ?? 0})"`), `${stage.name} labelled with its count`);
    }
    assert.match(strategyGraphSource(strategy, { reserveCounts: true }), /"problem reception \(000\)"/);
    assert.doesNotMatch(strategyGraphSource(strategy), /\(\d+\)/);
  });

  it('after a strategy switch draws the new strategy and counts only thoughts since the switch', () => {
    const switched = sessionThrough('linear', [
      'problem_reception',
      'initial_thought_planning',
      'thought_generation',
      { strategy: 'step_back', stage: 'abstraction' },
      'principle_identification',
    ]);
    const state = stageGraphState(switched);
    assert.equal(state.strategy, 'step_back');
    assert.equal(state.sinceSeq, 3);
    assert.deepEqual(state.visits, { abstraction: 1, principle_identification: 1 });
    assert.deepEqual(state.edgeCounts, { [edgeKey('abstraction', 'principle_identification')]: 1 });
    const source = sessionGraphSource(switched);
    assert.match(source, /%% counts only thoughts since the strategy switch at seq 3/);
    assert.equal(classOf(source, 'problem_reception'), 'unvisited', 'the linear problem_reception thought does not count');
    assert.equal(classOf(source, 'principle_identification'), 'current');
    assert.doesNotMatch(source, /thought_generation/);
  });

  it('escapes an unknown strategy name from an imported session instead of drawing it raw', () => {
    const source = sessionGraphSource({ ...react, meta: { ...react.meta, strategy: 'x"]; click A call alert()' } });
    assert.doesNotMatch(source, /"\]; click/);
    assert.match(source, /Unknown strategy/);
  });
});

describe('Mermaid accepts every stage graph', () => {
  for (const strategy of STRATEGIES) {
    it(`${strategy.name}: plain and with a session's visits`, async () => {
      await parseMermaid(strategyGraphSource(strategy));
      // A session that walks the shortest way to final_response, staying twice in the first stage.
      const stages = [strategy.stages[0].name, strategy.stages[0].name];
      let current = strategy.stages[0].name;
      while (current !== 'final_response') {
        const targets = strategy.transitions[current];
        current = targets.includes('final_response') ? 'final_response' : targets[targets.length > 1 ? 1 : 0];
        stages.push(current);
        if (stages.length > 40) break;
      }
      const snapshot = sessionThrough(
        strategy.name,
        stages.filter((stage) => stage !== 'final_response'),
      );
      const source = sessionGraphSource(snapshot);
      assert.match(source, /class \S+ current/);
      await parseMermaid(source);
    });
  }

  it('the parser rejects a broken graph, so the checks above can fail', async () => {
    await assert.rejects(parseMermaid('flowchart TD\n  s_a["x"] -->'));
  });
});
