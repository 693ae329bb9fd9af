// The thinking engine: records thoughts, branches and revisions per session, keeps each connection's sessions apart,
// follows the session's strategy, persists through a SessionStore and tells listeners what happened.
import { randomBytes } from 'node:crypto';
import { EngineEventEmitter, type EngineEvent, type EngineEventListener } from './events';
import { resolveLimits, type EngineLimits } from './limits';
import type {
  FeedbackEntry,
  FeedbackRecord,
  ListSessionsQuery,
  ListSessionsResult,
  SessionMeta,
  SessionSnapshot,
  SessionStore,
  ThoughtRecord,
} from './model';
import { FeedbackRefusedError, MAX_FEEDBACK_PER_SESSION, feedbackRefusal, normaliseFeedbackInput } from './feedbackRules';
import { feedbackStep } from './recording/feedbackDelivery';
import { InvalidSessionIdError, StoreRefusedError } from './model';
import { matchesQuery } from './sessionQuery';
import { holdFromSnapshot, snapshotOf, type HeldSession } from './recording/heldSession';
import { RejectedThought, requireStrategy, unknownStrategyMessage } from './recording/rejectedThought';
import { inferRevision } from './recording/sessionRules';
import { planThought, type ThoughtPlan } from './recording/thoughtPlan';
import type { ThoughtAnnotator } from './recording/thoughtAnnotation';
import { buildReply, type ThoughtReply } from './recording/thoughtReply';
import { shapeReply, type ToldState } from './recording/replyShaping';
import { noSuchSession, type ReplyDetail } from './fieldRules';
import { effectiveReplyDetail } from './replyDetail';
import { QaInputError } from './qaInput';
import { DEFAULT_STRATEGY, findStrategy } from './strategies/catalog';
import { ThoughtInputError, parseThoughtInput, type ThoughtInput } from './thoughtInput';
import { noThoughtCounters } from './browserSafe/sessionMeta';
import { errorDetail, errorMessage } from './browserSafe/errorMessage';

export type { ThoughtReply } from './recording/thoughtReply';

/** The recorded feedback, or why nothing was stored (for the person who typed it). */
export type FeedbackOutcome = { ok: true; feedback: FeedbackRecord } | { ok: false; error: string };

/** `storeFailed`: the thought was fine but could not be saved (a store problem, not the agent's mistake). */
export type ThoughtOutcome = { ok: true; reply: ThoughtReply } | { ok: false; error: string; storeFailed?: true };

export interface RecordThoughtOptions {
  /** Per-thought data kept with the record (ThoughtRecord.extra), e.g. a deliberation role's model and timing. */
  extra?: Record<string, unknown>;
  /** Derives more data from the thought in its session (tool recommendations): kept in `extra`, added to the reply. */
  annotate?: ThoughtAnnotator;
  /**
   * The host's name for the chat the thought comes from (VS Code's `vscode.conversationId`), already bounded by the
   * caller: a session this thought starts keeps it in its meta, so the views can say which chat it came from.
   */
  conversationId?: string;
}

export interface ProcessOptions extends RecordThoughtOptions {
  /** The arguments were already parsed with thoughtArgumentsSchema (McpServer does that): the engine skips its parse. */
  argumentsParsed?: boolean;
}

export interface EngineOptions {
  store?: SessionStore;
  limits?: Partial<EngineLimits>;
  defaultStrategy?: string;
  /** Where listener and store problems are reported; never stdout (it may carry the MCP protocol). */
  log?: (message: string) => void;
  now?: () => number;
  /**
   * Before each thought, check the store (one stat) for another process's changes to the session and re-read it when
   * there are some, so feedback given in VS Code reaches this process's next reply. For processes without a store
   * watcher (the stdio CLI); the extension's watcher does this for it.
   */
  checkStoreBeforeThought?: boolean;
}

