// One rule for every tool's input: the schema `tools/list` advertises is the canonical contract (camelCase names, JSON
// types, no aliases), short because the model reads it on every request; the schema McpServer parses a call with is
// the lenient one, which also takes what models send besides ("3" for 3, "false", snake_case, null, unknown fields).
// Both are zod; McpServer renders a tool's schemas from Standard JSON Schema (`~standard.jsonSchema`), which the
// parsing schema here answers with the canonical one's rendering (zod's public z.toJSONSchema).
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

const rendered = { input: new WeakMap<z.ZodObject, string>(), output: new WeakMap<z.ZodObject, string>() };

/**
 * The canonical JSON text of `advertised`, rendered when first asked (a tools/list, or the SDK on a tool's first
 * reply), not when a server is made: initialize needs none of it (start-up ~9 ms less CPU here), and under
 * `--http --stateless`, where every request makes its own server, each schema is still rendered once per process.
 */
function renderedJson(advertised: z.ZodObject, io: Side): string {
  let json = rendered[io].get(advertised);
  if (json === undefined) {
    json = JSON.stringify(canonicalJsonSchema(advertised, io));
    rendered[io].set(advertised, json);
  }
  return json;
}

/**
 * `parsing`, parsing as it does, advertised as `advertised`. A copy (extend keeps the object's unknown-key rule), so the
 * schema itself, which the engine parses with too, is left as it is.
 */
export function advertisedAs<T extends z.ZodObject>(parsing: T, advertised: z.ZodObject, io: Side = 'input'): T {
  const schema = parsing.extend({}) as unknown as T;
  const standard = schema['~standard'];
  // Standard JSON Schema (`~standard.jsonSchema`) is what McpServer renders a tool's schemas from: a fresh copy each
  // time, as the SDK adds to what it gets.
  const json = () => JSON.parse(renderedJson(advertised, io)) as JsonObject;
  const validate = io === 'input' ? issuesAsOneMessage(standard.validate) : standard.validate;
  Object.defineProperty(schema, '~standard', {
    value: { ...standard, validate, jsonSchema: { input: json, output: json } },
    configurable: true,
    enumerable: false,
  });
  return schema;
}

type Validate = z.ZodObject['~standard']['validate'];

/**
 * The SDK writes a refused call's issues as "path: message, …"; ours read "message at path", one per line (our error
 * wording since SDK 1.x, which models and tests rely on). The schema reports them as one issue without a path, so the
 * SDK's "Input validation error: Invalid arguments for tool <name>: " is followed by our wording unchanged.
 */
function issuesAsOneMessage(validateEach: Validate): Validate {
  return ((value: unknown) => {
    const result = validateEach(value) as ReturnType<Validate>;
    if (result instanceof Promise || !result.issues) return result;
    const message = result.issues
      .map((issue) => (issue.path?.length ? `${issue.message} at ${dotPath(issue.path)}` : issue.message))
      .join('\n');
    return { issues: [{ message }] };
  }) as Validate;
}

/** `budgets.maxCycles`, `roles[2].name`: the path as SDK 1.x wrote it. */
function dotPath(path: readonly (PropertyKey | { key: PropertyKey })[]): string {
  return path
    .map((segment) => (typeof segment === 'object' ? segment.key : segment))
    .reduce<string>(
      (text, key, index) => (index === 0 ? String(key) : typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
      '',
    );
}

/**
 * An output schema advertised in full but checked by McpServer only as "an object": McpServer checks every reply
 * against the schema it is given, on the hot path, and the replies are the server's own, built by typed code; the
 * SDK Client (every test's) checks each reply against the advertised schema with Ajv.
 */
export function replyAdvertisedAs(advertised: z.ZodObject): z.ZodObject {
  return advertisedAs(z.looseObject({}), advertised, 'output');
}
