// Tool recommendations and QA workflows (issue 13) through a real MCP Client over the in-memory transport:
// the QA workflows' Tailwind example replayed call for call with replies and the stored journal checked field by field, the
// agent's own recommendations kept and flagged against a tool list, workflow rules suggesting revisions and branches,
// the QA workflows as strategies (resources, prompts, stages), the editor's tool list used when a call sends none, and
// bad input refused with nothing stored.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ToolInfo } from '../../src/engine/qaInput';
import { createServer } from '../../src/mcp/server';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { jsonOf, tempDir, textOf } from './support/clients';
import { EXAMPLE_TOOLS, TAILWIND_BRANCH, TAILWIND_REVISION, TAILWIND_STEPS } from './fixtures/qaTailwindExample';

const quiet = () => {};
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Harness {
  client: Client;
  engine: ThinkingEngine;
  dir: string;
  call(args: Record<string, unknown>): Promise<CallToolResult>;
  journal(sessionId: string): Json[];
  close(): Promise<void>;
}

async function harness(availableTools?: () => readonly ToolInfo[] | undefined): Promise<Harness> {
  const dir = tempDir('te-recs-');
  const engine = new ThinkingEngine({ store: new FileSessionStore(dir, { log: quiet }), log: quiet });
  const created = createServer({ engine, availableTools });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverTransport);
  const client = new Client({ name: 'recs-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    engine,
    dir,
    call: async (args) => (await client.callTool({ name: 'sequentialthinking', arguments: args })) as CallToolResult,
    journal: (sessionId) =>
      readFileSync(join(dir, `${sessionId}.jsonl`), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Json)
        .filter((line) => line.type === 'thought')
        .map((line) => line.thought as Json),
    close: async () => {
      await client.close();
      created.cleanup();
    },
  };
}

/** The example's snake_case step in our camelCase, written out independently of the parser. */
function camelStep(step: Json): Json {
  return {
    stepDescription: step.step_description,
    expectedOutcome: step.expected_outcome,
    recommendedTools: step.recommended_tools.map((tool: Json) => {
      const out: Json = { toolName: tool.tool_name, confidence: tool.confidence, rationale: tool.rationale, priority: tool.priority };
      if (tool.alternatives) out.alternatives = tool.alternatives;
      if (tool.suggested_inputs) out.suggestedInputs = tool.suggested_inputs;
      return out;
    }),
    nextStepConditions: step.next_step_conditions,
  };
}

const GENERIC_CAPABILITIES = new Set([
  'read_files',
  'search_code',
  'run_command',
  'run_tests',
  'fetch_docs',
  'search_web',
  'edit_files',
  'diagnostics',
  'version_control',
  'browser_preview',
]);

