// The explorer's Insights tab on the wire: what the webview asks for (the shown session, a strategy and a time range)
// and what the host answers (that session's insights and the figures across sessions), with the guards each side
// uses. The shapes mirror src/engine/insights (which the webview may not import); the host assigns the engine's
// values to these types, so a drift is a compile error there.

/** The time ranges the tab offers, counted back from now on the host. */
export const INSIGHTS_RANGES = ['all', 'day', 'week', 'month'] as const;
export type InsightsRange = (typeof INSIGHTS_RANGES)[number];

export interface InsightsRequestFilter {
  range: InsightsRange;
  /** Absent: every strategy. */
  strategy?: string;
}

export interface SessionInsightsView {
  sessionId: string;
  strategy: string;
  thoughts: number;
  revisions: number;
  revisionRate: number;
  branches: number;
  branchThoughts: number;
  branchRate: number;
  stagesVisited: string[];
  loops: number;
  durationMs: number;
  timeBetweenThoughts?: { medianMs: number; maxMs: number };
  feedback: { given: number; delivered: number; applied: number };
  tokens?: { thoughts: number; input: number; output: number; estimated: boolean };
}

export interface GroupFiguresView {
  sessions: number;
  thoughts: number;
  medianLength: number;
  revisionRate: number;
  branchRate: number;
  abandoned: number;
}

export interface OverallInsightsView extends GroupFiguresView {
  byStrategy: (GroupFiguresView & { strategy: string })[];
}

export interface InsightsMessage {
  type: 'insights';
  filter: InsightsRequestFilter;
  /** The shown session's insights, when the request named it and it exists. */
  session?: SessionInsightsView;
  overall: OverallInsightsView;
  /** Every strategy with saved sessions, for the strategy filter. */
  strategies: string[];
}

export interface InsightsRequestMessage {
  type: 'requestInsights';
  sessionId?: string;
  filter: InsightsRequestFilter;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Strategy names are short identifiers; a longer one is refused rather than drawn. */
const MAX_STRATEGY_LENGTH = 200;

function isStrategyName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_STRATEGY_LENGTH;
}

export function isInsightsFilter(value: unknown): value is InsightsRequestFilter {
  return (
    isObject(value) &&
    (INSIGHTS_RANGES as readonly unknown[]).includes(value.range) &&
    (value.strategy === undefined || isStrategyName(value.strategy))
  );
}

/** A webview's request: untrusted input for the host. */
export function isInsightsRequest(value: Fields): boolean {
  return (value.sessionId === undefined || typeof value.sessionId === 'string') && isInsightsFilter(value.filter);
}

function isGroupFigures(value: unknown): boolean {
  return (
    isObject(value) &&
    isCount(value.sessions) &&
    isCount(value.thoughts) &&
    isCount(value.medianLength) &&
    isCount(value.revisionRate) &&
    isCount(value.branchRate) &&
    isCount(value.abandoned)
  );
}

function isSessionInsights(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.sessionId === 'string' &&
    isCount(value.thoughts) &&
    isCount(value.revisions) &&
    isCount(value.branches) &&
    Array.isArray(value.stagesVisited) &&
    value.stagesVisited.every((stage) => typeof stage === 'string') &&
    isObject(value.feedback)
  );
}

/** The host's answer, checked by the webview before it draws anything. */
export function isInsightsMessage(value: Fields): boolean {
  return (
    isInsightsFilter(value.filter) &&
    (value.session === undefined || isSessionInsights(value.session)) &&
    isGroupFigures(value.overall) &&
    Array.isArray((value.overall as Fields).byStrategy) &&
    ((value.overall as Fields).byStrategy as unknown[]).every(
      (group) => isGroupFigures(group) && isStrategyName((group as Fields).strategy),
    ) &&
    Array.isArray(value.strategies) &&
    value.strategies.every(isStrategyName)
  );
}
