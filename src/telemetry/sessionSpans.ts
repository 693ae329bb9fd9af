// A session as spans: one session span, one child span per thought (from the thought before it, or its model call's
// start, to the moment it was recorded), links from a revision to the thought it revises and from a branch's first
// thought to the thought it forks from, feedback and strategy switches as events. The file export and the live stream
// both write with this, so a streamed session and its exported file look the same.
//
// The spans are finished ReadableSpans handed straight to a span processor (the SDK's BatchSpanProcessor, or a
// collector for a file), as the SDK's tracer would hand them: with ids derived from the session, times and attributes
// known up front, a span never changes after it is made, so the tracer's per-span work (context, sampler, a copy and
// check of every attribute, a mutable span) bought nothing and was most of a streamed thought's cost.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type Link, type SpanContext } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import type { FeedbackRecord, SessionMeta, StrategySwitch, ThoughtRecord } from '../engine/model';
import type { ThoughtLinksOf } from '../diagrams/thoughtLinks';
import { deliberationFacts } from '../shared/deliberationView';
import {
  DECISION,
  DECISION_SPAN_PREFIX,
  FEEDBACK,
  FEEDBACK_EVENT,
  GEN_AI,
  LINK_KIND,
  SESSION,
  SESSION_SPAN_NAME,
  STRATEGY_SWITCH,
  STRATEGY_SWITCH_EVENT,
  THOUGHT,
  THOUGHT_SPAN_PREFIX,
  type LinkKind,
} from './attributeNames';
import { decisionSpanId, sessionSpanId, sessionTraceId, thoughtSpanId } from './spanIds';

/** Where a session's spans go: its own trace, or the caller's (W3C trace context from the tools/call that began it). */
export interface SessionTrace {
  sessionId: string;
  traceId: string;
  /** The caller's span: the session span's parent. */
  caller?: SpanContext;
  /** The session span, the parent of its thoughts' spans: made once per session, not per thought. */
  readonly sessionSpan: SpanContext;
}

export function sessionTraceOf(sessionId: string, caller?: SpanContext): SessionTrace {
  const traceId = caller?.traceId ?? sessionTraceId(sessionId);
  const traceState = caller?.traceState;
  return {
    sessionId,
    traceId,
    ...(caller ? { caller } : {}),
    sessionSpan: { traceId, spanId: sessionSpanId(sessionId), traceFlags: TraceFlags.SAMPLED, ...(traceState ? { traceState } : {}) },
  };
}

/** When a thought's span starts: its model call's start if it has one, else when the thought before it was recorded. */
export function thoughtStartTime(thought: ThoughtRecord, previousTimestamp: number | undefined): number {
  const durationMs = deliberationFacts(thought)?.durationMs;
  if (durationMs !== undefined) return Math.max(0, thought.timestamp - durationMs);
  return previousTimestamp !== undefined && previousTimestamp <= thought.timestamp ? previousTimestamp : thought.timestamp;
}

/** A decision-point answer as the stream got it. */
export interface DecisionRecord {
  thoughtNumber: number;
  /** The seq of the thought it answers, when known. */
  seq?: number;
  about: string;
  action: string;
  choice?: string;
  text?: string;
  /** When the answer came. */
  at: number;
}

export interface SessionSpanParts {
  meta: SessionMeta;
  strategySwitches: readonly StrategySwitch[];
  feedback?: readonly FeedbackRecord[];
}

/** Where finished spans go: a span processor's onEnd. */
export interface SpanSink {
  onEnd(span: ReadableSpan): void;
}

export interface SpanWriterOptions {
  /** Thought text, titles, feedback text and `extra` (which may quote text) go out only when true. */
  includeText: boolean;
  resource: Resource;
  scope: InstrumentationScope;
  /** The most events a span keeps, the newest (the SDK's eventCountLimit: 128 by default; a file keeps all). */
  eventCountLimit: number;
}

const UNSET: ReadableSpan['status'] = Object.freeze({ code: SpanStatusCode.UNSET });
const NO_LINKS: Link[] = [];
const NO_EVENTS: TimedEvent[] = [];

/** A finished span, shaped as the SDK's own (what its processors and the OTLP serializers read). */
class FinishedSpan implements ReadableSpan {
  readonly kind = SpanKind.INTERNAL;
  readonly status = UNSET;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedLinksCount = 0;
  readonly startTime: HrTime;
  readonly endTime: HrTime;

  constructor(
    readonly name: string,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    startMs: number,
    endMs: number,
    readonly attributes: Attributes,
    readonly links: Link[],
    readonly events: TimedEvent[],
    readonly droppedEventsCount: number,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope,
  ) {
    this.startTime = millisToHrTime(startMs);
    // As the SDK does: an end before the start is a zero-length span.
    this.endTime = endMs >= startMs ? millisToHrTime(endMs) : [this.startTime[0], this.startTime[1]];
  }

  /** Worked out when asked (the exporters do not read it). */
  get duration(): HrTime {
    return hrTimeDuration(this.startTime, this.endTime);
  }