describe("the QA workflows' Tailwind example, replayed exactly", () => {
  let h: Harness;
  const replies: Json[] = [];
  const calls = [...TAILWIND_STEPS, TAILWIND_REVISION, TAILWIND_BRANCH];
  before(async () => {
    h = await harness();
    for (const args of calls) replies.push(jsonOf(await h.call(args)));
  });
  after(() => h.close());

  it('records all six calls in one session: four steps, the revision of 3, the branch from 2', () => {
    const sessionId = replies[0].sessionId as string;
    assert.equal(typeof sessionId, 'string');
    // Compact replies name the session on its first reply only; the journal below holds all six thoughts.
    for (const reply of replies.slice(1)) assert.equal(reply.sessionId, undefined);
    assert.deepEqual(
      replies.map((reply) => reply.thoughtNumber),
      [1, 2, 3, 4, 5, 3],
    );
    assert.deepEqual(
      replies.map((reply) => reply.thoughtHistoryLength),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(replies[5].branches, ['alternative-config-1']);
    assert.equal(replies[3].nextThoughtNeeded, false);
  });

  it("answers each step with the step, the agent's tools first (short) and its next-step conditions", () => {
    calls.forEach((args, index) => {
      const step = (args.current_step as Json) ?? {};
      const recommendation = replies[index].recommendation as Json;
      assert.equal(recommendation.step, step.step_description);
      const sentTools = step.recommended_tools as Json[];
      const head = (recommendation.recommendedTools as Json[]).slice(0, sentTools.length);
      assert.deepEqual(
        head,
        sentTools.map((tool) => ({ toolName: tool.tool_name, confidence: tool.confidence, priority: tool.priority })),
        `thought ${index + 1}`,
      );
      if ((step.next_step_conditions as string[]).length > 0)
        assert.deepEqual(recommendation.nextStepConditions, step.next_step_conditions);
      else assert.equal(recommendation.nextStepConditions, undefined);
      // No tool list sent and none known: ours are capabilities, marked generic, never tool names.
      assert.equal(recommendation.toolsFrom, 'generic');
      for (const tool of (recommendation.recommendedTools as Json[]).slice(sentTools.length)) {
        assert.equal(tool.generic, true);
        assert.ok(GENERIC_CAPABILITIES.has(tool.toolName), tool.toolName);
        assert.match(tool.rationale, /^no tool list: any tool that can /);
        assert.ok(tool.confidence > 0 && tool.confidence <= 1);
      }
      assert.ok((recommendation.recommendedTools as Json[]).length <= 5);
      assert.deepEqual(
        // Compact replies leave out an empty warnings list.
        (replies[index].warnings ?? []).filter((w: string) => /recommendedTools/.test(w)),
        [],
        'nothing flagged without a list',
      );
    });
  });

  it('suggests the version-verification workflow from the first verification target, once', () => {
    assert.equal(replies[0].suggestedWorkflow, 'qa_version_verification');
    for (const reply of replies.slice(1)) assert.equal(reply.suggestedWorkflow, undefined);
  });

  it('stays compact: no reply over 1,400 characters', () => {
    for (const reply of replies) assert.ok(JSON.stringify(reply).length <= 1400, String(JSON.stringify(reply).length));
  });

  it('stores every field of every call in the journal, the step as sent and the recommendation as answered', () => {
    const stored = h.journal(replies[0].sessionId);
    assert.equal(stored.length, 6);
    stored.forEach((record, index) => {
      const args = calls[index] as Json;
      assert.equal(record.thought, args.thought);
      assert.equal(record.thoughtNumber, args.thought_number);
      assert.equal(record.totalThoughts, args.total_thoughts);
      assert.equal(record.nextThoughtNeeded, args.next_thought_needed);
      assert.equal(record.isRevision, args.is_revision);
      assert.equal(record.revisesThought, args.revises_thought);
      assert.equal(record.branchFromThought, args.branch_from_thought);
      assert.equal(record.branchId, args.branch_id);
      const qa = record.extra.qa as Json;
      assert.equal(qa.verificationTarget, args.verification_target);
      assert.deepEqual(qa.step, camelStep(args.current_step));
      assert.equal(qa.toolsFrom, 'generic');
      assert.equal(qa.toolCount, 0);
      // The workflow each thought's target suggests (the session follows none): version, none, none, none, syntax, none.
      assert.equal(qa.workflow, ['qa_version_verification', undefined, undefined, undefined, 'qa_syntax_validation', undefined][index]);
      assert.equal(qa.recommendation.step, args.current_step.step_description);
      // The journal keeps the agent's tools whole (rationale, alternatives, inputs) ahead of ours.
      assert.deepEqual(
        qa.recommendation.recommendedTools.slice(0, args.current_step.recommended_tools.length),
        camelStep(args.current_step).recommendedTools,
      );
      assert.deepEqual(
        qa.recommendation.recommendedTools.slice(args.current_step.recommended_tools.length).map((tool: Json) => tool.toolName),
        replies[index].recommendation.recommendedTools.slice(args.current_step.recommended_tools.length).map((tool: Json) => tool.toolName),
      );
    });
  });

  it('the same session is read back by the engine with the same extra (nothing half-stored)', () => {
    const snapshot = h.engine.getSession(replies[0].sessionId);
    assert.ok(snapshot);
    assert.deepEqual(
      snapshot.thoughts.map((thought) => thought.extra),
      h.journal(replies[0].sessionId).map((record) => record.extra),
    );
  });
});

describe('recommendations against a tool list', () => {
  let h: Harness;
  after(() => h?.close());

  it('names only listed tools, flags agent-sent names the list lacks, keeps them', async () => {
    h = await harness();
    const listed = EXAMPLE_TOOLS.filter((tool) => tool.name !== 'browser_navigate');
    const reply = jsonOf<Json>(await h.call({ ...TAILWIND_STEPS[1], available_client_tools: listed }));
    const tools = reply.recommendation.recommendedTools as Json[];
    assert.equal(reply.recommendation.toolsFrom, 'request');
    assert.deepEqual(
      tools.slice(0, 3).map((tool) => [tool.toolName, tool.unavailable]),
      [
        ['browser_navigate', true],
        ['browser_action', undefined],
        ['use_mcp_tool', true],
      ],
    );
    const names = new Set(listed.map((tool) => tool.name));
    for (const tool of tools.slice(3)) assert.ok(names.has(tool.toolName), tool.toolName);
    assert.ok(
      reply.warnings.some((warning: string) => /"browser_navigate", "use_mcp_tool" not in availableTools \(6\)/.test(warning)),
      reply.warnings.join(' | '),
    );
    const stored = h.journal(reply.sessionId)[0].extra.qa;
    assert.equal(stored.toolsFrom, 'request');
    assert.equal(stored.toolCount, 6);
    assert.equal(stored.recommendation.recommendedTools[0].unavailable, true);
  });

  it('ranks by capability and explains it: a build step gets the command tool with the command as input', async () => {
    const reply = jsonOf<Json>(
      await h.call({
        thought: 'Run `npm run build` to validate',
        thoughtNumber: 2,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        availableTools: EXAMPLE_TOOLS,
        currentStep: { stepDescription: 'Build the project with the installed version', expectedOutcome: 'Build passes' },
      }),
    );
    const [first] = reply.recommendation.recommendedTools as Json[];
    assert.equal(first.toolName, 'execute_command');
    assert.match(first.rationale, /^run a command: "build" in the step/);
    assert.deepEqual(first.suggestedInputs, { command: 'npm run build' });
  });
});

describe('workflow rules: revision after a failure, branch on several approaches', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('in a plain session: "build failed" suggests revising the implementation step (thought 3)', async () => {
    for (const args of TAILWIND_STEPS.slice(0, 3)) jsonOf(await h.call(args));
    const reply = jsonOf<Json>(
      await h.call({
        thought: 'npm run build failed: unexpected token in tailwind.config.js',
        thought_number: 4,
        total_thoughts: 5,
        next_thought_needed: true,
        verification_target: 'Tailwind CSS build',
      }),
    );
    assert.deepEqual(reply.suggestion, {
      revise: 3,
      text: 'A failure: revise the implementation, thought 3 (isRevision, revisesThought).',
    });
  });

  it('in a QA workflow: stages follow the workflow, remaining steps shrink, rules point at workflow stages', async () => {
    const w = await harness();
    try {
      const base = {
        totalThoughts: 5,
        nextThoughtNeeded: true,
        workflow: 'qa_version_verification',
        verificationTarget: 'tailwind version',
      };
      const first = jsonOf<Json>(await w.call({ ...base, thought: 'package.json says tailwindcss 4.0.1', thoughtNumber: 1 }));
      assert.equal(first.strategy, 'qa_version_verification');
      assert.equal(first.stage, 'version_check');
      assert.equal(first.recommendation.step, 'Check the installed version (package.json, lock file or the package manager)');
      assert.deepEqual(first.recommendation.recommendedTools.map((tool: Json) => tool.toolName).slice(0, 2), ['read_files', 'run_command']);
      assert.deepEqual(first.remainingSteps, [
        'Read the official documentation of the installed version',
        'Design and write the version-appropriate implementation',
        'Build or run with the installed version',
      ]);
      const second = jsonOf<Json>(
        await w.call({
          ...base,
          thought: 'The v4 docs show two valid configuration approaches: CSS-first and JS config',
          thoughtNumber: 2,
          stage: 'documentation_check',
        }),
      );
      assert.deepEqual(second.suggestion, {
        branchFromThought: 2,
        branchId: 'alternative-1',
        text: 'Several valid approaches: branch from thought 2 to explore one.',
      });
      assert.equal(second.remainingSteps.length, 2);
      jsonOf(await w.call({ ...base, thought: 'Write the CSS-first config', thoughtNumber: 3, stage: 'implementation_planning' }));
      const fourth = jsonOf<Json>(
        await w.call({ ...base, thought: 'The build failed with a syntax error', thoughtNumber: 4, stage: 'validation' }),
      );
      assert.deepEqual(fourth.suggestion, {
        revise: 3,
        text: 'Validation failed: revise the implementation, thought 3 (isRevision, revisesThought).',
      });
      const fifth = jsonOf<Json>(
        await w.call({ ...base, thought: 'Fix the @import line', thoughtNumber: 5, isRevision: true, revisesThought: 3 }),
      );
      assert.equal(fifth.stage, 'implementation_revision');
      assert.equal(fifth.suggestion, undefined);
    } finally {
      await w.close();
    }
  });

  it('the QA workflows are strategies: resources and think- prompts list them', async () => {
    const resources = await h.client.listResources();
    const prompts = await h.client.listPrompts();
    for (const name of ['qa_version_verification', 'qa_syntax_validation', 'qa_compatibility_check', 'qa_test_workflow']) {
      assert.ok(
        resources.resources.some((resource) => resource.uri === `thinking://strategies/${name}`),
        name,
      );
      assert.ok(
        prompts.prompts.some((prompt) => prompt.name.includes(name)),
        name,
      );
    }
  });
});

