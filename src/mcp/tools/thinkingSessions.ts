// The `thinking_sessions` tool: find, read and resume saved thinking sessions (list, get, search, resume), their
// insights (stats) and the per-session "ask at decision points" switch (configure). One file per action under
// thinkingSessions/ (its argument schema and what it does); this file registers the tool and sends each call to its action.
// It advertises canonical arguments and parses as leniently as `sequentialthinking` ("20" for 20, session_id for
// sessionId, unknown fields ignored); every failure is an isError result whose text says what to send instead.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { REPLY_DETAILS, SESSION_STATUSES, describeValue } from '../../engine/fieldRules';
import { sentValue } from '../../engine/lenientSchema';
import { errorMessage } from '../../engine/browserSafe/errorMessage';
import { advertisedAs } from '../advertisedSchema';
import type { ToolContext } from '../toolContext';
import { defineTool } from '../toolDefinition';
import { errorResult } from '../toolResults';
import { ArgumentProblem, SESSION_LIST_MAX_LIMIT } from './thinkingSessions/arguments';
import { lenientOf } from '../../engine/lenientSchema';
import * as configure from './thinkingSessions/configure';
import * as get from './thinkingSessions/get';
import * as list from './thinkingSessions/list';
import * as resume from './thinkingSessions/resume';
import * as search from './thinkingSessions/search';
import * as stats from './thinkingSessions/stats';

export const THINKING_SESSIONS_TOOL_NAME = 'thinking_sessions';

const ACTIONS = ['list', 'get', 'search', 'resume', 'stats', 'configure'] as const;

/** What the tool advertises; what McpServer parses a call with is made from it (lenientSchema.ts). */
const canonicalArguments = z.object({
  action: z.enum(ACTIONS),
  sessionId: z.string().optional(),
  detail: z.enum(get.DETAILS).optional(),
  query: z.string().optional(),
  text: z.string().optional(),
  strategy: z.string().optional(),
  status: z.enum(SESSION_STATUSES).optional(),
  offset: z.int().min(0).optional(),
  feedbackOffset: z.int().min(0).optional(),
  // A page of no sessions answers nothing `total` of a one-session page does not: advertise the 1 the parser needs.
  limit: z.int().min(1).max(SESSION_LIST_MAX_LIMIT).optional(),
  recent: z.int().min(0).optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  askAtDecisionPoints: z.union([z.boolean(), z.literal('default')]).optional(),
  replyDetail: z.enum([...REPLY_DETAILS, 'default']).optional(),
});

/** Refuses nothing, so that each action words its own refusals ("Invalid <field>: got …; expected …"). */
const argumentsSchema = lenientOf(canonicalArguments);

type LenientArguments = z.output<typeof argumentsSchema>;

/** Each action's arguments, chosen by `action`; an action that is none of them is refused with the list. */
const actionArguments = z.discriminatedUnion(
  'action',
  [list.schema, get.schema, search.schema, resume.schema, stats.schema, configure.schema],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `got ${describeValue(sentValue((issue.input as LenientArguments).action))}; expected one of ${ACTIONS.join(', ')}.`
        : undefined,
  },
);

/** session_id for sessionId, parsed as sessionId is, when sessionId itself is absent (null or missing). */
function withSessionIdAlias(args: LenientArguments): LenientArguments {
  if (args.sessionId !== undefined && args.sessionId !== null) return args;
  if (args.session_id === undefined) return args;
  return { ...args, sessionId: argumentsSchema.shape.sessionId.parse(args.session_id) };
}

