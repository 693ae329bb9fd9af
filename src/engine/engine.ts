// The thinking engine: records thoughts, branches and revisions per session, keeps each connection's sessions apart,
// follows the session's strategy, persists through a SessionStore and tells listeners what happened.
import { randomBytes } from 'node:crypto';
import { EngineEventEmitter, type EngineEvent, type EngineEventListener } from './events';
import { resolveLimits, type EngineLimits } from './limits';
import type { ListSessionsQuery, ListSessionsResult, SessionMeta, SessionSnapshot, SessionStore, StrategySwitch, ThoughtRecord } from './model';
import { InvalidSessionIdError } from './model';
import { matchesQuery } from './sessionQuery';
import { decideStage, isTerminalStage, nextStages } from './stageFlow';
import { buildGuidance, buildProgress, stageWarnings, type ReplyProgress } from './guidance';
import { DEFAULT_STRATEGY, findStrategy, strategyNames } from './strategies/catalog';
import type { StrategyDefinition } from './strategies/types';
import { ThoughtInputError, parseThoughtInput, type ThoughtInput } from './thoughtInput';

/** What the `sequentialthinking` tool answers: the reference's five fields first, then ours. */
export interface ThoughtReply {
  thoughtNumber: number;
  totalThoughts: number;
  nextThoughtNeeded: boolean;
  branches: string[];
  thoughtHistoryLength: number;
  sessionId: string;
  strategy: string;
  stage: string;
  nextStages: string[];
  guidance: string;
  warnings: string[];
  /** Thoughts in this strategy so far against its typical length, and the fewest stages left to final_response. */
  progress: ReplyProgress;
}

export type ThoughtOutcome = { ok: true; reply: ThoughtReply } | { ok: false; error: string };

export interface EngineOptions {
  store?: SessionStore;
  limits?: Partial<EngineLimits>;
  defaultStrategy?: string;
  /** Where listener and store problems are reported; never stdout (it may carry the MCP protocol). */
  log?: (message: string) => void;
  now?: () => number;
}

/** A session held in memory, with the lookups a thought needs. */
interface HeldSession {
  meta: SessionMeta;
  thoughts: ThoughtRecord[];
  strategySwitches: StrategySwitch[];
  thoughtNumbers: Set<number>;
  /** Thoughts recorded in the current stage since entering it. */
  thoughtsInStage: number;
}

const PURPOSE_LENGTH = 120;

export class ThinkingEngine {
  readonly limits: EngineLimits;
  readonly defaultStrategy: string;
  private readonly store: SessionStore | undefined;
  private readonly events = new EngineEventEmitter();
  private readonly log: (message: string) => void;
  private readonly now: () => number;
  /** Sessions in memory, least recently used first. */
  private readonly held = new Map<string, HeldSession>();
  /** Each MCP connection's current session. */
  private readonly currentByConnection = new Map<string, string>();

  constructor(options: EngineOptions = {}) {
    this.limits = resolveLimits(options.limits);
    const defaultStrategy = options.defaultStrategy ?? DEFAULT_STRATEGY;
    if (!findStrategy(defaultStrategy)) throw new RangeError(`Unknown default strategy "${defaultStrategy}"`);
    this.defaultStrategy = defaultStrategy;
    this.store = options.store;
    this.log = options.log ?? ((message) => process.stderr.write(`${message}\n`));
    this.now = options.now ?? Date.now;
  }

  onEvent(listener: EngineEventListener): () => void {
    return this.events.on(listener);
  }

  /** Records one thought sent by `connectionId`. Never throws for bad input: the outcome says what was wrong. */
  process(connectionId: string, args: unknown): ThoughtOutcome {
    let input: ThoughtInput;
    try {
      input = parseThoughtInput(args, this.limits.maxThoughtLength);
    } catch (error) {
      if (error instanceof ThoughtInputError) return { ok: false, error: error.message };
      throw error;
    }
    try {
      return this.record(connectionId, input);
    } catch (error) {
      if (error instanceof RejectedThought) return { ok: false, error: error.message };
      // A session id the store cannot hold (e.g. "..") is bad input, not a disk failure: sending it again cannot help.
      if (error instanceof InvalidSessionIdError) return { ok: false, error: `Invalid sessionId: ${error.message}` };
      const message = error instanceof Error ? error.message : String(error);
      this.log(`thought not recorded: ${message}`);
      return { ok: false, error: `The thought could not be saved (${message}); nothing was recorded. Send it again.` };
    }
  }

