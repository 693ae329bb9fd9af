// Specification of the twelve reasoning strategies and their stage flow through the engine: the tables as
// docs/strategies.md states them (written out independently here), every listed transition accepted and every other
// pair refused with an error naming the current and valid next stages, multi-thought stages, loops, the worked
// examples of the source project, strategy switches, the no-stage policy, and replies that steer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkingEngine, type ThoughtReply } from '../../src/engine/engine';
import type { ListSessionsResult, SessionMeta, SessionSnapshot, SessionStore, StrategySwitch, ThoughtRecord } from '../../src/engine/model';
import { stageGraphState } from '../../src/diagrams/stageGraph';
import { STRATEGIES, findStrategy, strategyNames } from '../../src/engine/strategies/catalog';
import { strategyProblems } from '../../src/engine/strategies/graph';

/** docs/strategies.md, transcribed: stages in order, and only the transitions it lists explicitly. */
const SPEC: Record<string, { stages: string[]; listed: Record<string, string[]>; typicalLength: number }> = {
  linear: {
    stages: [
      'problem_reception',
      'initial_thought_planning',
      'thought_generation',
      'thought_evaluation',
      'thought_revision',
      'continuation_decision',
      'thought_adjustment',
      'branch_creation',
      'hypothesis_generation',
      'hypothesis_verification',
      'solution_finalization',
      'final_response',
    ],
    listed: {
      thought_evaluation: ['thought_revision', 'continuation_decision'],
      thought_revision: ['continuation_decision'],
      continuation_decision: ['thought_adjustment', 'branch_creation', 'hypothesis_generation'],
      thought_adjustment: ['thought_generation'],
      branch_creation: ['thought_generation'],
      hypothesis_generation: ['hypothesis_verification'],
      hypothesis_verification: ['solution_finalization', 'continuation_decision'],
      solution_finalization: ['final_response'],
    },
    typicalLength: 3,
  },
  chain_of_thought: {
    stages: [
      'problem_reception',
      'step_decomposition',
      'sequential_reasoning',
      'solution_formulation',
      'answer_verification',
      'final_response',
    ],
    listed: {},
    typicalLength: 5,
  },
  react: {
    stages: [
      'problem_reception',
      'initial_reasoning',
      'action_planning',
      'action_execution',
      'observation_reception',
      'reasoning_update',
      'evaluation_checkpoint',
      'solution_formulation',
      'final_response',
    ],
    listed: { evaluation_checkpoint: ['action_planning', 'solution_formulation'] },
    typicalLength: 7,
  },
  rewoo: {
    stages: [
      'problem_reception',
      'planning_phase',
      'tool_call_specification',
      'working_phase',
      'evidence_collection',
      'solving_phase',
      'final_response',
    ],
    listed: {},
    typicalLength: 6,
  },
  scratchpad: {
    stages: [
      'problem_reception',
      'scratchpad_initialization',
      'iterative_calculation',
      'state_tracking',
      'continuation_decision',
      'result_extraction',
      'final_response',
    ],
    listed: { continuation_decision: ['iterative_calculation', 'result_extraction'] },
    typicalLength: 5,
  },
  self_ask: {
    stages: [
      'problem_reception',
      'problem_decomposition',
      'sub_question_formulation',
      'sub_question_answering',
      'answer_integration',
      'completion_check',
      'solution_formulation',
      'final_response',
    ],
    listed: { completion_check: ['sub_question_formulation', 'solution_formulation'] },
    typicalLength: 8,
  },
  self_consistency: {
    stages: [
      'problem_reception',
      'multiple_path_sampling',
      'reasoning_path_execution',
      'answer_collection',
      'consistency_analysis',
      'majority_selection',
      'final_response',
    ],
    listed: {},
    typicalLength: 6,
  },
  step_back: {
    stages: [
      'problem_reception',
      'abstraction',
      'principle_identification',
      'approach_selection',
      'specific_application',
      'step_by_step_solution',
      'solution_verification',
      'final_response',
    ],
    listed: {},
    typicalLength: 4,
  },
  tree_of_thoughts: {
    stages: [
      'problem_reception',
      'approach_exploration',
      'branch_creation',
      'branch_development',
      'branch_evaluation',
      'branch_selection',
      'continuation_decision',
      'solution_formulation',
      'path_justification',
      'final_response',
    ],
    listed: { continuation_decision: ['branch_development', 'branch_creation', 'solution_formulation'] },
    typicalLength: 10,
  },
  trilemma: {
    stages: [
      'problem_reception',
      'trilemma_identification',
      'objective_initialization',
      'trade_off_evaluation',
      'satisficing_iteration',
      'equilibrium_check',
      'propagation_decision',
      'solution_refinement',
      'final_balance',
      'final_response',
    ],
    listed: {
      equilibrium_check: ['propagation_decision', 'final_balance'],
      propagation_decision: ['trade_off_evaluation', 'solution_refinement'],
      solution_refinement: ['equilibrium_check'],
      final_balance: ['final_response'],
    },
    typicalLength: 8,
  },
  system_architect: {
    stages: ['problem_reception', 'requirements_analysis', 'architecture_design', 'design_evaluation', 'final_response'],
    listed: { design_evaluation: ['architecture_design', 'final_response'] },
    // Not given by the source tables; our choice (docs/strategies.md) (see systemArchitect.ts).
    typicalLength: 6,
  },
  cyclic_reasoning: {
    stages: [
      'problem_reception',
      'approach_selection',
      'element_initialization',
      'thought_processing',
      'question_processing',
      'solution_processing',
      'cycle_evaluation',
      'approach_adjustment',
      'final_response',
    ],
    listed: {
      element_initialization: ['thought_processing', 'question_processing', 'solution_processing'],
      thought_processing: ['question_processing', 'solution_processing', 'cycle_evaluation'],
      question_processing: ['thought_processing', 'solution_processing', 'cycle_evaluation'],
      solution_processing: ['thought_processing', 'question_processing', 'cycle_evaluation'],
      cycle_evaluation: ['thought_processing', 'question_processing', 'solution_processing', 'approach_adjustment', 'final_response'],
      approach_adjustment: ['element_initialization'],
    },
    typicalLength: 9,
  },
  // The QA workflows (docs/strategies.md, "QA workflows").
  qa_version_verification: {
    stages: [
      'version_check',
      'documentation_check',
      'alternative_exploration',
      'implementation_planning',
      'validation',
      'implementation_revision',
      'final_response',
    ],
    listed: {
      documentation_check: ['implementation_planning', 'alternative_exploration'],
      alternative_exploration: ['implementation_planning'],
      validation: ['implementation_revision', 'final_response'],
      implementation_revision: ['validation'],
    },
    typicalLength: 5,
  },
  qa_syntax_validation: {
    stages: ['file_identification', 'syntax_check', 'error_fix', 'recheck', 'fix_revision', 'final_response'],
    listed: { syntax_check: ['error_fix', 'final_response'], recheck: ['fix_revision', 'final_response'], fix_revision: ['recheck'] },
    typicalLength: 4,
  },
  qa_compatibility_check: {
    stages: [
      'dependency_inventory',
      'compatibility_research',
      'combination_branch',
      'combination_choice',
      'compatibility_test',
      'choice_revision',
      'final_response',
    ],
    listed: {
      compatibility_research: ['combination_choice', 'combination_branch'],
      combination_branch: ['combination_choice'],
      compatibility_test: ['choice_revision', 'final_response'],
      choice_revision: ['compatibility_test'],
    },
    typicalLength: 5,
  },
  qa_test_workflow: {
    stages: ['test_discovery', 'test_run', 'failure_analysis', 'cause_branch', 'fix', 'rerun', 'fix_revision', 'final_response'],
    listed: {
      test_run: ['failure_analysis', 'final_response'],
      failure_analysis: ['fix', 'cause_branch'],
      cause_branch: ['fix'],
      rerun: ['fix_revision', 'final_response'],
      fix_revision: ['rerun'],
    },
    typicalLength: 6,
  },
};

