// Through a real MCP Client over the in-memory transport: the strategy resources (list, template, read, completion)
// and the per-strategy prompts, as an agent's client sees them; and a strategy session steered by the tool's replies.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import { STRATEGIES } from '../../src/engine/strategies/catalog';
import { createServer } from '../../src/mcp/server';
import { parseMermaid } from '../support/mermaidParse';

interface TextContent {
  uri: string;
  mimeType?: string;
  text?: string;
}

describe('strategy resources and prompts over MCP', () => {
  let client: Client;
  let cleanup: () => void;

  before(async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    // Full replies: these tests read stage, choices and progress on every reply.
    const created = createServer({ engine, replyDetail: 'full' });
    cleanup = created.cleanup;
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await created.server.connect(serverTransport);
    client = new Client({ name: 'strategies-test', version: '1.0.0' });
    await client.connect(clientTransport);
  });

  after(async () => {
    await client.close();
    cleanup();
  });

  async function readText(uri: string): Promise<TextContent> {
    const result = await client.readResource({ uri });
    assert.equal(result.contents.length, 1);
    return result.contents[0] as TextContent;
  }

  it('lists thinking://strategies, one resource per strategy and the template', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    assert.ok(uris.includes('thinking://strategies'));
    for (const strategy of STRATEGIES) assert.ok(uris.includes(`thinking://strategies/${strategy.name}`), strategy.name);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((template) => template.uriTemplate === 'thinking://strategies/{name}'));
  });

  it('reads thinking://strategies as JSON with traits, typical length and stage names', async () => {
    const content = await readText('thinking://strategies');
    assert.equal(content.mimeType, 'application/json');
    const parsed = JSON.parse(content.text ?? '') as {
      strategies: { name: string; traits: Record<string, boolean>; typicalLength: number; stages: string[] }[];
    };
    assert.deepEqual(
      parsed.strategies.map((strategy) => strategy.name),
      STRATEGIES.map((strategy) => strategy.name),
    );
    for (const [index, strategy] of STRATEGIES.entries()) {
      assert.deepEqual(parsed.strategies[index].traits, strategy.traits);
      assert.equal(parsed.strategies[index].typicalLength, strategy.typicalLength);
      assert.deepEqual(
        parsed.strategies[index].stages,
        strategy.stages.map((stage) => stage.name),
      );
    }
  });

  it('reads each strategy as Markdown: purpose, every stage with its purpose, and a stage graph Mermaid accepts', async () => {
    for (const strategy of STRATEGIES) {
      const content = await readText(`thinking://strategies/${strategy.name}`);
      assert.equal(content.mimeType, 'text/markdown');
      const text = content.text ?? '';
      assert.ok(text.includes(strategy.description), strategy.name);
      for (const stage of strategy.stages)
        assert.ok(text.includes(`\`${stage.name}\` — ${stage.purpose}`), `${strategy.name}.${stage.name}`);
      const diagram = /```mermaid\n([\s\S]*?)```/.exec(text);
      assert.ok(diagram, `${strategy.name} has a mermaid block`);
      assert.match(diagram[1], /^flowchart TD/);
      await parseMermaid(diagram[1]);
    }
  });

  it('refuses an unknown strategy with the valid names', async () => {
    await assert.rejects(client.readResource({ uri: 'thinking://strategies/no_such' }), /No strategy "no_such".*linear, chain_of_thought/);
  });

  it('completes strategy names in the template', async () => {
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'thinking://strategies/{name}' },
      argument: { name: 'name', value: 'self' },
    });
    assert.deepEqual(result.completion.values, ['self_ask', 'self_consistency']);
  });

  it('lists one think-<strategy> prompt per strategy, each with a required problem argument', async () => {
    const { prompts } = await client.listPrompts();
    for (const strategy of STRATEGIES) {
      const prompt = prompts.find((candidate) => candidate.name === `think-${strategy.name}`);
      assert.ok(prompt, strategy.name);
      assert.deepEqual(
        prompt.arguments?.map((argument) => [argument.name, argument.required]),
        [['problem', true]],
      );
    }
  });

  it('gives each prompt a text that starts a session in its strategy and names every stage', async () => {
    for (const strategy of STRATEGIES) {
      const result = await client.getPrompt({ name: `think-${strategy.name}`, arguments: { problem: 'How many primes are below 30?' } });
      assert.equal(result.messages.length, 1);
      const content = result.messages[0].content;
      assert.equal(content.type, 'text');
      const text = content.type === 'text' ? content.text : '';
      assert.ok(text.includes('How many primes are below 30?'));
      assert.ok(text.includes(`strategy "${strategy.name}"`), strategy.name);
      for (const stage of strategy.stages) assert.ok(text.includes(stage.name), `${strategy.name} prompt names ${stage.name}`);
    }
  });

  it('runs a prompt-started session through the tool with replies that carry stage, choices and progress', async () => {
    const call = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'sequentialthinking', arguments: args });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      return result.structuredContent as {
        stage: string;
        nextStages: string[];
        guidance: string;
        progress: { thoughts: number; typicalLength: number; stagesToFinal: number };
      };
    };
    const first = await call({
      thought: 'Restate',
      thoughtNumber: 1,
      totalThoughts: 8,
      nextThoughtNeeded: true,
      strategy: 'self_ask',
      stage: 'problem_reception',
    });
    assert.equal(first.stage, 'problem_reception');
    assert.deepEqual(first.progress, { thoughts: 1, typicalLength: 8, stagesToFinal: 7 });
    const refused = await client.callTool({
      name: 'sequentialthinking',
      arguments: { thought: 'Jump', thoughtNumber: 2, totalThoughts: 8, nextThoughtNeeded: true, stage: 'completion_check' },
    });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /Current stage: \\"problem_reception\\".*\\"problem_decomposition\\"/);
  });
});