  private record(connectionId: string, input: ThoughtInput): ThoughtOutcome {
    const warnings: string[] = [];
    const { session, isNew } = this.sessionFor(connectionId, input, warnings);
    const meta = session.meta;

    let strategy = requireStrategy(meta.strategy);
    let strategySwitch: StrategySwitch | undefined;
    let currentStage = meta.stage;
    let thoughtsInStage = session.thoughtsInStage;
    if (input.strategy !== undefined && input.strategy !== meta.strategy) {
      const target = findStrategy(input.strategy);
      if (!target) throw new RejectedThought(unknownStrategyMessage(input.strategy));
      if (isNew) {
        strategy = target;
      } else {
        if (meta.status === 'complete') {
          throw new RejectedThought(
            `Invalid strategy: session "${meta.id}" is complete, and a strategy can be switched only before completion. ` +
              `Start a new session in "${target.name}" with thoughtNumber 1, or omit strategy to stay in "${meta.strategy}".`,
          );
        }
        // A switch re-enters the stage flow in the new strategy and is kept in the session's history.
        strategySwitch = { atSeq: session.thoughts.length, from: meta.strategy, to: target.name, timestamp: this.now() };
        strategy = target;
        currentStage = undefined;
        thoughtsInStage = 0;
      }
    }

    if (session.thoughts.length >= this.limits.maxThoughtsPerSession) {
      throw new RejectedThought(
        `Session "${meta.id}" is full: it holds ${session.thoughts.length} thoughts, the most allowed (maxThoughtsPerSession). ` +
          `Continue in a new session: send sessionId "${meta.id.slice(0, 62)}-2" with thoughtNumber 1.`,
      );
    }
    if (input.revisesThought !== undefined && !session.thoughtNumbers.has(input.revisesThought)) {
      throw new RejectedThought(
        `Invalid revisesThought: got ${input.revisesThought}; expected the number of an existing thought of session "${meta.id}" (${describeNumbers(session.thoughtNumbers)}).`,
      );
    }
    if (input.branchFromThought !== undefined && !session.thoughtNumbers.has(input.branchFromThought)) {
      throw new RejectedThought(
        `Invalid branchFromThought: got ${input.branchFromThought}; expected the number of an existing thought of session "${meta.id}" (${describeNumbers(session.thoughtNumbers)}).`,
      );
    }
    if (input.isRevision === true && input.revisesThought === undefined) {
      warnings.push('isRevision is true but revisesThought is missing: send the number of the thought you revise.');
    }

    const branchIsNew = input.branchId !== undefined && !meta.branchIds.includes(input.branchId);
    const decision = decideStage(strategy, {
      current: currentStage,
      thoughtsInCurrent: thoughtsInStage,
      requested: input.stage,
      switching: strategySwitch !== undefined,
      isRevision: input.isRevision === true,
      branch: input.branchId === undefined ? undefined : branchIsNew ? 'newBranch' : 'existingBranch',
      finishing: !input.nextThoughtNeeded,
    });
    if (!decision.ok) throw new RejectedThought(decision.message);
    const stage = decision.stage;

    const timestamp = this.now();
    const thought: ThoughtRecord = {
      seq: session.thoughts.length,
      thought: input.thought,
      thoughtNumber: input.thoughtNumber,
      // As the reference does: an estimate that was exceeded grows to the thought's number.
      totalThoughts: Math.max(input.totalThoughts, input.thoughtNumber),
      nextThoughtNeeded: input.nextThoughtNeeded,
      stage,
      timestamp,
    };
    if (input.isRevision !== undefined) thought.isRevision = input.isRevision;
    if (input.revisesThought !== undefined) thought.revisesThought = input.revisesThought;
    if (input.branchFromThought !== undefined) thought.branchFromThought = input.branchFromThought;
    if (input.branchId !== undefined) thought.branchId = input.branchId;
    if (input.needsMoreThoughts !== undefined) thought.needsMoreThoughts = input.needsMoreThoughts;

