// The `sequentialthinking` tool: a drop-in for the reference server's tool, recording into the shared engine under
// this connection's own session. Its input schema is the engine's own (thoughtArgumentsSchema): what McpServer
// advertises and checks is exactly what the engine accepts, including "3" for 3, "false" for false and snake_case
// names, and a refused value reaches the engine, whose error names the field, the value and what to send.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ThinkingEngine, ThoughtReply } from '../../engine/engine';
import type { ConnectionLog } from '../connectionLog';
import type { DecisionPointAsker } from '../decisionPoints';
import type { ReplyDetail } from '../../engine/fieldRules';
import { thoughtArgumentsSchema } from '../../engine/thoughtInput';
import { qaAnnotator, type QaAnnotatorOptions } from '../../recommendations/qaAnnotator';
import { errorResult, toolFailure } from '../toolResults';
import { THOUGHT_GRAPH_TOOL_META } from '../app/thoughtGraphUri';

export const SEQUENTIAL_THINKING_TOOL_NAME = 'sequentialthinking';

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
guidance. Omit stage to let the session move along on its own.

The person watching may steer the session: a reply can carry userFeedback (a note, a thought to revise, a branch to
explore, a request to conclude); act on it first, as the guidance's first sentence says.`;

/**
 * A list of strings in the reply. Advertised exactly as z.array(z.string()) is, but checked in one pass: the SDK checks
 * every reply against this schema, and zod's array check made a result object per element (branch names add up).
 */
function stringList(description: string) {
  return z
    .unknown()
    .refine(isStringList, 'expected an array of strings')
    .meta({ type: 'array', items: { type: 'string' } })
    .describe(description);
}

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

/** Feedback from the person watching the session, delivered once; the guidance's first sentence says what to do. */
const userFeedbackSchema = z
  .array(
    z.object({
      id: z.string().describe('The feedback id.'),
      kind: z
        .enum(['note', 'reject', 'branch', 'conclude'])
        .describe('note: take into account; reject: revise thoughtNumber; branch: branch from thoughtNumber; conclude: finish now.'),
      thoughtNumber: z.number().int().optional().describe('The thought it is about.'),
      text: z.string().optional().describe("The person's note or reason."),
      branchId: z.string().optional().describe('A suggested branch id (branch).'),
    }),
  )
  .describe('Feedback from the user watching this session, not delivered before: act on it first (see guidance).');

/**
 * The reply; loose, so a client validating with this schema keeps working when a later version adds a field. Beyond
 * the reference's five, a field may be absent: the reply detail level leaves out what the agent was already told.
 */
const replySchema = z.looseObject({
  thoughtNumber: z.number().int().describe('The number of the thought just recorded.'),
  totalThoughts: z.number().int().describe('The current estimate of the thoughts needed.'),
  nextThoughtNeeded: z.boolean().describe('Whether another thought should follow.'),
  branches: stringList('The names of the branches of this session so far.'),
  thoughtHistoryLength: z.number().int().describe('How many thoughts the session holds.'),
  sessionId: z.string().describe('The session the thought went to; send it to continue this session later.').optional(),
  strategy: z.string().describe('The reasoning strategy of the session.').optional(),
  stage: z.string().describe('The strategy stage of this thought.').optional(),
  nextStages: stringList('The stages the next thought may take.').optional(),
  guidance: z.string().describe('A short hint for the next thought.').optional(),
  warnings: stringList('Problems noticed with this thought that did not stop it being recorded.').optional(),
  progress: z
    .object({
      thoughts: z.number().int().describe('Thoughts in this strategy so far.'),
      typicalLength: z.number().int().describe('The typical length of a session in this strategy.'),
      stagesToFinal: z.number().int().describe('The fewest stages left before final_response.'),
    })
    .describe('Thoughts in this strategy so far, its typical length, and the fewest stages left before final_response.')
    .optional(),
  userFeedback: userFeedbackSchema.optional(),
  userDecision: z
    .looseObject({
      action: z.enum(['accept', 'decline', 'cancel', 'timeout']),
      about: z.string(),
      choice: z.string().optional(),
      text: z.string().optional(),
    })
    .optional()
    .describe('Only when the user was asked at a decision point: their answer (the guidance says what to do with it).'),
});

export function registerSequentialThinkingTool(
  server: McpServer,
  engine: ThinkingEngine,
  connectionId: string,
  qaOptions: QaAnnotatorOptions = {},
  log: ConnectionLog = () => {},
  decisionPoints?: DecisionPointAsker,
  replyDetail?: ReplyDetail | (() => ReplyDetail),
): void {
  const processOptions = { annotate: qaAnnotator(qaOptions), argumentsParsed: true };
  server.registerTool(
    SEQUENTIAL_THINKING_TOOL_NAME,
    {
      title: 'Sequential Thinking',
      description: DESCRIPTION,
      inputSchema: thoughtArgumentsSchema,
      outputSchema: replySchema,
      annotations: {
        title: 'Sequential Thinking',
        // It changes nothing outside its own session store; VS Code would otherwise ask for confirmation on every thought.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      // MCP Apps hosts draw the inline thought graph beside each call; others ignore it. Static: no per-call work.
      _meta: THOUGHT_GRAPH_TOOL_META,
    },
    (args, extra): CallToolResult | Promise<CallToolResult> => {
      try {
        // McpServer has parsed args with thoughtArgumentsSchema: the engine need not parse them again.
        const outcome = engine.process(connectionId, args, processOptions);
        if (!outcome.ok) {
          log(
            outcome.storeFailed ? 'error' : 'warning',
            `${outcome.storeFailed ? 'thought not saved' : 'thought refused'}: ${outcome.error}`,
            extra.requestId,
          );
          return errorResult(outcome.error);
        }
        // Recorded first: asking the user (opt-in, at decision points only) adds their answer to the reply.
        const asking = decisionPoints?.consult(outcome.reply, extra);
        // Shaped last, from the full reply: the answer and the feedback always go out; known fields may not.
        const shaped = (reply: ThoughtReply) => replyResult(engine.shapeReplyFor(connectionId, reply, replyDetail));
        return asking ? asking.then(shaped) : shaped(outcome.reply);
      } catch (error) {
        log('error', `${SEQUENTIAL_THINKING_TOOL_NAME} failed: ${error instanceof Error ? error.message : String(error)}`, extra.requestId);
        return toolFailure(SEQUENTIAL_THINKING_TOOL_NAME, error);
      }
    },
  );
}

function replyResult(reply: object): CallToolResult {
  // Compact JSON: agents pay for every token.
  return { content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply as Record<string, unknown> };
}
