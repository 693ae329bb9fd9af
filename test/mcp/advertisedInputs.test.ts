// Property: every value a tool's advertised JSON Schema allows — its boundaries and enum members included — parses.
// For every tool (and every thinking_sessions action), fast-check builds arguments from the inputSchema a real Client
// reads in tools/list and calls the tool through that Client. A call may still be refused for what the schema cannot
// say (an unknown session, a revision of a thought that does not exist); it must never be refused for its shape: no
// "Input validation error" and no "Invalid <field sent>: got …; expected …".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Tool } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { NAME_PATTERN } from '../../src/engine/fieldRules';
import { strategyNames } from '../../src/engine/strategies/catalog';
import { HAT_NAMES } from '../../src/deliberation/roles';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { UNUSED_MODEL, connectInMemory, tempDir, textOf, type ConnectedClient } from './support/clients';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

/**
 * Content rules the JSON Schema leaves out on purpose (each field's own refusal words them better than a validating
 * client would, and every advertised token is read by the model on every request): values are drawn from within them.
 */
const nameText = fc.stringMatching(NAME_PATTERN).filter((name) => !name.startsWith('.'));
const nonBlank = fc.string({ minLength: 1, maxLength: 200 }).filter((text) => text.trim() !== '');
const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
const CONTENT_RULES: Record<string, fc.Arbitrary<unknown>> = {
  'sequentialthinking.thought': nonBlank,
  'sequentialthinking.remainingSteps[]': nonBlank,
  'sequentialthinking.verificationTarget': nonBlank,
  'sequentialthinking.availableTools[]': fc.oneof(
    nonBlank,
    fc.record({ name: nonBlank, description: fc.string({ maxLength: 40 }) }, { requiredKeys: ['name'] }),
  ),
  'sequentialthinking.currentStep.stepDescription': nonBlank,
  'sequentialthinking.currentStep.expectedOutcome': nonBlank,
  'sequentialthinking.currentStep.nextStepConditions[]': nonBlank,
  'sequentialthinking.currentStep.recommendedTools[].toolName': nonBlank,
  'sequentialthinking.currentStep.recommendedTools[].rationale': nonBlank,
  'sequentialthinking.sessionId': nameText,
  'sequentialthinking.branchId': nameText,
  'sequentialthinking.stage': nameText,
  'sequentialthinking.strategy': fc.constantFrom(...strategyNames()),
  'thinking_sessions.since': isoDate,
  'thinking_sessions.until': isoDate,
  'deliberate.problem': nonBlank,
  'deliberate.roles[]': fc.constantFrom(...HAT_NAMES),
};

/**
 * Rules that need the server: deliberate records into a session that exists (its parse checks that), the one made
 * before the properties run; a QA previous step is "shaped like currentStep", as its description says (its shape is
 * not repeated in the schema: the model would read it twice on every request).
 */
function addServerRules(sessionId: string, sequentialThinking: JsonSchema): void {
  CONTENT_RULES['deliberate.sessionId'] = fc.constant(sessionId);
  const currentStep = sequentialThinking.properties?.currentStep;
  assert.ok(currentStep, 'sequentialthinking advertises currentStep');
  CONTENT_RULES['sequentialthinking.previousSteps[]'] = valueOf(currentStep, 'sequentialthinking.currentStep');
}

/** Rules across fields, which a JSON Schema of independent properties cannot state: calls keep within them. */
const CROSS_FIELD_RULES: Record<string, (args: Record<string, unknown>) => boolean> = {
  // workflow is the QA name of a strategy: both may come only if they agree.
  sequentialthinking: (args) => args.strategy === undefined || args.workflow === undefined || args.strategy === args.workflow,
};

/** The boundaries of a number's range, and values between them. */
function numberIn(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (integer ? Number.MIN_SAFE_INTEGER : -1e9);
  const max = schema.maximum ?? (integer ? Number.MAX_SAFE_INTEGER : 1e9);
  const edges = [min, max, ...(integer ? [Math.min(min + 1, max)] : [])];
  const inside = integer
    ? fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, Math.max(min, -1e6) + 1e6) })
    : fc.double({ min, max, noNaN: true });
  return fc.oneof(fc.constantFrom(...edges), inside, integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }));
}

/** Any value `schema` allows: the JSON Schema subset our tools advertise (zod's draft-7 rendering). */
function valueOf(schema: JsonSchema, path: string): fc.Arbitrary<unknown> {
  const rule = CONTENT_RULES[path];
  if (rule) return rule;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => valueOf(option, path)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valueOf({ ...schema, type }, path)));
  switch (schema.type) {
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'integer':
      return numberIn(schema, true);
    case 'number':
      return numberIn(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueOf(schema.items ?? {}, `${path}[]`), { maxLength: 3 });
    case 'object':
      return objectOf(schema, path);
    default:
      throw new Error(`${path}: the property test does not know JSON Schema ${JSON.stringify(schema)}`);
  }
}

