// The names a session's trace uses, written once for the exporter, the live stream and the import that reads a trace
// back. Ours live under `thought_explorer.`; the model facts of a deliberation role use OpenTelemetry's GenAI names.
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from '@opentelemetry/semantic-conventions/incubating';

/** The instrumentation scope of every span (what a backend shows as the library that made it). */
export const TRACE_SCOPE = 'thought-explorer';
export const SERVICE_NAME = 'thought-explorer';

export const SESSION_SPAN_NAME = 'thinking session';
export const THOUGHT_SPAN_PREFIX = 'thought';

export const SESSION = {
  id: 'thought_explorer.session.id',
  title: 'thought_explorer.session.title',
  purpose: 'thought_explorer.session.purpose',
  strategy: 'thought_explorer.session.strategy',
  stage: 'thought_explorer.session.stage',
  status: 'thought_explorer.session.status',
  thoughtCount: 'thought_explorer.session.thought_count',
  revisionCount: 'thought_explorer.session.revision_count',
  branchIds: 'thought_explorer.session.branch_ids',
  lastThoughtNumber: 'thought_explorer.session.last_thought_number',
  totalThoughts: 'thought_explorer.session.total_thoughts',
  askAtDecisionPoints: 'thought_explorer.session.ask_at_decision_points',
  replyDetail: 'thought_explorer.session.reply_detail',
  strategyNamed: 'thought_explorer.session.strategy_named',
  conversationId: 'thought_explorer.session.conversation_id',
} as const;

export const THOUGHT = {
  seq: 'thought_explorer.thought.seq',
  number: 'thought_explorer.thought.number',
  total: 'thought_explorer.thought.total',
  nextNeeded: 'thought_explorer.thought.next_needed',
  needsMore: 'thought_explorer.thought.needs_more',
  stage: 'thought_explorer.thought.stage',
  strategy: 'thought_explorer.thought.strategy',
  branchId: 'thought_explorer.thought.branch_id',
  branchFrom: 'thought_explorer.thought.branch_from',
  isRevision: 'thought_explorer.thought.is_revision',
  revises: 'thought_explorer.thought.revises',
  text: 'thought_explorer.thought.text',
  /** The thought's `extra` as JSON (tool recommendations, deliberation facts …): with the text only, it may quote it. */
  extra: 'thought_explorer.thought.extra',
  role: 'thought_explorer.thought.role',
} as const;

export const GEN_AI = {
  operation: ATTR_GEN_AI_OPERATION_NAME,
  model: ATTR_GEN_AI_REQUEST_MODEL,
  agent: ATTR_GEN_AI_AGENT_NAME,
  tool: ATTR_GEN_AI_TOOL_NAME,
  inputTokens: ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  outputTokens: ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} as const;

/** What a link says about the span it points to. */
export const LINK_KIND = 'thought_explorer.link';
export type LinkKind = 'revises' | 'branches_from' | 'caller' | 'decides';

export const FEEDBACK_EVENT = 'thought_explorer.feedback';
export const FEEDBACK = {
  index: 'thought_explorer.feedback.index',
  id: 'thought_explorer.feedback.id',
  kind: 'thought_explorer.feedback.kind',
  author: 'thought_explorer.feedback.author',
  text: 'thought_explorer.feedback.text',
  thoughtNumber: 'thought_explorer.feedback.thought_number',
  branchId: 'thought_explorer.feedback.branch_id',
  deliveredAt: 'thought_explorer.feedback.delivered_at',
  deliveredWithSeq: 'thought_explorer.feedback.delivered_with_seq',
  appliedAt: 'thought_explorer.feedback.applied_at',
  appliedBySeq: 'thought_explorer.feedback.applied_by_seq',
} as const;

/** A decision-point answer: a span from the thought's recording to the person's answer (the time they took). */
export const DECISION_SPAN_PREFIX = 'decision';
export const DECISION = {
  about: 'thought_explorer.decision.about',
  action: 'thought_explorer.decision.action',
  choice: 'thought_explorer.decision.choice',
  text: 'thought_explorer.decision.text',
} as const;

export const STRATEGY_SWITCH_EVENT = 'thought_explorer.strategy_switch';
export const STRATEGY_SWITCH = {
  atSeq: 'thought_explorer.strategy_switch.at_seq',
  from: 'thought_explorer.strategy_switch.from',
  to: 'thought_explorer.strategy_switch.to',
} as const;
