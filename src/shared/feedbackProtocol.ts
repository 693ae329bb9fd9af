// The explorer messages for steering a live session: the webview asks the host to record feedback (note, reject,
// branch, conclude), the host answers with the outcome and pushes the session's feedback list whenever it changes.
// Guards here, used by protocol.ts's isWebviewMessage / isHostMessage.
import type { FeedbackKind, FeedbackRecord } from '../engine/model';

export const FEEDBACK_KIND_NAMES: readonly FeedbackKind[] = ['note', 'reject', 'branch', 'conclude'];

/**
 * Longest text the host takes from a webview in one message: far above what feedback may hold (the engine refuses
 * more than 4,000 characters with a clear error), so an oversized note is answered, not dropped; a runaway payload is.
 */
export const MAX_FEEDBACK_MESSAGE_TEXT = 2 * 1024 * 1024;

/** Webview → host: record this feedback on `sessionId`; the host answers with `feedbackResult` for `requestId`. */
export interface GiveFeedbackMessage {
  type: 'giveFeedback';
  requestId: string;
  sessionId: string;
  kind: FeedbackKind;
  thoughtNumber?: number;
  text?: string;
  branchId?: string;
}

export type FeedbackHostMessage =
  /** The outcome of a `giveFeedback`: the error is written for the person. */
  | { type: 'feedbackResult'; requestId: string; ok: boolean; error?: string; feedback?: FeedbackRecord }
  /** The shown session's whole feedback list, after any change (added, delivered, applied, another process). */
  | { type: 'feedbackChanged'; sessionId: string; feedback: FeedbackRecord[] };

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isShortString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 200;
}

export function isFeedbackKindName(value: unknown): value is FeedbackKind {
  return typeof value === 'string' && (FEEDBACK_KIND_NAMES as readonly string[]).includes(value);
}

export function isGiveFeedbackMessage(value: Fields): boolean {
  return (
    isShortString(value.requestId) &&
    isShortString(value.sessionId) &&
    isFeedbackKindName(value.kind) &&
    (value.thoughtNumber === undefined || (typeof value.thoughtNumber === 'number' && Number.isSafeInteger(value.thoughtNumber))) &&
    (value.text === undefined || (typeof value.text === 'string' && value.text.length <= MAX_FEEDBACK_MESSAGE_TEXT)) &&
    (value.branchId === undefined || isShortString(value.branchId))
  );
}

export function isFeedbackRecordShape(value: unknown): value is FeedbackRecord {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    isFeedbackKindName(value.kind) &&
    typeof value.createdAt === 'number' &&
    (value.thoughtNumber === undefined || typeof value.thoughtNumber === 'number') &&
    (value.text === undefined || typeof value.text === 'string') &&
    (value.branchId === undefined || typeof value.branchId === 'string') &&
    (value.deliveredAt === undefined || typeof value.deliveredAt === 'number') &&
    (value.deliveredWithSeq === undefined || typeof value.deliveredWithSeq === 'number') &&
    (value.appliedAt === undefined || typeof value.appliedAt === 'number')
  );
}

export function isFeedbackHostMessage(value: Fields): boolean {
  switch (value.type) {
    case 'feedbackResult':
      return (
        isShortString(value.requestId) &&
        typeof value.ok === 'boolean' &&
        (value.error === undefined || typeof value.error === 'string') &&
        (value.feedback === undefined || isFeedbackRecordShape(value.feedback))
      );
    case 'feedbackChanged':
      return typeof value.sessionId === 'string' && Array.isArray(value.feedback) && value.feedback.every(isFeedbackRecordShape);
    default:
      return false;
  }
}
