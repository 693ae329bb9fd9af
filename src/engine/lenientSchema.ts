// The schema a tool call is parsed with, made from the canonical schema the tool advertises rather than written again
// (the engine parses thoughts with it too, so it lives here; src/mcp advertises the canonical one beside it).
// Leniency is about how a value is written, never about its range: a whole number also as text ("20"), true/false also
// as text ("False"), null (and "" for a number) for absent, unknown fields kept (snake_case names among them, which
// the reader of each field looks up). Nothing is refused here: a value of the wrong kind is kept as a RefusedValue, so
// the tool words the refusal itself (McpServer would word it in its own terms), and so are ranges, content rules and
// the fields of objects and lists, which pass as sent for the tool's own reading to check and name.
import { z } from 'zod';
import { MAX_WHOLE_NUMBER, isWholeNumberInRange } from './fieldRules';

/**
 * A value a field's schema did not accept, kept as the field's parsed value. Why not a zod failure: McpServer answers
 * a failed parse with its own text ("Input validation error: ..."), while every refusal must say, in our words, what to
 * send instead.
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

/**
 * A whole number of 0 or more, also as text. Beyond MAX_WHOLE_NUMBER a number does not survive a JSON round trip
 * exactly (z.int() refuses it). Only the text option has a transform: a number (nearly every call) passes as it is.
 */
const wholeNumber = [
  z.int().min(0).max(MAX_WHOLE_NUMBER),
  z.string().transform((value, context) => {
    // "" is how some clients leave a number out: absent, as null is.
    if (value === '') return undefined;
    const parsed = WHOLE_NUMBER_TEXT.test(value) ? Number(value) : Number.NaN;
    if (isWholeNumberInRange(parsed, 0)) return parsed;
    context.issues.push({ code: 'custom', message: 'a whole number of 0 or more', input: value });
    return z.NEVER;
  }),
];

/** true or false, also as text in any case ("False", " true "). */
const flag = [
  z.boolean(),
  z.string().transform((value, context) => {
    const text = value.trim().toLowerCase();
    if (text === 'true' || text === 'false') return text === 'true';
    context.issues.push({ code: 'custom', message: 'true or false', input: value });
    return z.NEVER;
  }),
];

/** Passed as sent: the fields of an object or list are the tool's own reading to check and word. */
const asSent = z.unknown().optional();

/**
 * How `field` may be written: the options of its canonical kind, with whole numbers and flags also as text; none
 * (null) for an object or list, which passes as sent. One flat list, so a call's value is tried against each option
 * once (nested unions cost each thought about twice the time).
 */
function written(field: z.ZodType): z.ZodType[] | null {
  if (field instanceof z.ZodOptional) return written(field.unwrap() as z.ZodType);
  if (field instanceof z.ZodNumber) return field.format === 'safeint' ? wholeNumber : [z.number()];
  if (field instanceof z.ZodBoolean) return flag;
  if (field instanceof z.ZodObject || field instanceof z.ZodArray || field instanceof z.ZodRecord) return null;
  if (field instanceof z.ZodUnion) {
    const options = (field.options as z.ZodType[]).map(written);
    return options.includes(null) ? null : (options as z.ZodType[][]).flat();
  }
  return [field];
}

/** The lenient parse of `canonical`: each field as written above, null for absent, a refused value kept. */
export function lenientOf<Shape extends z.ZodRawShape>(canonical: z.ZodObject<Shape>) {
  const fields = Object.fromEntries(
    Object.entries(canonical.shape).map(([name, field]) => {
      const options = written(field as z.ZodType);
      if (options === null) return [name, asSent];
      const kind = options.length === 1 ? options[0] : z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
      return [name, refusable(kind.nullable()).optional()];
    }),
  ) as { [Name in keyof Shape]: z.ZodOptional<z.ZodType> };
  return z.looseObject(fields);
}

/**
 * The fields `canonical` names, as a lenient parse of it read them (a refused value as sent, absent ones left out):
 * what a strict reader of the canonical fields takes, which words its own refusals.
 */
export function canonicalFields(parsed: Record<string, unknown>, canonical: z.ZodObject): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(canonical.shape)) {
    const value = sentValue(parsed[name]);
    if (value !== undefined && value !== null) fields[name] = value;
  }
  return fields;
}
