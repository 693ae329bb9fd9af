// What a `sequentialthinking` call may send, defined once as a zod schema: the engine parses every thought with it, and
// McpServer parses the tool's calls with it (the tool advertises a canonical schema instead). Lenient on purpose:
// the reference tool's camelCase names and the snake_case names models often send, numbers and booleans also as text
// ("3", "false"), null for an optional field, unknown fields ignored. Every refusal names the field, the value and
// what to send instead.
import { z } from 'zod';
import { MAX_WHOLE_NUMBER, NAME_PATTERN, NAME_RULE, describeValue, isWholeNumberInRange } from './fieldRules';
import type { ReferenceThoughtFields } from './model';
import { QA_FIELDS, parseQaInput, type QaInput } from './qaInput';
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

/**
 * A value a field's schema did not accept, kept as the field's parsed value. Why not a zod failure: McpServer answers
 * a failed parse with its own text ("Input validation error: ..."), while every refusal must say, in our words, what to
 * send instead. So the schemas never fail; `parseThoughtInput` words each refusal (and so does thinking_sessions).
 */
export class RefusedValue {
  constructor(readonly value: unknown) {}
}

/** The value as sent, whether or not a schema refused it. */
export function sentValue(value: unknown): unknown {
  return value instanceof RefusedValue ? value.value : value;
}

/**
 * `schema`, with a refusal turned into a RefusedValue. zod also calls the catch function without a context to find a
 * default for the JSON Schema; it gets none (undefined is left out of the JSON).
 */
export function refusable<T extends z.ZodType>(schema: T): z.ZodType<z.output<T> | RefusedValue, z.input<T>> {
  const refuse = (context?: { value: unknown }) =>
    context === undefined ? undefined : context.value instanceof RefusedValue ? context.value : new RefusedValue(context.value);
  return schema.catch(refuse as unknown as () => z.output<T>) as unknown as z.ZodType<z.output<T> | RefusedValue, z.input<T>>;
}

/** A whole number written as text, e.g. " 3 ": digits only, with spaces around at most. */
export const WHOLE_NUMBER_TEXT = /^\s*\d+\s*$/;
const WHOLE_NUMBER_HINT = 'a whole number of at least 1 (for example 3)';
const WHOLE_NUMBER_RANGE = `a whole number from 1 to ${MAX_WHOLE_NUMBER} (for example 3)`;

/**
 * A whole number of at least 1, also as text ("3"); null (for an optional field) means absent. Beyond MAX_WHOLE_NUMBER
 * a number does not survive a JSON round trip exactly: the thought would be acknowledged and later unreadable.
 */
function wholeNumber(nullable = true) {
  // z.int() refuses what is beyond Number.MAX_SAFE_INTEGER (= MAX_WHOLE_NUMBER) itself: a .max() would be a second check.
  const number = z.int().min(1);
  // Only the text option has a transform: a number (nearly every call) passes the union as it is, with no pipe to run.
  const text = z.string().transform((value, context) => {
    const parsed = WHOLE_NUMBER_TEXT.test(value) ? Number(value) : Number.NaN;
    if (isWholeNumberInRange(parsed, 1)) return parsed;
    context.issues.push({ code: 'custom', message: WHOLE_NUMBER_HINT, input: value });
    return z.NEVER;
  });
  return refusable(z.union(nullable ? [number, text, z.null()] : [number, text])).optional();
}

/** What a refused whole number should have been: the range when it was a whole number, only too large. */
function wholeNumberExpectation(value: unknown): string {
  const number = typeof value === 'string' && WHOLE_NUMBER_TEXT.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 ? WHOLE_NUMBER_RANGE : WHOLE_NUMBER_HINT;
}

/** true or false, also as text in any case ("False", " true "); null (for an optional field) means absent. */
function flag(nullable = true) {
  // As for whole numbers: only the text option is transformed.
  const text = z.string().transform((value, context) => {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
    context.issues.push({ code: 'custom', message: 'true or false', input: value });
    return z.NEVER;
  });
  return refusable(z.union(nullable ? [z.boolean(), text, z.null()] : [z.boolean(), text])).optional();
}

/**
 * An id or name, also as a whole number (7 for "7"). The pattern is checked here rather than advertised: a validating
 * client would refuse the call with its own, vaguer message; ours says what the alphabet is.
 */