/** The spec's full table: listed transitions, unlisted stages to the next one, final_response terminal. */
function specTable(name: string): Record<string, string[]> {
  const { stages, listed } = SPEC[name];
  return Object.fromEntries(stages.map((stage, index) => [stage, listed[stage] ?? (index + 1 < stages.length ? [stages[index + 1]] : [])]));
}

/** Shortest stage path from the first stage to `target` in the spec table. */
function pathTo(name: string, target: string): string[] {
  const table = specTable(name);
  const first = SPEC[name].stages[0];
  const previous = new Map<string, string | undefined>([[first, undefined]]);
  const queue = [first];
  for (let index = 0; index < queue.length; index++) {
    for (const next of table[queue[index]]) {
      if (!previous.has(next)) {
        previous.set(next, queue[index]);
        queue.push(next);
      }
    }
  }
  assert.ok(previous.has(target), `${target} unreachable in ${name}`);
  const path: string[] = [];
  for (let stage: string | undefined = target; stage !== undefined; stage = previous.get(stage)) path.unshift(stage);
  return path;
}

type Args = Record<string, unknown>;

/** The smallest SessionStore: whole snapshots in a map, enough to make the engine drop and reload sessions. */
class MemoryStore implements SessionStore {
  readonly sessions = new Map<string, SessionSnapshot>();
  createSession(meta: SessionMeta): void {
    this.sessions.set(meta.id, { meta, thoughts: [], strategySwitches: [] });
  }
  appendThought(meta: SessionMeta, thought: ThoughtRecord): void {
    const snapshot = this.sessions.get(meta.id);
    assert.ok(snapshot);
    this.sessions.set(meta.id, { ...snapshot, meta, thoughts: [...snapshot.thoughts, thought] });
  }
  updateMeta(meta: SessionMeta, strategySwitch?: StrategySwitch): void {
    const snapshot = this.sessions.get(meta.id);
    assert.ok(snapshot);
    this.sessions.set(meta.id, {
      ...snapshot,
      meta,
      strategySwitches: strategySwitch ? [...snapshot.strategySwitches, strategySwitch] : snapshot.strategySwitches,
    });
  }
  loadSession(id: string): SessionSnapshot | undefined {
    const snapshot = this.sessions.get(id);
    return snapshot && structuredClone(snapshot);
  }
  listSessions(): ListSessionsResult {
    return { sessions: [...this.sessions.values()].map((snapshot) => snapshot.meta), total: this.sessions.size };
  }
  deleteSession(id: string): boolean {
    return this.sessions.delete(id);
  }
  saveSession(snapshot: SessionSnapshot): void {
    this.sessions.set(snapshot.meta.id, snapshot);
  }
}

