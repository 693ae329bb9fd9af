// Which reply detail level applies to a session's `sequentialthinking` replies. Agents pay for every token of a reply
// on every later request, so the default says only what is new (the levels themselves are a field rule).
import type { ReplyDetail } from './fieldRules';

export const DEFAULT_REPLY_DETAIL: ReplyDetail = 'compact';

/** The level a session's replies use: its own setting (thinking_sessions configure) over the server's. */
export function effectiveReplyDetail(own: ReplyDetail | undefined, server: ReplyDetail | (() => ReplyDetail) | undefined): ReplyDetail {
  if (own !== undefined) return own;
  return (typeof server === 'function' ? server() : server) ?? DEFAULT_REPLY_DETAIL;
}
