// The tool recommender as a pure function: property-based (fast-check) over random tool lists and steps, it names only
// listed tools (or, without a list, only generic capabilities marked as such), stays within bounds and is
// deterministic; agent-sent names a list lacks are kept and flagged.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ThinkingEngine } from '../../src/engine/engine';
import { parseQaInput, QA_LIMITS, QaInputError, type ToolInfo } from '../../src/engine/qaInput';
import { TOOL_CAPABILITIES } from '../../src/engine/strategies/qaWorkflow';
import { qaAnnotator } from '../../src/recommendations/qaAnnotator';
import { recommendTools } from '../../src/recommendations/recommender';
import { indexTools } from '../../src/recommendations/toolIndex';
import { sessionMarkdown } from '../../src/export/markdown';
import { sessionHtml } from '../../src/export/html';
import { JSDOM } from 'jsdom';
import { parseSessionJson, PLUS_EXTRA_KEY, toSequentialThinkingPlusJson } from '../../src/storage/sessionJsonFormats';

const WORDS = [
  'read',
  'file',
  'run',
  'command',
  'terminal',
  'test',
  'docs',
  'fetch',
  'web',
  'search',
  'edit',
  'write',
  'lint',
  'errors',
  'git',
  'diff',
  'browser',
  'build',
  'npm',
  'config',
  'package.json',
  'version',
  'syntax',
  'deploy',
  'weather',
  'email',
];
const phrase = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((words) => words.join(' '));
const toolArb: fc.Arbitrary<ToolInfo> = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
  description: fc.option(phrase, { nil: undefined }),
});
const toolsArb = fc.uniqueArray(toolArb, { selector: (tool) => tool.name, minLength: 0, maxLength: 60 });