/** One engine session driven thought by thought; thought numbers count up by themselves. */
class Driver {
  readonly engine = new ThinkingEngine({ log: () => {} });
  number = 0;
  sessionId = '';
  constructor(readonly connection = 'test') {}

  send(args: Args): { ok: true; reply: ThoughtReply } | { ok: false; error: string } {
    const outcome = this.engine.process(this.connection, {
      thought: `thought ${this.number + 1}`,
      thoughtNumber: this.number + 1,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      ...args,
    });
    if (outcome.ok) {
      this.number = outcome.reply.thoughtNumber;
      this.sessionId = outcome.reply.sessionId;
    }
    return outcome;
  }

  accept(args: Args): ThoughtReply {
    const outcome = this.send(args);
    assert.ok(outcome.ok, outcome.ok ? '' : `refused ${JSON.stringify(args)}: ${outcome.error}`);
    return outcome.reply;
  }

  refuse(args: Args): string {
    const outcome = this.send(args);
    assert.ok(!outcome.ok, `accepted ${JSON.stringify(args)}`);
    return outcome.error;
  }

  /** A session of `strategy` whose current stage is `stage`, reached along the shortest path. */
  static at(strategy: string, stage: string): Driver {
    const driver = new Driver();
    for (const step of pathTo(strategy, stage)) driver.accept({ strategy, stage: step });
    return driver;
  }
}

describe('strategy catalog', () => {
  it('holds exactly the twelve strategies of docs/strategies.md and the four QA workflows, linear first', () => {
    assert.deepEqual(strategyNames(), Object.keys(SPEC));
  });

  for (const name of Object.keys(SPEC)) {
    it(`${name}: stages and transitions exactly as docs/strategies.md states them`, () => {
      const strategy = findStrategy(name);
      assert.ok(strategy);
      assert.deepEqual(
        strategy.stages.map((stage) => stage.name),
        SPEC[name].stages,
      );
      const table = Object.fromEntries(Object.entries(strategy.transitions).map(([from, to]) => [from, [...to]]));
      assert.deepEqual(table, specTable(name));
      assert.equal(strategy.typicalLength, SPEC[name].typicalLength);
      assert.deepEqual(strategyProblems(strategy), []);
    });
  }

  it('gives every stage a one-line purpose and what to write, and every strategy a description', () => {
    for (const strategy of STRATEGIES) {
      assert.ok(strategy.description.length > 20 && !strategy.description.includes('\n'), strategy.name);
      for (const stage of strategy.stages) {
        assert.match(stage.purpose, /^[a-z][^\n.]{5,60}$/, `${strategy.name}.${stage.name} purpose`);
        assert.ok(
          stage.write.length > 10 && stage.write.length < 110 && !stage.write.includes('\n'),
          `${strategy.name}.${stage.name} write`,
        );
      }
    }
  });

  it('surfaces the traits docs/strategies.md lists', () => {
    const having = (trait: keyof (typeof STRATEGIES)[number]['traits']) =>
      STRATEGIES.filter((s) => s.traits[trait])
        .map((s) => s.name)
        .sort();
    const QA = ['qa_compatibility_check', 'qa_syntax_validation', 'qa_test_workflow', 'qa_version_verification'];
    const withQa = (names: string[], qa = QA) => [...names, ...qa].sort();
    assert.deepEqual(having('usesTools'), withQa(['react', 'rewoo']));
    assert.deepEqual(
      having('branching'),
      withQa(['linear', 'tree_of_thoughts'], ['qa_compatibility_check', 'qa_test_workflow', 'qa_version_verification']),
    );
    assert.deepEqual(having('multiplePaths'), withQa(['self_consistency', 'tree_of_thoughts'], ['qa_compatibility_check']));
    assert.deepEqual(
      having('revision'),
      withQa(['cyclic_reasoning', 'linear', 'react', 'scratchpad', 'step_back', 'system_architect', 'tree_of_thoughts', 'trilemma']),
    );
    assert.deepEqual(having('stateTracking'), withQa(['cyclic_reasoning', 'react', 'rewoo', 'scratchpad', 'trilemma']));
    assert.ok(having('verification').length >= 10);
  });

  it('finds a table defect: a dead end, an unreachable stage, a non-terminal final_response', () => {
    const linear = findStrategy('linear');
    assert.ok(linear);
    const broken = { ...linear, transitions: { ...linear.transitions, solution_finalization: [], final_response: ['problem_reception'] } };
    const problems = strategyProblems(broken);
    assert.ok(
      problems.some((problem) => problem.includes('final_response is not terminal')),
      problems.join('; '),
    );
    assert.ok(
      problems.some((problem) => problem.includes('solution_finalization cannot reach')),
      problems.join('; '),
    );
  });
});

