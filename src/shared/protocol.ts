// The host ↔ explorer-webview protocol: every message either side may post, as discriminated unions, plus the
// guards each side uses on what it receives. Both the extension host (src/extension/explorer) and the webview
// (webview/) import this one module, so a message shape can never drift between them.
//
// Flow: the webview posts `ready`; the host answers with a full `snapshot`, then sends deltas (`thoughtAdded`,
// `sessionUpdated`). When the view becomes visible again the webview is new (no retainContextWhenHidden), says
// `ready` again and gets a fresh snapshot.
import { isDiagramKind, type DiagramKind } from '../engine/browserSafe/diagramKinds';
import type { SessionMeta, StrategySwitch, ThoughtRecord } from '../engine/model';
import type { DeliberationSummary } from './deliberationView';

export type { BudgetUse, DeliberationCallStatus, DeliberationSummary, DeliberationThoughtFacts, HatColour } from './deliberationView';
import { isLiveDeliberationState, type DeliberationHostMessage, type DeliberationWebviewMessage } from './deliberationProtocol';
import {
  isFeedbackHostMessage,
  isFeedbackRecordShape,
  isGiveFeedbackMessage,
  type FeedbackHostMessage,
  type GiveFeedbackMessage,
} from './feedbackProtocol';
import type { FeedbackRecord } from '../engine/model';
import { isInsightsMessage, isInsightsRequest, type InsightsMessage, type InsightsRequestMessage } from './insightsView';

/** Which of VS Code's four theme kinds is active; mirrors the body classes VS Code sets on a webview. */
export type ThemeKind = 'light' | 'dark' | 'highContrast' | 'highContrastLight';

/** A strategy as the explorer needs it: stage names in order with their purpose, and the transition table. */
export interface StrategyView {
  name: string;
  title: string;
  stages: { name: string; purpose: string }[];
  transitions: Record<string, readonly string[]>;
}

/** Everything the explorer draws for one session. */
export interface SessionView {
  meta: SessionMeta;
  thoughts: ThoughtRecord[];
  strategySwitches: StrategySwitch[];
  /**
   * The session's current strategy, the webview's only source of strategies (it bundles no catalog). Absent only when
   * the session names a strategy this build does not know (e.g. an imported file).
   */
  strategy?: StrategyView;
  /**
   * The strategies the session switched away from (each known one once), so a replay stopped before a switch draws
   * the stage graph of the strategy in force then. Absent when the session never switched.
   */
  earlierStrategies?: StrategyView[];
  /**
   * A host running a deliberation in this session may send what only it knows (e.g. `running` roles, `state`); the
   * webview derives the rest from the thoughts (summarizeDeliberation) and lays these fields over it.
   */
  deliberation?: Partial<DeliberationSummary>;
  /** The person's feedback on the session (feedbackProtocol.ts); absent when none. */
  feedback?: FeedbackRecord[];
}

/**
 * live: follows whichever session is being written (setting `thoughtExplorer.followLiveSession`);
 * pinned: shows one session picked by the person; replay: steps through a finished session.
 */
export type ExplorerMode = 'live' | 'pinned' | 'replay';

/** Pre-rendered SVG text of each diagram, for exports. A diagram that failed to render is absent. */
export interface RenderedSvgs {
  stageGraph?: string;
  branchTree?: string;
  revisionChain?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Host → webview

export type HostMessage =
  | { type: 'snapshot'; mode: ExplorerMode; session: SessionView | null }
  | { type: 'thoughtAdded'; sessionId: string; meta: SessionMeta; thought: ThoughtRecord }
  | { type: 'sessionUpdated'; meta: SessionMeta; strategy?: StrategyView }
  | { type: 'theme'; kind: ThemeKind }
  /** Starts, pauses or moves a replay; fields left out keep their value. */
  | { type: 'replayState'; playing?: boolean; position?: number; speed?: number }
  /** Asks for full (unwindowed) SVGs of `session`, or of the session on screen when absent. */
  | { type: 'requestSvg'; requestId: string; session?: SessionView }
  /** Shows a diagram tab and/or selects a thought of the session on screen (fields left out stay as they are). */
  | { type: 'showInView'; tab?: DiagramKind; seq?: number }
  | InsightsMessage
  | DeliberationHostMessage
  | FeedbackHostMessage;

// ---------------------------------------------------------------------------------------------------------------
// Webview → host

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'selectThought'; sessionId: string; seq: number }
  /** Sent when a delta does not fit what the webview holds (a gap), so the host re-sends the snapshot. */
  | { type: 'requestFullSession'; sessionId: string }
  | { type: 'openInPanel'; sessionId?: string }
  | { type: 'exportSvg'; diagram: DiagramKind; svg: string; sessionId?: string }
  | { type: 'renderFailed'; diagram: DiagramKind; message: string }
  | { type: 'svgRendered'; requestId: string; svgs: RenderedSvgs; errors: string[] }
  /**
   * What the webview shows, sent whenever it saves its state: the host reports it in the explorer's status (the
   * in-editor reload test reads the tab a revived panel came back on from here).
   */
  | { type: 'uiState'; sessionId?: string; activeTab: DiagramKind; selectedSeq?: number }
  | InsightsRequestMessage
  | DeliberationWebviewMessage
  | GiveFeedbackMessage;

/** The replay speeds offered, as multiples of the base pace. */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8] as const;
export const MIN_REPLAY_SPEED = 0.5;
export const MAX_REPLAY_SPEED = 8;

