// The host ↔ explorer-webview protocol: every message either side may post, as zod schemas (the types are inferred
// from them), plus the parsers each side runs on what it receives. Both the extension host (src/extension/explorer)
// and the webview (webview/) import this one module, so a message shape can never drift between them.
//
// Flow: the webview posts `ready`; the host answers with a full `snapshot`, then sends deltas (`thoughtAdded`,
// `sessionUpdated`). When the view becomes visible again the webview is new (no retainContextWhenHidden), says
// `ready` again and gets a fresh snapshot. Messages that expect an answer carry a `requestId`, and the answer the same
// id (REQUESTS below; matched by PendingRequests in requests.ts).
import * as z from 'zod/mini';
import { DIAGRAM_KINDS } from '../engine/browserSafe/diagramKinds';
import type { SessionMeta, StrategySwitch, ThoughtRecord } from '../engine/model';
import type { DeliberationSummary } from './deliberationView';
import { deliberationStateSchema, stopDeliberationSchema } from './deliberationProtocol';
import { feedbackChangedSchema, feedbackRecordSchema, feedbackResultSchema, giveFeedbackSchema } from './feedbackProtocol';
import { insightsMessageSchema, insightsRequestSchema } from './insightsView';
import { boundedArray, describeRefusal, seq, shortText } from './wireSchemas';

export type { BudgetUse, DeliberationCallStatus, DeliberationSummary, DeliberationThoughtFacts, HatColour } from './deliberationView';

/** Which of VS Code's four theme kinds is active; mirrors the body classes VS Code sets on a webview. */
const themeKindSchema = z.enum(['light', 'dark', 'highContrast', 'highContrastLight']);
export type ThemeKind = z.infer<typeof themeKindSchema>;

/** The replay speeds offered, as multiples of the base pace. */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8] as const;
export const MIN_REPLAY_SPEED = 0.5;
export const MAX_REPLAY_SPEED = 8;

/** Longest SVG text the host accepts from a webview (far above any diagram we draw; refuses a runaway payload). */
export const MAX_SVG_LENGTH = 50_000_000;
/** Longest error text a webview may report, and how many errors one answer may hold. */
const MAX_ERROR_LENGTH = 10_000;
const MAX_ERRORS = 100;
/** A session title in an offer to switch (titles are cut for display long before this). */
const MAX_OFFER_TITLE_LENGTH = 1_000;

// ---------------------------------------------------------------------------------------------------------------
// What a message carries. The engine's own shapes (meta, thoughts) are checked for the fields the explorer relies on
// and passed on whole: their types stay the engine model's.

const metaShape = z.looseObject({ id: z.string(), strategy: z.string(), status: z.string(), thoughtCount: z.number() });
const metaSchema = z.custom<SessionMeta>((value) => metaShape.safeParse(value).success);
const thoughtShape = z.looseObject({ seq: seq(), thought: z.string(), thoughtNumber: z.number() });
const thoughtSchema = z.custom<ThoughtRecord>((value) => thoughtShape.safeParse(value).success);
/** A session's thoughts and switches are checked as lists only: a snapshot may hold thousands, sent by the host. */
const thoughtListSchema = z.custom<ThoughtRecord[]>((value) => Array.isArray(value));
const switchListSchema = z.custom<StrategySwitch[]>((value) => Array.isArray(value));

/** A strategy as the explorer needs it: stage names in order with their purpose, and the transition table. */
const strategyViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  stages: z.array(z.object({ name: z.string(), purpose: z.string() })),
  transitions: z.record(z.string(), z.readonly(z.array(z.string()))),
});
export type StrategyView = z.infer<typeof strategyViewSchema>;

