// The MCP server through a real SDK Client over the in-memory transport: what a client sees of the tools (schemas,
// annotations), the tool behaviour (lenient input, helpful errors, isolation), thinking_sessions, resources and the
// prompt.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import type { Tool } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { UNUSED_MODEL, connectInMemory, jsonOf, sessions, tempDir, textOf, think, type ConnectedClient } from './support/clients';
import { SERVED_TOOL_NAMES } from './support/toolNames';

const quiet = () => {};
const REFERENCE_FIELDS = [
  'thought',
  'thoughtNumber',
  'totalThoughts',
  'nextThoughtNeeded',
  'isRevision',
  'revisesThought',
  'branchFromThought',
  'branchId',
  'needsMoreThoughts',
];

describe('tools/list', () => {
  let connected: ConnectedClient;
  let tools: Tool[];
  before(async () => {
    // An MCP Apps host with a model for deliberate: everything is listed.
    connected = await connectInMemory(new ThinkingEngine({ log: quiet }), undefined, { modelGateway: UNUSED_MODEL });
    tools = (await connected.client.listTools()).tools;
  });
  after(() => connected.close());

  it('lists sequentialthinking, thinking_sessions and deliberate (and the app-only tools to an MCP Apps host)', () => {
    assert.deepEqual(tools.map((tool) => tool.name).sort(), SERVED_TOOL_NAMES);
  });

  it('advertises the reference fields plus sessionId, strategy and stage, camelCase with JSON types', () => {
    const tool = tools.find((candidate) => candidate.name === 'sequentialthinking') as Tool;
    const properties = tool.inputSchema.properties as Record<string, { type?: string; anyOf?: unknown }>;
    for (const field of [...REFERENCE_FIELDS, 'sessionId', 'strategy', 'stage']) assert.ok(properties[field], `${field} is advertised`);
    assert.deepEqual(
      Object.fromEntries(
        ['thoughtNumber', 'totalThoughts', 'revisesThought', 'branchFromThought', 'nextThoughtNeeded', 'isRevision'].map((field) => [
          field,
          properties[field].type,
        ]),
      ),
      {
        thoughtNumber: 'integer',
        totalThoughts: 'integer',
        revisesThought: 'integer',
        branchFromThought: 'integer',
        nextThoughtNeeded: 'boolean',
        isRevision: 'boolean',
      },
    );
    assert.deepEqual(tool.inputSchema.required, ['thought', 'thoughtNumber', 'totalThoughts', 'nextThoughtNeeded']);
    assert.ok(!Object.keys(properties).some((field) => field.includes('_')), 'no snake_case aliases');
    assert.ok(!JSON.stringify(tool.inputSchema).includes('written as text'), 'no text alternatives for numbers');
    assert.match(tool.description ?? '', /revis/i);
    assert.match(tool.description ?? '', /branchFromThought/);
  });

  it('carries the annotations and a title', () => {
    const tool = tools.find((candidate) => candidate.name === 'sequentialthinking') as Tool;
    assert.equal(tool.title, 'Sequential Thinking');
    assert.deepEqual(
      { ...tool.annotations, title: undefined },
      { title: undefined, readOnlyHint: true, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    );
  });

  it('has an outputSchema that requires the reference five and describes ours as optional (the reply detail may leave them out)', () => {
    const tool = tools.find((candidate) => candidate.name === 'sequentialthinking') as Tool;
    const required = tool.outputSchema?.required ?? [];
    assert.deepEqual(required, ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength']);
    for (const field of ['sessionId', 'strategy', 'stage', 'nextStages', 'guidance', 'warnings', 'progress'])
      assert.ok(field in ((tool.outputSchema?.properties ?? {}) as Record<string, unknown>), field);
  });

  it('parses more than it advertises: strings for numbers and booleans, snake_case and null fail the schema, not the engine', () => {
    const tool = tools.find((candidate) => candidate.name === 'sequentialthinking') as Tool;
    const validate = new Ajv({ strict: true }).compile(tool.inputSchema);
    assert.ok(validate({ thought: 'a', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }), JSON.stringify(validate.errors));
    const lenient = [
      { thought: 'a', thoughtNumber: '2', totalThoughts: '3', nextThoughtNeeded: 'true', isRevision: 'true', revisesThought: '1' },
      { thought: 'a', thought_number: 3, total_thoughts: 3, next_thought_needed: false, branch_from_thought: 1, branch_id: 'b' },
      {
        thought: 'a',
        thoughtNumber: 4,
        totalThoughts: 4,
        nextThoughtNeeded: ' True ',
        isRevision: null,
        revisesThought: null,
        branchFromThought: 1,
        branchId: 7,
        stage: null,
      },
    ];
    const engine = new ThinkingEngine({ log: quiet });
    for (const args of lenient) {
      assert.ok(!validate(args), `${JSON.stringify(args)} is not the canonical form`);
      const outcome = engine.process('c', args);
      assert.ok(outcome.ok, `the engine accepts ${JSON.stringify(args)}: ${outcome.ok ? '' : outcome.error}`);
    }
  });
});

describe('sequentialthinking', () => {
  let engine: ThinkingEngine;
  let first: ConnectedClient;
  let second: ConnectedClient;
  before(async () => {
    engine = new ThinkingEngine({ log: quiet });
    first = await connectInMemory(engine);
    second = await connectInMemory(engine);
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  it('answers with text JSON and the same structuredContent', async () => {
    const result = await think(first.client, {
      thought: 'Restate the problem.',
      thoughtNumber: 1,
      totalThoughts: 3,
      nextThoughtNeeded: true,
    });
    assert.equal(result.isError, undefined);
    const reply = jsonOf(result);
    assert.deepEqual(result.structuredContent, reply);
    assert.equal(reply.thoughtNumber, 1);
    assert.equal(reply.thoughtHistoryLength, 1);
    // A plain session (no strategy asked for): compact tells the session, no stage talk.
    assert.equal(reply.strategy, undefined);
    assert.equal(reply.stage, undefined);
    assert.equal(typeof reply.sessionId, 'string');
    assert.ok(!textOf(result).includes('\n'), 'compact JSON');
  });

  it('accepts numbers and booleans as strings and snake_case names', async () => {
    const result = await think(first.client, { thought: 'Plan.', thought_number: '2', total_thoughts: '3', next_thought_needed: 'true' });
    const reply = jsonOf(result);
    assert.equal(reply.thoughtNumber, 2);
    assert.equal(reply.thoughtHistoryLength, 2);
    assert.equal(reply.nextThoughtNeeded, true);
  });

  it('keeps two clients apart: each has its own session', async () => {
    const other = jsonOf(
      await think(second.client, { thought: 'Another problem.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }),
    );
    assert.equal(other.thoughtHistoryLength, 1);
    const mine = jsonOf(await think(first.client, { thought: 'Continue.', thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: true }));
    assert.equal(mine.thoughtHistoryLength, 3);
    assert.notEqual(mine.sessionId, other.sessionId);
  });

  it('reports validation errors as isError results that name the field, the value and what is valid', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true }, /thought.*non-empty string/],
      [{ thought: 'x', thoughtNumber: 'three', totalThoughts: 3, nextThoughtNeeded: true }, /thoughtNumber.*"three".*whole number/],
      [{ thought: 'x', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: 'maybe' }, /nextThoughtNeeded.*"maybe".*true or false/],
      [{ thought: 'x', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: true, branchId: 'alt' }, /branchFromThought/],
      [
        { thought: 'x', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: true, sessionId: 'no-such-session' },
        /sessionId.*no-such-session/,
      ],
      [{ thought: 'x', thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true, strategy: 'astrology' }, /strategy.*astrology.*linear/],
    ];
    for (const [args, expected] of cases) {
      const result = await think(first.client, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), expected);
    }
    // Nothing was recorded by the refused calls.
    const next = jsonOf(await think(first.client, { thought: 'Still here.', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: true }));
    assert.equal(next.thoughtHistoryLength, 4);
  });

  it("answers every malformed call with our isError text, never McpServer's validation error", async () => {
    const deep = Array.from({ length: 1000 }).reduce<unknown>((inner) => [inner], []);
    const base = { thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true };
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Invalid thought: got nothing; expected a non-empty string with this step of your reasoning.'],
      [{ ...base, thought: null }, 'Invalid thought: got null; expected a non-empty string with this step of your reasoning.'],
      [{ ...base, thoughtNumber: null }, 'Invalid thoughtNumber: got null; expected a whole number of at least 1 (for example 3).'],
      [
        { ...base, thoughtNumber: 1e308 },
        'Invalid thoughtNumber: got 1e+308; expected a whole number from 1 to 9007199254740991 (for example 3).',
      ],
      [
        { ...base, totalThoughts: '99999999999999999999999' },
        'Invalid totalThoughts: got "99999999999999999999999"; expected a whole number from 1 to 9007199254740991 (for example 3).',
      ],
      [{ ...base, nextThoughtNeeded: [true] }, 'Invalid nextThoughtNeeded: got [true]; expected true or false.'],
      [{ ...base, isRevision: {} }, 'Invalid isRevision: got {}; expected true or false.'],
      [
        { ...base, branchFromThought: 1, branchId: { id: 'b' } },
        'Invalid branchId: got {"id":"b"}; expected 1-64 letters, digits, "_", "-", "." or ":".',
      ],
      [{ ...base, strategy: false }, 'Invalid strategy: got false; expected 1-64 letters, digits, "_", "-", "." or ":".'],
      [{ ...base, stage: 1.5 }, 'Invalid stage: got 1.5; expected 1-64 letters, digits, "_", "-", "." or ":".'],
    ];
    for (const [args, expected] of cases) {
      const result = await think(first.client, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.equal(textOf(result), expected);
    }
    const nested = await think(first.client, { ...base, thought: deep });
    assert.match(textOf(nested), /^Invalid thought: got \[\[\[.*\.\.\.; expected a non-empty string/);
  });

  it('ignores unknown fields', async () => {
    const reply = jsonOf(
      await think(second.client, {
        thought: 'With extras.',
        thoughtNumber: 2,
        totalThoughts: 2,
        nextThoughtNeeded: false,
        mood: 'curious',
        extra: { a: 1 },
      }),
    );
    assert.equal(reply.thoughtNumber, 2);
  });

  it('answers an unknown tool with an invalid-params error naming it (the spec since 2025-11-25; SDK v2)', async () => {
    await assert.rejects(first.client.callTool({ name: 'nope', arguments: {} }), { code: -32602, message: /Tool nope not found/ });
  });
});

describe('thinking_sessions', () => {
  let engine: ThinkingEngine;
  let store: FileSessionStore;
  let writer: ConnectedClient;
  let reader: ConnectedClient;
  const ids: string[] = [];

  before(async () => {
    store = new FileSessionStore(tempDir(), { log: quiet });
    engine = new ThinkingEngine({ store, log: quiet });
    writer = await connectInMemory(engine);
    reader = await connectInMemory(engine);
    // Three sessions: a complete one about caching, a live one with a branch, a live one about queues.
    const one = jsonOf(
      await think(writer.client, { thought: 'Why is the cache slow?', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }),
    );
    ids.push(String(one.sessionId));
    // Compact replies name a session on its first reply.
    const two = jsonOf(
      await think(writer.client, { thought: 'Sketch the pipeline.', thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true }),
    );
    await think(writer.client, { thought: 'The parser dominates.', thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true });
    assert.deepEqual(
      jsonOf(
        await think(writer.client, {
          thought: 'Try a zebra-striped layout.',
          thoughtNumber: 3,
          totalThoughts: 4,
          nextThoughtNeeded: true,
          branchFromThought: 2,
          branchId: 'alt',
        }),
      ).branches,
      ['alt'],
    );
    ids.push(String(two.sessionId));
    const three = jsonOf(
      await think(reader.client, { thought: 'Queues back up at noon.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }),
    );
    ids.push(String(three.sessionId));
  });
  after(async () => {
    await writer.close();
    await reader.close();
    store.close();
  });

  it('lists sessions newest first, filters and pages', async () => {
    const all = jsonOf<{ sessions: { sessionId: string; status: string }[]; total: number }>(
      await sessions(reader.client, { action: 'list' }),
    );
    assert.equal(all.total, 3);
    assert.deepEqual(new Set(all.sessions.map((session) => session.sessionId)), new Set(ids));
    const complete = jsonOf<{ sessions: { sessionId: string }[]; total: number }>(
      await sessions(reader.client, { action: 'list', status: 'complete' }),
    );
    assert.deepEqual(
      complete.sessions.map((session) => session.sessionId),
      [ids[0]],
    );
    const text = jsonOf<{ sessions: { sessionId: string }[] }>(await sessions(reader.client, { action: 'list', text: 'queues' }));
    assert.deepEqual(
      text.sessions.map((session) => session.sessionId),
      [ids[2]],
    );
    const page = jsonOf<{ sessions: unknown[]; nextOffset?: number }>(await sessions(reader.client, { action: 'list', limit: '2' }));
    assert.equal(page.sessions.length, 2);
    assert.equal(page.nextOffset, 2);
    const rest = jsonOf<{ sessions: unknown[]; nextOffset?: number }>(
      await sessions(reader.client, { action: 'list', limit: 2, offset: 2 }),
    );
    assert.equal(rest.sessions.length, 1);
    assert.equal(rest.nextOffset, undefined);
  });

  it('gets a session as a summary or in full', async () => {
    const summary = jsonOf<{
      sessionId: string;
      thoughtCount: number;
      branches: { branchId: string; fromThought: number }[];
      recentThoughts: unknown[];
    }>(await sessions(reader.client, { action: 'get', sessionId: ids[1] }));
    assert.equal(summary.thoughtCount, 3);
    assert.deepEqual(
      summary.branches.map((branch) => [branch.branchId, branch.fromThought]),
      [['alt', 2]],
    );
    const full = jsonOf<{ thoughts: { thought: string }[] }>(
      await sessions(reader.client, { action: 'get', sessionId: ids[1], detail: 'full' }),
    );
    assert.deepEqual(
      full.thoughts.map((thought) => thought.thought),
      ['Sketch the pipeline.', 'The parser dominates.', 'Try a zebra-striped layout.'],
    );
  });

  it('searches thought text, not only titles', async () => {
    const found = jsonOf<{ matches: { sessionId: string; matchingThoughts: { thoughtNumber: number; snippet: string }[] }[] }>(
      await sessions(reader.client, { action: 'search', query: 'ZEBRA' }),
    );
    assert.equal(found.matches.length, 1);
    assert.equal(found.matches[0].sessionId, ids[1]);
    assert.equal(found.matches[0].matchingThoughts[0].thoughtNumber, 3);
    assert.match(found.matches[0].matchingThoughts[0].snippet, /zebra/);
  });

  it('resumes a session: returns what is needed to continue and makes it the current one', async () => {
    const resumed = jsonOf<{
      sessionId: string;
      stage: string;
      nextStages: string[];
      nextThoughtNumber: number;
      totalThoughts: number;
      recentThoughts: unknown[];
      branches: unknown[];
    }>(await sessions(reader.client, { action: 'resume', sessionId: ids[1], recent: 2 }));
    assert.equal(resumed.sessionId, ids[1]);
    assert.equal(resumed.nextThoughtNumber, 4);
    assert.equal(resumed.totalThoughts, 4);
    assert.equal(resumed.recentThoughts.length, 2);
    assert.equal(resumed.branches.length, 1);
    assert.equal(typeof resumed.stage, 'string');
    assert.ok(Array.isArray(resumed.nextStages));
    // The reader's next thought, without sessionId, lands in the resumed session.
    const next = jsonOf(
      await think(reader.client, { thought: 'Back on the pipeline.', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: true }),
    );
    assert.equal(next.sessionId, ids[1]);
    assert.equal(next.thoughtHistoryLength, 4);
  });

  it('accepts counts as text, session_id for sessionId, null for absent, and ignores unknown fields', async () => {
    const page = jsonOf<{ sessions: unknown[]; offset: number }>(
      await sessions(reader.client, { action: 'list', limit: ' 1 ', offset: '1', status: null, colour: 'blue' }),
    );
    assert.deepEqual([page.sessions.length, page.offset], [1, 1]);
    const got = await sessions(reader.client, { action: 'get', session_id: ids[1], recent: '1' });
    assert.equal(jsonOf<{ recentThoughts: unknown[] }>(got).recentThoughts.length, 1);
    assert.deepEqual(got.structuredContent, jsonOf(got), 'the same object as structured content');
  });

  it('answers bad requests with isError results that say what to send', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /action.*list, get, search, resume/],
      [{ action: 'explode' }, /action.*"explode"/],
      [{ action: 'get' }, /sessionId/],
      [{ action: 'get', sessionId: 'missing' }, /no session "missing"/],
      [{ action: 'resume', sessionId: '../../etc/passwd' }, /session id/i],
      [{ action: 'list', limit: 0 }, /limit/],
      [{ action: 'list', status: 'sleeping' }, /status.*live, complete, abandoned/],
      [{ action: 'search' }, /query/],
      [{ action: 'get', sessionId: ids[0], detail: 'everything' }, /detail/],
      [
        { action: 'list', offset: '99999999999999999999' },
        /^Invalid offset: got "99999999999999999999"; expected a whole number from 0 to 9007199254740991\.$/,
      ],
      [{ action: 'list', limit: -1 }, /^Invalid limit: got -1; expected a whole number of 0 or more\.$/],
      [{ action: 'get', sessionId: 5 }, /^Invalid sessionId: got 5; expected text\.$/],
      [{ action: 'get', sessionId: ids[0], detail: 3 }, /^Invalid detail: got 3; expected text\.$/],
      [{ action: 7 }, /^Invalid action: got 7; expected one of list, get, search, resume, stats, configure\.$/],
    ];
    for (const [args, expected] of cases) {
      const result = await sessions(reader.client, args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), expected);
    }
  });
});

describe('resources and the prompt', () => {
  let connected: ConnectedClient;
  let sessionId: string;
  before(async () => {
    connected = await connectInMemory(new ThinkingEngine({ log: quiet }));
    // Compact replies name the session on its first reply.
    const first = jsonOf(
      await think(connected.client, { thought: 'First <b>idea</b>.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true }),
    );
    await think(connected.client, { thought: 'Second idea.', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true });
    await think(connected.client, {
      thought: 'Revised first idea.',
      thoughtNumber: 3,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 1,
    });
    await think(connected.client, {
      thought: 'An alternative.',
      thoughtNumber: 4,
      totalThoughts: 4,
      nextThoughtNeeded: false,
      branchFromThought: 2,
      branchId: 'alt',
    });
    sessionId = String(first.sessionId);
  });
  after(() => connected.close());

  it('reads thinking://documentation as Markdown that explains both tools', async () => {
    const { contents } = await connected.client.readResource({ uri: 'thinking://documentation' });
    const content = contents[0] as { mimeType?: string; text?: string };
    assert.equal(content.mimeType, 'text/markdown');
    assert.match(content.text ?? '', /sequentialthinking/);
    assert.match(content.text ?? '', /thinking_sessions/);
    assert.match(content.text ?? '', /thinking:\/\/sessions\/\{id\}\/markdown/);
  });

  it('lists the session templates and the sessions under them', async () => {
    const { resourceTemplates } = await connected.client.listResourceTemplates();
    const templates = resourceTemplates.map((template) => template.uriTemplate);
    assert.ok(templates.includes('thinking://sessions/{id}'));
    assert.ok(templates.includes('thinking://sessions/{id}/markdown'));
    const { resources } = await connected.client.listResources();
    const uris = resources.map((resource) => resource.uri);
    assert.ok(uris.includes(`thinking://sessions/${sessionId}`));
    assert.ok(uris.includes(`thinking://sessions/${sessionId}/markdown`));
  });

  it('reads a session as JSON and as Markdown with the three Mermaid diagrams', async () => {
    const json = (await connected.client.readResource({ uri: `thinking://sessions/${sessionId}` })).contents[0] as {
      mimeType?: string;
      text?: string;
    };
    assert.equal(json.mimeType, 'application/json');
    const snapshot = JSON.parse(json.text ?? '') as { meta: { id: string }; thoughts: unknown[] };
    assert.equal(snapshot.meta.id, sessionId);
    assert.equal(snapshot.thoughts.length, 4);
    const markdown = (await connected.client.readResource({ uri: `thinking://sessions/${sessionId}/markdown` })).contents[0] as {
      mimeType?: string;
      text?: string;
    };
    assert.equal(markdown.mimeType, 'text/markdown');
    assert.equal((markdown.text ?? '').match(/```mermaid/g)?.length, 3);
    assert.ok(!(markdown.text ?? '').includes('<b>idea</b>'), 'thought text is escaped');
    await assert.rejects(connected.client.readResource({ uri: 'thinking://sessions/missing' }), /no session "missing" exists/);
  });

  it('completes session ids in the template', async () => {
    const result = await connected.client.complete({
      ref: { type: 'ref/resource', uri: 'thinking://sessions/{id}' },
      argument: { name: 'id', value: sessionId.slice(0, 6) },
    });
    assert.ok(result.completion.values.includes(sessionId));
    const none = await connected.client.complete({
      ref: { type: 'ref/resource', uri: 'thinking://sessions/{id}' },
      argument: { name: 'id', value: 'zzz-no-such' },
    });
    assert.deepEqual(none.completion.values, []);
  });

  it('offers the sequential-thinking prompt with problem and an optional strategy', async () => {
    const { prompts } = await connected.client.listPrompts();
    const prompt = prompts.find((candidate) => candidate.name === 'sequential-thinking');
    assert.ok(prompt);
    assert.deepEqual(
      prompt.arguments?.map((argument) => [argument.name, argument.required ?? false]),
      [
        ['problem', true],
        ['strategy', false],
      ],
    );
    const plain = await connected.client.getPrompt({ name: 'sequential-thinking', arguments: { problem: 'Why is the build slow?' } });
    const text = (plain.messages[0].content as { text: string }).text;
    assert.match(text, /Why is the build slow\?/);
    assert.match(text, /"linear"/);
    assert.match(text, /problem_reception/);
    await assert.rejects(
      connected.client.getPrompt({ name: 'sequential-thinking', arguments: { problem: 'x', strategy: 'astrology' } }),
      /Unknown strategy "astrology"/,
    );
    const completion = await connected.client.complete({
      ref: { type: 'ref/prompt', name: 'sequential-thinking' },
      argument: { name: 'strategy', value: 'li' },
    });
    assert.deepEqual(completion.completion.values, ['linear']);
  });
});
