// What a person's feedback on a live session may be, named once for the engine's rules, the store's checks, the
// explorer's protocol and the `userFeedback` of a sequentialthinking reply.
export const FEEDBACK_KINDS = ['note', 'reject', 'branch', 'conclude'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

export function isFeedbackKind(value: unknown): value is FeedbackKind {
  return typeof value === 'string' && (FEEDBACK_KINDS as readonly string[]).includes(value);
}
