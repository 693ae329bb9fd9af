// The explorer messages for steering a live session: the webview asks the host to record feedback (note, reject,
// branch, conclude), the host answers with the outcome and pushes the session's feedback list whenever it changes.
// Schemas here, in protocol.ts's unions.
import * as z from 'zod/mini';
import { FEEDBACK_KINDS } from '../engine/browserSafe/feedbackKinds';
import type { FeedbackRecord } from '../engine/model';
import { shortText } from './wireSchemas';

/**
 * Longest text the host takes from a webview in one message: far above what feedback may hold (the engine refuses
 * more than 4,000 characters with a clear error), so an oversized note is answered, not dropped; a runaway payload is.
 */
export const MAX_FEEDBACK_MESSAGE_TEXT = 2 * 1024 * 1024;

const feedbackKind = z.enum(FEEDBACK_KINDS);

/** Webview → host: record this feedback on `sessionId`; the host answers with `feedbackResult` for `requestId`. */
export const giveFeedbackSchema = z.object({
  type: z.literal('giveFeedback'),
  requestId: shortText(),
  sessionId: shortText(),
  kind: feedbackKind,
  thoughtNumber: z.optional(z.int()),
  text: z.optional(z.string().check(z.maxLength(MAX_FEEDBACK_MESSAGE_TEXT))),
  branchId: z.optional(shortText()),
});
export type GiveFeedbackMessage = z.infer<typeof giveFeedbackSchema>;

const feedbackRecordShape = z.looseObject({
  id: z.string(),
  kind: feedbackKind,
  createdAt: z.number(),
  thoughtNumber: z.optional(z.number()),
  text: z.optional(z.string()),
  branchId: z.optional(z.string()),
  deliveredAt: z.optional(z.number()),
  deliveredWithSeq: z.optional(z.number()),
  appliedAt: z.optional(z.number()),
});
/** A feedback record as the host sends it: the engine's FeedbackRecord, checked field by field and passed on whole. */
export const feedbackRecordSchema = z.custom<FeedbackRecord>((value) => feedbackRecordShape.safeParse(value).success);

/** The outcome of a `giveFeedback`: the error is written for the person. */
export const feedbackResultSchema = z.object({
  type: z.literal('feedbackResult'),
  requestId: shortText(),
  ok: z.boolean(),
  error: z.optional(z.string()),
  feedback: z.optional(feedbackRecordSchema),
});

/** The shown session's whole feedback list, after any change (added, delivered, applied, another process). */
export const feedbackChangedSchema = z.object({
  type: z.literal('feedbackChanged'),
  sessionId: z.string(),
  feedback: z.array(feedbackRecordSchema),
});

export type FeedbackHostMessage = z.infer<typeof feedbackResultSchema> | z.infer<typeof feedbackChangedSchema>;