function objectOf(schema: JsonSchema, path: string, fixed: Record<string, unknown> = {}): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => !(name in fixed))
      .map(([name, property]) => [name, valueOf(property, `${path}.${name}`)]),
  );
  const requiredKeys = (schema.required ?? []).filter((name) => !(name in fixed));
  return fc.record(properties, { requiredKeys }).map((value) => ({ ...value, ...fixed }));
}

/** A refusal of a call's shape: the SDK's, or ours naming a field that was sent with the value it had. */
function shapeRefusal(text: string, sent: Record<string, unknown>): boolean {
  if (/Input validation error/.test(text)) return true;
  const ours = /^Invalid ([A-Za-z_]+)[^:]*: got (?!nothing)[^;]*; expected /.exec(text) ?? /^"([A-Za-z_]+)" was /.exec(text);
  return ours !== null && ours[1] in sent;
}

describe('every value an advertised input schema allows parses (property, through a real Client)', () => {
  let connected: ConnectedClient;
  let tools: Map<string, Tool>;
  before(async () => {
    const engine = new ThinkingEngine({ store: new FileSessionStore(tempDir()), log: () => {} });
    // MCP Apps (the client default) and a host model: all five tools are listed.
    connected = await connectInMemory(engine, undefined, { modelGateway: UNUSED_MODEL });
    tools = new Map((await connected.client.listTools()).tools.map((tool) => [tool.name, tool]));
    const first = await connected.client.callTool({
      name: 'sequentialthinking',
      arguments: { thought: 'A session to record into.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true },
    });
    const { sessionId } = JSON.parse(textOf(first as Parameters<typeof textOf>[0])) as { sessionId: string };
    addServerRules(sessionId, tools.get('sequentialthinking')?.inputSchema as JsonSchema);
  });
  after(() => connected.close());

  it('lists the five tools', () => {
    assert.deepEqual([...tools.keys()].sort(), [
      'deliberate',
      'sequentialthinking',
      'thinking_sessions',
      'thought_graph_open_explorer',
      'thought_graph_session_page',
    ]);
  });

  async function holds(name: string, fixed: Record<string, unknown> = {}, numRuns = 60): Promise<void> {
    const schema = tools.get(name)?.inputSchema as JsonSchema;
    await fc.assert(
      fc.asyncProperty(objectOf(schema, name, fixed).filter(CROSS_FIELD_RULES[name] ?? (() => true)), async (args) => {
        const result = await connected.client.callTool({ name, arguments: args });
        if (!result.isError) return;
        const text = textOf(result as Parameters<typeof textOf>[0]);
        assert.ok(!shapeRefusal(text, args), `${name} refused what its schema allows: ${JSON.stringify(args)} → ${text}`);
      }),
      { numRuns },
    );
  }

  it('sequentialthinking', () => holds('sequentialthinking', {}, 150));
  for (const action of ['list', 'get', 'search', 'resume', 'stats', 'configure'])
    it(`thinking_sessions ${action}`, () => holds('thinking_sessions', { action }));
  it('deliberate', () => holds('deliberate', {}, 40));
  it('thought_graph_session_page', () => holds('thought_graph_session_page'));
  it('thought_graph_open_explorer', () => holds('thought_graph_open_explorer'));

  it('honours the advertised boundaries of thinking_sessions limit and the session page', async () => {
    const calls: [string, Record<string, unknown>, string][] = [];
    const listing = tools.get('thinking_sessions')?.inputSchema as JsonSchema;
    for (const action of ['list', 'search'])
      for (const edge of ['minimum', 'maximum'] as const)
        calls.push(['thinking_sessions', { action, query: 'session', limit: listing.properties?.limit?.[edge] }, 'limit']);
    const page = tools.get('thought_graph_session_page')?.inputSchema as JsonSchema;
    calls.push(['thought_graph_session_page', { offset: page.properties?.offset?.minimum }, 'offset']);
    for (const edge of ['minimum', 'maximum'] as const)
      calls.push(['thought_graph_session_page', { limit: page.properties?.limit?.[edge] }, 'limit']);
    for (const [name, args, field] of calls) {
      assert.equal(typeof args[field], 'number', `${name} advertises a bound for ${field}`);
      const result = await connected.client.callTool({ name, arguments: args });
      assert.equal(result.isError, undefined, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
    }
  });
});
