// Turns an engine snapshot into the explorer protocol's session view (meta, thoughts, and the strategy's stages and
// transitions). Pure, no vscode import, so the Chromium tests and the benchmark build the same messages as the host.
import type { SessionSnapshot } from '../../engine/model';
import { findStrategy } from '../../engine/strategies/catalog';
import type { SessionView, StrategyView } from '../../shared/protocol';

export function toSessionView(snapshot: SessionSnapshot): SessionView {
  return {
    meta: snapshot.meta,
    thoughts: snapshot.thoughts,
    strategySwitches: snapshot.strategySwitches,
    strategy: strategyView(snapshot.meta.strategy),
  };
}

/** The strategy as the explorer needs it; undefined for a name this build does not know (e.g. an imported file). */
export function strategyView(name: string): StrategyView | undefined {
  const strategy = findStrategy(name);
  if (!strategy) return undefined;
  return {
    name: strategy.name,
    title: strategy.title,
    stages: strategy.stages.map((stage) => ({ name: stage.name, purpose: stage.purpose })),
    transitions: { ...strategy.transitions },
  };
}
