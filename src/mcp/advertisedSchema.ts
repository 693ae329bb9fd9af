// One rule for every tool's input: the schema `tools/list` advertises is the canonical contract (camelCase names, JSON
// types, no aliases), short because the model reads it on every request; the schema McpServer parses a call with is
// the lenient one, which also takes what models send besides ("3" for 3, "false", snake_case, null, unknown fields).
// Both are zod; McpServer renders a tool's inputSchema with zod's toJSONSchema, which honours a schema's own override.
import { z } from 'zod';

type JsonObject = Record<string, unknown>;

/** The JSON Schema of `canonical` as McpServer would render it (draft-7, input side), without its safe-integer bounds. */
export function canonicalJsonSchema(canonical: z.ZodObject): JsonObject {
  const json = z.toJSONSchema(canonical, {
    target: 'draft-7',
    io: 'input',
    // z.int() adds Number.MAX_SAFE_INTEGER as a bound: nothing a model needs to read (the parser refuses beyond it).
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as JsonObject;
  delete json.$schema;
  return json;
}

/**
 * `parsing`, parsing as it does, advertised as `canonical`. A copy (extend keeps the object's unknown-key rule), so the
 * schema itself, which the engine parses with too, is left as it is.
 */
export function advertisedAs<T extends z.ZodObject>(parsing: T, canonical: z.ZodObject): T {
  const advertised = parsing.extend({}) as unknown as T;
  const json = JSON.stringify(canonicalJsonSchema(canonical));
  // zod's own extension point for a schema's JSON Schema; a fresh copy each time, as zod adds to what it gets.
  advertised._zod.toJSONSchema = () => JSON.parse(json) as JsonObject;
  return advertised;
}