function name() {
  const checked = (value: string | number, context: z.RefinementCtx): string => {
    const text = typeof value === 'number' ? String(value) : value;
    if (text === '' || NAME_PATTERN.test(text)) return text;
    context.issues.push({ code: 'custom', message: NAME_RULE, input: text });
    return z.NEVER;
  };
  return refusable(z.union([z.string().transform(checked), z.int().transform(checked), z.null()])).optional();
}

/**
 * The thought itself: required. Not blank and its length limit are checked in parseThoughtInput (a refine here cost a
 * check run on every call).
 */
const thoughtText = refusable(z.string());

const FIELDS = {
  thought: thoughtText,
  thoughtNumber: wholeNumber(false),
  totalThoughts: wholeNumber(false),
  nextThoughtNeeded: flag(false),
  isRevision: flag(),
  revisesThought: wholeNumber(),
  branchFromThought: wholeNumber(),
  branchId: name(),
  needsMoreThoughts: flag(),
  sessionId: name(),
  strategy: name(),
  stage: name(),
  ...QA_FIELDS,
};

type Field = keyof typeof FIELDS;

/**
 * The arguments of one thought. Only `thought` is required here: the camelCase names also come as snake_case
 * (thought_number, ...), which this object passes through unparsed, and a validating client would refuse those calls if
 * the camelCase names were required. parseThoughtInput names any missing field.
 */
export const thoughtArgumentsSchema = z.looseObject(FIELDS);

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
  if (typeof value === 'number') return value;
  throw new ThoughtInputError(key, sentValue(value), wholeNumberExpectation(sentValue(value)));
}

function requiredFlag(parsed: Record<string, unknown>, field: Field): boolean {
  const { key, value } = pick(parsed, field);
  if (typeof value === 'boolean') return value;
  throw new ThoughtInputError(key, sentValue(value), 'true or false');
}

const NOT_SENT: { key: string; value: undefined } = Object.freeze({ key: '', value: undefined });
const expectFlag = () => 'true or false';
const expectName = () => NAME_RULE;

/** An optional field: undefined when absent, else its value, or a refusal in the words of its kind. */
function optional<T>(
  parsed: Record<string, unknown>,
  field: Field,
  expected: (value: unknown) => string,
): { key: string; value: T | undefined } {
  // Most optional fields are not sent at all: answer that without building a result per field and thought.
  if (parsed[field] === undefined) {
    const snake = SNAKE_CASE[field];
    if (snake === undefined || parsed[snake] === undefined) return NOT_SENT;
  }
  const { key, value } = pick(parsed, field);
  if (value instanceof RefusedValue) throw new ThoughtInputError(key, value.value, expected(value.value));
  return { key, value: absent(value) ? undefined : (value as T) };
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

  const isRevision = optional<boolean>(parsed, 'isRevision', expectFlag);
  if (isRevision.value !== undefined) input.isRevision = isRevision.value;
  const revisesThought = optional<number>(parsed, 'revisesThought', wholeNumberExpectation);
  if (revisesThought.value !== undefined) input.revisesThought = revisesThought.value;
  const branchFromThought = optional<number>(parsed, 'branchFromThought', wholeNumberExpectation);
  if (branchFromThought.value !== undefined) input.branchFromThought = branchFromThought.value;
  const branchId = optional<string>(parsed, 'branchId', expectName);
  if (branchId.value !== undefined) input.branchId = branchId.value;
  const needsMoreThoughts = optional<boolean>(parsed, 'needsMoreThoughts', expectFlag);
  if (needsMoreThoughts.value !== undefined) input.needsMoreThoughts = needsMoreThoughts.value;
  const sessionId = optional<string>(parsed, 'sessionId', expectName);
  if (sessionId.value !== undefined) {
    // Session ids name files: ".", ".." and hidden names could leave or hide in the store's directory.
    if (sessionId.value.startsWith('.')) throw new ThoughtInputError(sessionId.key, sessionId.value, `${NAME_RULE}, not starting with "."`);
    input.sessionId = sessionId.value;
  }
  const strategy = optional<string>(parsed, 'strategy', expectName);
  if (strategy.value !== undefined) input.strategy = strategy.value;
  const stage = optional<string>(parsed, 'stage', expectName);
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
