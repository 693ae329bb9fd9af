// The building blocks of the explorer protocol's schemas (protocol.ts and the feature protocols beside it): bounded
// text, counts, and one readable line for a message the schemas refuse. zod/mini keeps the webview bundle small (see
// docs/architecture.md for the sizes measured).
import * as z from 'zod/mini';

/** Longest id or name a message may carry (session ids have at most 64 characters, request ids are shorter). */
export const MAX_SHORT_TEXT = 200;

export const shortText = () => z.string().check(z.maxLength(MAX_SHORT_TEXT));
/** A count or size: a finite number, not negative. */
export const count = () => z.number().check(z.nonnegative());
/** A thought's position in arrival order. */
export const seq = () => z.int().check(z.nonnegative());
/** A list of at most `max` items (every list from the other side has a bound before it is held). */
export const boundedArray = <T extends z.core.SomeType>(item: T, max: number) => z.array(item).check(z.maxLength(max));

/** `type`, then where and what the schema refused: for a log line about a malformed message. */
export function describeRefusal(value: unknown, error: z.core.$ZodError): string {
  const type =
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
      ? (value as { type: string }).type.slice(0, MAX_SHORT_TEXT)
      : undefined;
  const issues = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(message)'}: ${issue.code}`)
    .join('; ');
  return `${type === undefined ? 'a message without a type' : `"${type}"`} (${issues})`;
}
