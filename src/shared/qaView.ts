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
      tools.push({ name: tool.toolName, confidence: Math.min(1, Math.max(0, tool.confidence)), generic: tool.generic === true, unavailable: tool.unavailable === true });
    }
  }
  const view: QaView = {
    tools,
    remainingSteps: Array.isArray(record.remainingSteps) ? record.remainingSteps.filter(isText).slice(0, 50) : [],
  };
  if (isText(recommendation.step)) view.step = recommendation.step;
  const suggestion = record.suggestion as Record<string, unknown> | undefined;
  if (suggestion && isText(suggestion.text)) view.suggestion = suggestion.text;
  if (isText(record.toolsFrom)) view.toolsFrom = record.toolsFrom;
  return view;
}