describe("the editor's tool list when a call sends none", () => {
  it('recommends from the provider, records the source, and a sent list wins', async () => {
    const editorTools: ToolInfo[] = [
      { name: 'copilot_readFile', description: 'Read the contents of a file in the workspace', tags: ['vscode_editing'] },
      { name: 'copilot_runInTerminal', description: 'Run a shell command in a terminal', tags: [] },
      { name: 'copilot_getErrors', description: 'Get compile or lint errors in a file (diagnostics)', tags: [] },
    ];
    let calls = 0;
    const h = await harness(() => {
      calls++;
      return editorTools;
    });
    try {
      const reply = jsonOf<Json>(
        await h.call({
          thought: 'Check for syntax errors',
          thoughtNumber: 1,
          totalThoughts: 2,
          nextThoughtNeeded: true,
          currentStep: { stepDescription: 'Check the config for syntax errors' },
        }),
      );
      assert.equal(reply.recommendation.toolsFrom, 'editor');
      assert.equal(reply.recommendation.recommendedTools[0].toolName, 'copilot_getErrors');
      for (const tool of reply.recommendation.recommendedTools)
        assert.ok(
          editorTools.some((known) => known.name === tool.toolName),
          tool.toolName,
        );
      assert.equal(calls, 1);
      const stored = h.journal(reply.sessionId)[0].extra.qa;
      assert.deepEqual([stored.toolsFrom, stored.toolCount], ['editor', 3]);
      const sent = jsonOf<Json>(
        await h.call({
          thought: 'Read it',
          thoughtNumber: 2,
          totalThoughts: 2,
          nextThoughtNeeded: false,
          availableTools: ['my_reader'],
          currentStep: { stepDescription: 'Read the config file' },
        }),
      );
      assert.equal(sent.recommendation.toolsFrom, 'request');
      assert.deepEqual(
        sent.recommendation.recommendedTools.map((tool: Json) => tool.toolName),
        ['my_reader'],
      );
      // A plain thought (no QA field, no QA workflow) pays nothing: no recommendation, the provider is not asked.
      const before = calls;
      const plain = jsonOf<Json>(await h.call({ thought: 'plain', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false }));
      assert.equal(plain.recommendation, undefined);
      assert.equal(calls, before);
    } finally {
      await h.close();
    }
  });
});