describe('stage flow: every pair of stages in every strategy', () => {
  for (const name of Object.keys(SPEC)) {
    it(`${name}: every listed transition is accepted, every other move refused with current and next stages`, () => {
      const table = specTable(name);
      const stages = SPEC[name].stages;
      let accepted = 0;
      let refused = 0;
      for (const from of stages) {
        // Refusals leave the session as it was, so one session per stage checks every invalid target.
        const driver = Driver.at(name, from);
        for (const to of stages) {
          if (to === from || table[from].includes(to)) continue;
          const error = driver.refuse({ stage: to });
          assert.ok(error.includes(`"${from}"`), `${name} ${from}->${to}: error should name the current stage: ${error}`);
          for (const next of table[from])
            assert.ok(error.includes(`"${next}"`), `${name} ${from}->${to}: error should name ${next}: ${error}`);
          refused++;
        }
        const unknown = driver.refuse({ stage: 'no_such_stage' });
        assert.match(unknown, /not a stage of strategy/);
        assert.ok(unknown.includes(`Current stage: "${from}"`), unknown);
        for (const to of table[from]) {
          const fresh = Driver.at(name, from);
          const reply = fresh.accept({ stage: to });
          assert.equal(reply.stage, to);
          accepted++;
        }
      }
      const edges = Object.values(table).reduce((sum, targets) => sum + targets.length, 0);
      assert.equal(accepted, edges);
      assert.equal(refused, stages.length * (stages.length - 1) - edges);
    });
  }

  it('lets the first thought name the first stage or one of its next stages, nothing else', () => {
    assert.equal(new Driver().accept({ strategy: 'react', stage: 'problem_reception' }).stage, 'problem_reception');
    assert.equal(new Driver().accept({ strategy: 'react', stage: 'initial_reasoning' }).stage, 'initial_reasoning');
    const error = new Driver().refuse({ strategy: 'react', stage: 'action_planning' });
    assert.match(error, /starts at "problem_reception"/);
    assert.match(error, /"initial_reasoning"/);
  });

  it('lets a session whose recorded stage is unknown to its strategy (imported data) re-enter the flow', () => {
    const driver = Driver.at('react', 'action_planning');
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    driver.engine.importSession({ ...snapshot, meta: { ...snapshot.meta, stage: 'legacy_stage' } });
    assert.equal(driver.accept({ stage: 'observation_reception' }).stage, 'observation_reception');
    assert.equal(driver.accept({}).stage, 'reasoning_update');
  });

  it('refuses anything but final_response once there, and says how to start over', () => {
    const driver = Driver.at('chain_of_thought', 'final_response');
    const error = driver.refuse({ stage: 'problem_reception' });
    assert.match(error, /"final_response", its terminal stage/);
    assert.match(error, /thoughtNumber 1/);
  });

  it('keeps a stage for several thoughts when the agent names it again', () => {
    const driver = Driver.at('chain_of_thought', 'sequential_reasoning');
    for (let step = 0; step < 3; step++) assert.equal(driver.accept({ stage: 'sequential_reasoning' }).stage, 'sequential_reasoning');
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(stageGraphState(snapshot).visits.sequential_reasoning, 4);
    assert.equal(driver.accept({ stage: 'solution_formulation' }).stage, 'solution_formulation');
  });
});

