// The `deliberate` tool: runs an execution plan of roles (thinking hats, custom roles) on a model and records every
// role's output as a thought of a session, so the explorer draws the deliberation. The model is the host's configured
// gateway (an OpenAI-compatible endpoint from the CLI, VS Code's models) or else the calling client through MCP
// sampling. Input is checked before anything runs: a refused call records nothing.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { replyText, runDeliberation, type DeliberationReply } from '../../deliberation/deliberate';
import { NAMED_PLANS } from '../../deliberation/namedPlans';
import { RESULT_STRATEGIES, plannedCalls } from '../../deliberation/plans';
import { HAT_NAMES } from '../../deliberation/roles';
import { RecordingError } from '../../deliberation/recorder';
import {
  DeliberationInputError,
  MAX_PROBLEM_LENGTH,
  parseDeliberateInput,
  prepareDeliberation,
  type PreparedDeliberation,
} from '../../deliberation/request';
import { canonicalFields } from '../../engine/lenientSchema';
import { replyAdvertisedAs } from '../advertisedSchema';
import { toolInput } from '../lenientSchema';
import { clientSupportsSampling, createSamplingGateway } from '../samplingGateway';
import { THOUGHT_GRAPH_TOOL_META } from '../app/thoughtGraphUri';
import { sessionUri } from '../resources';
import { errorMessage } from '../../engine/browserSafe/errorMessage';
import { DELIBERATION_CALL_STATUSES } from '../../engine/browserSafe/callStatuses';
import { PLAN_KINDS } from '../../engine/browserSafe/planKinds';
import { defineTool } from '../toolDefinition';
import { errorResult } from '../toolResults';

export const DELIBERATE_TOOL_NAME = 'deliberate';

/** What a caller without any model is told: every way to get one. */
export const NO_MODEL_MESSAGE =
  'No model is available for deliberate, so nothing was run or recorded. Two ways to give it one:\n' +
  '1. Use an MCP client that supports sampling (it declares the "sampling" capability, as VS Code does): the tool then asks your client to run each role on its model.\n' +
  '2. Start the stdio server with an OpenAI-compatible endpoint: thought-explorer-mcp --model-endpoint http://127.0.0.1:11434/v1 --model <name> ' +
  '[--model-api-key-env <VARIABLE holding the key>] (Ollama, llama.cpp, vLLM or any /v1/chat/completions server).';

const DESCRIPTION = `Deliberate on a problem with several roles (thinking hats or your own) run on a model: each role's answer is recorded as a thought of a session, and the combined result comes back.

The default plan, auto, picks hats by the problem's complexity. thinking://deliberation describes the plans, roles, budgets and plan objects, with examples.`;

/**
 * What the tool advertises; McpServer parses calls with the lenient schema made from it, and run checks them with the
 * deliberation's own request schema (request.ts), whose refusals say what to send.
 */
const canonicalInput = z.object({
  problem: z.string().max(MAX_PROBLEM_LENGTH),
  plan: z
    .union([z.enum(NAMED_PLANS), z.object({ strategy: z.enum(PLAN_KINDS) })])
    .optional()
    .describe('A named plan or a plan object.'),
  roles: z
    .array(z.union([z.string(), z.object({ name: z.string(), instructions: z.string() })]))
    .optional()
    .describe(`Hats (${HAT_NAMES.join(', ')}) or custom roles, for the plan's steps.`),
  resultStrategy: z.enum(RESULT_STRATEGIES).optional(),
  budgets: z
    .object({
      maxTokens: z.int().min(1).optional(),
      timeoutMs: z.int().min(1).optional(),
      maxTotalTokens: z.int().min(1).optional(),
      maxCycles: z.int().min(1).optional(),
      maxToolCalls: z.int().min(1).optional(),
    })
    .optional(),
  sessionId: z.string().optional().describe('Record into this session.'),
  fromThought: z.int().min(1).optional().describe("Attach here (default: the session's last thought); earlier makes a branch."),
});

const roleSummarySchema = z.object({
  role: z.string().describe('Role name.'),
  phase: z.string().describe('call, cycle, convergence, synthesis or tool_call.'),
  status: z.enum(DELIBERATION_CALL_STATUSES).describe('How the call ended.'),
  thoughtNumber: z.number().int().describe('The thought recording it.'),
  branch: z.string().optional().describe('Branch id for parallel roles.'),
  cycle: z.number().int().optional().describe('Cycle number for task steps.'),
  model: z.string().optional().describe('The model that answered.'),
  inputTokens: z.number().int().describe('Input tokens.'),
  outputTokens: z.number().int().describe('Output tokens.'),
  estimatedTokens: z.boolean().describe('True when the token counts are estimates.'),
  tokensNote: z.string().optional().describe('Why the counts are estimates although the model reported some (they were no counts).'),
  durationMs: z.number().describe('Wall time of the call.'),
  summary: z.string().describe('The start of its output.'),
  error: z.string().optional().describe('Why it failed.'),
  tool: z.string().optional().describe('For tool_call thoughts: the tool called.'),
});