/** Longest SVG text the host accepts from a webview (far above any diagram we draw; refuses a runaway payload). */
export const MAX_SVG_LENGTH = 50_000_000;

/** For exhaustive switches: a compile error when a case is missing, a clear error if one ever arrives at run time. */
export function assertNever(value: never, what: string): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Guards. Each side checks what it receives: a webview's messages are treated as untrusted input by the host.

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function isThemeKind(value: unknown): value is ThemeKind {
  return value === 'light' || value === 'dark' || value === 'highContrast' || value === 'highContrastLight';
}

function isRenderedSvgs(value: unknown): value is RenderedSvgs {
  if (!isObject(value)) return false;
  return Object.entries(value).every(
    ([key, svg]) => isDiagramKind(key) && (svg === undefined || (isString(svg) && svg.length <= MAX_SVG_LENGTH)),
  );
}

function isMeta(value: unknown): value is SessionMeta {
  return (
    isObject(value) && isString(value.id) && isString(value.strategy) && isString(value.status) && typeof value.thoughtCount === 'number'
  );
}

function isThought(value: unknown): value is ThoughtRecord {
  return isObject(value) && isSeq(value.seq) && isString(value.thought) && typeof value.thoughtNumber === 'number';
}

function isStrategyView(value: unknown): value is StrategyView {
  return isObject(value) && isString(value.name) && isString(value.title) && Array.isArray(value.stages) && isObject(value.transitions);
}

function isSessionView(value: unknown): value is SessionView {
  return (
    isObject(value) &&
    isMeta(value.meta) &&
    Array.isArray(value.thoughts) &&
    Array.isArray(value.strategySwitches) &&
    (value.strategy === undefined || isStrategyView(value.strategy)) &&
    (value.earlierStrategies === undefined || (Array.isArray(value.earlierStrategies) && value.earlierStrategies.every(isStrategyView))) &&
    (value.deliberation === undefined || isObject(value.deliberation)) &&
    (value.feedback === undefined || (Array.isArray(value.feedback) && value.feedback.every(isFeedbackRecordShape)))
  );
}

/** Checks a message posted by the webview. Unknown or malformed messages are refused (the host logs them). */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (!isObject(value) || !isString(value.type)) return false;
  const type = value.type as WebviewMessage['type'];
  switch (type) {
    case 'ready':
      return true;
    case 'selectThought':
      return isString(value.sessionId) && isSeq(value.seq);
    case 'requestFullSession':
      return isString(value.sessionId);
    case 'openInPanel':
      return value.sessionId === undefined || isString(value.sessionId);
    case 'exportSvg':
      return (
        isDiagramKind(value.diagram) &&
        isString(value.svg) &&
        value.svg.length <= MAX_SVG_LENGTH &&
        (value.sessionId === undefined || isString(value.sessionId))
      );
    case 'renderFailed':
      return isDiagramKind(value.diagram) && isString(value.message);
    case 'svgRendered':
      return isString(value.requestId) && isRenderedSvgs(value.svgs) && Array.isArray(value.errors) && value.errors.every(isString);
    case 'stopDeliberation':
      return isString(value.sessionId);
    case 'uiState':
      return (
        (value.sessionId === undefined || isString(value.sessionId)) &&
        isDiagramKind(value.activeTab) &&
        (value.selectedSeq === undefined || isSeq(value.selectedSeq))
      );
    case 'giveFeedback':
      return isGiveFeedbackMessage(value);
    case 'requestInsights':
      return isInsightsRequest(value);
    default:
      // A type this build does not know: refused, not thrown, so a newer webview cannot crash an older host.
      return isNever(type);
  }
}

/** Checks a message posted by the host (the webview also receives messages from nowhere else, but stays strict). */
export function isHostMessage(value: unknown): value is HostMessage {
  if (!isObject(value) || !isString(value.type)) return false;
  const type = value.type as HostMessage['type'];
  switch (type) {
    case 'snapshot':
      return (
        (value.mode === 'live' || value.mode === 'pinned' || value.mode === 'replay') &&
        (value.session === null || isSessionView(value.session))
      );
    case 'thoughtAdded':
      return isString(value.sessionId) && isMeta(value.meta) && isThought(value.thought);
    case 'sessionUpdated':
      return isMeta(value.meta) && (value.strategy === undefined || isStrategyView(value.strategy));
    case 'theme':
      return isThemeKind(value.kind);
    case 'replayState':
      return (
        (value.playing === undefined || typeof value.playing === 'boolean') &&
        (value.position === undefined || isSeq(value.position)) &&
        (value.speed === undefined ||
          (typeof value.speed === 'number' && value.speed >= MIN_REPLAY_SPEED && value.speed <= MAX_REPLAY_SPEED))
      );
    case 'requestSvg':
      return isString(value.requestId) && (value.session === undefined || isSessionView(value.session));
    case 'deliberationState':
      return isLiveDeliberationState(value.state);
    case 'showInView':
      return (value.tab === undefined || isDiagramKind(value.tab)) && (value.seq === undefined || isSeq(value.seq));
    case 'feedbackResult':
    case 'feedbackChanged':
      return isFeedbackHostMessage(value);
    case 'insights':
      return isInsightsMessage(value);
    default:
      return isNever(type);
  }
}

/** Keeps the switches above exhaustive at compile time while answering `false` at run time. */
function isNever(_value: never): false {
  return false;
}
