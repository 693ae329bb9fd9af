// The Feedback section of the Markdown and HTML exports, worded once: what the person told the agent during the
// session (notes, rejections, alternatives, "conclude now"), each with when it was given, delivered and applied, or why
// it was not acted on (the engine's rule, feedbackStatus.ts, so the export says what the explorer said). Plain
// strings; each format escapes them (the text is the person's, and a copied journal can hold anything).
import { feedbackStatus, feedbackStatusText } from '../engine/browserSafe/feedbackStatus';
import type { FeedbackRecord, SessionSnapshot } from '../engine/model';
import { isoDate } from './sessionFacts';

export interface FeedbackFact {
  /** "Note", "Reject thought 2", "Explore an alternative from thought 3 (branch alt-x)", "Conclude now". */
  title: string;
  /** Given, delivered and applied, with times. */
  status: string;
  /** The note, the reason or the comment, when there is one. */
  text?: string;
}

export function feedbackFacts(snapshot: SessionSnapshot): FeedbackFact[] {
  return (snapshot.feedback ?? []).map((record) => {
    const fact: FeedbackFact = { title: titleOf(record), status: statusOf(record, snapshot) };
    if (record.text !== undefined && record.text.trim() !== '') fact.text = record.text;
    return fact;
  });
}

function titleOf(record: FeedbackRecord): string {
  const about = record.thoughtNumber === undefined ? '' : ` thought ${record.thoughtNumber}`;
  switch (record.kind) {
    case 'note':
      return `Note${about ? ` on${about}` : ''}`;
    case 'reject':
      return `Reject${about}`;
    case 'branch':
      return `Explore an alternative from${about}${record.branchId ? ` (branch ${record.branchId})` : ''}`;
    case 'conclude':
      return 'Conclude now';
  }
}

function statusOf(record: FeedbackRecord, snapshot: SessionSnapshot): string {
  const parts = [`given ${isoDate(record.createdAt)}`];
  if (record.deliveredAt !== undefined) parts.push(`delivered ${isoDate(record.deliveredAt)}`);
  const { thoughts, meta } = snapshot;
  const status = feedbackStatus(record, { thoughts, status: meta.status });
  switch (status.state) {
    case 'pending':
      parts.push('not delivered');
      break;
    case 'delivered':
      break;
    case 'applied':
      parts.push(`${feedbackStatusText(record, thoughts, meta.status)} ${isoDate(record.appliedAt ?? 0)}`);
      break;
    case 'undelivered':
    case 'not-acted-on':
      parts.push(feedbackStatusText(record, thoughts, meta.status));
      break;
  }
  return parts.join(', ');
}