    const completes = !input.nextThoughtNeeded || isTerminalStage(strategy, stage);
    const branchIds = branchIsNew ? [...meta.branchIds, input.branchId as string] : meta.branchIds;
    // A copy, then assignments: on the per-thought path V8 ran a spread followed by the same fields in one literal
    // several times slower (record()'s own time per thought halved in the CPU profile when this changed).
    const nextMeta: SessionMeta = { ...meta };
    nextMeta.strategy = strategy.name;
    nextMeta.stage = stage;
    nextMeta.status = completes ? 'complete' : 'live';
    nextMeta.updatedAt = timestamp;
    nextMeta.thoughtCount = meta.thoughtCount + 1;
    nextMeta.revisionCount = meta.revisionCount + (thought.isRevision ? 1 : 0);
    nextMeta.branchIds = branchIds;
    nextMeta.lastThoughtNumber = thought.thoughtNumber;
    nextMeta.totalThoughts = thought.totalThoughts;
    nextMeta.purpose = meta.purpose ?? shorten(thought.thought, PURPOSE_LENGTH);

    // Persist first: if the disk refuses, memory stays as it was and the agent is told to resend.
    if (this.store) {
      if (isNew) this.store.createSession(meta);
      try {
        if (strategySwitch) this.store.updateMeta({ ...meta, strategy: strategy.name, stage: undefined }, strategySwitch);
        this.store.appendThought(nextMeta, thought);
      } catch (error) {
        // A session created for this thought must not stay behind empty: the agent's resend would start another one.
        if (isNew) this.forgetFailedSession(meta.id);
        throw error;
      }
    }

    if (isNew) this.hold(session);
    if (strategySwitch) session.strategySwitches.push(strategySwitch);
    session.meta = nextMeta;
    session.thoughts.push(thought);
    session.thoughtNumbers.add(thought.thoughtNumber);
    session.thoughtsInStage = stage === currentStage ? thoughtsInStage + 1 : 1;
    this.currentByConnection.set(connectionId, nextMeta.id);

    if (this.events.hasListeners) {
      if (isNew) this.emit({ type: 'sessionStarted', meta: nextMeta });
      if (strategySwitch) this.emit({ type: 'sessionUpdated', meta: nextMeta });
      this.emit({ type: 'thoughtAdded', meta: nextMeta, thought });
      if (stage !== meta.stage) this.emit({ type: 'stageChanged', meta: nextMeta, from: meta.stage, to: stage });
      if (completes && meta.status !== 'complete') this.emit({ type: 'sessionEnded', meta: nextMeta });
    }

    const upcoming = completes ? [] : [...nextStages(strategy, stage)];
    warnings.push(...stageWarnings({ strategy, thought, branchIsNew, completes }));
    const switchedAt = session.strategySwitches[session.strategySwitches.length - 1]?.atSeq ?? 0;
    return {
      ok: true,
      reply: {
        thoughtNumber: thought.thoughtNumber,
        totalThoughts: thought.totalThoughts,
        nextThoughtNeeded: thought.nextThoughtNeeded,
        branches: nextMeta.branchIds,
        thoughtHistoryLength: session.thoughts.length,
        sessionId: nextMeta.id,
        strategy: strategy.name,
        stage,
        nextStages: upcoming,
        guidance: buildGuidance({ strategy, meta: nextMeta, thought, nextStages: upcoming, choice: decision.choice, thoughtsInStage: session.thoughtsInStage }),
        warnings,
        progress: buildProgress(strategy, stage, session.thoughts.length - switchedAt),
      },
    };
  }