export const deliberateOutputShape = {
  sessionId: z.string().describe('The session holding the deliberation.'),
  status: z.enum(['complete', 'partial', 'cancelled']).describe('complete: every role answered; partial: some failed or were cut.'),
  result: z.string().describe('The combined result per resultStrategy.'),
  plan: z
    .object({
      name: z.string().describe('Named plan or "custom".'),
      kind: z.string().describe('direct, sequential, parallel or task.'),
      resultStrategy: z.string().describe('last, concat, label or formatted.'),
      roles: z.array(z.string()).describe('Roles of the steps in order.'),
      synthesis: z.string().optional().describe('Parallel plans: the role that integrated the branches.'),
    })
    .describe('The plan that ran.'),
  routing: z
    .object({
      score: z.number().describe('Complexity score 0-100.'),
      band: z.string().describe('single, double, triple or full.'),
      sequence: z.array(z.string()).describe('The hats chosen.'),
      reason: z.string().describe('Why.'),
      estimatedSavingPercent: z.number().describe('Calls saved against the full six-hat sequence.'),
      factors: z.record(z.string(), z.number()).describe('Score per factor.'),
    })
    .optional()
    .describe('For plan "auto": the routing decision.'),
  roles: z.array(roleSummarySchema).describe('Every role call, in the order recorded.'),
  failed: z.array(z.string()).describe('Roles that failed.'),
  usage: z
    .object({
      calls: z.number().int().describe('Model calls made.'),
      inputTokens: z.number().int().describe('Input tokens in all.'),
      outputTokens: z.number().int().describe('Output tokens in all.'),
      estimated: z.boolean().describe('True when some counts are estimates.'),
      durationMs: z.number().describe('Wall time of the deliberation.'),
    })
    .describe('Usage totals.'),
  budgets: z
    .object({
      capped: z.array(z.string()).describe('Budgets asked above their cap.'),
      cut: z.array(z.string()).describe('What budgets cut.'),
    })
    .describe('Budget notes.'),
  tools: z
    .object({
      requested: z.array(z.string()).describe("The plan's tools."),
      offered: z.array(z.string()).describe('The tools offered to the model.'),
      unknown: z.array(z.string()).describe('Requested names no tool has.'),
      calls: z.number().int().describe('Tool calls made.'),
      notes: z.array(z.string()).describe('Why tools were not offered or names refused.'),
    })
    .optional()
    .describe('When the plan names tools: what was offered and called.'),
  gateway: z.string().describe('Where the model ran.'),
  thoughts: z
    .object({ first: z.number().int().describe('First thought number.'), last: z.number().int().describe('Last thought number.') })
    .describe('The thoughts recorded.'),
};

const deliberateOutputSchema = z.object(deliberateOutputShape);

/**
 * context.modelGateway: a model configured by the host, used before MCP sampling (undefined: sampling when the client
 * offers it); context.toolGateway: tools task steps may call (undefined: task steps run without tools).
 */
export const deliberateTool = defineTool({
  name: DELIBERATE_TOOL_NAME,
  config: {
    title: 'Deliberate',
    description: DESCRIPTION,
    // Advertised in full; checked once, in run, where a reply the schema refuses is still reported as text.
    outputSchema: replyAdvertisedAs(deliberateOutputSchema),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    _meta: THOUGHT_GRAPH_TOOL_META,
  },
  input: toolInput(canonicalInput),
  run: async (args, { server, context, extra }): Promise<CallToolResult> => {
    let prepared: PreparedDeliberation;
    // A chat's deliberation attaches to, and records under, that chat's current session.
    const { ownerId } = context.owners.ownerOf(extra.mcpReq._meta);
    try {
      prepared = prepareDeliberation(context.engine, ownerId, parseDeliberateInput(canonicalFields(args, canonicalInput)));
    } catch (error) {
      if (error instanceof DeliberationInputError) return errorResult(`${error.message}. Nothing was recorded.`);
      throw error;
    }
    const gateway = context.modelGateway ?? (clientSupportsSampling(server) ? createSamplingGateway(server, extra.mcpReq.id) : undefined);
    if (!gateway) return errorResult(NO_MODEL_MESSAGE);
    if (gateway.ready) {
      // A host model that is not available (none installed, no consent) is refused here, before anything is recorded.
      try {
        await gateway.ready(extra.mcpReq.signal);
      } catch (error) {
        return errorResult(`${errorMessage(error)} Nothing was run or recorded.`);
      }
    }

    const progressToken = extra.mcpReq._meta?.progressToken;
    const total = plannedCalls(prepared.plan);
    let reply: DeliberationReply;
    try {
      // With trace streaming on, the deliberation's thoughts (recorded after each model call) join the caller's trace.
      const run = () =>
        runDeliberation(prepared, {
          engine: context.engine,
          connectionId: ownerId,
          gateway,
          toolGateway: context.toolGateway,
          signal: extra.mcpReq.signal,
          whereIs: (sessionId, thoughtNumber) => `thought ${thoughtNumber} of ${sessionUri(sessionId)}`,
          onCallRecorded: ({ done, outcome, thoughtNumber }) => {
            if (progressToken === undefined) return;
            const where = `${outcome.cycle !== undefined ? ` cycle ${outcome.cycle}` : outcome.phase === 'convergence' ? ' convergence' : ''}${outcome.tool ? ` tool ${outcome.tool.name}` : ''}`;
            void extra.mcpReq
              .notify({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress: done,
                  total,
                  message: `${outcome.role.name}${where}: ${outcome.status} (thought ${thoughtNumber}, ${outcome.durationMs} ms)`,
                },
              })
              .catch(() => {});
          },
        });
      reply = await (context.telemetry ? context.telemetry.inCallContext(extra.mcpReq._meta, run) : run());
    } catch (error) {
      if (error instanceof RecordingError) return errorResult(`The deliberation could not be recorded: ${error.message}`);
      throw error;
    }
    // The work is recorded whatever the models reported: a reply the output schema would refuse still says so.
    const checked = deliberateOutputSchema.safeParse(reply);
    if (!checked.success)
      return errorResult(
        `${replyText(reply)}\n\n(The reply's structured form was left out: ${z.prettifyError(checked.error).slice(0, 500)})`,
      );
    return { content: [{ type: 'text', text: replyText(reply) }], structuredContent: reply as unknown as Record<string, unknown> };
  },
});
