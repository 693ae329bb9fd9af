// Errors of the file store that callers tell apart by class: each carries a message written for the person or agent
// who must act on it, so a caller prints it as it is (no stack trace) or passes it to the agent unchanged.
import { StoreRefusedError } from '../engine/model';

/** The store's path cannot be a folder of sessions (it is a file, or lies under one). */
export class StoreLocationError extends Error {
  constructor(
    readonly directory: string,
    reason: string,
  ) {
    super(`Cannot use ${directory} as the session store: ${reason}`);
    this.name = 'StoreLocationError';
  }
}

/**
 * A session's journal reached the store's size limit (maxSessionBytes): the record was refused before anything was
 * written, so nothing acknowledged is lost and the session stays readable. Sending it again cannot help; a new
 * session can.
 */
export class SessionFullError extends StoreRefusedError {
  constructor(
    readonly sessionId: string,
    readonly maxSessionBytes: number,
  ) {
    super(
      `Session "${sessionId}" is full: its journal would grow past the store's limit of ${formatBytes(maxSessionBytes)} (maxSessionBytes). ` +
        `This thought was not recorded. Continue in a new session: send sessionId "${sessionId.slice(0, 62)}-2" with thoughtNumber 1.`,
    );
    this.name = 'SessionFullError';
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