export class ThinkingEngine {
  readonly limits: EngineLimits;
  readonly defaultStrategy: string;
  private readonly store: SessionStore | undefined;
  private readonly events = new EngineEventEmitter();
  private readonly log: (message: string) => void;
  private readonly now: () => number;
  private readonly checkStoreBeforeThought: boolean;
  /** Sessions in memory, least recently used first. */
  private readonly held = new Map<string, HeldSession>();
  /**
   * The session hold() added last. Keys join `held` only through hold(), so while this id is in the map it is the most
   * recently used one, and a session's next thought needs no reordering.
   */
  private newestHeldId: string | undefined;
  /** Each MCP connection's current session. */
  private readonly currentByConnection = new Map<string, string>();
  /** What each connection's last shaped reply told it (see shapeReplyFor); dropped on resume, close and delete. */
  private readonly toldByConnection = new Map<string, ToldState>();

  constructor(options: EngineOptions = {}) {
    this.limits = resolveLimits(options.limits);
    const defaultStrategy = options.defaultStrategy ?? DEFAULT_STRATEGY;
    if (!findStrategy(defaultStrategy)) throw new RangeError(`Unknown default strategy "${defaultStrategy}"`);
    this.defaultStrategy = defaultStrategy;
    this.store = options.store;
    this.log = options.log ?? ((message) => process.stderr.write(`${message}\n`));
    this.now = options.now ?? Date.now;
    this.checkStoreBeforeThought = options.checkStoreBeforeThought === true;
  }

  onEvent(listener: EngineEventListener): () => void {
    return this.events.on(listener);
  }

  /**
   * Records one thought sent by `connectionId` as raw tool arguments, or as arguments thoughtArgumentsSchema already
   * parsed (`argumentsParsed`: what an McpServer tool handler receives). Never throws for bad input: the outcome says why.
   */
  process(connectionId: string, args: unknown, options: ProcessOptions = {}): ThoughtOutcome {
    let input: ThoughtInput;
    try {
      input = parseThoughtInput(args, this.limits.maxThoughtLength, options.argumentsParsed === true);
    } catch (error) {
      if (error instanceof ThoughtInputError || error instanceof QaInputError) return { ok: false, error: error.message };
      throw error;
    }
    // The reply goes to the agent: it carries the person's feedback.
    return this.outcomeOf(connectionId, input, options, true);
  }

  /**
   * Records one already parsed thought, optionally with per-thought data kept as the record's `extra` (journaled and
   * exported with it). Never throws for a refused thought or a failed write: the outcome says what was wrong.
   */
  recordThought(connectionId: string, input: ThoughtInput, options: RecordThoughtOptions = {}): ThoughtOutcome {
    // Programmatic recorders (deliberation roles, the chat participant) may apply feedback but never consume it: their
    // replies do not reach the agent the person is steering.
    return this.outcomeOf(connectionId, input, options, false);
  }

  private outcomeOf(connectionId: string, input: ThoughtInput, options: RecordThoughtOptions, deliverFeedback: boolean): ThoughtOutcome {
    try {
      return { ok: true, reply: this.record(connectionId, input, options, deliverFeedback) };
    } catch (error) {
      if (error instanceof RejectedThought) return { ok: false, error: error.message };
      // A session id the store cannot hold (e.g. "..") is bad input, not a disk failure: sending it again cannot help.
      if (error instanceof InvalidSessionIdError) return { ok: false, error: `Invalid sessionId: ${error.message}` };
      if (error instanceof StoreRefusedError) return { ok: false, error: error.message };
      const message = errorMessage(error);
      this.log(`thought not recorded: ${message}`);
      return { ok: false, error: `The thought could not be saved (${message}); nothing was recorded. Send it again.`, storeFailed: true };
    }
  }

  /**
   * The steps of recording a thought, in order: input → session → plan (strategy, rules, stage) → persist → apply →
   * announce → reply. Up to persist a step may refuse the thought or fail, and then nothing has changed.
   */
  private record(
    connectionId: string,
    input: ThoughtInput,
    { extra, annotate, conversationId }: RecordThoughtOptions,
    deliverFeedback: boolean,
  ): ThoughtReply {
    const warnings: string[] = [];
    const sent = inferRevision(input, warnings);
    if (this.checkStoreBeforeThought) this.refreshBeforeThought(connectionId, sent);
    const { session, isNew } = this.sessionFor(connectionId, sent, warnings, conversationId);
    const plan = planThought(session, isNew, sent, { limits: this.limits, now: this.now, extra, annotate }, warnings);
    this.persist(plan);
    this.apply(connectionId, plan);
    if (this.events.hasListeners) this.announce(plan);
    const reply = buildReply(plan, warnings);
    // A session without feedback costs one length check here.
    if (session.feedback.length > 0) this.deliverFeedback(plan, reply, deliverFeedback);
    return reply;
  }

