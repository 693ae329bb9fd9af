// The session the view holds: its meta and thoughts, filled from the app-only page tool. Thoughts only ever append,
// so a refresh asks for the pages after the ones held; another session (or a shorter one) starts over.
import { metaFromThoughts, noThoughtCounters, withDerivedFrom } from '../src/engine/browserSafe/sessionMeta';
import type { SessionMeta, SessionSnapshot, ThoughtRecord } from '../src/engine/model';
import type { PageThought, SessionPage } from '../src/shared/thoughtGraph';
import { appendAll } from '../src/engine/browserSafe/arrayMath';

export type PageReader = (sessionId: string | undefined, offset: number) => Promise<SessionPage>;

export class SessionData {
  meta: Omit<SessionPage, 'thoughts' | 'offset' | 'nextOffset'> | undefined;
  thoughts: PageThought[] = [];

  /** Reads the pages past the thoughts held (all of them for another session); returns the thoughts added. */
  async refresh(sessionId: string | undefined, read: PageReader): Promise<number> {
    if (sessionId !== undefined && this.meta !== undefined && sessionId !== this.meta.sessionId) this.reset();
    const before = this.thoughts.length;
    let offset = before;
    for (;;) {
      const page = await read(sessionId ?? this.meta?.sessionId, offset);
      if (this.meta !== undefined && page.sessionId !== this.meta.sessionId) {
        // The connection moved to another session meanwhile: start over on that one.
        this.reset();
        offset = 0;
        continue;
      }
      if (page.thoughtCount < this.thoughts.length) {
        this.reset();
        offset = 0;
        continue;
      }
      const { thoughts, offset: _offset, nextOffset, ...meta } = page;
      this.meta = meta;
      appendAll(this.thoughts, thoughts);
      if (nextOffset === undefined || thoughts.length === 0) break;
      offset = nextOffset;
    }
    return this.thoughts.length - before;
  }

  reset(): void {
    this.meta = undefined;
    this.thoughts = [];
  }

  latest(): PageThought | undefined {
    return this.thoughts[this.thoughts.length - 1];
  }

  /** The shape src/diagrams draws from. */
  snapshot(): SessionSnapshot {
    const meta = this.meta;
    const base: SessionMeta = {
      id: meta?.sessionId ?? '',
      strategy: meta?.strategy ?? 'linear',
      stage: meta?.stage,
      status: (meta?.status ?? 'live') as SessionMeta['status'],
      createdAt: 0,
      updatedAt: 0,
      ...noThoughtCounters(),
      totalThoughts: meta?.totalThoughts ?? 0,
    };
    return {
      // The counters from the thoughts held; the rest (stage, status, the estimate) as the server's page says.
      meta: withDerivedFrom(base, metaFromThoughts(base, this.thoughts)),
      thoughts: this.thoughts as ThoughtRecord[],
      strategySwitches: [],
    };
  }
}