  /** Picks the session a thought belongs to, creating one (not yet held or stored) when the rules say so. */
  private sessionFor(connectionId: string, input: ThoughtInput, warnings: string[]): { session: HeldSession; isNew: boolean } {
    if (input.sessionId !== undefined) {
      const existing = this.lookup(input.sessionId);
      if (existing) return { session: existing, isNew: false };
      if (input.thoughtNumber !== 1 || input.isRevision || input.branchId !== undefined) {
        throw new RejectedThought(
          `Invalid sessionId: no session "${input.sessionId}" exists. Omit sessionId to continue this conversation's session, ` +
            'use thinking_sessions list to find one, or send thoughtNumber 1 to start a new session with this id.',
        );
      }
      return { session: this.newSession(input.sessionId, input), isNew: true };
    }
    const currentId = this.currentByConnection.get(connectionId);
    const current = currentId === undefined ? undefined : this.lookup(currentId);
    if (current) {
      const startsOver =
        current.meta.status !== 'live' && input.thoughtNumber === 1 && !input.isRevision && input.branchId === undefined;
      if (!startsOver) return { session: current, isNew: false };
    } else if (currentId !== undefined) {
      warnings.push(`Session "${currentId}" could not be found any more; this thought starts a new session.`);
    }
    return { session: this.newSession(this.newSessionId(), input), isNew: true };
  }

  private newSession(id: string, input: ThoughtInput): HeldSession {
    const strategyName = input.strategy ?? this.defaultStrategy;
    if (!findStrategy(strategyName)) throw new RejectedThought(unknownStrategyMessage(strategyName));
    const now = this.now();
    return {
      meta: {
        id,
        strategy: strategyName,
        status: 'live',
        createdAt: now,
        updatedAt: now,
        thoughtCount: 0,
        revisionCount: 0,
        branchIds: [],
        lastThoughtNumber: 0,
        totalThoughts: input.totalThoughts,
      },
      thoughts: [],
      strategySwitches: [],
      thoughtNumbers: new Set(),
      thoughtsInStage: 0,
    };
  }

  private newSessionId(): string {
    // Sortable by creation time, unique by the random tail; safe as a file name.
    const stamp = new Date(this.now()).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    return `${stamp}-${randomBytes(4).toString('hex')}`;
  }

  /** A held session, or one loaded from the store (and then held). */
  private lookup(id: string): HeldSession | undefined {
    const held = this.held.get(id);
    if (held) {
      this.held.delete(id);
      this.held.set(id, held);
      return held;
    }
    const snapshot = this.store?.loadSession(id);
    if (!snapshot) return undefined;
    const session = holdFromSnapshot(snapshot);
    this.hold(session);
    return session;
  }

  private hold(session: HeldSession): void {
    this.held.set(session.meta.id, session);
    while (this.held.size > this.limits.maxSessionsInMemory) {
      const oldest = this.held.keys().next().value as string;
      this.held.delete(oldest);
    }
  }

  /** The whole session, from memory or disk. */
  getSession(id: string): SessionSnapshot | undefined {
    const held = this.held.get(id);
    if (held) return { meta: held.meta, thoughts: held.thoughts, strategySwitches: held.strategySwitches };
    return this.store?.loadSession(id);
  }

  /** The session a connection is working in, if any. */
  currentSessionId(connectionId: string): string | undefined {
    return this.currentByConnection.get(connectionId);
  }

