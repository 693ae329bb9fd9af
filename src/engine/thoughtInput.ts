// What a `sequentialthinking` call may send: the lenient schema made from the canonical one the tool advertises
// (canonicalThoughtInput.ts); the engine parses every thought with it, and McpServer the tool's calls. Lenient on purpose:
// the reference tool's camelCase names and the snake_case names models often send, numbers and booleans also as text
// ("3", "false"), null for an optional field, unknown fields ignored. Every refusal names the field, the value and
// what to send instead.
import { canonicalThoughtArguments } from './canonicalThoughtInput';
import { MAX_WHOLE_NUMBER, NAME_PATTERN, NAME_RULE, describeValue } from './fieldRules';
import { RefusedValue, WHOLE_NUMBER_TEXT, lenientOf, sentValue } from './lenientSchema';
import type { ReferenceThoughtFields } from './model';
import { parseQaInput, type QaInput } from './qaInput';
import { QA_WORKFLOW_NAMES } from './strategies/qaWorkflows';

export interface ThoughtInput extends ReferenceThoughtFields {
  sessionId?: string;
  strategy?: string;
  /** The QA fields, when the call carries any: see qaInput.ts. */
  qa?: QaInput;
}

export class ThoughtInputError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`Invalid ${field}: got ${describeValue(value)}; expected ${expected}.`);
    this.name = 'ThoughtInputError';
  }
}

const WHOLE_NUMBER_HINT = 'a whole number of at least 1 (for example 3)';
const WHOLE_NUMBER_RANGE = `a whole number from 1 to ${MAX_WHOLE_NUMBER} (for example 3)`;

/** What a refused whole number should have been: the range when it was a whole number, only too large. */
function wholeNumberExpectation(value: unknown): string {
  const number = typeof value === 'string' && WHOLE_NUMBER_TEXT.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 ? WHOLE_NUMBER_RANGE : WHOLE_NUMBER_HINT;
}

/**
 * The arguments of one thought, parsed leniently (lenientSchema.ts) from the canonical schema the tool advertises.
 * Only `thought` is required here: the camelCase names also come as snake_case (thought_number, ...), which this
 * object passes through unparsed, and a validating client would refuse those calls if the camelCase names were
 * required. parseThoughtInput names any missing field and checks ranges and names.
 */
export const thoughtArgumentsSchema = lenientOf(canonicalThoughtArguments);
const FIELDS = thoughtArgumentsSchema.shape;

type Field = keyof typeof FIELDS;

const SNAKE_CASE: Partial<Record<Field, string>> = {
  thoughtNumber: 'thought_number',
  totalThoughts: 'total_thoughts',
  nextThoughtNeeded: 'next_thought_needed',
  isRevision: 'is_revision',
  revisesThought: 'revises_thought',
  branchFromThought: 'branch_from_thought',
  branchId: 'branch_id',
  needsMoreThoughts: 'needs_more_thoughts',
  sessionId: 'session_id',
};

/** A field of a thought's arguments as sent, unparsed: under its camelCase name, else its snake_case one. */
export function sentField(raw: Record<string, unknown>, field: Field): unknown {
  if (raw[field] !== undefined) return raw[field];
  const snake = SNAKE_CASE[field];
  return snake === undefined ? undefined : raw[snake];
}

/** One field of the parsed arguments: under which name it came (camelCase first) and its parsed value. */
function pick(parsed: Record<string, unknown>, field: Field): { key: string; value: unknown } {
  if (parsed[field] !== undefined) return { key: field, value: parsed[field] };
  const snake = SNAKE_CASE[field];
  // The snake_case name passed through the object schema as sent: parse it with the field's own schema.
  if (snake !== undefined && parsed[snake] !== undefined) return { key: snake, value: FIELDS[field].parse(parsed[snake]) };
  return { key: field, value: undefined };
}

const absent = (value: unknown) => value === undefined || value === null || value === '';

function requiredNumber(parsed: Record<string, unknown>, field: Field): number {
  const { key, value } = pick(parsed, field);
  if (typeof value === 'number' && value >= 1) return value;
  throw new ThoughtInputError(key, sentValue(value), wholeNumberExpectation(sentValue(value)));
}

function requiredFlag(parsed: Record<string, unknown>, field: Field): boolean {
  const { key, value } = pick(parsed, field);
  if (typeof value === 'boolean') return value;
  throw new ThoughtInputError(key, sentValue(value), 'true or false');
}

const NOT_SENT: { key: string; value: undefined } = Object.freeze({ key: '', value: undefined });

/** An optional field as parsed: NOT_SENT when absent under both names. */
function sent(parsed: Record<string, unknown>, field: Field): { key: string; value: unknown } {
  // Most optional fields are not sent at all: answer that without building a result per field and thought.
  if (parsed[field] === undefined) {
    const snake = SNAKE_CASE[field];
    if (snake === undefined || parsed[snake] === undefined) return NOT_SENT;
  }
  return pick(parsed, field);
}