  /** The session the thought will go to, re-read first if another process changed it (see checkStoreBeforeThought). */
  private refreshBeforeThought(connectionId: string, input: ThoughtInput): void {
    const id = input.sessionId ?? this.currentByConnection.get(connectionId);
    if (id !== undefined && this.held.has(id)) this.refreshSession(id);
  }

  /** Marks feedback the thought follows as applied, and puts undelivered feedback on the reply, first in the guidance. */
  private deliverFeedback({ session, strategy, thought, completes }: ThoughtPlan, reply: ThoughtReply, deliver: boolean): void {
    const store = this.store;
    const meta = session.meta;
    const result = feedbackStep(session, thought, completes, {
      deliver,
      now: this.now(),
      persist: (entry: FeedbackEntry) => store?.appendFeedback?.(meta, entry),
      log: this.log,
      finalStage: strategy.stages[strategy.stages.length - 1]?.name,
    });
    if (result.delivery) {
      reply.userFeedback = result.delivery.items;
      reply.guidance = `${result.delivery.guidance} ${reply.guidance}`;
    }
    if (result.changed) this.emit({ type: 'feedbackChanged', meta, feedback: [...session.feedback] });
  }

  /**
   * Records the person's feedback on a live session (note, reject thought N, branch from N, conclude) for delivery on
   * the agent's next reply. Refused, with nothing stored, for an unknown or finished session, a thought the session
   * does not hold, empty or oversized text. Never throws.
   */
  addFeedback(sessionId: string, input: unknown): FeedbackOutcome {
    try {
      return { ok: true, feedback: this.storeFeedback(sessionId, input) };
    } catch (error) {
      if (error instanceof FeedbackRefusedError) return { ok: false, error: error.message };
      if (error instanceof InvalidSessionIdError) return { ok: false, error: `Invalid sessionId: ${error.message}` };
      const message = errorMessage(error);
      this.log(`feedback not recorded: ${message}`);
      return { ok: false, error: `The feedback could not be saved (${message}); nothing was recorded. Send it again.` };
    }
  }

  private storeFeedback(sessionId: string, raw: unknown): FeedbackRecord {
    const input = normaliseFeedbackInput(raw);
    if (typeof sessionId !== 'string' || sessionId === '')
      throw new FeedbackRefusedError('Missing sessionId: name the live session the feedback is for.');
    // The stored data is the truth: another process may have ended the session or added thoughts meanwhile.
    if (this.held.has(sessionId)) this.refreshSession(sessionId);
    const session = this.lookup(sessionId);
    if (!session) throw new FeedbackRefusedError(`Invalid sessionId: ${noSuchSession(sessionId)}; feedback goes to live sessions.`);
    const refusal = feedbackRefusal(
      { id: sessionId, status: session.meta.status, thoughtNumbers: session.thoughtNumbers },
      input.thoughtNumber,
    );
    if (refusal !== undefined) throw new FeedbackRefusedError(refusal);
    if (session.feedback.length >= MAX_FEEDBACK_PER_SESSION)
      throw new FeedbackRefusedError(
        `Session "${sessionId}" already holds ${MAX_FEEDBACK_PER_SESSION} pieces of feedback, the most it may hold.`,
      );
    const record: FeedbackRecord = { id: `fb-${randomBytes(4).toString('hex')}`, kind: input.kind, author: 'user', createdAt: this.now() };
    if (input.thoughtNumber !== undefined) record.thoughtNumber = input.thoughtNumber;
    if (input.text !== undefined) record.text = input.text;
    if (input.branchId !== undefined) record.branchId = input.branchId;
    // On disk first: a failed write leaves memory as it was.
    this.store?.appendFeedback?.(session.meta, { type: 'feedback', feedback: record });
    session.feedback.push(record);
    this.emit({ type: 'feedbackAdded', meta: session.meta, feedback: record });
    return record;
  }