  /** Makes a saved or held session the connection's current one (thinking_sessions resume); undefined if unknown. */
  resumeSession(connectionId: string, id: string): SessionSnapshot | undefined {
    const session = this.lookup(id);
    if (!session) return undefined;
    this.currentByConnection.set(connectionId, id);
    return { meta: session.meta, thoughts: session.thoughts, strategySwitches: session.strategySwitches };
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

  deleteSession(id: string): boolean {
    const wasHeld = this.held.delete(id);
    for (const [connection, sessionId] of this.currentByConnection) if (sessionId === id) this.currentByConnection.delete(connection);
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
      this.log(`could not check session "${id}" for changes by another process: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    if (change === 'none') return false;
    const held = this.held.get(id);
    // Nothing in memory is stale: the next read goes to the store anyway.
    if (!held) return true;
    if (change === 'removed') {
      this.held.delete(id);
      for (const [connection, sessionId] of this.currentByConnection) if (sessionId === id) this.currentByConnection.delete(connection);
      this.emit({ type: 'sessionDeleted', sessionId: id });
      return true;
    }
    let snapshot: SessionSnapshot | undefined;
    try {
      snapshot = store.loadSession(id);
    } catch (error) {
      this.log(`could not re-read session "${id}": ${error instanceof Error ? error.message : String(error)}`);
    }
    // Unreadable now (the store has said why) or removed since the stat: keep what is held; a removal notifies again.
    if (!snapshot) return true;
    const reloaded = holdFromSnapshot(snapshot);
    this.held.set(id, reloaded);
    const before = held.meta;
    const after = reloaded.meta;
    // Deltas only when the re-read extends what listeners have; otherwise (both processes wrote at once, and the
    // journal ordered the thoughts differently) `sessionUpdated` tells them to take the session as it now is.
    if (extendsThoughts(held.thoughts, reloaded.thoughts)) {
      for (const thought of reloaded.thoughts.slice(held.thoughts.length)) this.emit({ type: 'thoughtAdded', meta: after, thought });
      if (after.stage !== undefined && after.stage !== before.stage) this.emit({ type: 'stageChanged', meta: after, from: before.stage, to: after.stage });
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
  }

  private updateMeta(id: string, change: (meta: SessionMeta) => SessionMeta): SessionMeta | undefined {
    const session = this.lookup(id);
    if (!session) return undefined;
    const next = { ...change(session.meta), updatedAt: this.now() };
    this.store?.updateMeta(next);
    session.meta = next;
    this.emit({ type: 'sessionUpdated', meta: next });
    return next;
  }

  private forgetFailedSession(id: string): void {
    try {
      this.store?.deleteSession(id);
    } catch (error) {
      this.log(`could not remove the empty session "${id}" after a failed write: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private emit(event: EngineEvent): void {
    this.events.emit(event, (error) => this.log(`engine listener failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
  }
}

/** A thought refused by a session rule; its message is the error the agent sees. */
class RejectedThought extends Error {}

function requireStrategy(name: string): StrategyDefinition {
  const strategy = findStrategy(name);
  if (!strategy) throw new RejectedThought(unknownStrategyMessage(name));
  return strategy;
}

function unknownStrategyMessage(name: string): string {
  return `Invalid strategy: got "${name}"; expected one of ${strategyNames().join(', ')}.`;
}

function holdFromSnapshot(snapshot: SessionSnapshot): HeldSession {
  const thoughts = snapshot.thoughts;
  // Only thoughts since the last strategy switch count: an old strategy may have a stage of the same name.
  const switchedAt = snapshot.strategySwitches[snapshot.strategySwitches.length - 1]?.atSeq ?? 0;
  let thoughtsInStage = 0;
  for (let index = thoughts.length - 1; index >= switchedAt && thoughts[index].stage === snapshot.meta.stage; index--) thoughtsInStage++;
  return {
    meta: snapshot.meta,
    thoughts,
    strategySwitches: snapshot.strategySwitches,
    thoughtNumbers: new Set(thoughts.map((thought) => thought.thoughtNumber)),
    thoughtsInStage,
  };
}

/** Whether `next` is `previous` with thoughts appended (same thoughts, same order). */
function extendsThoughts(previous: readonly ThoughtRecord[], next: readonly ThoughtRecord[]): boolean {
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index++) {
    const a = previous[index];
    const b = next[index];
    if (a.timestamp !== b.timestamp || a.thoughtNumber !== b.thoughtNumber || a.branchId !== b.branchId || a.thought !== b.thought) return false;
  }
  return true;
}

function describeNumbers(numbers: Set<number>): string {
  if (numbers.size === 0) return 'it has no thoughts yet';
  const sorted = [...numbers].sort((a, b) => a - b);
  const shown = sorted.length > 12 ? `${sorted.slice(0, 5).join(', ')}, ..., ${sorted.slice(-5).join(', ')}` : sorted.join(', ');
  return `existing thought numbers: ${shown}`;
}

function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
