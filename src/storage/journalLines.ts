// Reading a file line by line in fixed-size chunks, synchronously. A journal is never held as one string: V8 cannot
// make a string longer than ~512 MiB, so a session that grew past that would be acknowledged and then unreadable.
// Memory stays at one chunk plus the longest line, whatever the file's size.
import { readSync } from 'node:fs';

/** Bytes read per readSync call. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * No line the store writes comes near this (a thought of 20,000 characters is at most ~120 KB of JSON); a longer line
 * is garbage and is skipped without ever being held whole, so no single line can exhaust memory or the string limit.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Called per line, without its "\n". `text` is undefined for a line longer than MAX_LINE_BYTES. `terminated` is false
 * only for a last line without a newline (a torn write). Return false to stop reading.
 */
export type LineHandler = (text: string | undefined, terminated: boolean) => boolean;

export interface LineScan {
  /** Position after the last byte read (start + bytes read). */
  end: number;
  /** Position after the last complete line ("\n") read; `start` when there was none. */
  consumed: number;
}

/** Reads fd's bytes [start, limit) line by line. Stops early at end of file or when the handler returns false. */
export function scanLines(fd: number, start: number, limit: number, onLine: LineHandler): LineScan {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, limit - start)));
  // The start of a line that continues past the current chunk: copies, since `chunk` is reused.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let position = start;
  let consumed = start;
  while (position < limit) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, limit - position), position);
    if (read === 0) break;
    const view = read === chunk.length ? chunk : chunk.subarray(0, read);
    let lineStart = 0;
    while (lineStart < read) {
      const newline = view.indexOf(0x0a, lineStart);
      if (newline === -1) {
        tooLong ||= pendingBytes + (read - lineStart) > MAX_LINE_BYTES;
        if (tooLong) pending = [];
        else pending.push(Buffer.from(view.subarray(lineStart)));
        pendingBytes += read - lineStart;
        break;
      }
      let text: string | undefined;
      if (tooLong || pendingBytes + (newline - lineStart) > MAX_LINE_BYTES) text = undefined;
      else if (pendingBytes === 0) text = view.toString('utf8', lineStart, newline);
      else text = Buffer.concat([...pending, view.subarray(lineStart, newline)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      tooLong = false;
      consumed = position + newline + 1;
      if (!onLine(text, true)) return { end: position + read, consumed };
      lineStart = newline + 1;
    }
    position += read;
  }
  if (pendingBytes > 0) onLine(tooLong ? undefined : Buffer.concat(pending).toString('utf8'), false);
  return { end: position, consumed };
}