describe('react: the evaluation checkpoint loop', () => {
  it('cycles evaluation_checkpoint -> action_planning three times, then finishes', () => {
    const driver = new Driver();
    driver.accept({ strategy: 'react', stage: 'problem_reception' });
    driver.accept({ stage: 'initial_reasoning' });
    const loop = ['action_planning', 'action_execution', 'observation_reception', 'reasoning_update', 'evaluation_checkpoint'];
    for (let round = 0; round < 4; round++) {
      for (const stage of loop) assert.equal(driver.accept({ stage }).stage, stage);
    }
    driver.accept({ stage: 'solution_formulation' });
    const last = driver.accept({ stage: 'final_response', nextThoughtNeeded: false });
    assert.equal(last.nextStages.length, 0);
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.meta.status, 'complete');
    const state = stageGraphState(snapshot);
    assert.equal(state.edgeCounts['evaluation_checkpoint->action_planning'], 3);
    assert.equal(state.edgeCounts['initial_reasoning->action_planning'], 1);
    assert.equal(state.visits.action_planning, 4);
    assert.equal(state.current, 'final_response');
  });
});

describe("the source project's worked examples, replayed exactly", () => {
  it('Example 1: the ReAct cyclic flow', () => {
    const script: [string, string][] = [
      ['Initial reasoning', 'initial_reasoning'],
      ['Action planning (search for X)', 'action_planning'],
      ['Action execution', 'action_execution'],
      ['Observation reception', 'observation_reception'],
      ['Reasoning update', 'reasoning_update'],
      ['Evaluation checkpoint (need more info)', 'evaluation_checkpoint'],
      ['Action planning (search for Y)', 'action_planning'],
      ['Action execution', 'action_execution'],
      ['Observation reception', 'observation_reception'],
      ['Reasoning update', 'reasoning_update'],
      ['Evaluation checkpoint (sufficient info)', 'evaluation_checkpoint'],
      ['Solution formulation', 'solution_formulation'],
      ['Final response', 'final_response'],
    ];
    const driver = new Driver();
    script.forEach(([thought, stage], index) => {
      const last = index === script.length - 1;
      const reply = driver.accept({ thought, stage, strategy: 'react', totalThoughts: script.length, nextThoughtNeeded: !last });
      assert.equal(reply.stage, stage, `step ${index + 1}`);
      assert.deepEqual(reply.warnings, [], `step ${index + 1}`);
    });
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.meta.status, 'complete');
    assert.deepEqual(
      snapshot.thoughts.map((thought) => thought.stage),
      script.map(([, stage]) => stage),
    );
    assert.equal(stageGraphState(snapshot).edgeCounts['evaluation_checkpoint->action_planning'], 1);
  });

  it('Example 2: the Tree of Thoughts branching sequence, with approaches recorded as branches', () => {
    // [thought, stage, branch]: approaches fork from the approach_exploration thought (number 2).
    const script: [string, string, string | undefined][] = [
      ['Problem reception', 'problem_reception', undefined],
      ['Approach exploration (3 approaches)', 'approach_exploration', undefined],
      ['Branch creation (Approach A)', 'branch_creation', 'A'],
      ['Branch development (Step 1 for A)', 'branch_development', 'A'],
      ['Branch evaluation (A looks promising)', 'branch_evaluation', undefined],
      ['Branch selection (select A)', 'branch_selection', undefined],
      ['Continuation decision (explore more branches)', 'continuation_decision', undefined],
      ['Branch creation (Approach B)', 'branch_creation', 'B'],
      ['Branch development (Step 1 for B)', 'branch_development', 'B'],
      ['Branch evaluation (B less promising)', 'branch_evaluation', undefined],
      ['Branch selection (stay with A)', 'branch_selection', undefined],
      ['Continuation decision (develop A further)', 'continuation_decision', undefined],
      ['Branch development (Step 2 for A)', 'branch_development', 'A'],
      ['Branch evaluation (A still promising)', 'branch_evaluation', undefined],
      ['Branch selection (finalize A)', 'branch_selection', undefined],
      ['Continuation decision (sufficient exploration)', 'continuation_decision', undefined],
      ['Solution formulation (based on A)', 'solution_formulation', undefined],
      ['Path justification (why A was best)', 'path_justification', undefined],
      ['Final response', 'final_response', undefined],
    ];
    const driver = new Driver();
    let exploration = 0;
    script.forEach(([thought, stage, branch], index) => {
      const last = index === script.length - 1;
      const args: Args = { thought, stage, strategy: 'tree_of_thoughts', totalThoughts: script.length, nextThoughtNeeded: !last };
      if (branch) Object.assign(args, { branchId: branch, branchFromThought: exploration });
      const reply = driver.accept(args);
      if (stage === 'approach_exploration') {
        exploration = reply.thoughtNumber;
        assert.match(reply.guidance, new RegExp(`branchFromThought ${exploration}`), 'the reply says where approaches fork');
      }
      assert.equal(reply.stage, stage, `step ${index + 1}`);
      assert.deepEqual(reply.warnings, [], `step ${index + 1}`);
    });
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.meta.status, 'complete');
    assert.deepEqual(snapshot.meta.branchIds, ['A', 'B']);
    const state = stageGraphState(snapshot);
    assert.equal(state.edgeCounts['continuation_decision->branch_creation'], 1);
    assert.equal(state.edgeCounts['continuation_decision->branch_development'], 1);
    assert.equal(state.edgeCounts['continuation_decision->solution_formulation'], 1);
  });

  it('warns when a tree_of_thoughts or self_consistency branch stage gets no branch', () => {
    const tot = Driver.at('tree_of_thoughts', 'approach_exploration');
    const creation = tot.accept({ stage: 'branch_creation' });
    assert.ok(
      creation.warnings.some((warning) => /branch_creation.*branchFromThought and branchId/.test(warning)),
      creation.warnings.join(' | '),
    );
    const sc = Driver.at('self_consistency', 'multiple_path_sampling');
    const path = sc.accept({ stage: 'reasoning_path_execution' });
    assert.ok(
      path.warnings.some((warning) => /reasoning_path_execution.*branchFromThought and branchId/.test(warning)),
      path.warnings.join(' | '),
    );
    const withBranch = sc.accept({ stage: 'reasoning_path_execution', branchId: 'p1', branchFromThought: 2 });
    assert.deepEqual(withBranch.warnings, []);
  });
});

