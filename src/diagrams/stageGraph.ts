// The stage graph, first of the three diagrams: a strategy's stages and transitions as a Mermaid flowchart, either
// plain (resources, docs) or for a session (visited stages, the current stage, how often each transition was taken).
// Node ids are stable (`mermaidId('s', stage)`) and state lives only in the classes `visited`, `current` and
// `unvisited`, so the webview can move highlights using stageGraphState() without re-rendering.
// The strategy is passed in, never looked up: diagrams are pure text and know no catalog (the webview gets its
// strategies from the host, exports and resources from the engine's catalog).
import type { SessionSnapshot, ThoughtRecord } from '../engine/model';
import { mermaidId, mermaidLabel } from './mermaidText';
import { stageWords } from './thoughtGraph';

/**
 * What the stage graph needs of a strategy: its stages in order and its transition table. Both the engine's
 * StrategyDefinition and the explorer protocol's StrategyView have this shape.
 */
export interface StageGraphStrategy {
  stages: readonly { name: string }[];
  transitions: Readonly<Record<string, readonly string[]>>;
}

/** What the session did in its current strategy: enough to restyle a drawn stage graph. */
export interface StageGraphState {
  strategy: string;
  /** Thoughts recorded in each stage. */
  visits: Record<string, number>;
  /** Transitions taken, keyed `from->to` (see edgeKey); staying in a stage is not a transition. */
  edgeCounts: Record<string, number>;
  /** The stage of the last counted thought. */
  current: string | undefined;
  /** The first counted thought's seq: after a strategy switch only thoughts since the switch count. */
  sinceSeq: number;
}

export const STAGE_CLASSES = { visited: 'visited', current: 'current', unvisited: 'unvisited' } as const;

const CLASS_DEFS = [
  'classDef visited fill:#dbeafe,stroke:#2563eb,color:#1e3a8a',
  'classDef current fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#78350f',
  'classDef unvisited fill:#f3f4f6,stroke:#9ca3af,color:#4b5563',
];

export function stageNodeId(stage: string): string {
  return mermaidId('s', stage);
}

/** The Mermaid edge id of a transition (Mermaid 11 `id@-->` syntax), stable across renders. */
export function stageEdgeId(from: string, to: string): string {
  return mermaidId('e', `${from}->${to}`);
}

export function edgeKey(from: string, to: string): string {
  return `${from}->${to}`;
}

/** The strategy as a plain flowchart. */
export function strategyGraphSource(strategy: StageGraphStrategy, options: { reserveCounts?: boolean } = {}): string {
  return render(strategy, undefined, 'fixed', options.reserveCounts === true);
}

/** A stage node's label, the stage read as words, with how many thoughts the session wrote in it: `reasoning update (3)`. */
export function stageCountLabel(stage: string, count: number | string): string {
  return `${stageWords(stage)} (${count})`;
}

/** What a reserved label holds until the live view writes the real count in (room for three digits). */
const COUNT_PLACEHOLDER = '000';

/**
 * The session's current strategy (`strategy`, the definition of `snapshot.meta.strategy`) with its visits drawn.
 * After a strategy switch only the thoughts since the last switch are counted: the earlier ones belong to another
 * strategy's graph. Without a definition (a name this build does not know) the graph says so.
 */
export function stageGraphSource(
  snapshot: SessionSnapshot,
  strategy: StageGraphStrategy | undefined,
  /** `scheme`: the classes carry no colours, the reader's page colours them (diagramSchemeCss, the HTML export). */
  colours: 'fixed' | 'scheme' = 'fixed',
): string {
  if (!strategy) return `flowchart TD\n  ${mermaidId('x', 'unknown')}["${mermaidLabel(`Unknown strategy: ${snapshot.meta.strategy}`)}"]\n`;
  return render(strategy, stageGraphState(snapshot), colours);
}

/** Visits, transition counts and the current stage of the session's current strategy. Pure; O(thoughts). */
export function stageGraphState(snapshot: SessionSnapshot): StageGraphState {
  const sinceSeq = snapshot.strategySwitches[snapshot.strategySwitches.length - 1]?.atSeq ?? 0;
  const counted = snapshot.thoughts.filter((thought) => thought.seq >= sinceSeq);
  return { strategy: snapshot.meta.strategy, sinceSeq, ...countStages(counted) };
}

