// The tool definitions a model reads: canonical schemas that compile in Ajv's strict mode, a parser that still takes
// every lenient form it took before (through a real MCP Client, recording the same thought as the canonical call), and
// the choice of tools (`tools` of createServer, `--tools` of the CLI, the `thoughtExplorer.tools` setting).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import type { Tool } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ThoughtRecord } from '../../src/engine/model';
import { MODEL_TOOLS, type ModelToolName } from '../../src/mcp/toolSelection';
import { advertisedTools } from '../../src/extension/toolSettings';
import { UNUSED_MODEL, connectCli, connectInMemory, ensureBuiltCli, jsonOf, sessions, tempDir, think } from './support/clients';
import { APP_TOOL_NAMES } from './support/toolNames';

const quiet = () => {};

/** A real Client (an MCP Apps host) over the in-memory transport, advertising `tools` (all when absent); deliberate has a model. */
function connect(engine: ThinkingEngine, tools?: readonly ModelToolName[]) {
  return connectInMemory(engine, undefined, { tools, modelGateway: UNUSED_MODEL });
}

/** A recorded thought without what differs by the moment it arrived. */
function recorded(thought: ThoughtRecord): Omit<ThoughtRecord, 'timestamp'> {
  const { timestamp: _timestamp, ...rest } = thought;
  return rest;
}

describe('advertised schemas', () => {
  let tools: Tool[];
  before(async () => {
    const connected = await connect(new ThinkingEngine({ log: quiet }));
    tools = (await connected.client.listTools()).tools;
    await connected.close();
  });

  it('compile in Ajv strict mode, input and output, for every tool', () => {
    assert.ok(tools.length >= 5);
    for (const tool of tools) {
      const ajv = new Ajv({ strict: true, allowUnionTypes: true });
      assert.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name} inputSchema`);
      if (tool.outputSchema) assert.doesNotThrow(() => ajv.compile(tool.outputSchema!), `${tool.name} outputSchema`);
    }
  });

  it('are canonical: no snake_case names, no numbers or booleans as text, no null alternatives', () => {
    for (const tool of tools) {
      const text = JSON.stringify(tool.inputSchema);
      assert.ok(
        !/"[a-z]+_[a-z_]+":\{/.test(text.replace(/"(thought_graph_[a-z_]+|qa_[a-z_]+|tree_of_thoughts)"/g, '')),
        `${tool.name}: ${text}`,
      );
      assert.ok(!text.includes('"null"'), `${tool.name} advertises no null`);
      assert.ok(!/written as text|"true" or "false"/.test(text), `${tool.name} advertises no text forms`);
    }
  });

  it('accept the canonical calls the tests below send', () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    const thought = ajv.compile(byName.get('sequentialthinking')!.inputSchema);
    for (const args of CANONICAL_THOUGHTS) assert.ok(thought(args), `${JSON.stringify(args)}: ${JSON.stringify(thought.errors)}`);
    const listing = ajv.compile(byName.get('thinking_sessions')!.inputSchema);
    assert.ok(listing({ action: 'list', limit: 1, offset: 0 }), JSON.stringify(listing.errors));
    const deliberate = ajv.compile(byName.get('deliberate')!.inputSchema);
    assert.ok(deliberate({ problem: 'p', plan: { strategy: 'direct', role: 'critical' }, budgets: { maxTokens: 10 } }));
    assert.ok(deliberate({ problem: 'p', plan: 'hats', roles: ['critical', { name: 'r', instructions: 'i' }] }));
  });
});

const CANONICAL_THOUGHTS: Record<string, unknown>[] = [
  { thought: 'Frame the question.', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, strategy: 'linear' },
  { thought: 'A first answer.', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true },
  {
    thought: 'The first framing was too narrow.',
    thoughtNumber: 3,
    totalThoughts: 4,
    nextThoughtNeeded: true,
    isRevision: true,
    revisesThought: 1,
  },
  { thought: 'Try the other way.', thoughtNumber: 4, totalThoughts: 5, nextThoughtNeeded: true, branchFromThought: 2, branchId: '7' },
  {
    thought: 'Done.',
    thoughtNumber: 5,
    totalThoughts: 5,
    nextThoughtNeeded: false,
    needsMoreThoughts: false,
    branchId: '7',
    branchFromThought: 2,
  },
];

/** The same calls as models send them: numbers and booleans as text, snake_case, null for absent, unknown fields. */
const LENIENT_THOUGHTS: Record<string, unknown>[] = [
  {
    thought: 'Frame the question.',
    thought_number: '1',
    total_thoughts: ' 3 ',
    next_thought_needed: 'true',
    strategy: 'linear',
    mood: 'curious',
  },
  {
    thought: 'A first answer.',
    thoughtNumber: '2',
    totalThoughts: 3,
    nextThoughtNeeded: 'True',
    isRevision: null,
    branchId: null,
    stage: null,
  },
  {
    thought: 'The first framing was too narrow.',
    thought_number: 3,
    total_thoughts: '4',
    next_thought_needed: true,
    is_revision: 'true',
    revises_thought: '1',
  },
  {
    thought: 'Try the other way.',
    thoughtNumber: 4,
    totalThoughts: '5',
    nextThoughtNeeded: true,
    branch_from_thought: '2',
    branch_id: 7,
    extra: { a: 1 },
  },
  {
    thought: 'Done.',
    thoughtNumber: 5,
    totalThoughts: 5,
    nextThoughtNeeded: ' false ',
    needs_more_thoughts: 'false',
    branchId: 7,
    branchFromThought: '2',
  },
];

describe('lenient calls through a real MCP Client', () => {
  it('record the same thoughts as the canonical calls', async () => {
    const results: ThoughtRecord[][] = [];
    for (const calls of [CANONICAL_THOUGHTS, LENIENT_THOUGHTS]) {
      const engine = new ThinkingEngine({ log: quiet });
      const connected = await connect(engine);
      let sessionId = '';
      for (const args of calls) {
        const result = await think(connected.client, args);
        assert.notEqual(result.isError, true, `${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
        sessionId = String(jsonOf(result).sessionId ?? sessionId);
      }
      results.push(engine.getSession(sessionId)!.thoughts);
      await connected.close();
    }
    const [canonical, lenient] = results;
    assert.equal(canonical.length, CANONICAL_THOUGHTS.length);
    assert.deepEqual(lenient.map(recorded), canonical.map(recorded));
  });

  it('refuse what no form allows, naming the field, under its snake_case name when sent so', async () => {
    const connected = await connect(new ThinkingEngine({ log: quiet }));
    const result = await think(connected.client, { thought: 'x', thought_number: 'three', total_thoughts: 3, next_thought_needed: true });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /thought_number/);
    await connected.close();
  });

  it('thinking_sessions: numbers as text, session_id and unknown fields answer as the canonical call does', async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const connected = await connect(engine);
    let sessionId = '';
    for (const args of CANONICAL_THOUGHTS) sessionId = String(jsonOf(await think(connected.client, args)).sessionId ?? sessionId);
    const canonical = jsonOf(await sessions(connected.client, { action: 'get', sessionId, recent: 2 }));
    const lenient = jsonOf(
      await sessions(connected.client, { action: 'get', session_id: sessionId, recent: '2', detail: null, colour: 'red' }),
    );
    assert.deepEqual(lenient, canonical);
    const page = jsonOf(await sessions(connected.client, { action: 'list', limit: '1', offset: '0', text: null }));
    assert.equal((page.sessions as unknown[]).length, 1);
    await connected.close();
  });
});

