// The session the webview holds: a full snapshot from the host plus the deltas applied since, and the prefix of it
// that is on screen (all of it live; the first `position` thoughts during a replay).
import type { FeedbackRecord, SessionMeta, SessionSnapshot, ThoughtRecord } from '../../src/engine/model';
import type { SessionView, StrategyView } from '../../src/shared/protocol';
import { snapshotOfView } from '../../src/engine/browserSafe/sessionSnapshot';

export type DeltaOutcome = 'appended' | 'otherSession' | 'duplicate' | 'gap';

export class SessionModel {
  private view: SessionView | null = null;
  /** Thoughts on screen; equals the thought count except during a replay. */
  private shownCount = 0;
  private replaying = false;

  get session(): SessionView | null {
    return this.view;
  }

  get strategy(): StrategyView | undefined {
    return this.view?.strategy;
  }

  /** The host's view of strategy `name` (the current one or one the session switched away from), if it sent one. */
  strategyNamed(name: string): StrategyView | undefined {
    const view = this.view;
    if (!view) return undefined;
    if (view.strategy?.name === name) return view.strategy;
    return view.earlierStrategies?.find((strategy) => strategy.name === name);
  }

  get total(): number {
    return this.view?.thoughts.length ?? 0;
  }

  get position(): number {
    return this.shownCount;
  }

  get isReplay(): boolean {
    return this.replaying;
  }

  load(view: SessionView | null, replay: boolean): void {
    this.view = view;
    this.replaying = replay;
    this.shownCount = replay ? 0 : (view?.thoughts.length ?? 0);
  }

  /** Applies a live thought; a gap (a delta lost while hidden) asks the caller to fetch the full session. */
  addThought(sessionId: string, meta: SessionMeta, thought: ThoughtRecord): DeltaOutcome {
    const view = this.view;
    if (!view || view.meta.id !== sessionId) return 'otherSession';
    if (thought.seq < view.thoughts.length) return 'duplicate';
    if (thought.seq > view.thoughts.length) return 'gap';
    view.thoughts.push(thought);
    view.meta = meta;
    if (!this.replaying) this.shownCount = view.thoughts.length;
    return 'appended';
  }

  updateMeta(meta: SessionMeta, strategy: StrategyView | undefined): boolean {
    if (!this.view || this.view.meta.id !== meta.id) return false;
    this.view.meta = meta;
    const current = this.view.strategy;
    if (strategy && current && current.name !== strategy.name) {
      // Keep the strategy switched away from: a replay of the earlier part still draws its graph.
      const earlier = (this.view.earlierStrategies ?? []).filter((known) => known.name !== current.name && known.name !== strategy.name);
      this.view.earlierStrategies = [...earlier, current];
    }
    if (strategy) this.view.strategy = strategy;
    return true;
  }

  /** The session's feedback list (feedbackChanged); false when it is about another session. */
  setFeedback(sessionId: string, feedback: FeedbackRecord[]): boolean {
    if (!this.view || this.view.meta.id !== sessionId) return false;
    this.view.feedback = feedback;
    return true;
  }

  /** Moves the replay position (clamped); returns the new position. */
  seek(position: number): number {
    this.shownCount = Math.max(0, Math.min(this.total, Math.round(position)));
    return this.shownCount;
  }

  shownThoughts(): ThoughtRecord[] {
    const thoughts = this.view?.thoughts ?? [];
    return this.shownCount === thoughts.length ? thoughts : thoughts.slice(0, this.shownCount);
  }

  /** The whole session, whatever the replay position (a replay draws the thought diagrams whole, then reveals them). */
  wholeSnapshot(): SessionSnapshot | undefined {
    return this.view ? snapshotOfView(this.view) : undefined;
  }

  /** The part on screen as an engine snapshot, which is what the diagram sources take. */
  shownSnapshot(): SessionSnapshot | undefined {
    return this.view ? snapshotOfView(this.view, this.shownCount) : undefined;
  }
}
