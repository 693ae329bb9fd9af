// The explorer's Insights tab on the wire: what the webview asks for (the shown session, a strategy and a time range)
// and what the host answers (that session's insights and the figures across sessions), with the schemas each side
// uses. The shapes mirror src/engine/insights (which the webview may not import); the host assigns the engine's
// values to these types, so a drift is a compile error there.
import * as z from 'zod/mini';
import { count, shortText } from './wireSchemas';

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

/** Strategy names are short identifiers; a longer one is refused rather than drawn. */
const MAX_STRATEGY_LENGTH = 200;
const strategyName = () => z.string().check(z.minLength(1), z.maxLength(MAX_STRATEGY_LENGTH));

const insightsFilterSchema = z.object({
  range: z.enum(INSIGHTS_RANGES),
  strategy: z.optional(strategyName()),
});

/** A webview's request: untrusted input for the host. */
export const insightsRequestSchema = z.object({
  type: z.literal('requestInsights'),
  requestId: shortText(),
  sessionId: z.optional(z.string()),
  filter: insightsFilterSchema,
});
export type InsightsRequestMessage = z.infer<typeof insightsRequestSchema>;

const groupFiguresShape = {
  sessions: count(),
  thoughts: count(),
  medianLength: count(),
  revisionRate: count(),
  branchRate: count(),
  abandoned: count(),
};
const sessionInsightsShape = z.looseObject({
  sessionId: z.string(),
  thoughts: count(),
  revisions: count(),
  branches: count(),
  stagesVisited: z.array(z.string()),
  feedback: z.looseObject({}),
});

const overallShape = z.looseObject({
  ...groupFiguresShape,
  byStrategy: z.array(z.looseObject({ ...groupFiguresShape, strategy: strategyName() })),
});

/** The host's answer, checked by the webview before it draws anything. */
export const insightsMessageSchema = z.object({
  type: z.literal('insights'),
  /** The `requestInsights` this answers. */
  requestId: shortText(),
  filter: insightsFilterSchema,
  /** The shown session's insights, when the request named it and it exists. */
  session: z.optional(z.custom<SessionInsightsView>((value) => sessionInsightsShape.safeParse(value).success)),
  overall: z.custom<OverallInsightsView>((value) => overallShape.safeParse(value).success),
  /** Every strategy with saved sessions, for the strategy filter. */
  strategies: z.array(strategyName()),
});
export type InsightsMessage = z.infer<typeof insightsMessageSchema>;
/** The figures of an answer, before the host puts the request's id on it. */
export type InsightsFigures = Omit<InsightsMessage, 'requestId'>;