/** Everything the explorer draws for one session. */
const sessionViewSchema = z.object({
  meta: metaSchema,
  thoughts: thoughtListSchema,
  strategySwitches: switchListSchema,
  /**
   * The session's current strategy, the webview's only source of strategies (it bundles no catalog). Absent only when
   * the session names a strategy this build does not know (e.g. an imported file).
   */
  strategy: z.optional(strategyViewSchema),
  /**
   * The strategies the session switched away from (each known one once), so a replay stopped before a switch draws
   * the stage graph of the strategy in force then. Absent when the session never switched.
   */
  earlierStrategies: z.optional(z.array(strategyViewSchema)),
  /**
   * A host running a deliberation in this session may send what only it knows (e.g. `running` roles, `state`); the
   * webview derives the rest from the thoughts (summarizeDeliberation) and lays these fields over it.
   */
  deliberation: z.optional(
    z.custom<Partial<DeliberationSummary>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
  ),
  /** The person's feedback on the session (feedbackProtocol.ts); absent when none. */
  feedback: z.optional(z.array(feedbackRecordSchema)),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/**
 * live: follows whichever session is being written (setting `thoughtExplorer.followLiveSession`);
 * pinned: shows one session picked by the person; replay: steps through a finished session.
 */
const explorerModeSchema = z.enum(['live', 'pinned', 'replay']);
export type ExplorerMode = z.infer<typeof explorerModeSchema>;

const diagramKindSchema = z.enum(DIAGRAM_KINDS);

/** Pre-rendered SVG text of each diagram, for exports. A diagram that failed to render is absent. */
const renderedSvgsSchema = z.partialRecord(diagramKindSchema, z.string().check(z.maxLength(MAX_SVG_LENGTH)));
export type RenderedSvgs = z.infer<typeof renderedSvgsSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Host → webview

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), mode: explorerModeSchema, session: z.nullable(sessionViewSchema) }),
  z.object({ type: z.literal('thoughtAdded'), sessionId: z.string(), meta: metaSchema, thought: thoughtSchema }),
  z.object({ type: z.literal('sessionUpdated'), meta: metaSchema, strategy: z.optional(strategyViewSchema) }),
  z.object({ type: z.literal('theme'), kind: themeKindSchema }),
  /** Starts, pauses or moves a replay; fields left out keep their value. */
  z.object({
    type: z.literal('replayState'),
    playing: z.optional(z.boolean()),
    position: z.optional(seq()),
    speed: z.optional(z.number().check(z.gte(MIN_REPLAY_SPEED), z.lte(MAX_REPLAY_SPEED))),
  }),
  /** Asks for full (unwindowed) SVGs of `session`, or of the session on screen when absent; answered by svgRendered. */
  z.object({ type: z.literal('requestSvg'), requestId: shortText(), session: z.optional(sessionViewSchema) }),
  /** Shows a diagram tab and/or selects a thought of the session on screen (fields left out stay as they are). */
  z.object({ type: z.literal('showInView'), tab: z.optional(diagramKindSchema), seq: z.optional(seq()) }),
  /**
   * Another live session started (another client, another chat) while this webview shows a session it does not leave
   * on its own (pinned, or not following): offered, never switched to; null withdraws the offer.
   */
  z.object({
    type: z.literal('liveSessionOffer'),
    session: z.nullable(z.object({ id: shortText(), title: z.string().check(z.maxLength(MAX_OFFER_TITLE_LENGTH)) })),
  }),
  insightsMessageSchema,
  deliberationStateSchema,
  feedbackResultSchema,
  feedbackChangedSchema,
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Webview → host: untrusted input for the host, every string and list bounded.

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('selectThought'), sessionId: shortText(), seq: seq() }),
  /** Sent when a delta does not fit what the webview holds (a gap), so the host re-sends the snapshot. */
  z.object({ type: z.literal('requestFullSession'), sessionId: shortText() }),
  z.object({ type: z.literal('openInPanel'), sessionId: z.optional(shortText()) }),
  /** The person took the host's liveSessionOffer: show that session here. */
  z.object({ type: z.literal('switchToSession'), sessionId: shortText() }),
  z.object({
    type: z.literal('exportSvg'),
    diagram: diagramKindSchema,
    svg: z.string().check(z.maxLength(MAX_SVG_LENGTH)),
    sessionId: z.optional(shortText()),
  }),
  z.object({ type: z.literal('renderFailed'), diagram: diagramKindSchema, message: z.string().check(z.maxLength(MAX_ERROR_LENGTH)) }),
  /** "Copy as Mermaid": the host writes the diagram's Mermaid text (as the Markdown export has it) to the clipboard. */
  z.object({ type: z.literal('copyMermaid'), diagram: diagramKindSchema, sessionId: z.optional(shortText()) }),
  z.object({
    type: z.literal('svgRendered'),
    requestId: shortText(),
    svgs: renderedSvgsSchema,
    errors: boundedArray(z.string().check(z.maxLength(MAX_ERROR_LENGTH)), MAX_ERRORS),
  }),
  /**
   * What the webview shows, sent whenever it saves its state: the host reports it in the explorer's status (the
   * in-editor reload test reads the tab a revived panel came back on from here).
   */
  z.object({
    type: z.literal('uiState'),
    sessionId: z.optional(shortText()),
    activeTab: diagramKindSchema,
    selectedSeq: z.optional(seq()),
  }),
  insightsRequestSchema,
  stopDeliberationSchema,
  giveFeedbackSchema,
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** The messages that expect an answer, and the message that answers each (with the same `requestId`). */
export const REQUESTS = { requestSvg: 'svgRendered', giveFeedback: 'feedbackResult', requestInsights: 'insights' } as const;
type RequestType = keyof typeof REQUESTS;
type AnyMessage = HostMessage | WebviewMessage;
/** The message that answers request `R`. */
export type ResponseTo<R extends RequestType> = Extract<AnyMessage, { type: (typeof REQUESTS)[R] }>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; problem: string };

/** Checks a message posted by the webview: the message as the schema reads it, or what was wrong (for a log line). */
export function parseWebviewMessage(value: unknown): Parsed<WebviewMessage> {
  const parsed = webviewMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, problem: describeRefusal(value, parsed.error) };
}

/** Checks a message posted by the host (the webview also receives messages from nowhere else, but stays strict). */
export function parseHostMessage(value: unknown): Parsed<HostMessage> {
  const parsed = hostMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, problem: describeRefusal(value, parsed.error) };
}

export function isWebviewMessage(value: unknown): value is WebviewMessage {
  return webviewMessageSchema.safeParse(value).success;
}

export function isHostMessage(value: unknown): value is HostMessage {
  return hostMessageSchema.safeParse(value).success;
}

/** For exhaustive switches: a compile error when a case is missing, a clear error if one ever arrives at run time. */
export function assertNever(value: never, what: string): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
