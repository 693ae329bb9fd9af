// What views and exports show of a thought's tool recommendations (`extra.qa`, written by src/recommendations): the
// step, the recommended tools with confidence, the remaining steps and a suggestion. Read defensively — `extra` comes
// from journals and imports — so a malformed value shows nothing rather than breaking a view. Plain data, no DOM.
import type { ThoughtRecord } from '../engine/model';

export interface QaToolChip {
  name: string;
  confidence: number;
  /** A capability named for want of a tool list. */
  generic: boolean;
  /** Not in the known tool list (an agent-sent name). */
  unavailable: boolean;
}

export interface QaView {
  step?: string;
  tools: QaToolChip[];
  remainingSteps: string[];
  /** The steps the agent said it had done (previousSteps), by description. */
  previousSteps: string[];
  suggestion?: string;
  toolsFrom?: string;
}

const MAX_SHOWN = 8;
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

export function qaViewOf(thought: ThoughtRecord): QaView | undefined {
  const qa = thought.extra?.qa;
  if (qa === null || typeof qa !== 'object' || Array.isArray(qa)) return undefined;
  const record = qa as Record<string, unknown>;
  const recommendation = (record.recommendation ?? {}) as Record<string, unknown>;
  const tools: QaToolChip[] = [];
  if (Array.isArray(recommendation.recommendedTools)) {
    for (const item of recommendation.recommendedTools.slice(0, MAX_SHOWN)) {
      if (item === null || typeof item !== 'object') continue;
      const tool = item as Record<string, unknown>;
      if (!isText(tool.toolName) || typeof tool.confidence !== 'number' || !Number.isFinite(tool.confidence)) continue;
      tools.push({
        name: tool.toolName,
        confidence: Math.min(1, Math.max(0, tool.confidence)),
        generic: tool.generic === true,
        unavailable: tool.unavailable === true,
      });
    }
  }
  const view: QaView = {
    tools,
    remainingSteps: Array.isArray(record.remainingSteps) ? record.remainingSteps.filter(isText).slice(0, 50) : [],
    previousSteps: Array.isArray(record.previousSteps)
      ? record.previousSteps
          .map((step: unknown) =>
            step !== null && typeof step === 'object' ? (step as Record<string, unknown>).stepDescription : undefined,
          )
          .filter(isText)
          .slice(0, 50)
      : [],
  };
  if (isText(recommendation.step)) view.step = recommendation.step;
  const suggestion = record.suggestion as Record<string, unknown> | undefined;
  if (suggestion && isText(suggestion.text)) view.suggestion = suggestion.text;
  if (isText(record.toolsFrom)) view.toolsFrom = record.toolsFrom;
  return view;
}

/** A session's QA steps for the steps strip: done, the current one, and those still to do. */
export interface QaSteps {
  done: string[];
  current: string;
  remaining: string[];
}

/**
 * The steps of a session with QA steps, from its latest thought that names a step: that step is current, its
 * remainingSteps are still to do, and the steps done are the agent's previousSteps if it sent them, else the distinct
 * steps of the thoughts before it. undefined when no thought names a step.
 */
export function qaStepsOf(thoughts: readonly ThoughtRecord[]): QaSteps | undefined {
  let latest: { index: number; view: QaView; step: string } | undefined;
  for (let index = thoughts.length - 1; index >= 0 && latest === undefined; index--) {
    if (thoughts[index].extra?.qa === undefined) continue;
    const view = qaViewOf(thoughts[index]);
    if (view?.step) latest = { index, view, step: view.step };
  }
  if (!latest) return undefined;
  let done = latest.view.previousSteps;
  if (done.length === 0) {
    const seen = new Set<string>([latest.step]);
    done = [];
    for (let index = 0; index < latest.index; index++) {
      if (thoughts[index].extra?.qa === undefined) continue;
      const step = qaViewOf(thoughts[index])?.step;
      if (step && !seen.has(step)) {
        seen.add(step);
        done.push(step);
      }
    }
  }
  return { done: done.slice(-50), current: latest.step, remaining: latest.view.remainingSteps };
}