describe('recommender properties', () => {
  it('with a tool list, names only tools from it, at most the limit, with valid confidence and priority', () => {
    fc.assert(
      fc.property(
        toolsArb,
        phrase,
        phrase,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 8 }),
        (tools, stepText, thought, isRevision, isNewBranch, limit) => {
          const names = new Set(tools.map((tool) => tool.name));
          const result = recommendTools({ stepText, thought, isRevision, isNewBranch, tools: indexTools(tools), limit });
          assert.ok(result.length <= limit);
          assert.equal(new Set(result.map((tool) => tool.toolName)).size, result.length, 'no tool twice');
          for (const tool of result) {
            assert.ok(names.has(tool.toolName), tool.toolName);
            assert.equal(tool.generic, undefined);
            assert.ok(tool.confidence >= 0 && tool.confidence <= 1);
            assert.ok(Number.isInteger(tool.priority) && tool.priority >= 1);
            assert.ok(tool.rationale.length > 0);
            for (const alternative of tool.alternatives ?? []) assert.ok(names.has(alternative), alternative);
          }
          // Deterministic: the same request gives the same answer (fresh index, same content).
          assert.deepEqual(recommendTools({ stepText, thought, isRevision, isNewBranch, tools: indexTools([...tools]), limit }), result);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without a list, recommends only generic capabilities, marked as such', () => {
    fc.assert(
      fc.property(phrase, phrase, fc.boolean(), (stepText, thought, isRevision) => {
        const result = recommendTools({ stepText, thought, isRevision, isNewBranch: false, limit: 5 });
        for (const tool of result) {
          assert.equal(tool.generic, true);
          assert.ok((TOOL_CAPABILITIES as readonly string[]).includes(tool.toolName), tool.toolName);
          assert.match(tool.rationale, /^no tool list/);
        }
        if (isRevision)
          assert.ok(
            result.some((tool) => tool.toolName === 'edit_files'),
            'a revision needs editing',
          );
      }),
      { numRuns: 200 },
    );
  });

  it('through the engine: agent-sent names outside a random list are kept, flagged and warned about; ours come from the list', () => {
    const annotate = qaAnnotator();
    fc.assert(
      fc.property(
        toolsArb,
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/), { maxLength: 4 }),
        phrase,
        (tools, sentNames, stepText) => {
          const engine = new ThinkingEngine({ log: () => {} });
          const outcome = engine.process(
            'c',
            {
              thought: `step ${stepText}`,
              thoughtNumber: 1,
              totalThoughts: 2,
              nextThoughtNeeded: true,
              availableTools: tools,
              currentStep: {
                stepDescription: `do ${stepText}`,
                recommendedTools: sentNames.map((toolName, index) => ({ toolName, confidence: 0.5, rationale: 'r', priority: index + 1 })),
              },
            },
            { annotate },
          );
          assert.ok(outcome.ok, JSON.stringify(outcome));
          const reply = outcome.reply as unknown as {
            recommendation: { recommendedTools: { toolName: string; unavailable?: boolean }[] };
            warnings: string[];
          };
          const names = new Set(tools.map((tool) => tool.name));
          const recommended = reply.recommendation.recommendedTools;
          assert.deepEqual(
            recommended.slice(0, sentNames.length).map((tool) => tool.toolName),
            sentNames,
          );
          for (const tool of recommended.slice(0, sentNames.length)) assert.equal(tool.unavailable === true, !names.has(tool.toolName));
          for (const tool of recommended.slice(sentNames.length)) assert.ok(names.has(tool.toolName));
          const missing = sentNames.filter((name) => !names.has(name));
          assert.equal(
            reply.warnings.some((warning) => warning.startsWith('currentStep.recommendedTools:')),
            missing.length > 0,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('recommendations in the Markdown export', () => {
  it('lists the step, the tools with confidence (escaped) and the suggestion under the thought', () => {
    const engine = new ThinkingEngine({ log: () => {} });
    const annotate = qaAnnotator();
    const first = engine.process(
      'c',
      {
        thought: 'Plan the config',
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
        availableTools: ['read_file', 'write_to_file'],
        currentStep: {
          stepDescription: 'Design the <b>config</b>',
          recommendedTools: [{ toolName: 'write_to_file', confidence: 0.8, rationale: 'r', priority: 1 }],
        },
      },
      { annotate },
    );
    assert.ok(first.ok);
    engine.process(
      'c',
      { thought: 'The build failed', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: true, verificationTarget: 'build' },
      { annotate },
    );
    const markdown = sessionMarkdown(engine.getSession(first.reply.sessionId) as NonNullable<ReturnType<typeof engine.getSession>>);
    assert.match(markdown, /- \*\*Step:\*\* Design the \\<b\\>config\\<\/b\\>/);
    assert.match(markdown, /- \*\*Recommended tools:\*\* write\\_to\\_file \(0\.80\)/);
    assert.match(markdown, /- \*\*Suggestion:\*\* A failure: revise the implementation, thought 1/);
  });
});

describe('available-tools lists remembered by content', () => {
  const list = (description: string) => [
    'read_file',
    { name: 'run_in_terminal', description, tags: ['shell'] },
    { tool_name: 'fetch_page', description: 'x'.repeat(QA_LIMITS.toolDescription + 5) },
  ];

  it('a fresh copy with the same content gets the same parse; any change in name, description or tags is parsed anew', () => {
    const first = parseQaInput({ availableTools: list('Run a shell command') }, new Set());
    const again = parseQaInput({ available_client_tools: structuredClone(list('Run a shell command')) }, new Set());
    assert.ok(first?.availableTools && again?.availableTools);
    assert.equal(again.availableTools, first.availableTools);
    // The note about the cut description comes back on every call, under the field name this call used.
    assert.match(again.notes.join(' '), /^available_client_tools: 1 description/);
    const changed = parseQaInput({ availableTools: list('Run a shell command!') }, new Set());
    assert.notEqual(changed?.availableTools, first.availableTools);
    assert.equal(changed?.availableTools?.[1].description, 'Run a shell command!');
    const retagged = list('Run a shell command');
    (retagged[1] as { tags: string[] }).tags = ['terminal'];
    assert.deepEqual(parseQaInput({ availableTools: retagged }, new Set())?.availableTools?.[1].tags, ['terminal']);
    const renamed = list('Run a shell command');
    renamed[0] = 'read_files';
    assert.equal(parseQaInput({ availableTools: renamed }, new Set())?.availableTools?.[0].name, 'read_files');
  });

  it('a refused list is not remembered: the same bad list is refused again', () => {
    const bad = ['read_file', { name: 'x', description: 5 }];
    assert.throws(() => parseQaInput({ availableTools: bad }, new Set()), QaInputError);
    assert.throws(() => parseQaInput({ availableTools: structuredClone(bad) }, new Set()), /availableTools\[1\]\.description/);
  });
});

/** A session with QA steps whose step, tool name and thought are hostile markup. */
function hostileQaSession() {
  const engine = new ThinkingEngine({ log: () => {} });
  const annotate = qaAnnotator();
  const evil = '<img src=x onerror="alert(1)">';
  const first = engine.process(
    'c',
    {
      thought: `Plan ${evil}`,
      thoughtNumber: 1,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      availableTools: [evil, 'read_file'],
      verificationTarget: 'Tailwind CSS version',
      currentStep: {
        stepDescription: `Design ${evil}`,
        expectedOutcome: 'A plan',
        recommendedTools: [{ toolName: evil, confidence: 0.8, rationale: 'r', priority: 1 }],
      },
      remainingSteps: ['Validate </dd><script>alert(2)</script>'],
    },
    { annotate },
  );
  assert.ok(first.ok);
  const second = engine.process(
    'c',
    { thought: 'The build failed', thoughtNumber: 2, totalThoughts: 3, nextThoughtNeeded: true, verificationTarget: 'build' },
    { annotate },
  );
  assert.ok(second.ok);
  return { snapshot: engine.getSession(first.reply.sessionId) as NonNullable<ReturnType<typeof engine.getSession>>, evil };
}

describe('recommendations in the HTML export', () => {
  it('shows step, tool chips with confidence, remaining steps and suggestion under the thought, as text only', () => {
    const { snapshot, evil } = hostileQaSession();
    const document = new JSDOM(sessionHtml(snapshot, { rendererScript: 'void 0;' })).window.document;
    const sections = document.querySelectorAll('article.thought dl.qa');
    assert.equal(sections.length, 2);
    const chips = [...sections[0].querySelectorAll('.tool-chip')].map((chip) => chip.textContent);
    assert.equal(chips[0], `${evil} 0.80`);
    assert.ok(chips.length >= 2);
    assert.equal(sections[0].querySelector('dd')?.textContent, `Design ${evil}`);
    assert.match(sections[0].textContent ?? '', /Remaining steps.*Validate <\/dd><script>alert\(2\)<\/script>/s);
    assert.match(sections[1].textContent ?? '', /Suggestion.*A failure: revise the implementation, thought 1/s);
    assert.equal(document.querySelectorAll('img:not(.diagram-img)').length, 0, 'no markup from the session became an element');
    assert.equal(document.querySelectorAll('script').length, 1, 'only the renderer script');
  });
});

describe('recommendations in the sequentialthinking-plus JSON', () => {
  it('our extra fields ride under "thoughtExplorer" and come back unchanged on import', () => {
    const { snapshot } = hostileQaSession();
    const text = toSequentialThinkingPlusJson(snapshot);
    const file = JSON.parse(text) as { thoughtHistory: Record<string, unknown>[] };
    for (const [index, thought] of file.thoughtHistory.entries()) {
      assert.deepEqual(thought[PLUS_EXTRA_KEY], snapshot.thoughts[index].extra);
      // Nothing of ours at the top level of a thought, where other tools read.
      assert.equal(thought.qa, undefined);
    }
    const back = parseSessionJson(text).snapshot;
    assert.deepEqual(
      back.thoughts.map((thought) => thought.extra),
      snapshot.thoughts.map((thought) => thought.extra),
    );
    // The shape always writes isRevision (false when not a revision); everything else comes back as it was.
    assert.deepEqual(
      back.thoughts,
      snapshot.thoughts.map((thought) => ({ isRevision: false, ...thought })),
    );
    // And again: export → import → export is stable.
    assert.equal(
      toSequentialThinkingPlusJson({ ...back, meta: { ...back.meta, status: snapshot.meta.status, updatedAt: snapshot.meta.updatedAt } }),
      text,
    );
  });

  it("a namespaced value that is not an object is refused with its field named; other tools' fields are kept", () => {
    const file = {
      id: 'imported',
      timestamp: '2026-01-01T00:00:00.000Z',
      thoughtHistory: [{ thought: 'a', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, [PLUS_EXTRA_KEY]: 'x' }],
      branches: {},
    };
    assert.throws(() => parseSessionJson(JSON.stringify(file)), /thoughtHistory\[0\]\.thoughtExplorer/);
    file.thoughtHistory[0][PLUS_EXTRA_KEY] = { qa: { toolsFrom: 'request' } } as never;
    (file.thoughtHistory[0] as Record<string, unknown>).confidence = 0.5;
    assert.deepEqual(parseSessionJson(JSON.stringify(file)).snapshot.thoughts[0].extra, { confidence: 0.5, qa: { toolsFrom: 'request' } });
  });
});