describe('strategy switch', () => {
  it('is allowed before completion, recorded, and re-enters the new strategy at the named stage', () => {
    const driver = Driver.at('linear', 'thought_generation');
    const reply = driver.accept({ strategy: 'react', stage: 'action_planning' });
    assert.equal(reply.strategy, 'react');
    assert.equal(reply.stage, 'action_planning');
    assert.deepEqual(reply.nextStages, ['action_execution']);
    assert.equal(reply.progress.thoughts, 1, 'progress counts thoughts since the switch');
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.meta.strategy, 'react');
    assert.equal(snapshot.strategySwitches.length, 1);
    assert.deepEqual({ ...snapshot.strategySwitches[0], timestamp: 0 }, { atSeq: 3, from: 'linear', to: 'react', timestamp: 0 });
    const state = stageGraphState(snapshot);
    assert.equal(state.sinceSeq, 3);
    assert.deepEqual(state.visits, { action_planning: 1 });
    // From here the react table rules.
    assert.match(driver.refuse({ stage: 'thought_evaluation' }), /not a stage of strategy "react"/);
    assert.equal(driver.accept({ stage: 'action_execution' }).stage, 'action_execution');
  });

  it('starts the new strategy at its first stage when no stage is named', () => {
    const driver = Driver.at('linear', 'initial_thought_planning');
    assert.equal(driver.accept({ strategy: 'step_back' }).stage, 'problem_reception');
    assert.equal(driver.accept({}).stage, 'abstraction');
  });

  it('records nothing when the switching thought is refused', () => {
    const driver = Driver.at('linear', 'thought_generation');
    assert.match(driver.refuse({ strategy: 'react', stage: 'no_such_stage' }), /not a stage of strategy "react"/);
    const snapshot = driver.engine.getSession(driver.sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.meta.strategy, 'linear');
    assert.deepEqual(snapshot.strategySwitches, []);
    assert.equal(driver.accept({}).stage, 'thought_evaluation');
  });

  it('survives leaving memory: a reloaded switched session continues in the new strategy', () => {
    const store = new MemoryStore();
    const engine = new ThinkingEngine({ log: () => {}, store, limits: { maxSessionsInMemory: 1 } });
    const send = (connection: string, args: Args) => {
      const outcome = engine.process(connection, { thought: 'x', totalThoughts: 5, nextThoughtNeeded: true, ...args });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      return outcome.reply;
    };
    const id = send('a', { thoughtNumber: 1, strategy: 'linear' }).sessionId;
    send('a', { thoughtNumber: 2, stage: 'initial_thought_planning' });
    send('a', { thoughtNumber: 3, strategy: 'chain_of_thought', stage: 'step_decomposition' });
    send('a', { thoughtNumber: 4, stage: 'sequential_reasoning' });
    send('b', { thoughtNumber: 1 }); // pushes the first session out of memory
    const reloaded = send('c', { thoughtNumber: 5, sessionId: id });
    assert.equal(reloaded.strategy, 'chain_of_thought');
    assert.equal(reloaded.stage, 'solution_formulation', 'one thought in sequential_reasoning, so a thought without stage moves on');
    assert.equal(reloaded.progress.thoughts, 3);
    assert.equal(store.sessions.get(id)?.strategySwitches.length, 1);
  });

  it('refuses an unknown strategy and a switch after completion, saying what to do', () => {
    const driver = Driver.at('system_architect', 'design_evaluation');
    assert.match(driver.refuse({ strategy: 'no_such' }), /Invalid strategy: got "no_such"; expected one of linear, chain_of_thought/);
    driver.accept({ stage: 'final_response', nextThoughtNeeded: false });
    const error = driver.refuse({ strategy: 'react' });
    assert.match(error, /complete.*only before completion/);
    assert.match(error, /thoughtNumber 1/);
  });
});

