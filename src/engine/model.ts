// The thought model: what a thought and a session are, and the small store interface the engine needs.
// Plain data only (so it crosses every boundary — journal, MCP, webview — as JSON unchanged), plus the listing rule
// the store and memory-only engines share.
import type { FeedbackKind } from './browserSafe/feedbackKinds';
import type { FeedbackMarks } from './browserSafe/feedbackStatus';
import type { ThoughtDerivedMeta } from './browserSafe/sessionMeta';
import type { ReplyDetail, SessionStatus } from './fieldRules';

/** The fields of the reference `sequentialthinking` tool, shared by its input, our records and sequentialthinking-plus session files. */
export interface ReferenceThoughtFields {
  thought: string;
  thoughtNumber: number;
  totalThoughts: number;
  nextThoughtNeeded: boolean;
  isRevision?: boolean;
  revisesThought?: number;
  branchFromThought?: number;
  branchId?: string;
  needsMoreThoughts?: boolean;
  /** The strategy stage this thought belongs to. */
  stage?: string;
}

/** One accepted thought, as stored and as shown. */
export interface ThoughtRecord extends ReferenceThoughtFields {
  /** Position in the session, 0-based, in arrival order. Unique within a session (thoughtNumber is not). */
  seq: number;
  /** Milliseconds since the epoch when the engine accepted it. */
  timestamp: number;
  /** Room for later fields (tool recommendations, perspectives/roles, plan steps) without a model change. */
  extra?: Record<string, unknown>;
}

export type { SessionStatus };

/**
 * What is known about a session without its thoughts: enough for lists, trees and the index. The fields its thoughts
 * give (counts, branches, the last thought's number, time and estimate; browserSafe/sessionMeta.ts) come with the rule.
 */
export interface SessionMeta extends ThoughtDerivedMeta {
  id: string;
  /** A person-given name; falls back to `purpose`, then the first thought, wherever a title is drawn. */
  title?: string;
  /** The first thought's text, shortened: what the session is about. */
  purpose?: string;
  strategy: string;
  /** Current stage of the strategy's flow. */
  stage?: string;
  status: SessionStatus;
  createdAt: number;
  /**
   * Set only in listings, for a journal the store cannot open (the reason, for a person): the session cannot be
   * opened, and its counters are zero because nothing readable backs them.
   */
  unreadable?: string;
  /**
   * Per-session override of "ask the user at decision points" (MCP elicitation): true or false wins over the server's
   * setting; absent follows it.
   */
  askAtDecisionPoints?: boolean;
  /** Per-session reply detail level (thinking_sessions configure); absent follows the server's setting. */
  replyDetail?: ReplyDetail;
  /**
   * The chat the session was started from, where the host names it (VS Code's `vscode.conversationId`), at most
   * MAX_CONVERSATION_ID_LENGTH characters: shown in the Sessions tree; stateless serving continues a conversation's
   * own session by it.
   */
  conversationId?: string;
  /**
   * The agent named the session's strategy (on thought 1 or by switching): compact replies guide it through the
   * strategy's stages. Absent: a plain session in the default strategy, whose compact replies leave the stages out.
   */
  strategyNamed?: boolean;
}

/** A strategy switch, kept so the stage graph and exports can tell the story. */
export interface StrategySwitch {
  atSeq: number;
  from: string;
  to: string;
  timestamp: number;
}

/** What a person watching a live session may ask of its agent (see feedbackRules.ts). */
export type { FeedbackKind };

/**
 * One piece of feedback from the person watching a session: journaled, delivered once on the next reply, maybe applied.
 * Its kind and delivery marks are FeedbackMarks, which the status rule reads.
 */
export interface FeedbackRecord extends FeedbackMarks {
  /** Unique within the session. */
  id: string;
  author: 'user';
  createdAt: number;
  /** reject, branch (required); note (optional: the thought it is about). */
  thoughtNumber?: number;
  /** Note text (required), reject reason (required), branch/conclude optional comment. */
  text?: string;
  /** Suggested branch id for 'branch'. */
  branchId?: string;
}

/** A change to a session's feedback, as the store journals it: records are appended, never rewritten. */
export type FeedbackEntry =
  | { type: 'feedback'; feedback: FeedbackRecord }
  | { type: 'feedbackDelivered'; ids: string[]; at: number; withSeq?: number }
  | { type: 'feedbackApplied'; id: string; at: number; bySeq: number };

/** A whole session: meta plus every thought in arrival order. */
export interface SessionSnapshot {
  meta: SessionMeta;
  thoughts: ThoughtRecord[];
  strategySwitches: StrategySwitch[];
  /** The person's feedback, in arrival order; absent when there is none. */
  feedback?: FeedbackRecord[];
}

export interface ListSessionsQuery {
  strategy?: string;
  status?: SessionStatus;
  /** Case-insensitive substring of title or purpose. */
  text?: string;
  offset?: number;
  limit?: number;
}

export interface ListSessionsResult {
  sessions: SessionMeta[];
  total: number;
}

/**
 * What the engine needs from durable storage. `src/storage` implements it; the engine never touches the disk itself.
 * Every write method must have persisted its data when it returns (the tool call answers right after).
 */
export interface SessionStore {
  createSession(meta: SessionMeta): void;
  appendThought(meta: SessionMeta, thought: ThoughtRecord): void;
  /** Records a change of meta that no thought carries (rename, status, strategy switch). */
  updateMeta(meta: SessionMeta, strategySwitch?: StrategySwitch): void;
  loadSession(id: string): SessionSnapshot | undefined;
  listSessions(query?: ListSessionsQuery): ListSessionsResult;
  deleteSession(id: string): boolean;
  /** Whole-session write, used by import. Replaces a session with the same id. */
  saveSession(snapshot: SessionSnapshot): void;
  /**
   * Optional (stores without it keep feedback in memory only): appends one feedback change to the session's journal.
   * `meta` is the session's current meta (unchanged by feedback), for the store's index.
   */
  appendFeedback?(meta: SessionMeta, entry: FeedbackEntry): void;
  /**
   * Optional (a store shared with other processes implements it): whether a session's stored data changed since this
   * store last wrote or read it, i.e. someone else wrote it. 'none' also when this store made every change itself;
   * 'removed' when the session is gone and this store did not delete it. Must be cheap (a stat, no read): it runs on
   * every change notification.
   */
  externalChange?(id: string): ExternalChange;
}

/** What `SessionStore.externalChange` found. */
export type ExternalChange = 'none' | 'changed' | 'removed';

/**
 * Thrown by a store for a session id it cannot hold (path traversal, reserved names). The engine reports it to the
 * agent as a refused input, not as a disk failure.
 */
export class InvalidSessionIdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSessionIdError';
  }
}

/**
 * Thrown by a store that refuses a record it could write but must not (e.g. a session past its size limit). The
 * message is written for the agent and says what to do instead; sending the same thought again cannot help.
 */
export class StoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}