const item = z.looseObject({});
/** Every action answers with one object; which members it has depends on the action (see the description). */
const resultSchema = z.looseObject({
  sessions: z.array(item).optional().describe('list: the sessions of this page, newest first.'),
  traceStream: item
    .optional()
    .describe('stats, when live trace streaming is on: where spans go and how many were exported, dropped and queued.'),
  total: z.number().int().optional().describe('list: how many sessions match.'),
  offset: z.number().int().optional().describe('list and get (full): where this page starts.'),
  nextOffset: z.number().int().optional().describe('list, search and get (full): the offset of the next page, when there is one.'),
  nextFeedbackOffset: z
    .number()
    .int()
    .optional()
    .describe('get (full): the feedbackOffset of the next page of feedback, when there is one.'),
  meta: item.optional().describe("get (full): the session's meta."),
  strategySwitches: z.array(item).optional().describe('get (full): the strategy switches of the session.'),
  thoughts: z.array(item).optional().describe('get (full): every thought.'),
  feedback: z
    .array(item)
    .optional()
    .describe(
      'get (full): what the person said about the session (notes, rejections, alternatives), when delivered and applied; status says where each stands ("delivered to the agent", "applied by #5", "not acted on: session ended").',
    ),
  query: z.string().optional().describe('search: the text searched for.'),
  matches: z.array(item).optional().describe('search: the sessions that match, with their matching thoughts.'),
  scannedSessions: z.number().int().optional().describe('search: how many sessions this call searched.'),
  note: z.string().optional().describe('search, get and resume: why not everything came in this reply.'),
  sessionId: z.string().optional().describe('get (summary) and resume: the session.'),
  branches: z.array(item).optional().describe('get (summary) and resume: each branch with its fork point and length.'),
  recentThoughts: z.array(item).optional().describe('get (summary) and resume: the last thoughts.'),
  nextThoughtNumber: z.number().int().optional().describe('resume: the thoughtNumber to send next.'),
  nextStages: z.array(z.string()).optional().describe('resume: the stages the next thought may take.'),
  guidance: z.string().optional().describe('resume: how to continue.'),
  session: item.optional().describe('stats with sessionId: the insights of that session.'),
  overall: item.optional().describe('stats without sessionId: insights across the saved sessions that match the filters.'),
  askAtDecisionPoints: z.boolean().optional().describe("configure: the session's setting, absent when it follows the server's."),
  replyDetail: z
    .enum(REPLY_DETAILS)
    .optional()
    .describe("configure: the session's reply detail level, absent when it follows the server's."),
});

const DESCRIPTION = `Saved sequentialthinking sessions.
list: newest first, by strategy, status, text; offset, limit.
get: meta, last \`recent\` thoughts; detail "full": all, paged.
search: query in any text.
resume: make sessionId current here.
stats: of sessionId, or all (strategy, since, until).
configure: sessionId's askAtDecisionPoints, replyDetail ("default": the server's).`;

export const thinkingSessionsTool = defineTool({
  name: THINKING_SESSIONS_TOOL_NAME,
  config: {
    title: 'Thinking Sessions',
    description: DESCRIPTION,
    outputSchema: resultSchema,
    annotations: {
      title: 'Thinking Sessions',
      // Mostly reads, but configure writes a session's ask-at-decision-points switch and resume moves this
      // connection's current session: not read-only. Nothing is destroyed, and a repeat changes nothing more.
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  input: advertisedAs(argumentsSchema, canonicalArguments),
  run: (args, { context, extra }): CallToolResult => {
    const parsed = actionArguments.safeParse(withSessionIdAlias(args));
    if (!parsed.success) {
      // The first problem in the order the action reads its fields, named by its field.
      const [issue] = parsed.error.issues;
      return errorResult(`Invalid ${String(issue.path[0])}: ${issue.message}`);
    }
    try {
      // resume makes the session current for the call's owner: its conversation, else the connection.
      const value = run(parsed.data, { ...context, connectionId: context.owners.ownerOf(extra.mcpReq._meta).ownerId });
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    } catch (error) {
      if (error instanceof ArgumentProblem) return errorResult(error.message);
      // The store refuses ids it cannot hold (path traversal and the like) and unreadable journals by throwing.
      const message = errorMessage(error);
      context.log('warning', `${THINKING_SESSIONS_TOOL_NAME} refused: ${message}`, extra.mcpReq.id);
      return errorResult(message);
    }
  },
});

function run(args: z.output<typeof actionArguments>, context: ToolContext): Record<string, unknown> {
  switch (args.action) {
    case 'list':
      return list.run(args, context);
    case 'get':
      return get.run(args, context);
    case 'search':
      return search.run(args, context);
    case 'resume':
      return resume.run(args, context);
    case 'stats':
      return stats.run(args, context);
    case 'configure':
      return configure.run(args, context);
  }
}
