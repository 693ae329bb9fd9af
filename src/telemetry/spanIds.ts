// Trace and span ids derived from the session, so that exporting a session twice (or streaming it, then exporting
// it) gives the same ids, and a link can name a thought's span before or after that span is sent.
import { createHash } from 'node:crypto';

function digest(text: string, hexLength: number): string {
  const hex = createHash('sha256').update(text).digest('hex').slice(0, hexLength);
  // All-zero ids are invalid in OTLP; a sha-256 prefix of zeros is practically impossible, but stay valid anyway.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

interface SessionIds {
  traceId: string;
  sessionSpanId: string;
  /** Two 32-bit keys from which each thought's span id is mixed. */
  high: number;
  low: number;
}

/** Per session, its ids are hashed once (sha-256 costs microseconds; a live session makes a span per thought). */
const cache = new Map<string, SessionIds>();
const CACHE_SIZE = 1024;

function idsOf(sessionId: string): SessionIds {
  let ids = cache.get(sessionId);
  if (ids === undefined) {
    const key = digest(`thought-explorer thought\u0000${sessionId}`, 16);
    ids = {
      traceId: digest(`thought-explorer trace\u0000${sessionId}`, 32),
      sessionSpanId: digest(`thought-explorer session\u0000${sessionId}`, 16),
      high: Number.parseInt(key.slice(0, 8), 16),
      low: Number.parseInt(key.slice(8), 16),
    };
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(sessionId, ids);
  }
  return ids;
}

/** MurmurHash3's 32-bit finalizer: a bijection, so distinct seqs of one session never share a span id. */
function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const hex8 = (value: number): string => value.toString(16).padStart(8, '0');

export const sessionTraceId = (sessionId: string): string => idsOf(sessionId).traceId;
export const sessionSpanId = (sessionId: string): string => idsOf(sessionId).sessionSpanId;
export function thoughtSpanId(sessionId: string, seq: number): string {
  const { high, low } = idsOf(sessionId);
  const id = hex8(mix(high ^ seq)) + hex8(mix(low ^ Math.imul(seq, 0x9e3779b9)));
  // The all-zero id is invalid in OTLP (one seq in 2^64 could give it).
  return id === '0000000000000000' ? '0000000000000001' : id;
}
export const decisionSpanId = (sessionId: string, thoughtNumber: number, at: number): string =>
  digest(`thought-explorer decision\u0000${sessionId}\u0000${thoughtNumber}\u0000${at}`, 16);
