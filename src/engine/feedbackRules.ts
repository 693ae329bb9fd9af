// The rules for a person's feedback on a live session: what may be sent (kinds, bounds), and what each kind asks the
// agent to do. The same bounds apply to feedback typed in the explorer and to feedback read back from a journal.
import {
  FEEDBACK_KINDS,
  MAX_FEEDBACK_TEXT_LENGTH,
  NAME_RULE,
  describeValue,
  isFeedbackKind,
  isName,
  isWholeNumberInRange,
  visibleText,
} from './fieldRules';
import type { FeedbackKind, FeedbackRecord } from './model';
import { shortened } from './browserSafe/textCut';

export { FEEDBACK_KINDS, MAX_FEEDBACK_PER_SESSION, MAX_FEEDBACK_TEXT_LENGTH, feedbackRefusal, isFeedbackKind } from './fieldRules';

/** What the person sends; the engine adds id, author and time. */
export interface FeedbackInput {
  kind: FeedbackKind;
  thoughtNumber?: number;
  text?: string;
  branchId?: string;
}

/** Feedback refused before anything was stored; the message names the field, the value and what to send. */
export class FeedbackRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedbackRefusedError';
  }
}

/** What the kind needs: a thought number (required / allowed / not used) and a text (required / optional). */
const KIND_FIELDS: Record<FeedbackKind, { thought: 'required' | 'optional' | 'unused'; text: 'required' | 'optional' }> = {
  note: { thought: 'optional', text: 'required' },
  reject: { thought: 'required', text: 'required' },
  branch: { thought: 'required', text: 'optional' },
  conclude: { thought: 'unused', text: 'optional' },
};

/**
 * Checks feedback input on its own (the session's rules — live, thought exists — are the engine's) and returns the
 * normalised fields: text trimmed, empty optional text dropped. Throws FeedbackRefusedError.
 */
export function normaliseFeedbackInput(input: unknown): FeedbackInput {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new FeedbackRefusedError(
      `Invalid feedback: expected an object with kind (${FEEDBACK_KINDS.join(', ')}), got ${describeValue(input)}.`,
    );
  const source = input as Record<string, unknown>;
  if (!isFeedbackKind(source.kind))
    throw new FeedbackRefusedError(`Invalid kind: got ${describeValue(source.kind)}; send one of ${FEEDBACK_KINDS.join(', ')}.`);
  const kind = source.kind;
  const rules = KIND_FIELDS[kind];
  const result: FeedbackInput = { kind };

  if (source.thoughtNumber !== undefined && rules.thought !== 'unused') {
    if (!isWholeNumberInRange(source.thoughtNumber, 1))
      throw new FeedbackRefusedError(
        `Invalid thoughtNumber: got ${describeValue(source.thoughtNumber)}; send the number of a thought of the session (1 or more).`,
      );
    result.thoughtNumber = source.thoughtNumber;
  } else if (rules.thought === 'required') {
    throw new FeedbackRefusedError(`Missing thoughtNumber: ${kind} feedback names the thought it is about; send its number.`);
  }

  if (source.text !== undefined && typeof source.text !== 'string')
    throw new FeedbackRefusedError(`Invalid text: got ${describeValue(source.text)}; send a string.`);
  const text = typeof source.text === 'string' ? source.text.trim() : '';
  if (text.length > MAX_FEEDBACK_TEXT_LENGTH)
    throw new FeedbackRefusedError(
      `Invalid text: ${text.length} characters, more than feedback may hold (${MAX_FEEDBACK_TEXT_LENGTH}); shorten it.`,
    );
  if (text === '' && rules.text === 'required')
    throw new FeedbackRefusedError(
      kind === 'note'
        ? 'Empty note: type what the agent should know.'
        : 'Missing reason: say why the thought is wrong, so the agent knows what to revise.',
    );
  if (text !== '') result.text = text;

  if (source.branchId !== undefined && source.branchId !== '' && kind === 'branch') {
    if (!isName(source.branchId))
      throw new FeedbackRefusedError(`Invalid branchId: got ${describeValue(source.branchId)}; send ${NAME_RULE}, or leave it out.`);
    result.branchId = source.branchId;
  }
  return result;
}

/** One feedback item as the agent gets it on a reply: only what it needs to act. */
export interface DeliveredFeedback {
  id: string;
  kind: FeedbackKind;
  thoughtNumber?: number;
  text?: string;
  branchId?: string;
}

export function deliveredForm(record: FeedbackRecord): DeliveredFeedback {
  const item: DeliveredFeedback = { id: record.id, kind: record.kind };
  if (record.thoughtNumber !== undefined) item.thoughtNumber = record.thoughtNumber;
  if (record.text !== undefined) item.text = record.text;
  if (record.branchId !== undefined) item.branchId = record.branchId;
  return item;
}

/** Longest piece of the person's text quoted in the guidance sentence (the whole text is in userFeedback). */
const QUOTED_LENGTH = 160;

function quoted(text: string | undefined): string {
  if (text === undefined) return '';
  const short = shortened(text, QUOTED_LENGTH);
  // Guidance is shown to the agent and in logs: hidden controls (bidi and the like) written out.
  return JSON.stringify(visibleText(short.replace(/\s+/g, ' ')));
}

/** Which item leads the sentence: the one that asks for the most specific action. */
const PRIORITY: Record<FeedbackKind, number> = { reject: 0, branch: 1, conclude: 2, note: 3 };

/**
 * The one guidance sentence put before the strategy's guidance when feedback goes out: what the leading item asks
 * for, in the tool's own field names, and how many more items the list holds.
 */
export function feedbackGuidance(items: readonly FeedbackRecord[], finalStage: string | undefined): string {
  const lead = [...items].sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind])[0];
  let sentence: string;
  switch (lead.kind) {
    case 'reject':
      sentence = `The user asked you to revise thought ${lead.thoughtNumber} (reason: ${quoted(lead.text)}): send isRevision true, revisesThought ${lead.thoughtNumber}`;
      break;
    case 'branch':
      sentence =
        `The user asked you to explore an alternative from thought ${lead.thoughtNumber}${lead.text ? ` (${quoted(lead.text)})` : ''}: ` +
        `send branchFromThought ${lead.thoughtNumber}, branchId ${lead.branchId ? JSON.stringify(lead.branchId) : '<a name of your choice>'}`;
      break;
    case 'conclude':
      sentence =
        `The user asked you to conclude now${lead.text ? ` (${quoted(lead.text)})` : ''}: ` +
        `${finalStage ? `move to stage ${finalStage} and ` : ''}send your answer with nextThoughtNeeded false`;
      break;
    case 'note':
      sentence = `The user sent a note${lead.thoughtNumber !== undefined ? ` on thought ${lead.thoughtNumber}` : ''}: ${quoted(lead.text)}; take it into account in your next thought`;
      break;
  }
  const more = items.length - 1;
  return more > 0 ? `${sentence} (${more} more in userFeedback).` : `${sentence}.`;
}

/**
 * Whether a thought does what delivered feedback asked: revises the rejected thought, branches from the named one,
 * or ends the session (conclude). Notes ask for nothing checkable and are never applied.
 */
export function thoughtApplies(
  record: FeedbackRecord,
  thought: { isRevision?: boolean; revisesThought?: number; branchFromThought?: number },
  completes: boolean,
): boolean {
  switch (record.kind) {
    case 'reject':
      return thought.revisesThought === record.thoughtNumber && thought.revisesThought !== undefined;
    case 'branch':
      return thought.branchFromThought === record.thoughtNumber && thought.branchFromThought !== undefined;
    case 'conclude':
      return completes;
    case 'note':
      return false;
  }
}
