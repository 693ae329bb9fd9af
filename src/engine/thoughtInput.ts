// Turns a tool call's raw arguments into a typed ThoughtInput: accepts the camelCase names of the reference tool and
// the snake_case names models often send, and numbers/booleans sent as strings. Hand-written rather than a schema
// library: it runs on every call and must be cheap, and each error must name the field, the value and what is valid.
import { describeValue } from './fieldRules';
import type { ReferenceThoughtFields } from './model';

export interface ThoughtInput extends ReferenceThoughtFields {
  sessionId?: string;
  strategy?: string;
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

const SNAKE_CASE_ALIASES: Readonly<Record<string, keyof ThoughtInput>> = {
  thought_number: 'thoughtNumber',
  total_thoughts: 'totalThoughts',
  next_thought_needed: 'nextThoughtNeeded',
  is_revision: 'isRevision',
  revises_thought: 'revisesThought',
  branch_from_thought: 'branchFromThought',
  branch_id: 'branchId',
  needs_more_thoughts: 'needsMoreThoughts',
  session_id: 'sessionId',
};

/** Ids and names end up in file names, diagrams and logs: keep them to a safe alphabet. */
const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

function pick(args: Record<string, unknown>, name: keyof ThoughtInput, snake?: string): { key: string; value: unknown } {
  if (args[name] !== undefined) return { key: name, value: args[name] };
  if (snake !== undefined && args[snake] !== undefined) return { key: snake, value: args[snake] };
  return { key: name, value: undefined };
}

function positiveInteger(field: string, value: unknown): number {
  let number = value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) number = Number(value);
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
    throw new ThoughtInputError(field, value, 'a whole number of at least 1 (for example 3)');
  }
  return number;
}

function boolean(field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  throw new ThoughtInputError(field, value, 'true or false');
}

function name(field: string, value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) value = String(value);
  if (typeof value !== 'string' || !NAME_PATTERN.test(value)) {
    throw new ThoughtInputError(field, value, '1-64 letters, digits, "_", "-", "." or ":"');
  }
  return value;
}

const SNAKE_BY_FIELD: Partial<Record<keyof ThoughtInput, string>> = Object.fromEntries(
  Object.entries(SNAKE_CASE_ALIASES).map(([snake, field]) => [field, snake]),
);

/** Parses raw tool arguments. Throws ThoughtInputError on the first problem found. */
export function parseThoughtInput(raw: unknown, maxThoughtLength: number): ThoughtInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ThoughtInputError('arguments', raw, 'an object with thought, thoughtNumber, totalThoughts and nextThoughtNeeded');
  }
  const args = raw as Record<string, unknown>;
  const field = (key: keyof ThoughtInput) => pick(args, key, SNAKE_BY_FIELD[key]);

  const thought = field('thought');
  if (typeof thought.value !== 'string' || thought.value.trim() === '') {
    throw new ThoughtInputError('thought', thought.value, 'a non-empty string with this step of your reasoning');
  }
  if (thought.value.length > maxThoughtLength) {
    throw new ThoughtInputError(
      'thought',
      `${thought.value.length} characters`,
      `at most ${maxThoughtLength} characters; split it into several thoughts`,
    );
  }
  const input: ThoughtInput = {
    thought: thought.value,
    thoughtNumber: positiveInteger(field('thoughtNumber').key, field('thoughtNumber').value),
    totalThoughts: positiveInteger(field('totalThoughts').key, field('totalThoughts').value),
    nextThoughtNeeded: boolean(field('nextThoughtNeeded').key, field('nextThoughtNeeded').value),
  };

  const isRevision = field('isRevision');
  if (isRevision.value !== undefined && isRevision.value !== null) input.isRevision = boolean(isRevision.key, isRevision.value);
  const revisesThought = field('revisesThought');
  if (revisesThought.value !== undefined && revisesThought.value !== null) {
    input.revisesThought = positiveInteger(revisesThought.key, revisesThought.value);
  }
  const branchFromThought = field('branchFromThought');
  if (branchFromThought.value !== undefined && branchFromThought.value !== null) {
    input.branchFromThought = positiveInteger(branchFromThought.key, branchFromThought.value);
  }
  const branchId = field('branchId');
  if (branchId.value !== undefined && branchId.value !== null && branchId.value !== '') input.branchId = name(branchId.key, branchId.value);
  const needsMoreThoughts = field('needsMoreThoughts');
  if (needsMoreThoughts.value !== undefined && needsMoreThoughts.value !== null) {
    input.needsMoreThoughts = boolean(needsMoreThoughts.key, needsMoreThoughts.value);
  }
  const sessionId = field('sessionId');
  if (sessionId.value !== undefined && sessionId.value !== null && sessionId.value !== '') {
    input.sessionId = name(sessionId.key, sessionId.value);
    // Session ids name files: ".", ".." and hidden names could leave or hide in the store's directory.
    if (input.sessionId.startsWith('.')) throw new ThoughtInputError(sessionId.key, sessionId.value, '1-64 letters, digits, "_", "-", "." or ":", not starting with "."');
  }
  const strategy = field('strategy');
  if (strategy.value !== undefined && strategy.value !== null && strategy.value !== '') input.strategy = name(strategy.key, strategy.value);
  const stage = field('stage');
  if (stage.value !== undefined && stage.value !== null && stage.value !== '') input.stage = name(stage.key, stage.value);

  return input;
}