describe('choosing the tools', () => {
  it('lists only the chosen tools; the app-only tools come with the tools they serve', async () => {
    const engine = new ThinkingEngine({ log: quiet });
    const names = async (tools?: readonly ModelToolName[]) => {
      const connected = await connect(engine, tools);
      const listed = (await connected.client.listTools()).tools.map((tool) => tool.name).sort();
      await connected.close();
      return listed;
    };
    assert.deepEqual(await names(), [...MODEL_TOOLS, ...APP_TOOL_NAMES].sort());
    assert.deepEqual(await names(['sequentialthinking']), ['sequentialthinking', ...APP_TOOL_NAMES].sort());
    assert.deepEqual(await names(['thinking_sessions']), ['thinking_sessions']);
    assert.deepEqual(await names(['deliberate', 'thinking_sessions']), ['deliberate', 'thinking_sessions', ...APP_TOOL_NAMES].sort());
  });

  it('an unchosen tool cannot be called', async () => {
    const connected = await connect(new ThinkingEngine({ log: quiet }), ['thinking_sessions']);
    const result = await think(connected.client, CANONICAL_THOUGHTS[0]).catch((error: unknown) => ({
      isError: true,
      content: String(error),
    }));
    assert.equal(result.isError, true);
    await connected.close();
  });

  describe('the CLI with --tools', () => {
    const dir = tempDir('te-tools-flag-');
    before(() => ensureBuiltCli());
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('advertises only sequentialthinking (and, to an MCP Apps host, its app tools), which records as usual', async () => {
      const connected = await connectCli(dir, ['--tools', 'sequentialthinking']);
      try {
        // The stdio client declares no MCP Apps support: the app-only tools stay unlisted.
        const listed = (await connected.client.listTools()).tools.map((tool) => tool.name).sort();
        assert.deepEqual(listed, ['sequentialthinking']);
        const result = await think(connected.client, CANONICAL_THOUGHTS[0]);
        assert.notEqual(result.isError, true);
        assert.doesNotMatch(connected.client.getInstructions() ?? '', /deliberate/);
      } finally {
        await connected.close();
      }
    });
  });

  it('the thoughtExplorer.tools setting: a list of names, all by default, all (with the reason) on a bad value', () => {
    const problems: string[] = [];
    const read = (value: unknown) => advertisedTools({ get: <T>() => value as T }, (problem) => problems.push(problem));
    assert.deepEqual(read(undefined), [...MODEL_TOOLS]);
    assert.deepEqual(read(['deliberate', 'sequentialthinking', 'sequentialthinking']), ['sequentialthinking', 'deliberate']);
    assert.deepEqual(problems, []);
    assert.deepEqual(read(['sequentialthinking', 'think']), [...MODEL_TOOLS]);
    assert.deepEqual(read([]), [...MODEL_TOOLS]);
    assert.deepEqual(read('sequentialthinking'), [...MODEL_TOOLS]);
    assert.equal(problems.length, 3);
    assert.match(problems[0], /"think".*sequentialthinking, thinking_sessions, deliberate/);
  });
});