/** An optional flag: undefined when absent, else its value, or a refusal. */
function optionalFlag(parsed: Record<string, unknown>, field: Field): boolean | undefined {
  const read = sent(parsed, field);
  if (read === NOT_SENT) return undefined;
  const { key, value } = read;
  if (value instanceof RefusedValue) throw new ThoughtInputError(key, value.value, 'true or false');
  return absent(value) ? undefined : (value as boolean);
}

/** An optional whole number of at least 1: undefined when absent, else its value, or a refusal naming the range. */
function optionalNumber(parsed: Record<string, unknown>, field: Field): number | undefined {
  const read = sent(parsed, field);
  if (read === NOT_SENT) return undefined;
  const { key, value } = read;
  if (absent(value)) return undefined;
  if (typeof value === 'number' && value >= 1) return value;
  throw new ThoughtInputError(key, sentValue(value), wholeNumberExpectation(sentValue(value)));
}

/**
 * An optional id or name, also as a whole number (7 for "7"). The pattern is checked here rather than advertised: a
 * validating client would refuse the call with its own, vaguer message; ours says what the alphabet is.
 */
function optionalName(parsed: Record<string, unknown>, field: Field): { key: string; value: string | undefined } {
  const read = sent(parsed, field);
  if (read === NOT_SENT) return NOT_SENT;
  const { key, value } = read;
  const text = value instanceof RefusedValue && Number.isSafeInteger(value.value) ? String(value.value) : value;
  if (absent(text)) return { key, value: undefined };
  if (typeof text === 'string' && NAME_PATTERN.test(text)) return { key, value: text };
  throw new ThoughtInputError(key, sentValue(text), NAME_RULE);
}

/**
 * Parses raw tool arguments, or with `alreadyParsed` reads arguments thoughtArgumentsSchema produced (McpServer parses
 * a call's arguments with it before its handler runs; parsing is idempotent, so a second parse would only cost time).
 */
export function parseThoughtInput(raw: unknown, maxThoughtLength: number, alreadyParsed = false): ThoughtInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ThoughtInputError('arguments', raw, 'an object with thought, thoughtNumber, totalThoughts and nextThoughtNeeded');
  }
  const parsed = (alreadyParsed ? raw : thoughtArgumentsSchema.parse(raw)) as Record<string, unknown>;

  const thought = parsed.thought;
  if (typeof thought !== 'string' || thought.trim() === '') {
    throw new ThoughtInputError('thought', sentValue(thought), 'a non-empty string with this step of your reasoning');
  }
  if (thought.length > maxThoughtLength) {
    throw new ThoughtInputError(
      'thought',
      `${thought.length} characters`,
      `at most ${maxThoughtLength} characters; split it into several thoughts`,
    );
  }
  const input: ThoughtInput = {
    thought,
    thoughtNumber: requiredNumber(parsed, 'thoughtNumber'),
    totalThoughts: requiredNumber(parsed, 'totalThoughts'),
    nextThoughtNeeded: requiredFlag(parsed, 'nextThoughtNeeded'),
  };

  const isRevision = optionalFlag(parsed, 'isRevision');
  if (isRevision !== undefined) input.isRevision = isRevision;
  const revisesThought = optionalNumber(parsed, 'revisesThought');
  if (revisesThought !== undefined) input.revisesThought = revisesThought;
  const branchFromThought = optionalNumber(parsed, 'branchFromThought');
  if (branchFromThought !== undefined) input.branchFromThought = branchFromThought;
  const branchId = optionalName(parsed, 'branchId');
  if (branchId.value !== undefined) input.branchId = branchId.value;
  const needsMoreThoughts = optionalFlag(parsed, 'needsMoreThoughts');
  if (needsMoreThoughts !== undefined) input.needsMoreThoughts = needsMoreThoughts;
  const sessionId = optionalName(parsed, 'sessionId');
  if (sessionId.value !== undefined) {
    // Session ids name files: ".", ".." and hidden names could leave or hide in the store's directory.
    if (sessionId.value.startsWith('.')) throw new ThoughtInputError(sessionId.key, sessionId.value, `${NAME_RULE}, not starting with "."`);
    input.sessionId = sessionId.value;
  }
  const strategy = optionalName(parsed, 'strategy');
  if (strategy.value !== undefined) input.strategy = strategy.value;
  const stage = optionalName(parsed, 'stage');
  if (stage.value !== undefined) input.stage = stage.value;

  const qa = parseQaInput(parsed, QA_WORKFLOW_NAMES);
  if (qa !== undefined) {
    // `workflow` is the QA name for a strategy: it picks the same thing, so both may come only if they agree.
    if (qa.workflow !== undefined && input.strategy !== undefined && input.strategy !== qa.workflow) {
      throw new ThoughtInputError('workflow', qa.workflow, `the same as strategy "${input.strategy}", or only one of the two`);
    }
    if (qa.workflow !== undefined) input.strategy = qa.workflow;
    input.qa = qa;
  }
  return input;
}