function countStages(thoughts: readonly ThoughtRecord[]): Pick<StageGraphState, 'visits' | 'edgeCounts' | 'current'> {
  // Keyed by the agent's stage names: counted in maps, so "__proto__" or "constructor" is a stage like any other
  // (Object.fromEntries then defines them as own properties).
  const visits = new Map<string, number>();
  const edgeCounts = new Map<string, number>();
  let previous: string | undefined;
  for (const thought of thoughts) {
    const stage = thought.stage;
    if (stage === undefined) continue;
    visits.set(stage, (visits.get(stage) ?? 0) + 1);
    if (previous !== undefined && previous !== stage) {
      const key = edgeKey(previous, stage);
      edgeCounts.set(key, (edgeCounts.get(key) ?? 0) + 1);
    }
    previous = stage;
  }
  return { visits: Object.fromEntries(visits), edgeCounts: Object.fromEntries(edgeCounts), current: previous };
}

/** A count by name; own keys only, as a state that came through postMessage or JSON has a prototype again. */
function countOf(counts: Readonly<Record<string, number>>, key: string): number {
  return Object.hasOwn(counts, key) ? counts[key] : 0;
}

function render(
  strategy: StageGraphStrategy,
  state: StageGraphState | undefined,
  colours: 'fixed' | 'scheme' = 'fixed',
  reserveCounts = false,
): string {
  const lines = ['flowchart TD'];
  if (state && state.sinceSeq > 0) lines.push(`  %% counts only thoughts since the strategy switch at seq ${state.sinceSeq}`);
  const first = strategy.stages[0].name;
  const last = strategy.stages[strategy.stages.length - 1].name;
  for (const stage of strategy.stages) {
    // With the session's counts, or room for them (the live view writes them into the drawn labels).
    const count = state ? countOf(state.visits, stage.name) : reserveCounts ? COUNT_PLACEHOLDER : undefined;
    const label = mermaidLabel(count === undefined ? stageWords(stage.name) : stageCountLabel(stage.name, count));
    const id = stageNodeId(stage.name);
    // Start and end as stadiums, decision points as hexagons: the shape tells the flow before any colour does.
    if (stage.name === first || stage.name === last) lines.push(`  ${id}(["${label}"])`);
    else if ((strategy.transitions[stage.name] ?? []).length > 1) lines.push(`  ${id}{{"${label}"}}`);
    else lines.push(`  ${id}["${label}"]`);
  }
  const taken: number[] = [];
  let index = 0;
  for (const stage of strategy.stages) {
    for (const target of strategy.transitions[stage.name] ?? []) {
      const count = state ? countOf(state.edgeCounts, edgeKey(stage.name, target)) : 0;
      const arrow = count > 0 ? `-->|"${mermaidLabel(`×${count}`)}"|` : '-->';
      lines.push(`  ${stageNodeId(stage.name)} ${stageEdgeId(stage.name, target)}@${arrow} ${stageNodeId(target)}`);
      if (count > 0) taken.push(index);
      index++;
    }
  }
  if (state) {
    // Mermaid writes classDef colours inline on each shape, where no page style can reach them.
    if (colours === 'fixed') lines.push(...CLASS_DEFS.map((line) => `  ${line}`));
    const byClass: Record<string, string[]> = { visited: [], current: [], unvisited: [] };
    for (const stage of strategy.stages) {
      const name = stage.name === state.current ? 'current' : countOf(state.visits, stage.name) > 0 ? 'visited' : 'unvisited';
      byClass[name].push(stageNodeId(stage.name));
    }
    for (const [name, ids] of Object.entries(byClass)) if (ids.length > 0) lines.push(`  class ${ids.join(',')} ${name}`);
    if (taken.length > 0) lines.push(`  linkStyle ${taken.join(',')} stroke-width:3px`);
  }
  return `${lines.join('\n')}\n`;
}