/** The stage an agent picks by following a reply: the one the guidance marks as toward final_response, if any. */
function stageFromGuidance(reply: ThoughtReply): string | undefined {
  if (reply.nextStages.length <= 1) return undefined;
  if (reply.nextStages.includes('final_response')) return 'final_response';
  const marked = /"([a-z_]+)" \([^)]*; toward final_response\)/.exec(reply.guidance);
  assert.ok(marked, `guidance should point the way forward: ${reply.guidance}`);
  return marked[1];
}

describe('a session that omits stage', () => {
  for (const name of Object.keys(SPEC)) {
    it(`${name}: is guided forward to completion by following the replies`, () => {
      const driver = new Driver();
      let reply = driver.accept({ strategy: name });
      assert.equal(reply.stage, SPEC[name].stages[0]);
      let steps = 1;
      let decisions = 0;
      while (reply.stage !== 'final_response') {
        assert.ok(steps++ < 30, `${name} did not finish: stuck at ${reply.stage}`);
        const chosen = stageFromGuidance(reply);
        // At its first decision point the agent sends a thought without stage: it stays, and is told again.
        if (chosen !== undefined && decisions++ === 0) {
          const stayed = driver.accept({});
          assert.equal(stayed.stage, reply.stage);
          assert.match(stayed.guidance, /No stage sent, so this stayed in/);
        }
        reply = driver.accept(chosen === undefined ? {} : { stage: chosen });
        if (chosen === undefined) assert.ok(reply.guidance.length > 0);
      }
      const snapshot = driver.engine.getSession(driver.sessionId);
      assert.ok(snapshot);
      assert.equal(snapshot.meta.status, 'complete');
      assert.equal(reply.guidance, 'Session complete. Start a new one with thoughtNumber 1.');
    });
  }

  it('sends a revision to the revision stage when it is next, and otherwise keeps the stage', () => {
    const linear = Driver.at('linear', 'thought_evaluation');
    const revision = linear.accept({ isRevision: true, revisesThought: 3 });
    assert.equal(revision.stage, 'thought_revision');
    assert.deepEqual(revision.warnings, []);
    assert.equal(linear.accept({ isRevision: true, revisesThought: 2 }).stage, 'thought_revision', 'a second revision stays');
    const react = Driver.at('react', 'observation_reception');
    assert.equal(react.accept({ isRevision: true, revisesThought: 2 }).stage, 'observation_reception');
  });

  it('finishes at final_response when nextThoughtNeeded is false and final_response is next', () => {
    const driver = Driver.at('system_architect', 'design_evaluation');
    const reply = driver.accept({ nextThoughtNeeded: false });
    assert.equal(reply.stage, 'final_response');
    assert.deepEqual(reply.warnings, []);
  });

  it('ending a session before final_response is no warning: the guidance says where it ended', () => {
    const driver = Driver.at('react', 'action_planning');
    const reply = driver.accept({ nextThoughtNeeded: false });
    assert.deepEqual(reply.warnings, []);
    assert.notEqual(reply.stage, 'final_response');
    assert.equal(
      reply.guidance,
      `Session complete, ended in "${reply.stage}" before final_response. Start a new one with thoughtNumber 1.`,
    );
  });

  it('routes tree_of_thoughts branch thoughts: a new branch to branch_creation, a known one to branch_development', () => {
    const driver = Driver.at('tree_of_thoughts', 'continuation_decision');
    // Thought numbers 1..7; the walk passed through approach_exploration at thought 2.
    assert.equal(driver.accept({ branchId: 'C', branchFromThought: 2 }).stage, 'branch_creation');
    assert.equal(driver.accept({ branchId: 'C', branchFromThought: 2 }).stage, 'branch_development');
    assert.equal(
      driver.accept({ branchId: 'C', branchFromThought: 2 }).stage,
      'branch_development',
      'developing a branch takes several thoughts',
    );
  });
});

