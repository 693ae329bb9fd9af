// One rule for every tool's input: the schema `tools/list` advertises is the canonical contract (camelCase names, JSON
// types, no aliases), short because the model reads it on every request; the schema McpServer parses a call with is
// the lenient one, which also takes what models send besides ("3" for 3, "false", snake_case, null, unknown fields).
// Both are zod; McpServer renders a tool's schemas with zod's toJSONSchema, which honours a schema's own override.
import { z } from 'zod';

type JsonObject = Record<string, unknown>;
/** Which side of the schema to render: McpServer renders input schemas as 'input' and output schemas as 'output'. */
type Side = 'input' | 'output';

/** The JSON Schema of `schema` as McpServer would render it (draft-7), without zod's safe-integer bounds. */
export function canonicalJsonSchema(schema: z.ZodObject, io: Side = 'input'): JsonObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
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
 * `parsing`, parsing as it does, advertised as `advertised`. A copy (extend keeps the object's unknown-key rule), so the
 * schema itself, which the engine parses with too, is left as it is.
 */
export function advertisedAs<T extends z.ZodObject>(parsing: T, advertised: z.ZodObject, io: Side = 'input'): T {
  const schema = parsing.extend({}) as unknown as T;
  const json = JSON.stringify(canonicalJsonSchema(advertised, io));
  // zod's own extension point for a schema's JSON Schema; a fresh copy each time, as zod adds to what it gets.
  schema._zod.toJSONSchema = () => JSON.parse(json) as JsonObject;
  return schema;
}

/**
 * An output schema advertised in full but checked by McpServer only as "an object": McpServer checks every reply
 * against the schema it is given, on the hot path, and the replies are the server's own, built by typed code; the
 * SDK Client (every test's) checks each reply against the advertised schema with Ajv.
 */
export function replyAdvertisedAs(advertised: z.ZodObject): z.ZodObject {
  return advertisedAs(z.looseObject({}), advertised, 'output');
}
