// Requests across the host ↔ webview boundary that expect an answer: each carries a fresh id, its answer the same id
// (protocol.ts's REQUESTS names the pairs). One helper matches answers to requests on either side, so a late, repeated
// or foreign answer is ignored and a request nobody answers ends with a clear error rather than waiting forever.
import { randomId } from '../engine/browserSafe/randomId';

/** The clock a request waits on; tests pass their own. */
export interface RequestTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: RequestTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A request that got no answer in time, or was dropped because its other side went away. */
export class RequestFailedError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'closed',
  ) {
    super(message);
    this.name = 'RequestFailedError';
  }
}

interface Waiting<Response> {
  resolve: (response: Response) => void;
  reject: (error: RequestFailedError) => void;
  timer: unknown;
}

export interface PendingRequestsOptions {
  /** What is asked for, first in the error: "The diagrams for export". */
  what: string;
  /** The id prefix (`svg`, `feedback`). */
  prefix: string;
  timeoutMs: number;
  timers?: RequestTimers;
}

export class PendingRequests<Response> {
  private readonly waiting = new Map<string, Waiting<Response>>();
  private readonly timers: RequestTimers;

  constructor(private readonly options: PendingRequestsOptions) {
    this.timers = options.timers ?? REAL_TIMERS;
  }

  /** Requests waiting for their answer. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Sends a request (`send` posts it with the id given) and resolves with its answer; rejects with a
   * RequestFailedError after the timeout, or when `closeAll` is called first.
   */
  request(send: (requestId: string) => void): Promise<Response> {
    const requestId = randomId(this.options.prefix);
    return new Promise<Response>((resolve, reject) => {
      const timer = this.timers.set(() => {
        this.waiting.delete(requestId);
        reject(new RequestFailedError(`${this.options.what}: no answer within ${Math.round(this.options.timeoutMs / 1000)} s.`, 'timeout'));
      }, this.options.timeoutMs);
      this.waiting.set(requestId, { resolve, reject, timer });
      try {
        send(requestId);
      } catch (error) {
        this.waiting.delete(requestId);
        this.timers.clear(timer);
        throw error;
      }
    });
  }

  /** Settles the request `requestId` with `response`; false (and nothing happens) when no such request waits. */
  answer(requestId: string, response: Response): boolean {
    const waiting = this.waiting.get(requestId);
    if (!waiting) return false;
    this.waiting.delete(requestId);
    this.timers.clear(waiting.timer);
    waiting.resolve(response);
    return true;
  }

  /** Ends every waiting request (the other side went away): each rejects with `why`. */
  closeAll(why: string): void {
    for (const waiting of this.waiting.values()) {
      this.timers.clear(waiting.timer);
      waiting.reject(new RequestFailedError(`${this.options.what}: no answer, ${why}.`, 'closed'));
    }
    this.waiting.clear();
  }
}