  spanContext(): SpanContext {
    return this.context;
  }
}

export class SessionSpanWriter {
  private readonly includeText: boolean;

  constructor(
    private readonly sink: SpanSink,
    private readonly options: SpanWriterOptions,
  ) {
    this.includeText = options.includeText;
  }

  /** `links`: the thought's links resolved by seq (ThoughtLinkResolver); `caller`: a different caller's span to link to. */
  writeThought(
    target: SessionTrace,
    thought: ThoughtRecord,
    strategy: string,
    links: ThoughtLinksOf,
    startTime: number,
    caller?: SpanContext,
  ): void {
    let spanLinks = NO_LINKS;
    if (links.revises !== undefined || (links.startsBranch && links.parent !== undefined) || caller !== undefined) {
      spanLinks = [];
      if (links.revises !== undefined) spanLinks.push(this.link(target, links.revises, 'revises'));
      if (links.startsBranch && links.parent !== undefined) spanLinks.push(this.link(target, links.parent, 'branches_from'));
      if (caller !== undefined) spanLinks.push(linkTo(caller, 'caller'));
    }

    const attributes: Attributes = {
      [THOUGHT.seq]: thought.seq,
      [THOUGHT.number]: thought.thoughtNumber,
      [THOUGHT.total]: thought.totalThoughts,
      [THOUGHT.nextNeeded]: thought.nextThoughtNeeded,
      [THOUGHT.strategy]: strategy,
    };
    if (thought.stage !== undefined) attributes[THOUGHT.stage] = thought.stage;
    if (thought.branchId !== undefined) attributes[THOUGHT.branchId] = thought.branchId;
    if (thought.branchFromThought !== undefined) attributes[THOUGHT.branchFrom] = thought.branchFromThought;
    if (thought.isRevision !== undefined) attributes[THOUGHT.isRevision] = thought.isRevision;
    if (thought.revisesThought !== undefined) attributes[THOUGHT.revises] = thought.revisesThought;
    if (thought.needsMoreThoughts !== undefined) attributes[THOUGHT.needsMore] = thought.needsMoreThoughts;
    let name = `${THOUGHT_SPAN_PREFIX} ${thought.thoughtNumber}`;
    const facts = deliberationFacts(thought);
    if (facts !== undefined) {
      attributes[THOUGHT.role] = facts.role;
      attributes[GEN_AI.agent] = facts.role;
      // GenAI's operations: a role's model call is a chat, a task step's tool call executes a tool; the framing thought
      // stands for the deliberation as a whole.
      const operation = facts.tool !== undefined ? 'execute_tool' : facts.role === 'framing' ? 'invoke_agent' : 'chat';
      attributes[GEN_AI.operation] = operation;
      if (facts.tool !== undefined) attributes[GEN_AI.tool] = facts.tool;
      if (facts.model !== undefined) attributes[GEN_AI.model] = facts.model;
      if (facts.tokens !== undefined) {
        attributes[GEN_AI.inputTokens] = facts.tokens.input;
        attributes[GEN_AI.outputTokens] = facts.tokens.output;
      }
      // GenAI span names are "{operation} {model}" (or "{operation} {tool}").
      name = `${operation} ${facts.tool ?? facts.model ?? facts.role}`;
    }
    if (this.includeText) {
      attributes[THOUGHT.text] = thought.thought;
      if (thought.extra !== undefined && Object.keys(thought.extra).length > 0) attributes[THOUGHT.extra] = JSON.stringify(thought.extra);
    }
    this.childOfSession(
      target.sessionSpan,
      name,
      thoughtSpanId(target.sessionId, thought.seq),
      startTime,
      thought.timestamp,
      attributes,
      spanLinks,
    );
  }