  /** Persist first: if the disk refuses, memory stays as it was and the agent is told to resend. */
  private persist({ isNew, strategy, strategySwitch, thought, previous: meta, next }: ThoughtPlan): void {
    if (!this.store) return;
    if (isNew) this.store.createSession(meta);
    try {
      if (strategySwitch)
        this.store.updateMeta({ ...meta, strategy: strategy.name, stage: undefined, strategyNamed: true }, strategySwitch);
      this.store.appendThought(next, thought);
    } catch (error) {
      // A session created for this thought must not stay behind empty: the agent's resend would start another one.
      if (isNew) this.forgetFailedSession(meta.id);
      throw error;
    }
  }

  /** The stored thought becomes part of the held session and the connection's current session. */
  private apply(
    connectionId: string,
    { session, isNew, strategySwitch, thought, next, fromStage, thoughtsInFromStage }: ThoughtPlan,
  ): void {
    if (isNew) this.hold(session);
    if (strategySwitch) session.strategySwitches.push(strategySwitch);
    session.meta = next;
    session.thoughts.push(thought);
    session.thoughtNumbers.add(thought.thoughtNumber);
    session.thoughtsInStage = thought.stage === fromStage ? thoughtsInFromStage + 1 : 1;
    this.currentByConnection.set(connectionId, next.id);
  }

  /** Tells listeners what the thought changed. */
  private announce({ isNew, strategySwitch, thought, previous, next, completes }: ThoughtPlan): void {
    if (isNew) this.emit({ type: 'sessionStarted', meta: next });
    if (strategySwitch) this.emit({ type: 'sessionUpdated', meta: next });
    this.emit({ type: 'thoughtAdded', meta: next, thought });
    if (thought.stage !== previous.stage)
      this.emit({ type: 'stageChanged', meta: next, from: previous.stage, to: thought.stage as string });
    if (completes && previous.status !== 'complete') this.emit({ type: 'sessionEnded', meta: next });
  }

  /** Picks the session a thought belongs to, creating one (not yet held or stored) when the rules say so. */
  private sessionFor(
    connectionId: string,
    input: ThoughtInput,
    warnings: string[],
    conversationId: string | undefined,
  ): { session: HeldSession; isNew: boolean } {
    if (input.sessionId !== undefined) {
      const existing = this.lookup(input.sessionId);
      if (existing) return { session: existing, isNew: false };
      if (input.thoughtNumber !== 1 || input.isRevision || branches(input)) {
        throw new RejectedThought(
          `Invalid sessionId: ${noSuchSession(input.sessionId)}. Omit sessionId to continue this conversation's session, ` +
            'use thinking_sessions list to find one, or send thoughtNumber 1 to start a new session with this id.',
        );
      }
      return { session: this.newSession(input.sessionId, input, conversationId), isNew: true };
    }
    const currentId = this.currentByConnection.get(connectionId);
    const current = currentId === undefined ? undefined : this.lookup(currentId);
    if (current) {
      // Thought 1 without sessionId starts a new session, also when the current one is live (a new problem); the
      // current one stays as it is and the reply says how to go back to it.
      const startsOver = input.thoughtNumber === 1 && !input.isRevision && !branches(input);
      if (!startsOver) return { session: current, isNew: false };
      if (current.meta.status === 'live')
        warnings.push(
          `Thought 1 without sessionId starts a new session; session "${current.meta.id}" (${current.thoughts.length} thoughts, still live) stays as it is. ` +
            `To add to it, send sessionId "${current.meta.id}" with thoughtNumber ${current.meta.lastThoughtNumber + 1}.`,
        );
    } else if (currentId !== undefined) {
      warnings.push(`Session "${currentId}" could not be found any more; this thought starts a new session.`);
    }
    return { session: this.newSession(this.newSessionId(), input, conversationId), isNew: true };
  }

