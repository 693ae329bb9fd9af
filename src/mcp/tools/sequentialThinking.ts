// The `sequentialthinking` tool: a drop-in for the reference server's tool, recording into the shared engine under
// this connection's own session. It advertises the engine's canonical arguments (canonicalThoughtInput.ts) and McpServer
// parses calls with the lenient thoughtArgumentsSchema made from them ("3" for 3, "false", snake_case names); a refused
// value reaches the engine, whose error names the field, the value and what to send.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ThoughtReply } from '../../engine/engine';
import { defineTool } from '../toolDefinition';
import { thoughtArgumentsSchema } from '../../engine/thoughtInput';
import { canonicalThoughtArguments } from '../../engine/canonicalThoughtInput';
import { qaAnnotator } from '../../recommendations/qaAnnotator';
import { advertisedAs, replyAdvertisedAs } from '../advertisedSchema';
import { errorResult } from '../toolResults';
import { SEQUENTIAL_THINKING_DESCRIPTION } from './sequentialThinkingInput';
import { THOUGHT_GRAPH_TOOL_META } from '../app/thoughtGraphUri';
import { RESULT_SESSION_META_KEY } from '../../shared/thoughtGraph';
import { clientRendersApps } from '../app/appRegistration';
import { FEEDBACK_KINDS } from '../../engine/browserSafe/feedbackKinds';

export const SEQUENTIAL_THINKING_TOOL_NAME = 'sequentialthinking';

/** A list of strings in the reply. */
function stringList(description: string) {
  return z.array(z.string()).describe(description);
}

/** Feedback from the person watching the session, delivered once; the guidance's first sentence says what to do. */
const userFeedbackSchema = z
  .array(
    z.object({
      id: z.string().describe('The feedback id.'),
      kind: z
        .enum(FEEDBACK_KINDS)
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

export const sequentialThinkingTool = defineTool({
  name: SEQUENTIAL_THINKING_TOOL_NAME,
  config: {
    title: 'Sequential Thinking',
    description: SEQUENTIAL_THINKING_DESCRIPTION,
    outputSchema: replyAdvertisedAs(replySchema),
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
  // The engine's lenient schema, advertised in its canonical form: the engine need not parse the arguments again.
  input: advertisedAs(thoughtArgumentsSchema, canonicalThoughtArguments),
  run: (args, { server, context, extra }): CallToolResult | Promise<CallToolResult> => {
    const { engine, owners, log, decisionPoints, replyDetail, continuation, telemetry } = context;
    // The chat the call names owns its current session (VS Code sends every chat over one connection).
    const owner = owners.ownerOf(extra.mcpReq._meta);
    const { conversationId } = owner;
    // Without protocol sessions, a thought without sessionId is matched to its conversation's session (or refused).
    const routed = continuation ? continuation.route(args, conversationId, owner.ownerId) : { args, ownerId: owner.ownerId };
    if ('error' in routed) {
      log('warning', `thought refused: ${routed.error}`, extra.mcpReq.id);
      return errorResult(routed.error);
    }
    const { ownerId } = routed;
    const processOptions = { annotate: qaAnnotator({ availableTools: context.availableTools }), argumentsParsed: true };
    // With trace streaming on, a session this call starts joins the trace named in the request's _meta.
    const record = () => engine.process(ownerId, routed.args, { ...processOptions, conversationId });
    const outcome = telemetry ? telemetry.inCallContext(extra.mcpReq._meta, record) : record();
    if (!outcome.ok) {
      log(
        outcome.storeFailed ? 'error' : 'warning',
        `${outcome.storeFailed ? 'thought not saved' : 'thought refused'}: ${outcome.error}`,
        extra.mcpReq.id,
      );
      return errorResult(outcome.error);
    }
    // Recorded first: asking the user (opt-in, at decision points only) adds their answer to the reply.
    const asking = decisionPoints?.consult(outcome.reply, extra);
    // Shaped last, from the full reply: the answer and the feedback always go out; known fields may not.
    // A reply that will not be sent (the call was cancelled meanwhile) tells the agent nothing: compact must not
    // leave its news out of the next one.
    // An MCP Apps host's inline view is told the session on every result (in `_meta`, which models do not read).
    const shaped = (reply: ThoughtReply) =>
      replyResult(
        engine.shapeReplyFor(ownerId, reply, replyDetail, !extra.mcpReq.signal.aborted),
        clientRendersApps(server) ? reply.sessionId : undefined,
      );
    // The answer is not journaled: a trace stream, if any, records it.
    const answered = (reply: ThoughtReply) => (telemetry?.decided?.(reply), shaped(reply));
    return asking ? asking.then(answered) : shaped(outcome.reply);
  },
});

function replyResult(reply: object, viewSessionId: string | undefined): CallToolResult {
  // Compact JSON: agents pay for every token.
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(reply) }],
    structuredContent: reply as Record<string, unknown>,
  };
  if (viewSessionId !== undefined) result._meta = { [RESULT_SESSION_META_KEY]: viewSessionId };
  return result;
}
