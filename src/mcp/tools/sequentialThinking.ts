// The `sequentialthinking` tool: a drop-in for the reference server's tool, recording into the shared engine under
// this connection's own session. The advertised input schema is deliberately as lenient as the engine's parser
// (numbers and booleans may arrive as strings, snake_case names are accepted): clients such as VS Code validate calls
// against it, and a stricter schema would refuse calls the engine handles well.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ThinkingEngine, ThoughtReply } from '../../engine/engine';
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
    const { text, quoted } = replyJson(outcome.reply);
    const result: ResultWithJson = { content: [{ type: 'text', text }], structuredContent: outcome.reply as unknown as Record<string, unknown> };
    // The same result as JSON, built from the pieces rather than by serialising the reply again (see RESULT_JSON).
    result[RESULT_JSON] = `{"content":[{"type":"text","text":"${quoted}"}],"structuredContent":${text}}`;
    return result;
  });
}

/** A branches list's JSON and that JSON escaped for a JSON string, for as long as the list is unchanged. */
interface BranchesJson {
  length: number;
  last: string | undefined;
  json: string;
  quoted: string;
}

// Keyed by the list itself: a session's list is replaced (never edited) when a branch opens, so the entry of a list
// stays true; length and last name are checked as well, in case a list is ever extended in place.
const branchesJsonCache = new WeakMap<readonly string[], BranchesJson>();

function branchesJson(branches: readonly string[]): BranchesJson {
  const last = branches[branches.length - 1];
  const cached = branchesJsonCache.get(branches);
  if (cached !== undefined && cached.length === branches.length && cached.last === last) return cached;
  const json = JSON.stringify(branches);
  const entry = { length: branches.length, last, json, quoted: JSON.stringify(json).slice(1, -1) };
  branchesJsonCache.set(branches, entry);
  return entry;
}

/**
 * The reply as JSON (`text`, exactly JSON.stringify(reply)) and as the inside of a JSON string holding that text
 * (`quoted`, exactly JSON.stringify(text) without its quotes). Why not just those two calls: `branches` grows with
 * the session (hundreds of names in a long one) and was most of a reply's bytes, serialised and then escaped again on
 * every call; here its two forms are made once per new branch. Escaping is done piece by piece, which gives the same
 * text because JSON escapes each character on its own and the pieces meet at ASCII punctuation.
 */
export function replyJson(reply: ThoughtReply): { text: string; quoted: string } {
  const fields = reply as unknown as Record<string, unknown>;
  const branches = fields.branches;
  if (!Array.isArray(branches)) {
    const text = JSON.stringify(reply);
    return { text, quoted: JSON.stringify(text).slice(1, -1) };
  }
  // Everything before the branches list (ending in `"branches":`) and everything after it.
  let head = '{';
  let tail = '';
  let afterBranches = false;
  for (const key in fields) {
    if (key === 'branches') {
      head += head.length === 1 ? '"branches":' : ',"branches":';
      afterBranches = true;
      continue;
    }
    // As JSON.stringify does: undefined members are left out.
    const value = JSON.stringify(fields[key]) as string | undefined;
    if (value === undefined) continue;
    const member = `${JSON.stringify(key)}:${value}`;
    if (afterBranches) tail += `,${member}`;
    else head += head.length === 1 ? member : `,${member}`;
  }
  tail += '}';
  const list = branchesJson(branches as string[]);
  return {
    text: `${head}${list.json}${tail}`,
    quoted: `${JSON.stringify(head).slice(1, -1)}${list.quoted}${JSON.stringify(tail).slice(1, -1)}`,
  };
}