describe('bad QA input: a clear error naming the field, nothing stored', () => {
  let h: Harness;
  let sessionId: string;
  before(async () => {
    h = await harness();
    sessionId = jsonOf<Json>(await h.call({ thought: 'start', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true })).sessionId;
  });
  after(() => h.close());

  const step = (tool: Json) => ({ step_description: 'Check', recommended_tools: [tool] });
  const cases: [string, Json, RegExp][] = [
    [
      'confidence 1.5',
      { current_step: step({ tool_name: 'read_file', confidence: 1.5, rationale: 'r', priority: 1 }) },
      /Invalid current_step\.recommended_tools\[0\]\.confidence: got 1\.5; expected a number from 0 to 1/,
    ],
    [
      'priority 0',
      { current_step: step({ tool_name: 'read_file', confidence: 0.5, rationale: 'r', priority: 0 }) },
      /Invalid current_step\.recommended_tools\[0\]\.priority: got 0; expected a whole number from 1/,
    ],
    [
      '10,000 tools',
      { available_client_tools: Array.from({ length: 10_000 }, (_, index) => `tool_${index}`) },
      /Invalid available_client_tools: got 10000 tools; expected at most 512/,
    ],
    [
      'a tool list as a string',
      { availableTools: 'read_file,write_file' },
      /Invalid availableTools: got "read_file,write_file"; expected an array of tool names/,
    ],
    ['a step as an array', { currentStep: ['Check'] }, /Invalid currentStep: got an array of 1; expected an object with stepDescription/],
    [
      'a tool without a name',
      { availableTools: [{ description: 'no name' }] },
      /Invalid availableTools\[0\]\.name: got undefined; expected a non-empty string/,
    ],
    [
      'an unknown workflow',
      { workflow: 'qa_everything' },
      /Invalid workflow: got "qa_everything"; expected one of qa_version_verification/,
    ],
    [
      'workflow and strategy that disagree',
      { workflow: 'qa_test_workflow', strategy: 'react' },
      /Invalid workflow: got "qa_test_workflow"; expected the same as strategy "react"/,
    ],
    [
      'a 3,000-character step',
      { currentStep: { stepDescription: 'x'.repeat(3000) } },
      /Invalid currentStep\.stepDescription: got 3000 characters; expected at most 2000/,
    ],
    [
      'remaining steps as an object',
      { remaining_steps: { a: 1 } },
      /Invalid remaining_steps: got an object; expected an array of step descriptions/,
    ],
  ];
  for (const [name, extra, message] of cases) {
    it(`refuses ${name}`, async () => {
      const result = await h.call({ thought: 'step', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true, ...extra });
      assert.equal(result.isError, true, textOf(result));
      assert.match(textOf(result), message);
      assert.equal(h.journal(sessionId).length, 1, 'nothing stored');
      assert.equal(h.engine.getSession(sessionId)?.thoughts.length, 1);
    });
  }

  it('bounds a 1 MB tool description: used only in part for matching, never stored, and says so', async () => {
    const reply = jsonOf<Json>(
      await h.call({
        thought: 'step',
        thoughtNumber: 2,
        totalThoughts: 3,
        nextThoughtNeeded: true,
        availableTools: [{ name: 'big_reader', description: `Read files. ${'x'.repeat(1_048_576)}` }],
        currentStep: { stepDescription: 'Read the config file' },
      }),
    );
    assert.equal(reply.recommendation.recommendedTools[0].toolName, 'big_reader');
    assert.ok(reply.warnings.some((warning: string) => /availableTools: 1 description\(s\) longer than 1024 characters/.test(warning)));
    const stored = JSON.stringify(h.journal(sessionId)[1]);
    assert.ok(stored.length < 4000, String(stored.length));
  });
});
