// The `sequentialthinking` tool: a drop-in for the reference server's tool, recording into the shared engine under
// this connection's own session. The advertised input schema is deliberately as lenient as the engine's parser
// (numbers and booleans may arrive as strings, snake_case names are accepted): clients such as VS Code validate calls
// against it, and a stricter schema would refuse calls the engine handles well.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ThinkingEngine } from '../../engine/engine';
import { RESULT_JSON, errorResult, type ResultWithJson, type ToolRegistry } from '../toolRegistry';

export const SEQUENTIAL_THINKING_TOOL_NAME = 'sequentialthinking';

// What the engine's parser accepts, field by field: numbers also as text ("3"), booleans also as text (any case),
// names also as whole numbers, and null for an optional field (treated as absent). The text forms are not narrowed
// with patterns: a bad value reaches the engine, whose error names the field, the value and what is valid.
const NULL = { type: 'null' };
const wholeNumber = (description: string, optional = false) => ({
  anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', description: 'a whole number written as text, e.g. "3"' }, ...(optional ? [NULL] : [])],
  description,
});
const flag = (description: string, optional = false) => ({
  anyOf: [{ type: 'boolean' }, { type: 'string', description: '"true" or "false"' }, ...(optional ? [NULL] : [])],
  description,
});
const name = (description: string) => ({ anyOf: [{ type: 'string' }, { type: 'integer' }, NULL], description });

const DESCRIPTION = `Think through a problem step by step, one thought per call, and keep a durable record of the reasoning.

Use it to break down a hard problem, plan with room for correction, or analyse something whose scope is unclear.
Each call records one thought. Send thoughtNumber (1, 2, 3, ...) and your current estimate totalThoughts (adjust it up
or down at any time), and nextThoughtNeeded: false only when you have a satisfying answer.

Revising: when you see that an earlier thought was wrong or incomplete, send a new thought with isRevision: true and
revisesThought: <number of the thought you correct>. The revision is recorded next to the original.

Branching: to explore an alternative without losing the main line, send branchFromThought: <number of the thought you
fork from> and branchId: <a short name such as "alt-cache">. Keep numbering thoughts upwards; send more thoughts with the
same branchId to continue that branch. needsMoreThoughts: true says you reached the planned end but need more.

Sessions: your first thought starts a session; the reply's sessionId names it. Send sessionId to continue a saved
session (thinking_sessions can list and resume them). strategy picks a reasoning strategy (default "linear") on the
first thought; stage names where in the strategy this thought belongs; the reply lists nextStages and a short
guidance. Omit stage to let the session move along on its own.`;

export const SEQUENTIAL_THINKING_TOOL: Tool = {
  name: SEQUENTIAL_THINKING_TOOL_NAME,
  title: 'Sequential Thinking',
  description: DESCRIPTION,
  inputSchema: {
    type: 'object',
    properties: {
      thought: { type: 'string', description: 'Your current thinking step (required).' },
      thoughtNumber: wholeNumber('Number of this thought in the sequence, from 1; may exceed totalThoughts (required).'),
      totalThoughts: wholeNumber('Current estimate of the thoughts needed; adjust it up or down as you go (required).'),
      nextThoughtNeeded: flag('true if another thought should follow, false when the answer is reached (required).'),
      isRevision: flag('true if this thought revises an earlier one (send revisesThought too).', true),
      revisesThought: wholeNumber('With isRevision: the number of the thought being revised.', true),
      branchFromThought: wholeNumber('With branchId: the number of the thought this branch forks from.', true),
      branchId: name('With branchFromThought: a short name for the branch, e.g. "alt-1".'),
      needsMoreThoughts: flag('true if you reached the planned end but need more thoughts.', true),
      sessionId: name('Continue this saved session (from a reply or thinking_sessions). Omit to continue the current one.'),
      strategy: name('Reasoning strategy for a new session, e.g. "linear" (default). See thinking://documentation.'),
      stage: name("The strategy stage of this thought: the current stage or one of the reply's nextStages. Optional."),
    },
    // Only `thought` is required in the advertised schema: the engine also accepts snake_case names
    // (thought_number, ...), and a validating client would refuse those if the camelCase names were required.
    // The engine itself names any missing field in its error.
    required: ['thought'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      thoughtNumber: { type: 'integer' },
      totalThoughts: { type: 'integer' },
      nextThoughtNeeded: { type: 'boolean' },
      branches: { type: 'array', items: { type: 'string' } },
      thoughtHistoryLength: { type: 'integer' },
      sessionId: { type: 'string' },
      strategy: { type: 'string' },
      stage: { type: 'string' },
      nextStages: { type: 'array', items: { type: 'string' } },
      guidance: { type: 'string' },
      warnings: { type: 'array', items: { type: 'string' } },
      progress: {
        type: 'object',
        description: 'Thoughts in this strategy so far, its typical length, and the fewest stages left before final_response.',
        properties: { thoughts: { type: 'integer' }, typicalLength: { type: 'integer' }, stagesToFinal: { type: 'integer' } },
        required: ['thoughts', 'typicalLength', 'stagesToFinal'],
      },
    },
    required: [
      'thoughtNumber',
      'totalThoughts',
      'nextThoughtNeeded',
      'branches',
      'thoughtHistoryLength',
      'sessionId',
      'strategy',
      'stage',
      'nextStages',
      'guidance',
      'warnings',
      'progress',
    ],
  },
  annotations: {
    title: 'Sequential Thinking',
    // It changes nothing outside its own session store; VS Code would otherwise ask for confirmation on every thought.
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

export function registerSequentialThinkingTool(tools: ToolRegistry, engine: ThinkingEngine, connectionId: string): void {
  tools.add(SEQUENTIAL_THINKING_TOOL, (args): CallToolResult => {
    const outcome = engine.process(connectionId, args);
    if (!outcome.ok) return errorResult(outcome.error);
    // Compact JSON: agents pay for every token.
    const text = JSON.stringify(outcome.reply);
    const result: ResultWithJson = { content: [{ type: 'text', text }], structuredContent: outcome.reply as unknown as Record<string, unknown> };
    // The same result as JSON, built from `text` rather than by serialising the reply a second time (see RESULT_JSON).
    result[RESULT_JSON] = `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`;
    return result;
  });
}
