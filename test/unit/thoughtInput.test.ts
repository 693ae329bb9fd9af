// Specification of tool-argument parsing: the reference's camelCase fields, the snake_case names models send,
// numbers and booleans sent as strings, and an error for every bad value that names the field, the value and what
// would be valid.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_WHOLE_NUMBER, describeValue } from '../../src/engine/fieldRules';
import { ThoughtInputError, parseThoughtInput, thoughtArgumentsSchema } from '../../src/engine/thoughtInput';

const MAX = 1000;
const base = { thought: 'Consider the problem.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true };

function refusal(args: unknown, maxLength = MAX): ThoughtInputError {
  try {
    parseThoughtInput(args, maxLength);
  } catch (error) {
    assert.ok(error instanceof ThoughtInputError, `expected a ThoughtInputError, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${JSON.stringify(args)} to be refused`);
}

describe('parseThoughtInput', () => {
  it('accepts the reference fields in camelCase', () => {
    const input = parseThoughtInput({ ...base, thoughtNumber: 2, isRevision: true, revisesThought: 1, needsMoreThoughts: false }, MAX);
    assert.deepEqual(input, { ...base, thoughtNumber: 2, isRevision: true, revisesThought: 1, needsMoreThoughts: false });
  });

  it('accepts branch fields together, and our optional sessionId, strategy and stage', () => {
    const input = parseThoughtInput(
      {
        ...base,
        thoughtNumber: 3,
        branchFromThought: 2,
        branchId: 'alt-1',
        sessionId: 'task:42',
        strategy: 'react',
        stage: 'action_planning',
      },
      MAX,
    );
    assert.equal(input.branchFromThought, 2);
    assert.equal(input.branchId, 'alt-1');
    assert.equal(input.sessionId, 'task:42');
    assert.equal(input.strategy, 'react');
    assert.equal(input.stage, 'action_planning');
  });

  it('accepts the snake_case names models often send', () => {
    const input = parseThoughtInput(
      {
        thought: 'x',
        thought_number: 4,
        total_thoughts: 5,
        next_thought_needed: false,
        is_revision: true,
        revises_thought: 2,
        needs_more_thoughts: true,
        session_id: 's1',
      },
      MAX,
    );
    assert.deepEqual(input, {
      thought: 'x',
      thoughtNumber: 4,
      totalThoughts: 5,
      nextThoughtNeeded: false,
      isRevision: true,
      revisesThought: 2,
      needsMoreThoughts: true,
      sessionId: 's1',
    });
    const branch = parseThoughtInput({ ...base, branch_from_thought: 1, branch_id: 'b' }, MAX);
    assert.equal(branch.branchFromThought, 1);
    assert.equal(branch.branchId, 'b');
  });

  it('accepts numbers and booleans sent as strings ("3", "false")', () => {
    const input = parseThoughtInput(
      {
        thought: 'x',
        thoughtNumber: '3',
        totalThoughts: ' 7 ',
        nextThoughtNeeded: 'false',
        isRevision: 'TRUE',
        revisesThought: '1',
        needsMoreThoughts: 'false',
      },
      MAX,
    );
    assert.equal(input.thoughtNumber, 3);
    assert.equal(input.totalThoughts, 7);
    assert.equal(input.nextThoughtNeeded, false);
    assert.equal(input.isRevision, true);
    assert.equal(input.revisesThought, 1);
    assert.equal(input.needsMoreThoughts, false);
    assert.equal(parseThoughtInput({ ...base, nextThoughtNeeded: 'true' }, MAX).nextThoughtNeeded, true);
  });

  it('prefers the camelCase name when both spellings are sent', () => {
    assert.equal(parseThoughtInput({ ...base, thoughtNumber: 2, thought_number: 9 }, MAX).thoughtNumber, 2);
  });

  it('treats null and empty optional fields as absent', () => {
    const input = parseThoughtInput(
      { ...base, isRevision: null, revisesThought: null, branchId: '', sessionId: '', strategy: null, stage: '' },
      MAX,
    );
    assert.deepEqual(input, base);
  });

  it('parses each field alone and leaves cross-field rules to the engine (which knows the session)', () => {
    assert.deepEqual(parseThoughtInput({ ...base, revisesThought: '1' }, MAX), { ...base, revisesThought: 1 });
    assert.deepEqual(parseThoughtInput({ ...base, is_revision: false, revises_thought: 1 }, MAX), {
      ...base,
      isRevision: false,
      revisesThought: 1,
    });
    assert.deepEqual(parseThoughtInput({ ...base, branchId: 'b' }, MAX), { ...base, branchId: 'b' });
    assert.deepEqual(parseThoughtInput({ ...base, branchFromThought: 1 }, MAX), { ...base, branchFromThought: 1 });
  });

  const refusals: { name: string; args: unknown; field: string; value: string; expected: RegExp }[] = [
    { name: 'arguments that are not an object', args: 'think', field: 'arguments', value: '"think"', expected: /an object with thought/ },
    { name: 'arguments that are an array', args: [base], field: 'arguments', value: '[', expected: /an object/ },
    { name: 'a missing thought', args: { ...base, thought: undefined }, field: 'thought', value: 'nothing', expected: /non-empty string/ },
    { name: 'a blank thought', args: { ...base, thought: '   ' }, field: 'thought', value: '"   "', expected: /non-empty string/ },
    { name: 'a thought that is a number', args: { ...base, thought: 5 }, field: 'thought', value: '5', expected: /non-empty string/ },
    {
      name: 'a thoughtNumber of 0',
      args: { ...base, thoughtNumber: 0 },
      field: 'thoughtNumber',
      value: '0',
      expected: /whole number of at least 1/,
    },
    { name: 'a negative thoughtNumber', args: { ...base, thoughtNumber: -2 }, field: 'thoughtNumber', value: '-2', expected: /at least 1/ },
    {
      name: 'a fractional thoughtNumber',
      args: { ...base, thoughtNumber: 1.5 },
      field: 'thoughtNumber',
      value: '1.5',
      expected: /whole number/,
    },
    {
      name: 'a thoughtNumber that is words',
      args: { ...base, thoughtNumber: 'three' },
      field: 'thoughtNumber',
      value: '"three"',
      expected: /whole number/,
    },
    {
      name: 'a missing totalThoughts',
      args: { ...base, totalThoughts: undefined },
      field: 'totalThoughts',
      value: 'nothing',
      expected: /whole number/,
    },
    {
      name: 'a snake_case total_thoughts of "0"',
      args: { thought: 'x', thoughtNumber: 1, total_thoughts: '0', nextThoughtNeeded: true },
      field: 'total_thoughts',
      // Read as the whole number it writes (the lenient parse takes "0" as 0); the range is the engine's to refuse.
      value: '0',
      expected: /whole number/,
    },
    {
      name: 'a nextThoughtNeeded of "maybe"',
      args: { ...base, nextThoughtNeeded: 'maybe' },
      field: 'nextThoughtNeeded',
      value: '"maybe"',
      expected: /true or false/,
    },
    {
      name: 'a missing nextThoughtNeeded',
      args: { ...base, nextThoughtNeeded: undefined },
      field: 'nextThoughtNeeded',
      value: 'nothing',
      expected: /true or false/,
    },
    { name: 'an isRevision of 1', args: { ...base, isRevision: 1 }, field: 'isRevision', value: '1', expected: /true or false/ },
    {
      name: 'a revisesThought of 0',
      args: { ...base, isRevision: true, revisesThought: 0 },
      field: 'revisesThought',
      value: '0',
      expected: /at least 1/,
    },
    {
      name: 'a branchFromThought of "x"',
      args: { ...base, branchFromThought: 'x', branchId: 'b' },
      field: 'branchFromThought',
      value: '"x"',
      expected: /whole number/,
    },
    {
      name: 'a branchId with spaces',
      args: { ...base, branchFromThought: 1, branchId: 'my branch' },
      field: 'branchId',
      value: '"my branch"',
      expected: /letters, digits/,
    },
    {
      name: 'a branchId too long',
      args: { ...base, branchFromThought: 1, branchId: 'b'.repeat(65) },
      field: 'branchId',
      value: 'bbbb',
      expected: /1-64/,
    },
    {
      name: 'a needsMoreThoughts of "yes"',
      args: { ...base, needsMoreThoughts: 'yes' },
      field: 'needsMoreThoughts',
      value: '"yes"',
      expected: /true or false/,
    },
    {
      name: 'a sessionId with a path',
      args: { ...base, sessionId: '../../etc/passwd' },
      field: 'sessionId',
      value: '"../../etc/passwd"',
      expected: /letters, digits/,
    },
    {
      name: 'a sessionId of ".."',
      args: { ...base, sessionId: '..' },
      field: 'sessionId',
      value: '".."',
      expected: /not starting with "\."/,
    },
    {
      name: 'a hidden session_id',
      args: { ...base, session_id: '.index' },
      field: 'session_id',
      value: '".index"',
      expected: /not starting with "\."/,
    },
    { name: 'a strategy with a slash', args: { ...base, strategy: 'a/b' }, field: 'strategy', value: '"a/b"', expected: /letters, digits/ },
    {
      name: 'a stage that is an object',
      args: { ...base, stage: { name: 'x' } },
      field: 'stage',
      value: '{"name":"x"}',
      expected: /letters, digits/,
    },
  ];

  for (const { name, args, field, value, expected } of refusals) {
    it(`refuses ${name}, naming the field, the value and what is valid`, () => {
      const error = refusal(args);
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`^Invalid ${field}: got `));
      assert.ok(error.message.includes(value), `message ${JSON.stringify(error.message)} should show the value ${value}`);
      assert.match(error.message, /expected /);
      assert.match(error.message, expected);
    });
  }

  it('refuses a thought longer than the limit, saying the limit and how to proceed', () => {
    const error = refusal({ ...base, thought: 'x'.repeat(101) }, 100);
    assert.equal(error.field, 'thought');
    assert.match(error.message, /got "101 characters"; expected at most 100 characters; split it/);
    assert.doesNotThrow(() => parseThoughtInput({ ...base, thought: 'x'.repeat(100) }, 100));
  });

  it('shortens very long values in messages', () => {
    const error = refusal({ ...base, strategy: 'x'.repeat(500) });
    assert.ok(error.message.length < 250, error.message);
    assert.match(error.message, /\.\.\./);
  });

  it('refuses whole numbers beyond 2^53-1 up front, naming the field and the allowed range', () => {
    const fields: [string, Record<string, unknown>][] = [
      ['thoughtNumber', {}],
      ['totalThoughts', {}],
      ['revisesThought', { isRevision: true }],
      ['branchFromThought', { branchId: 'b' }],
      ['total_thoughts', { totalThoughts: undefined }],
    ];
    for (const [field, extra] of fields) {
      for (const value of [1e308, 2 ** 53, '99999999999999999999999', MAX_WHOLE_NUMBER + 2]) {
        const error = refusal({ ...base, ...extra, [field]: value });
        assert.equal(error.field, field, `${field} = ${String(value)}`);
        assert.equal(
          error.message,
          `Invalid ${field}: got ${describeValue(value)}; expected a whole number from 1 to 9007199254740991 (for example 3).`,
        );
      }
    }
    assert.equal(
      parseThoughtInput({ ...base, thoughtNumber: MAX_WHOLE_NUMBER, totalThoughts: String(MAX_WHOLE_NUMBER) }, MAX).totalThoughts,
      MAX_WHOLE_NUMBER,
    );
  });

  it('refuses 100,000-deep arrays and objects with an error naming the field, without walking them', () => {
    let array: unknown = [];
    let object: unknown = {};
    for (let depth = 0; depth < 100_000; depth++) {
      array = [array];
      object = { a: object };
    }
    const cases: [string, Record<string, unknown>][] = [
      ['thought', { thought: array }],
      ['thought', { thought: object }],
      ['branchId', { branchFromThought: 1, branchId: array }],
      ['sessionId', { sessionId: array }],
      ['session_id', { session_id: object }],
      ['stage', { stage: array }],
      ['thoughtNumber', { thoughtNumber: array }],
      ['nextThoughtNeeded', { nextThoughtNeeded: object }],
    ];
    for (const [field, args] of cases) {
      const error = refusal({ ...base, ...args });
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`^Invalid ${field}: got [\\[{]["a:{\\[]+\\.\\.\\.; expected `));
      assert.ok(error.message.length < 250);
    }
  });

  it('describes values as JSON.stringify does, cut at 80 characters', () => {
    const samples: unknown[] = [
      null,
      true,
      0,
      -1.5,
      1e308,
      'text',
      'a "quoted" \\ line\n',
      '😀 ümlaut \u2028',
      'x'.repeat(200),
      [],
      {},
      [1, 'two', null, [3]],
      { name: 'x', nested: { list: [1, 2, { deep: true }] }, skipped: undefined },
      [undefined, 1],
      { a: 'y'.repeat(100) },
      Array.from({ length: 100 }, (_, index) => index),
      new Date(0),
      Number.NaN,
    ];
    for (const value of samples) {
      const json = JSON.stringify(value);
      const expected = json.length > 80 ? `${json.slice(0, 77)}...` : json;
      assert.equal(describeValue(value), expected, json);
    }
    assert.equal(describeValue(undefined), 'nothing');
  });

  it('parses its own output to the same input (McpServer parses before the engine does)', () => {
    const sent = [
      { ...base, thoughtNumber: '2', nextThoughtNeeded: 'FALSE', is_revision: 'true', revises_thought: '1', strategy: 7 },
      { ...base, branch_from_thought: 1, branch_id: 'b', stage: null, sessionId: '' },
      { ...base, thoughtNumber: 1e308 },
      { ...base, thought: ['not', 'text'] },
    ];
    for (const args of sent) {
      const once = thoughtArgumentsSchema.parse(args);
      const direct = (() => {
        try {
          return parseThoughtInput(args, MAX);
        } catch (error) {
          return (error as Error).message;
        }
      })();
      const twice = (() => {
        try {
          return parseThoughtInput(once, MAX);
        } catch (error) {
          return (error as Error).message;
        }
      })();
      assert.deepEqual(twice, direct, JSON.stringify(args));
    }
  });
});
