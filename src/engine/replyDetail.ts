// How much a `sequentialthinking` reply says: the levels, their names as settings and flags spell them, and which one
// applies. Agents pay for every token of a reply on every later request, so the default says only what is new.
/** compact: only what changed since this connection's last reply; standard: every field but no empty or unchanged
 * extras; full: every field on every reply (the reply before detail levels existed). */
export const REPLY_DETAILS = ['compact', 'standard', 'full'] as const;
export type ReplyDetail = (typeof REPLY_DETAILS)[number];
export const DEFAULT_REPLY_DETAIL: ReplyDetail = 'compact';

export function isReplyDetail(value: unknown): value is ReplyDetail {
  return typeof value === 'string' && (REPLY_DETAILS as readonly string[]).includes(value);
}

/** The level a session's replies use: its own setting (thinking_sessions configure) over the server's. */
export function effectiveReplyDetail(own: ReplyDetail | undefined, server: ReplyDetail | (() => ReplyDetail) | undefined): ReplyDetail {
  if (own !== undefined) return own;
  return (typeof server === 'function' ? server() : server) ?? DEFAULT_REPLY_DETAIL;
}
