// Turns an engine snapshot into the explorer protocol's session view (meta, thoughts, and the stages and transitions
// of its strategies). The host is the webview's one source of strategies: the webview bundles no catalog. Pure, no
// vscode import, so the Chromium tests and the benchmark build the same messages as the host.
import type { SessionSnapshot } from '../../engine/model';
import { findStrategy } from '../../engine/strategies/catalog';
import type { SessionView, StrategyView } from '../../shared/protocol';

export function toSessionView(snapshot: SessionSnapshot): SessionView {
  const view: SessionView = {
    meta: snapshot.meta,
    thoughts: snapshot.thoughts,
    strategySwitches: snapshot.strategySwitches,
    strategy: strategyView(snapshot.meta.strategy),
  };
  const earlierNames = new Set(snapshot.strategySwitches.map((change) => change.from));
  earlierNames.delete(snapshot.meta.strategy);
  const earlier = [...earlierNames].flatMap((name) => strategyView(name) ?? []);
  if (earlier.length > 0) view.earlierStrategies = earlier;
  if (snapshot.feedback !== undefined && snapshot.feedback.length > 0) view.feedback = snapshot.feedback;
  return view;
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
