// The stage graph of a deliberation session. The deliberation strategy lets every role follow every other (a plan
// orders roles freely), so its full graph is ~70 edges of noise. We draw the stages the session actually took and the
// transitions between them instead, following the thoughts' real parents (branches fan out from the thought they
// start at; a main-line thought after branches follows each branch's end) rather than the order calls finished in.
// The graph then reads as the plan's shape — a fan and a merge for parallel hats, a chain for a sequence, a loop for
// task cycles — and it is re-rendered only when a new stage or transition appears.
import { edgeKey, stageGraphState, type StageGraphState } from '../../src/diagrams/stageGraph';
import type { SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import type { StrategyView } from '../../src/shared/protocol';

export const DELIBERATION_STRATEGY_NAME = 'deliberation';

const isDeliberation = (snapshot: SessionSnapshot) => snapshot.meta.strategy === DELIBERATION_STRATEGY_NAME;

/** The stage graph's state; for a deliberation its transitions follow the thoughts' parents. */
export function stageGraphStateFor(snapshot: SessionSnapshot): StageGraphState {
  const state = stageGraphState(snapshot);
  if (!isDeliberation(snapshot)) return state;
  return { ...state, edgeCounts: parentEdgeCounts(snapshot.thoughts.filter((thought) => thought.seq >= state.sinceSeq)) };
}

/** The definition to draw: for a deliberation the stages and transitions taken; any other strategy as it is. */
export function stageGraphDefinition(snapshot: SessionSnapshot, definition: StrategyView | undefined): StrategyView | undefined {
  if (!definition || definition.name !== DELIBERATION_STRATEGY_NAME || !isDeliberation(snapshot)) return definition;
  const taken = new Set(snapshot.thoughts.flatMap((thought) => (thought.stage === undefined ? [] : [thought.stage])));
  const transitions: Record<string, string[]> = {};
  for (const key of Object.keys(stageGraphStateFor(snapshot).edgeCounts)) {
    const index = key.indexOf('->');
    (transitions[key.slice(0, index)] ??= []).push(key.slice(index + 2));
  }
  return { ...definition, stages: definition.stages.filter((stage) => taken.has(stage.name)), transitions };
}

/** Changes exactly when the drawn graph must change (a new stage or transition), not on every thought. */
export function definitionKey(definition: StrategyView | undefined): string {
  if (!definition) return '';
  const edges = Object.entries(definition.transitions)
    .map(([from, to]) => `${from}>${[...to].sort().join(',')}`)
    .sort()
    .join(';');
  return `${definition.name}|${definition.stages.map((stage) => stage.name).join(',')}|${edges}`;
}

/** Transition counts from each thought's parent stage(s) to its own stage (staying in a stage is not a transition). */
function parentEdgeCounts(thoughts: readonly ThoughtRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (from: string | undefined, to: string | undefined) => {
    if (from === undefined || to === undefined || from === to) return;
    const key = edgeKey(from, to);
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const byNumber = new Map<number, ThoughtRecord>();
  /** The last thought of each line (branch id, or '' for the main line), and the branches opened at each thought. */
  const lastOfLine = new Map<string, ThoughtRecord>();
  const branchesFrom = new Map<number, Set<string>>();
  for (const thought of thoughts) {
    const line = thought.branchId ?? '';
    const previous = lastOfLine.get(line);
    if (thought.branchId !== undefined && previous === undefined && thought.branchFromThought !== undefined) {
      // The first thought of a branch: its parent is the thought it branches from.
      add(byNumber.get(thought.branchFromThought)?.stage, thought.stage);
      const opened = branchesFrom.get(thought.branchFromThought) ?? new Set<string>();
      opened.add(thought.branchId);
      branchesFrom.set(thought.branchFromThought, opened);
    } else if (thought.branchId === undefined && previous !== undefined && branchesFrom.has(previous.thoughtNumber)) {
      // Back on the main line after branches: it follows where each branch ended (a parallel plan's synthesis).
      for (const branch of branchesFrom.get(previous.thoughtNumber) ?? []) add(lastOfLine.get(branch)?.stage, thought.stage);
    } else {
      add(previous?.stage, thought.stage);
    }
    byNumber.set(thought.thoughtNumber, thought);
    lastOfLine.set(line, thought);
  }
  return counts;
}
