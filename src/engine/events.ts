// Typed engine events: how the extension, the views and the store watcher learn what happened.
import type { FeedbackRecord, SessionMeta, ThoughtRecord } from './model';

export type EngineEvent =
  | { type: 'sessionStarted'; meta: SessionMeta }
  | { type: 'thoughtAdded'; meta: SessionMeta; thought: ThoughtRecord }
  | { type: 'stageChanged'; meta: SessionMeta; from: string | undefined; to: string }
  | { type: 'sessionEnded'; meta: SessionMeta }
  /** Rename, status change, strategy switch, import or delete: anything that changes a listing without a thought. */
  | { type: 'sessionUpdated'; meta: SessionMeta }
  | { type: 'sessionDeleted'; sessionId: string }
  /** The person gave feedback on a live session (in this process). */
  | { type: 'feedbackAdded'; meta: SessionMeta; feedback: FeedbackRecord }
  /** Feedback was delivered or applied, or another process changed it: `feedback` is the session's whole list now. */
  | { type: 'feedbackChanged'; meta: SessionMeta; feedback: FeedbackRecord[] };

export type EngineEventListener = (event: EngineEvent) => void;

/** A minimal synchronous emitter; listeners that throw are isolated so one bad view cannot break a tool call. */
export class EngineEventEmitter {
  private readonly listeners = new Set<EngineEventListener>();

  on(listener: EngineEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** With no listener (the stdio CLI), callers skip building events at all. */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  emit(event: EngineEvent, onListenerError: (error: unknown) => void): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        onListenerError(error);
      }
    }
  }
}
