// A session as spans, through the SDK's tracer: one session span, one child span per thought (from the thought before
// it, or its model call's start, to the moment it was recorded), links from a revision to the thought it revises and
// from a branch's first thought to the thought it forks from, feedback and strategy switches as events. The file
// export and the live stream both write with this, so a streamed session and its exported file look the same.
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Attributes, type Link, type SpanContext, type Tracer } from '@opentelemetry/api';
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
import { decisionSpanId, sessionSpanId, sessionTraceId, thoughtSpanId, type PresetIdGenerator } from './spanIds';

/** Where a session's spans go: its own trace, or the caller's (W3C trace context from the tools/call that began it). */
export interface SessionTrace {
  sessionId: string;
  traceId: string;
  /** The caller's span: the session span's parent. */
  caller?: SpanContext;
}

export function sessionTraceOf(sessionId: string, caller?: SpanContext): SessionTrace {
  return { sessionId, traceId: caller?.traceId ?? sessionTraceId(sessionId), ...(caller ? { caller } : {}) };
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

export class SessionSpanWriter {
  constructor(
    private readonly tracer: Tracer,
    private readonly ids: PresetIdGenerator,
    /** Thought text, titles, feedback text and `extra` (which may quote text) go out only when true. */
    private readonly includeText: boolean,
  ) {}

  /** `links`: the thought's links resolved by seq (ThoughtLinkResolver); `caller`: a different caller's span to link to. */
  writeThought(
    target: SessionTrace,
    thought: ThoughtRecord,
    strategy: string,
    links: ThoughtLinksOf,
    startTime: number,
    caller?: SpanContext,
  ): void {
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: target.traceId,
      spanId: sessionSpanId(target.sessionId),
      traceFlags: TraceFlags.SAMPLED,
      ...(target.caller?.traceState ? { traceState: target.caller.traceState } : {}),
    });
    const spanLinks: Link[] = [];
    if (links.revises !== undefined) spanLinks.push(this.link(target, links.revises, 'revises'));
    if (links.startsBranch && links.parent !== undefined) spanLinks.push(this.link(target, links.parent, 'branches_from'));
    if (caller !== undefined) spanLinks.push({ context: caller, attributes: { [LINK_KIND]: 'caller' satisfies LinkKind } });

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
    this.ids.preset(thoughtSpanId(target.sessionId, thought.seq));
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime, attributes, links: spanLinks }, parent);
    span.end(thought.timestamp);
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
      [SESSION.branchIds]: meta.branchIds,
      [SESSION.lastThoughtNumber]: meta.lastThoughtNumber,
      [SESSION.totalThoughts]: meta.totalThoughts,
    };
    if (meta.stage !== undefined) attributes[SESSION.stage] = meta.stage;
    if (meta.askAtDecisionPoints !== undefined) attributes[SESSION.askAtDecisionPoints] = meta.askAtDecisionPoints;
    if (meta.replyDetail !== undefined) attributes[SESSION.replyDetail] = meta.replyDetail;
    if (this.includeText) {
      if (meta.title !== undefined) attributes[SESSION.title] = meta.title;
      if (meta.purpose !== undefined) attributes[SESSION.purpose] = meta.purpose;
    }
    const parent = target.caller ? trace.setSpanContext(ROOT_CONTEXT, target.caller) : ROOT_CONTEXT;
    this.ids.preset(sessionSpanId(meta.id), target.traceId);
    const span = this.tracer.startSpan(SESSION_SPAN_NAME, { kind: SpanKind.INTERNAL, startTime: meta.createdAt, attributes }, parent);
    for (const change of parts.strategySwitches) {
      span.addEvent(
        STRATEGY_SWITCH_EVENT,
        { [STRATEGY_SWITCH.atSeq]: change.atSeq, [STRATEGY_SWITCH.from]: change.from, [STRATEGY_SWITCH.to]: change.to },
        change.timestamp,
      );
    }
    (parts.feedback ?? []).forEach((feedback, index) =>
      span.addEvent(FEEDBACK_EVENT, this.feedbackAttributes(feedback, index), feedback.createdAt),
    );
    span.end(Math.max(endTime, meta.createdAt));
  }

  /** A decision-point answer: from the thought's recording (`startTime`) to the answer, linked to the thought's span. */
  writeDecision(target: SessionTrace, decision: DecisionRecord, startTime: number): void {
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: target.traceId,
      spanId: sessionSpanId(target.sessionId),
      traceFlags: TraceFlags.SAMPLED,
    });
    const attributes: Attributes = {
      [THOUGHT.number]: decision.thoughtNumber,
      [DECISION.about]: decision.about,
      [DECISION.action]: decision.action,
    };
    if (decision.choice !== undefined) attributes[DECISION.choice] = decision.choice;
    if (this.includeText && decision.text !== undefined) attributes[DECISION.text] = decision.text;
    const links = decision.seq === undefined ? [] : [this.link(target, decision.seq, 'decides')];
    this.ids.preset(decisionSpanId(target.sessionId, decision.thoughtNumber, decision.at));
    const span = this.tracer.startSpan(
      `${DECISION_SPAN_PREFIX} ${decision.about}`,
      { kind: SpanKind.INTERNAL, startTime: Math.min(startTime, decision.at), attributes, links },
      parent,
    );
    span.end(decision.at);
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
    return {
      context: { traceId: target.traceId, spanId: thoughtSpanId(target.sessionId, seq), traceFlags: TraceFlags.SAMPLED },
      attributes: { [LINK_KIND]: kind },
    };
  }
}