describe('replies that steer', () => {
  it('names the only next stage with its purpose and what to write there', () => {
    const reply = new Driver().accept({ strategy: 'react', stage: 'problem_reception' });
    assert.deepEqual(reply.nextStages, ['initial_reasoning']);
    assert.match(reply.guidance, /^Next stage "initial_reasoning" \(reason about what is needed\): /);
    assert.deepEqual(reply.progress, { thoughts: 1, typicalLength: 7, stagesToFinal: 8 });
  });

  it('lists every choice with its purpose at a decision point, and nudges where the strategy calls for it', () => {
    const reply = Driver.at('linear', 'thought_evaluation').engine.process('test', {
      thought: 'again',
      thoughtNumber: 5,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      stage: 'thought_evaluation',
    });
    assert.ok(reply.ok);
    assert.equal(
      reply.reply.guidance,
      'Choose the next stage: "thought_revision" (correct an earlier thought) or "continuation_decision" (decide how to go on; toward final_response). ' +
        // The move named with the evaluated thought: the one before the evaluation began.
        'If thought 3 was wrong, revise it: stage thought_revision, isRevision true, revisesThought 3.',
    );
    assert.equal(reply.reply.progress.stagesToFinal, 5);
  });

  it('names the concrete move: branch from the decision thought, revise the thought a test judged', () => {
    const decision = Driver.at('linear', 'continuation_decision');
    const atDecision = decision.accept({ stage: 'continuation_decision' });
    const n = atDecision.thoughtNumber;
    assert.ok(
      atDecision.guidance.endsWith(`branch from thought ${n}: stage branch_creation, branchFromThought ${n}, a new branchId.`),
      atDecision.guidance,
    );
    // qa_test_workflow: a rerun judges the fix, the thought just before the rerun began.
    const rerun = Driver.at('qa_test_workflow', 'rerun');
    const fix = rerun.number - 1;
    assert.match(rerun.accept({ stage: 'rerun' }).guidance, new RegExp(`revise the fix: isRevision true, revisesThought ${fix}\\.`));
  });

  it('offers to stay in a stage that usually takes several thoughts', () => {
    const reply = Driver.at('chain_of_thought', 'step_decomposition').accept({ stage: 'sequential_reasoning' });
    assert.match(reply.guidance, /^Next stage "solution_formulation" .* Or send stage "sequential_reasoning" again for the next step\.$/);
    const path = Driver.at('self_consistency', 'multiple_path_sampling').accept({
      stage: 'reasoning_path_execution',
      branchId: 'p1',
      branchFromThought: 2,
    });
    assert.match(path.guidance, /Or send stage "reasoning_path_execution" again for the next path \(its own branchId\)\./);
  });

  it('shortens the reminder when an agent keeps sending no stage at a decision point', () => {
    const driver = Driver.at('scratchpad', 'continuation_decision');
    assert.match(driver.accept({}).guidance, /^No stage sent, so this stayed in "continuation_decision"; choose the next stage: /);
    const third = driver.accept({});
    assert.equal(third.stage, 'continuation_decision');
    assert.match(
      third.guidance,
      /^Still in "continuation_decision" \(no stage sent\); to move on, send stage "result_extraction" or another of nextStages\./,
    );
  });

  it('stops the revise nudge once the session has a revision', () => {
    const driver = Driver.at('react', 'evaluation_checkpoint');
    driver.accept({ isRevision: true, revisesThought: 2 });
    const reply = driver.accept({ stage: 'evaluation_checkpoint' });
    assert.doesNotMatch(reply.guidance, /revise/);
  });

  it('stays short: no reply of a full react session exceeds 700 characters of JSON', () => {
    const driver = new Driver();
    for (const stage of SPEC.react.stages) {
      const reply = driver.accept({ strategy: 'react', stage, nextThoughtNeeded: stage !== 'final_response' });
      assert.ok(JSON.stringify(reply).length <= 700, `${stage}: ${JSON.stringify(reply).length}`);
    }
  });
});