  private newSession(id: string, input: ThoughtInput, conversationId: string | undefined): HeldSession {
    const strategyName = input.strategy ?? this.defaultStrategy;
    if (!findStrategy(strategyName)) throw new RejectedThought(unknownStrategyMessage(strategyName));
    const now = this.now();
    return {
      meta: {
        ...(conversationId === undefined ? {} : { conversationId }),
        ...(input.strategy === undefined ? {} : { strategyNamed: true }),
        id,
        strategy: strategyName,
        status: 'live',
        createdAt: now,
        updatedAt: now,
        ...noThoughtCounters(),
        totalThoughts: input.totalThoughts,
      },
      thoughts: [],
      strategySwitches: [],
      thoughtNumbers: new Set(),
      thoughtsInStage: 0,
      feedback: [],
    };
  }

  private newSessionId(): string {
    // Sortable by creation time, unique by the random tail; safe as a file name.
    const stamp = new Date(this.now())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    return `${stamp}-${randomBytes(4).toString('hex')}`;
  }

  /** A held session, or one loaded from the store (and then held). */
  private lookup(id: string): HeldSession | undefined {
    const held = this.held.get(id);
    if (held) {
      if (id !== this.newestHeldId) {
        this.held.delete(id);
        this.held.set(id, held);
        this.newestHeldId = id;
      }
      return held;
    }
    const snapshot = this.store?.loadSession(id);
    if (!snapshot) return undefined;
    const session = holdFromSnapshot(snapshot);
    this.hold(session);
    return session;
  }

  private hold(session: HeldSession): void {
    // Deleted first so that the session is last in the map even if it was held already (see newestHeldId).
    this.held.delete(session.meta.id);
    this.held.set(session.meta.id, session);
    this.newestHeldId = session.meta.id;
    while (this.held.size > this.limits.maxSessionsInMemory) {
      const oldest = this.held.keys().next().value as string;
      this.held.delete(oldest);
    }
  }

  /** The whole session, from memory or disk. */
  getSession(id: string): SessionSnapshot | undefined {
    const held = this.held.get(id);
    if (held) return snapshotOf(held);
    return this.store?.loadSession(id);
  }

  /**
   * Keeps a saved session in memory (loading it if needed), so that changes another process makes to it are announced
   * by refreshSession (e.g. for a resource subscription). Its meta, or undefined when there is no such session.
   */
  holdSession(id: string): SessionMeta | undefined {
    return this.lookup(id)?.meta;
  }

  /** The session a connection is working in, if any. */
  currentSessionId(connectionId: string): string | undefined {
    return this.currentByConnection.get(connectionId);
  }

  /**
   * The reply `connectionId` should get for a thought's full reply, at the session's detail level (its own, else
   * `serverDetail`): compact leaves out what this connection was already told about the session. `sent` false: the
   * reply will not reach the agent (its call was cancelled), so it counts as told nothing.
   */
  shapeReplyFor(
    connectionId: string,
    reply: ThoughtReply,
    serverDetail?: ReplyDetail | (() => ReplyDetail),
    sent = true,
  ): Record<string, unknown> {
    const meta = this.held.get(reply.sessionId)?.meta;
    const detail = effectiveReplyDetail(meta?.replyDetail, serverDetail);
    const plain = meta !== undefined && meta.strategyNamed !== true && meta.strategy === DEFAULT_STRATEGY;
    const shaped = shapeReply(reply, detail, this.toldByConnection.get(connectionId), plain);
    if (sent) this.toldByConnection.set(connectionId, shaped.told);
    return shaped.reply;
  }

  /** Makes a saved or held session the connection's current one (thinking_sessions resume); undefined if unknown. */
  resumeSession(connectionId: string, id: string): SessionSnapshot | undefined {
    const session = this.lookup(id);
    if (!session) return undefined;
    this.currentByConnection.set(connectionId, id);
    // The agent may have lost the conversation that knew the session: its next reply names everything again.
    this.toldByConnection.delete(connectionId);
    return snapshotOf(session);
  }

