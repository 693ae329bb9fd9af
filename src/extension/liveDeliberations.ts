// Deliberations running in this window (started by @thinking or by the in-host MCP server): which roles are running,
// done, failed or cancelled, the model and tokens so far, and a way to stop each one. The explorer draws this next to
// the session it shows, and its Stop button calls stop(). Plain Node (no `vscode`), unit-tested.
import type { CallOutcome } from '../deliberation/runner';
import type { LiveDeliberationState, LiveRoleState } from '../shared/deliberationProtocol';

export class LiveDeliberation {
  private state: LiveDeliberationState;

  constructor(
    private readonly owner: LiveDeliberations,
    private readonly controller: AbortController,
    model: string,
    maxTotalTokens: number | undefined,
  ) {
    this.state = {
      sessionId: '',
      model,
      status: 'running',
      roles: [],
      inputTokens: 0,
      outputTokens: 0,
      calls: 0,
      ...(maxTotalTokens !== undefined ? { maxTotalTokens } : {}),
    };
  }

  get sessionId(): string {
    return this.state.sessionId;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  snapshot(): LiveDeliberationState {
    return { ...this.state, roles: this.state.roles.map((role) => ({ ...role })) };
  }

  /** A role call reached the model. */
  started(event: { sessionId: string; role: string; title: string }): void {
    if (this.state.sessionId === '') this.owner.adopt(this, event.sessionId);
    this.state.sessionId = event.sessionId;
    this.state.roles.push({ role: event.role, title: event.title, state: 'running' });
    this.state.calls++;
    this.owner.changed(this);
  }

  /** A role call's outcome was recorded as a thought. */
  recorded(outcome: CallOutcome, thoughtNumber: number): void {
    const entry = this.state.roles.find((role) => role.role === outcome.role.name && role.state === 'running');
    const state: LiveRoleState['state'] = outcome.status === 'ok' ? 'done' : outcome.status;
    const tokens = outcome.usage?.outputTokens;
    if (entry) Object.assign(entry, { state, thoughtNumber, ...(tokens !== undefined ? { tokens } : {}) });
    // A call that never started (cancelled or out of budget before it ran) still shows, in its final state.
    else
      this.state.roles.push({
        role: outcome.role.name,
        title: outcome.role.title,
        state,
        thoughtNumber,
        ...(tokens !== undefined ? { tokens } : {}),
      });
    if (outcome.usage) {
      this.state.inputTokens += outcome.usage.inputTokens;
      this.state.outputTokens += outcome.usage.outputTokens;
    }
    this.owner.changed(this);
  }

  finished(status: LiveDeliberationState['status']): void {
    // Anything still shown running never reported: the run ended around it.
    for (const role of this.state.roles) if (role.state === 'running') role.state = status === 'failed' ? 'failed' : 'cancelled';
    this.state.status = status;
    this.owner.changed(this);
    this.owner.forget(this);
  }

  stop(): void {
    if (this.state.status === 'running') this.controller.abort(new Error('stopped from the explorer'));
  }
}

export class LiveDeliberations {
  private readonly bySession = new Map<string, LiveDeliberation>();
  /** The last state of finished runs, so an explorer opened afterwards still shows how it ended. */
  private readonly ended = new Map<string, LiveDeliberationState>();
  private readonly listeners = new Set<(state: LiveDeliberationState) => void>();

  begin(options: { model: string; maxTotalTokens?: number; controller?: AbortController }): LiveDeliberation {
    return new LiveDeliberation(this, options.controller ?? new AbortController(), options.model, options.maxTotalTokens);
  }

  /** Stops the run recording into `sessionId`; false when none is running there. */
  stop(sessionId: string): boolean {
    const run = this.bySession.get(sessionId);
    if (!run) return false;
    run.stop();
    return true;
  }

  state(sessionId: string): LiveDeliberationState | undefined {
    return this.bySession.get(sessionId)?.snapshot() ?? this.ended.get(sessionId);
  }

  onDidChange(listener: (state: LiveDeliberationState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @internal */
  adopt(run: LiveDeliberation, sessionId: string): void {
    this.bySession.set(sessionId, run);
  }

  /** @internal */
  forget(run: LiveDeliberation): void {
    if (this.bySession.get(run.sessionId) === run) this.bySession.delete(run.sessionId);
    if (run.sessionId !== '') {
      this.ended.set(run.sessionId, run.snapshot());
      // Keep a handful: enough for the sessions someone may still be looking at.
      while (this.ended.size > 20) this.ended.delete(this.ended.keys().next().value!);
    }
  }

  /** @internal */
  changed(run: LiveDeliberation): void {
    if (run.sessionId === '') return;
    const state = run.snapshot();
    for (const listener of this.listeners) listener(state);
  }
}
