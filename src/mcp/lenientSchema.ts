// The schema McpServer parses a call with, made from the canonical one the tool advertises rather than written again.
// Leniency is about how a value is written, never about its range: a whole number also as text ("20"), true/false also
// as text ("False"), null (and "" for a number) for absent, unknown fields kept. Nothing is refused here: a value of the wrong kind is kept
// as a RefusedValue, so the tool words the refusal itself (McpServer would word it in its own terms), and so are
// ranges, which the tool's own reading of each field checks and names.
import { z } from 'zod';
import { MAX_WHOLE_NUMBER, isWholeNumberInRange } from '../engine/fieldRules';
import { WHOLE_NUMBER_TEXT, refusable } from '../engine/thoughtInput';
import { advertisedAs } from './advertisedSchema';

/** A whole number of 0 or more, also as text. */
const wholeNumber = z.union([
  z.int().min(0).max(MAX_WHOLE_NUMBER),
  z.string().transform((value, context) => {
    // "" is how some clients leave a number out: absent, as null is.
    if (value === '') return undefined;
    const parsed = WHOLE_NUMBER_TEXT.test(value) ? Number(value) : Number.NaN;
    if (isWholeNumberInRange(parsed, 0)) return parsed;
    context.issues.push({ code: 'custom', message: 'a whole number of 0 or more', input: value });
    return z.NEVER;
  }),
]);

/** true or false, also as text in any case. */
const flag = z.union([
  z.boolean(),
  z.string().transform((value, context) => {
    const text = value.trim().toLowerCase();
    if (text === 'true' || text === 'false') return text === 'true';
    context.issues.push({ code: 'custom', message: 'true or false', input: value });
    return z.NEVER;
  }),
]);

/** How `field` may be written: its canonical kind, with whole numbers and flags also as text. */
function written(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodOptional) return written(field.unwrap() as z.ZodType);
  if (field instanceof z.ZodNumber) return field.format === 'safeint' ? wholeNumber : z.number();
  if (field instanceof z.ZodBoolean) return flag;
  if (field instanceof z.ZodUnion) return z.union((field.options as z.ZodType[]).map(written));
  return field;
}

/** The lenient parse of `canonical`: each field as written above, null for absent, a refused value kept. */
export function lenientOf<Shape extends z.ZodRawShape>(canonical: z.ZodObject<Shape>) {
  const fields = Object.fromEntries(
    Object.entries(canonical.shape).map(([name, field]) => [name, refusable(z.union([written(field as z.ZodType), z.null()])).optional()]),
  );
  return z.looseObject(fields);
}

/** A tool's `input`: parsed leniently, advertised as `canonical`. */
export function toolInput<Shape extends z.ZodRawShape>(canonical: z.ZodObject<Shape>) {
  return advertisedAs(lenientOf(canonical), canonical);
}