  listSessions(query: ListSessionsQuery = {}): ListSessionsResult {
    if (this.store) return this.store.listSessions(query);
    const all = [...this.held.values()].map((session) => session.meta).filter((meta) => matchesQuery(meta, query));
    all.sort((a, b) => b.updatedAt - a.updatedAt);
    const offset = query.offset ?? 0;
    return { sessions: all.slice(offset, offset + (query.limit ?? all.length)), total: all.length };
  }

  renameSession(id: string, title: string): SessionMeta | undefined {
    return this.updateMeta(id, (meta) => ({ ...meta, title: title.trim() === '' ? undefined : title.trim() }));
  }

  setStatus(id: string, status: SessionMeta['status']): SessionMeta | undefined {
    return this.updateMeta(id, (meta) => ({ ...meta, status }));
  }

  /** The session's own reply detail level; undefined follows the server's setting. */
  setReplyDetail(id: string, detail: ReplyDetail | undefined): SessionMeta | undefined {
    return this.updateMeta(id, ({ replyDetail: _previous, ...meta }) => (detail === undefined ? meta : { ...meta, replyDetail: detail }));
  }

  /** The session's own "ask the user at decision points" switch; undefined follows the server's setting. */
  setAskAtDecisionPoints(id: string, ask: boolean | undefined): SessionMeta | undefined {
    return this.updateMeta(id, ({ askAtDecisionPoints: _previous, ...meta }) =>
      ask === undefined ? meta : { ...meta, askAtDecisionPoints: ask },
    );
  }

  deleteSession(id: string): boolean {
    const wasHeld = this.held.delete(id);
    this.forgetCurrent(id);
    const deleted = (this.store?.deleteSession(id) ?? false) || wasHeld;
    if (deleted) this.emit({ type: 'sessionDeleted', sessionId: id });
    return deleted;
  }

  /** Adds (or replaces) a whole session, e.g. from an import. */
  importSession(snapshot: SessionSnapshot): SessionMeta {
    requireStrategy(snapshot.meta.strategy);
    this.store?.saveSession(snapshot);
    this.held.delete(snapshot.meta.id);
    this.hold(holdFromSnapshot(snapshot));
    this.emit({ type: 'sessionUpdated', meta: snapshot.meta });
    return snapshot.meta;
  }

  /**
   * Brings the session in line with its stored data after another process (the stdio CLI on the same store) changed
   * it. A held session is re-read and replaced, the stored data being the truth, so a connection of this process that
   * goes on writing to it continues after the other process's thoughts. Listeners hear `thoughtAdded` for each thought
   * the re-read adds after the held ones (then `stageChanged`/`sessionEnded` when those changed) and `sessionUpdated`
   * last; a session removed by the other process is dropped with `sessionDeleted`. Cheap when nothing changed: one
   * stat, through the store. Returns whether the store found a change this process did not make (false when the
   * store cannot tell, e.g. memory-only engines).
   */
  refreshSession(id: string): boolean {
    const store = this.store;
    if (store?.externalChange === undefined) return false;
    let change;
    try {
      change = store.externalChange(id);
    } catch (error) {
      if (error instanceof InvalidSessionIdError) return false;
      this.log(`could not check session "${id}" for changes by another process: ${errorMessage(error)}`);
      return false;
    }
    if (change === 'none') return false;
    const held = this.held.get(id);
    // Nothing in memory is stale: the next read goes to the store anyway.
    if (!held) return true;
    if (change === 'removed') {
      this.held.delete(id);
      this.forgetCurrent(id);
      this.emit({ type: 'sessionDeleted', sessionId: id });
      return true;
    }
    let snapshot: SessionSnapshot | undefined;
    try {
      snapshot = store.loadSession(id);
    } catch (error) {
      this.log(`could not re-read session "${id}": ${errorMessage(error)}`);
    }
    // Unreadable now (the store has said why) or removed since the stat: keep what is held; a removal notifies again.
    if (!snapshot) return true;
    const reloaded = holdFromSnapshot(snapshot);
    this.held.set(id, reloaded);
    const before = held.meta;
    const after = reloaded.meta;
    // Deltas only when the re-read extends what listeners have; otherwise (both processes wrote at once, and the
    // journal ordered the thoughts differently) `sessionUpdated` tells them to take the session as it now is.
    if (!sameFeedback(held.feedback, reloaded.feedback))
      this.emit({ type: 'feedbackChanged', meta: after, feedback: [...reloaded.feedback] });
    if (extendsThoughts(held.thoughts, reloaded.thoughts)) {
      for (const thought of reloaded.thoughts.slice(held.thoughts.length)) this.emit({ type: 'thoughtAdded', meta: after, thought });
      if (after.stage !== undefined && after.stage !== before.stage)
        this.emit({ type: 'stageChanged', meta: after, from: before.stage, to: after.stage });
      if (after.status === 'complete' && before.status !== 'complete') this.emit({ type: 'sessionEnded', meta: after });
    }
    this.emit({ type: 'sessionUpdated', meta: after });
    return true;
  }