  /** The session span, from the session's start to `endTime`, with its strategy switches and feedback as events. */
  writeSession(target: SessionTrace, parts: SessionSpanParts, endTime: number): void {
    const { meta } = parts;
    const attributes: Attributes = {
      [SESSION.id]: meta.id,
      [SESSION.strategy]: meta.strategy,
      [SESSION.status]: meta.status,
      [SESSION.thoughtCount]: meta.thoughtCount,
      [SESSION.revisionCount]: meta.revisionCount,
      [SESSION.branchIds]: [...meta.branchIds],
      [SESSION.lastThoughtNumber]: meta.lastThoughtNumber,
      [SESSION.totalThoughts]: meta.totalThoughts,
    };
    if (meta.stage !== undefined) attributes[SESSION.stage] = meta.stage;
    if (meta.askAtDecisionPoints !== undefined) attributes[SESSION.askAtDecisionPoints] = meta.askAtDecisionPoints;
    if (meta.replyDetail !== undefined) attributes[SESSION.replyDetail] = meta.replyDetail;
    if (meta.strategyNamed !== undefined) attributes[SESSION.strategyNamed] = meta.strategyNamed;
    if (meta.conversationId !== undefined) attributes[SESSION.conversationId] = meta.conversationId;
    if (this.includeText) {
      if (meta.title !== undefined) attributes[SESSION.title] = meta.title;
      if (meta.purpose !== undefined) attributes[SESSION.purpose] = meta.purpose;
    }
    const events: TimedEvent[] = [];
    for (const change of parts.strategySwitches) {
      events.push(
        event(
          STRATEGY_SWITCH_EVENT,
          { [STRATEGY_SWITCH.atSeq]: change.atSeq, [STRATEGY_SWITCH.from]: change.from, [STRATEGY_SWITCH.to]: change.to },
          change.timestamp,
        ),
      );
    }
    (parts.feedback ?? []).forEach((feedback, index) =>
      events.push(event(FEEDBACK_EVENT, this.feedbackAttributes(feedback, index), feedback.createdAt)),
    );
    // Past the limit the oldest events go, counted, as the SDK's span drops them.
    const dropped = Math.max(0, events.length - this.options.eventCountLimit);
    const context: SpanContext = { ...target.sessionSpan, traceState: target.caller?.traceState };
    this.sink.onEnd(
      new FinishedSpan(
        SESSION_SPAN_NAME,
        context,
        target.caller,
        meta.createdAt,
        Math.max(endTime, meta.createdAt),
        attributes,
        NO_LINKS,
        dropped > 0 ? events.slice(dropped) : events,
        dropped,
        this.options.resource,
        this.options.scope,
      ),
    );
  }

  /** A decision-point answer: from the thought's recording (`startTime`) to the answer, linked to the thought's span. */
  writeDecision(target: SessionTrace, decision: DecisionRecord, startTime: number): void {
    const attributes: Attributes = {
      [THOUGHT.number]: decision.thoughtNumber,
      [DECISION.about]: decision.about,
      [DECISION.action]: decision.action,
    };
    if (decision.choice !== undefined) attributes[DECISION.choice] = decision.choice;
    if (this.includeText && decision.text !== undefined) attributes[DECISION.text] = decision.text;
    const links = decision.seq === undefined ? [] : [this.link(target, decision.seq, 'decides')];
    // Without the trace state: a decision's span has always been made under a bare parent.
    const { traceState: _traceState, ...parent } = target.sessionSpan;
    this.childOfSession(
      parent,
      `${DECISION_SPAN_PREFIX} ${decision.about}`,
      decisionSpanId(target.sessionId, decision.thoughtNumber, decision.at),
      Math.min(startTime, decision.at),
      decision.at,
      attributes,
      links,
    );
  }

  /** A span under the session span (in the session span's trace state, when the caller gave one). */
  private childOfSession(
    parent: SpanContext,
    name: string,
    spanId: string,
    startTime: number,
    endTime: number,
    attributes: Attributes,
    links: Link[],
  ): void {
    const context: SpanContext = { traceId: parent.traceId, spanId, traceFlags: TraceFlags.SAMPLED, traceState: parent.traceState };
    this.sink.onEnd(
      new FinishedSpan(
        name,
        context,
        parent,
        startTime,
        endTime,
        attributes,
        links,
        NO_EVENTS,
        0,
        this.options.resource,
        this.options.scope,
      ),
    );
  }

  private feedbackAttributes(feedback: FeedbackRecord, index: number): Attributes {
    const attributes: Attributes = {
      [FEEDBACK.index]: index,
      [FEEDBACK.id]: feedback.id,
      [FEEDBACK.kind]: feedback.kind,
      [FEEDBACK.author]: feedback.author,
    };
    if (feedback.thoughtNumber !== undefined) attributes[FEEDBACK.thoughtNumber] = feedback.thoughtNumber;
    if (feedback.branchId !== undefined) attributes[FEEDBACK.branchId] = feedback.branchId;
    if (feedback.deliveredAt !== undefined) attributes[FEEDBACK.deliveredAt] = feedback.deliveredAt;
    if (feedback.deliveredWithSeq !== undefined) attributes[FEEDBACK.deliveredWithSeq] = feedback.deliveredWithSeq;
    if (feedback.appliedAt !== undefined) attributes[FEEDBACK.appliedAt] = feedback.appliedAt;
    if (feedback.appliedBySeq !== undefined) attributes[FEEDBACK.appliedBySeq] = feedback.appliedBySeq;
    if (this.includeText && feedback.text !== undefined) attributes[FEEDBACK.text] = feedback.text;
    return attributes;
  }

  private link(target: SessionTrace, seq: number, kind: LinkKind): Link {
    return linkTo({ traceId: target.traceId, spanId: thoughtSpanId(target.sessionId, seq), traceFlags: TraceFlags.SAMPLED }, kind);
  }
}

function linkTo(context: SpanContext, kind: LinkKind): Link {
  return { context, attributes: { [LINK_KIND]: kind }, droppedAttributesCount: 0 };
}

function event(name: string, attributes: Attributes, time: number): TimedEvent {
  return { name, time: millisToHrTime(time), attributes, droppedAttributesCount: 0 };
}