  /** `refreshSession` for every held session (when a change notification does not say which file changed). */
  refreshHeldSessions(): string[] {
    return [...this.held.keys()].filter((id) => this.refreshSession(id));
  }

  /** Forgets a closed connection's current-session pointer; the session itself stays. */
  closeConnection(connectionId: string): void {
    this.currentByConnection.delete(connectionId);
    this.toldByConnection.delete(connectionId);
  }

  /** No connection is in the removed session any more, nor remembers what it was told about it. */
  private forgetCurrent(id: string): void {
    for (const [connection, sessionId] of this.currentByConnection) if (sessionId === id) this.currentByConnection.delete(connection);
    for (const [connection, told] of this.toldByConnection) if (told.sessionId === id) this.toldByConnection.delete(connection);
  }

  private updateMeta(id: string, change: (meta: SessionMeta) => SessionMeta): SessionMeta | undefined {
    const session = this.lookup(id);
    if (!session) return undefined;
    const changed = change(session.meta);
    // Idempotent on disk too: a change to what the session already has writes (and announces) nothing.
    if (sameShallow(changed, session.meta)) return session.meta;
    const next = { ...changed, updatedAt: this.now() };
    this.store?.updateMeta(next);
    session.meta = next;
    this.emit({ type: 'sessionUpdated', meta: next });
    return next;
  }

  private forgetFailedSession(id: string): void {
    try {
      this.store?.deleteSession(id);
    } catch (error) {
      this.log(`could not remove the empty session "${id}" after a failed write: ${errorMessage(error)}`);
    }
  }

  private emit(event: EngineEvent): void {
    this.events.emit(event, (error) => this.log(`engine listener failed: ${errorDetail(error)}`));
  }
}

/** The same fields with the same values, a field set to undefined counting as absent (a meta change that changes nothing). */
function sameShallow(a: object, b: object): boolean {
  const defined = (value: object) => Object.entries(value).filter(([, field]) => field !== undefined);
  const aFields = defined(a);
  const bValues = new Map(defined(b));
  return aFields.length === bValues.size && aFields.every(([key, field]) => bValues.get(key) === field);
}

/** The thought opens or continues a branch (either field alone counts: the session rules resolve the other). */
function branches(input: ThoughtInput): boolean {
  return input.branchId !== undefined || input.branchFromThought !== undefined;
}

/** Whether `next` is `previous` with thoughts appended (same thoughts, same order). */
function extendsThoughts(previous: readonly ThoughtRecord[], next: readonly ThoughtRecord[]): boolean {
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index++) {
    const a = previous[index];
    const b = next[index];
    if (a.timestamp !== b.timestamp || a.thoughtNumber !== b.thoughtNumber || a.branchId !== b.branchId || a.thought !== b.thought)
      return false;
  }
  return true;
}

/** Whether two feedback lists hold the same records in the same state. */
function sameFeedback(previous: readonly FeedbackRecord[], next: readonly FeedbackRecord[]): boolean {
  if (previous.length !== next.length) return false;
  for (let index = 0; index < previous.length; index++) {
    const a = previous[index];
    const b = next[index];
    if (a.id !== b.id || a.deliveredAt !== b.deliveredAt || a.appliedAt !== b.appliedAt) return false;
  }
  return true;
}
