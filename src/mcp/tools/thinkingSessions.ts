// The `thinking_sessions` tool: find, read and resume saved thinking sessions (list, get, search, resume), their
// insights (stats) and the per-session "ask at decision points" switch (configure).
// It advertises canonical arguments and parses as leniently as `sequentialthinking` ("20" for 20, session_id for
// sessionId, unknown fields ignored); every failure is an isError result whose text says what to send instead.
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ThinkingEngine } from '../../engine/engine';
import { MAX_WHOLE_NUMBER, SESSION_STATUSES, isWholeNumberInRange } from '../../engine/fieldRules';
import type { SessionMeta, SessionSnapshot, SessionStatus, ThoughtRecord } from '../../engine/model';
import { feedbackStatusText } from '../../shared/feedbackStatus';
import { REPLY_DETAILS, isReplyDetail } from '../../engine/fieldRules';
import { nextStages } from '../../engine/stageFlow';
import { findStrategy } from '../../engine/strategies/catalog';
import { describeValue, visibleText } from '../../engine/fieldRules';
import { RefusedValue, WHOLE_NUMBER_TEXT, refusable, sentValue } from '../../engine/thoughtInput';
import { advertisedAs } from '../advertisedSchema';
import { errorResult } from '../toolResults';
import { StatsArgumentError, sessionStats } from './sessionStats';
import { errorMessage } from '../../engine/browserSafe/errorMessage';
import type { ToolContext } from '../toolContext';
import { searchSessions } from '../../engine/browserSafe/sessionSearch';
import { sessionName } from '../../engine/browserSafe/sessionTitle';

export const THINKING_SESSIONS_TOOL_NAME = 'thinking_sessions';

const ACTIONS = ['list', 'get', 'search', 'resume', 'stats', 'configure'] as const;
type Action = (typeof ACTIONS)[number];
const DETAILS = ['summary', 'full'] as const;

/** Page sizes and the bound on search work: a search reads whole sessions, so it stops after this many. */
export const SESSION_LIST_DEFAULT_LIMIT = 20;
export const SESSION_LIST_MAX_LIMIT = 100;
export const SEARCH_MAX_SESSIONS_SCANNED = 100;
export const SEARCH_MAX_THOUGHTS_SCANNED = 50_000;
const RESUME_DEFAULT_RECENT = 5;
/**
 * Most characters (as JSON) of one `get` (full) page: the reply carries it twice (text and structuredContent), and an
 * MCP stdio client drops a line over 10 MiB. A longer session comes in pages (offset, nextOffset).
 */
export const GET_FULL_PAGE_MAX_CHARS = 1_000_000;
const SNIPPET_LENGTH = 160;

/** A count of 0 or more, also as text ("20"); null or "" means absent. */
const count = () =>
  refusable(
    z.union([z.int().min(0).max(MAX_WHOLE_NUMBER), z.string(), z.null()]).transform((value, context) => {
      if (typeof value !== 'string' || value === '') return value;
      const parsed = WHOLE_NUMBER_TEXT.test(value) ? Number(value) : Number.NaN;
      if (isWholeNumberInRange(parsed, 0)) return parsed;
      context.issues.push({ code: 'custom', message: 'a whole number of 0 or more', input: value });
      return z.NEVER;
    }),
  ).optional();

const textField = () => refusable(z.string().nullable()).optional();

const argumentsSchema = z.looseObject({
  action: refusable(z.enum(ACTIONS)),
  sessionId: textField(),
  detail: refusable(z.enum(DETAILS).nullable()).optional(),
  query: textField(),
  text: textField(),
  strategy: textField(),
  status: refusable(z.enum(SESSION_STATUSES as [SessionStatus, ...SessionStatus[]]).nullable()).optional(),
  offset: count(),
  limit: count(),
  recent: count(),
  since: refusable(z.union([z.string(), z.number(), z.null()])).optional(),
  until: refusable(z.union([z.string(), z.number(), z.null()])).optional(),
  askAtDecisionPoints: refusable(z.union([z.boolean(), z.string(), z.null()])).optional(),
  replyDetail: refusable(z.union([z.enum([...REPLY_DETAILS, 'default']), z.null()])).optional(),
});

/** What the tool advertises (the lenient schema above takes more: see advertisedSchema.ts). */
const canonicalArguments = z.object({
  action: z.enum(ACTIONS),
  sessionId: z.string().optional(),
  detail: z.enum(DETAILS).optional().describe('get: default summary.'),
  query: z.string().optional().describe('search: case-insensitive.'),
  text: z.string().optional(),
  strategy: z.string().optional(),
  status: z.enum(SESSION_STATUSES as [SessionStatus, ...SessionStatus[]]).optional(),
  offset: z.int().min(0).optional(),
  limit: z.int().min(0).max(SESSION_LIST_MAX_LIMIT).optional().describe(`Default ${SESSION_LIST_DEFAULT_LIMIT}.`),
  recent: z.int().min(0).optional().describe(`get, resume: how many last thoughts (default ${RESUME_DEFAULT_RECENT}).`),
  since: z.string().optional().describe('stats: ISO date or date-time.'),
  until: z.string().optional(),
  askAtDecisionPoints: z
    .union([z.boolean(), z.literal('default')])
    .optional()
    .describe('"default" follows the server setting.'),
  replyDetail: z
    .enum([...REPLY_DETAILS, 'default'])
    .optional()
    .describe('configure: how much sequentialthinking replies say; "default" follows the server.'),
});

type Arguments = Record<string, unknown>;

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
  note: z.string().optional().describe('search and get (full): why not everything came in this reply.'),
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

const DESCRIPTION = `Find, read and resume saved sequentialthinking sessions, one action per call.

- list: newest first, paged with offset and limit, filtered by strategy, status and text (in title or purpose).
- get: one session, its meta and last thoughts, or with detail "full" every thought and the user's feedback (a long session in pages: call again with nextOffset).
- search: sessions whose title, purpose or thoughts contain query, with snippets; at most ${SEARCH_MAX_SESSIONS_SCANNED} sessions a call, then go on from nextOffset.
- resume: makes sessionId this conversation's current session and returns what you need to go on with sequentialthinking.
- stats: the insights of sessionId, or without it across sessions (filters strategy, since, until).
- configure: for sessionId, askAtDecisionPoints (whether the user is asked at its decision points) and replyDetail.`;

class ArgumentProblem extends Error {}

export function registerThinkingSessionsTool(server: McpServer, context: ToolContext): void {
  const { engine, connectionId, log, telemetry } = context;
  server.registerTool(
    THINKING_SESSIONS_TOOL_NAME,
    {
      title: 'Thinking Sessions',
      description: DESCRIPTION,
      inputSchema: advertisedAs(argumentsSchema, canonicalArguments),
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
    (args, extra): CallToolResult => {
      try {
        const value = run(engine, connectionId, args as Arguments) as Record<string, unknown>;
        // Live trace streaming's counters (spans sent, dropped, queued) go with the stats when streaming is on.
        const traceStream = args.action === 'stats' ? telemetry?.stats() : undefined;
        if (traceStream) value.traceStream = traceStream;
        return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
      } catch (error) {
        if (error instanceof ArgumentProblem) return errorResult(error.message);
        // The store refuses ids it cannot hold (path traversal and the like) and unreadable journals by throwing.
        const message = errorMessage(error);
        log('warning', `${THINKING_SESSIONS_TOOL_NAME} refused: ${message}`, extra.mcpReq.id);
        return errorResult(message);
      }
    },
  );
}

function run(engine: ThinkingEngine, connectionId: string, args: Arguments): unknown {
  const action = args.action;
  if (typeof action !== 'string') {
    throw new ArgumentProblem(`Invalid action: got ${describeValue(sentValue(action))}; expected one of ${ACTIONS.join(', ')}.`);
  }
  switch (action as Action) {
    case 'list':
      return list(engine, args);
    case 'get':
      return get(engine, args);
    case 'search':
      return search(engine, args);
    case 'resume':
      return resume(engine, connectionId, args);
    case 'stats':
      return stats(engine, args);
    case 'configure':
      return configure(engine, args);
  }
}

function list(engine: ThinkingEngine, args: Arguments): unknown {
  const offset = optionalCount(args, 'offset') ?? 0;
  const limit = pageLimit(args);
  const status = optionalChoice(args, 'status', SESSION_STATUSES);
  const result = engine.listSessions({
    offset,
    limit,
    strategy: optionalString(args, 'strategy'),
    status: status as SessionStatus | undefined,
    text: optionalString(args, 'text'),
  });
  const nextOffset = offset + result.sessions.length;
  return {
    sessions: result.sessions.map(summarizeMeta),
    total: result.total,
    offset,
    ...(nextOffset < result.total ? { nextOffset } : {}),
  };
}

function get(engine: ThinkingEngine, args: Arguments): unknown {
  const snapshot = requireSession(engine, args);
  const detail = optionalChoice(args, 'detail', DETAILS, '"summary" or "full"') ?? 'summary';
  if (detail === 'full') return fullPage(snapshot, optionalCount(args, 'offset') ?? 0);
  const recent = optionalCount(args, 'recent') ?? RESUME_DEFAULT_RECENT;
  return {
    ...summarizeMeta(snapshot.meta),
    branches: describeBranches(snapshot.thoughts),
    recentThoughts: snapshot.thoughts.slice(-recent).map(compactThought),
  };
}

/** Every thought from `offset` that fits in GET_FULL_PAGE_MAX_CHARS (at least one), and where the next page starts. */
function fullPage(snapshot: SessionSnapshot, offset: number): unknown {
  const { meta, strategySwitches, thoughts, feedback } = snapshot;
  const described = feedback?.map((record) => ({ ...record, status: feedbackStatusText(record, thoughts, meta.status) }));
  const head = { meta, strategySwitches, ...(offset === 0 && described && described.length > 0 ? { feedback: described } : {}) };
  let size = JSON.stringify(head).length;
  let end = Math.min(offset, thoughts.length);
  while (end < thoughts.length) {
    const next = JSON.stringify(thoughts[end]).length + 1;
    if (end > offset && size + next > GET_FULL_PAGE_MAX_CHARS) break;
    size += next;
    end++;
  }
  const page = { ...head, thoughts: thoughts.slice(Math.min(offset, thoughts.length), end) };
  if (end >= thoughts.length) return offset === 0 ? page : { ...page, offset };
  return {
    ...page,
    offset,
    nextOffset: end,
    note: `Thoughts ${offset + 1}-${end} of ${thoughts.length} (in arrival order): call get again with offset ${end} for the next page.`,
  };
}

function search(engine: ThinkingEngine, args: Arguments): unknown {
  const query = optionalString(args, 'query') ?? optionalString(args, 'text');
  if (query === undefined || query.trim() === '')
    throw new ArgumentProblem('Invalid query: search needs a non-empty query (the text to look for).');
  const offset = optionalCount(args, 'offset') ?? 0;
  const limit = pageLimit(args);
  const page = engine.listSessions({ offset, limit: SEARCH_MAX_SESSIONS_SCANNED });
  const found = searchSessions(page.sessions, (meta) => engine.getSession(meta.id)?.thoughts, query, {
    exhausted: (progress) => progress.matches >= limit || progress.scannedThoughts >= SEARCH_MAX_THOUGHTS_SCANNED,
    hitsPerSession: 5,
  });
  const matches = found.matches.map(({ meta, hits }) => ({
    ...summarizeMeta(meta),
    matchingThoughts: hits.map(({ thought, at }) => ({
      thoughtNumber: thought.thoughtNumber,
      seq: thought.seq,
      snippet: snippet(thought.thought, at, query.toLowerCase().length),
    })),
  }));
  const scannedSessions = found.scannedSessions;
  const nextOffset = offset + scannedSessions;
  return {
    query,
    matches,
    scannedSessions,
    ...(nextOffset < page.total ? { nextOffset, note: 'Not every session was searched; call search again with offset nextOffset.' } : {}),
  };
}

function resume(engine: ThinkingEngine, connectionId: string, args: Arguments): unknown {
  const id = requireSessionId(args);
  const snapshot = engine.resumeSession(connectionId, id);
  if (!snapshot) throw new ArgumentProblem(unknownSession(id));
  const { meta, thoughts } = snapshot;
  const strategy = findStrategy(meta.strategy);
  const upcoming = strategy && meta.status === 'live' ? [...nextStages(strategy, meta.stage)] : [];
  const recent = optionalCount(args, 'recent') ?? RESUME_DEFAULT_RECENT;
  const nextThoughtNumber = meta.lastThoughtNumber + 1;
  return {
    sessionId: meta.id,
    title: shownTitle(meta),
    status: meta.status,
    strategy: meta.strategy,
    stage: meta.stage,
    nextStages: upcoming,
    thoughtCount: meta.thoughtCount,
    totalThoughts: meta.totalThoughts,
    nextThoughtNumber,
    branches: describeBranches(thoughts),
    recentThoughts: thoughts.slice(-recent).map(compactThought),
    guidance:
      meta.status === 'live'
        ? `This is now your current session. Continue with sequentialthinking thoughtNumber ${nextThoughtNumber}` +
          (upcoming.length > 0 ? `, stage "${meta.stage}" or one of ${upcoming.join(', ')}.` : '.')
        : `This session is ${meta.status}. Send sessionId "${meta.id}" with thoughtNumber ${nextThoughtNumber} to add to it, or thoughtNumber 1 without sessionId to start a new one.`,
  };
}

function stats(engine: ThinkingEngine, args: Arguments): unknown {
  try {
    const request = { sessionId: optionalString(args, 'sessionId'), strategy: optionalString(args, 'strategy') };
    return sessionStats(engine, { ...request, since: sentValue(field(args, 'since')), until: sentValue(field(args, 'until')) });
  } catch (error) {
    if (error instanceof StatsArgumentError) throw new ArgumentProblem(error.message);
    throw error;
  }
}

function configure(engine: ThinkingEngine, args: Arguments): unknown {
  const id = requireSessionId(args);
  // null means absent, as everywhere in these arguments.
  const sentAsk = sentValue(field(args, 'askAtDecisionPoints')) ?? undefined;
  const sentDetail = sentValue(field(args, 'replyDetail')) ?? undefined;
  if (sentAsk === undefined && sentDetail === undefined)
    throw new ArgumentProblem(
      'Nothing to configure: send askAtDecisionPoints (true, false or "default") or replyDetail (compact, standard, full or "default").',
    );
  // Both checked before either is stored: a refused value changes nothing.
  const ask =
    sentAsk === undefined
      ? undefined
      : sentAsk === true || sentAsk === 'true'
        ? true
        : sentAsk === false || sentAsk === 'false'
          ? false
          : sentAsk === 'default'
            ? 'default'
            : null;
  if (ask === null)
    throw new ArgumentProblem(`Invalid askAtDecisionPoints: got ${describeValue(sentAsk)}; expected true, false or "default".`);
  if (sentDetail !== undefined && sentDetail !== 'default' && !isReplyDetail(sentDetail))
    throw new ArgumentProblem(`Invalid replyDetail: got ${describeValue(sentDetail)}; expected ${REPLY_DETAILS.join(', ')} or "default".`);
  let meta = engine.holdSession(id);
  if (!meta) throw new ArgumentProblem(unknownSession(id));
  if (ask !== undefined) meta = engine.setAskAtDecisionPoints(id, ask === 'default' ? undefined : ask) ?? meta;
  if (sentDetail !== undefined) meta = engine.setReplyDetail(id, sentDetail === 'default' ? undefined : sentDetail) ?? meta;
  return {
    sessionId: meta.id,
    ...(meta.askAtDecisionPoints !== undefined ? { askAtDecisionPoints: meta.askAtDecisionPoints } : {}),
    ...(meta.replyDetail !== undefined ? { replyDetail: meta.replyDetail } : {}),
  };
}

function summarizeMeta(meta: SessionMeta): Record<string, unknown> {
  return {
    sessionId: meta.id,
    title: shownTitle(meta),
    strategy: meta.strategy,
    stage: meta.stage,
    status: meta.status,
    thoughtCount: meta.thoughtCount,
    revisionCount: meta.revisionCount,
    branches: meta.branchIds,
    createdAt: new Date(meta.createdAt).toISOString(),
    updatedAt: new Date(meta.updatedAt).toISOString(),
    // Why get will refuse it (the store lists such sessions with zero counts rather than hide them).
    ...(meta.unreadable !== undefined ? { unreadable: meta.unreadable } : {}),
  };
}

/** Titles come from thoughts: shown with their hidden controls (bidi and the like) written out. */
function shownTitle(meta: SessionMeta): string | undefined {
  const title = sessionName(meta);
  return title === undefined ? undefined : visibleText(title);
}

function compactThought(thought: ThoughtRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { thoughtNumber: thought.thoughtNumber, thought: thought.thought };
  if (thought.stage !== undefined) out.stage = thought.stage;
  if (thought.isRevision) out.revisesThought = thought.revisesThought;
  if (thought.branchId !== undefined) {
    out.branchId = thought.branchId;
    out.branchFromThought = thought.branchFromThought;
  }
  return out;
}

/** Each branch with its fork point and how far it got, in order of first appearance. */
function describeBranches(
  thoughts: readonly ThoughtRecord[],
): { branchId: string; fromThought: number | undefined; thoughts: number; lastThoughtNumber: number }[] {
  const branches = new Map<string, { branchId: string; fromThought: number | undefined; thoughts: number; lastThoughtNumber: number }>();
  for (const thought of thoughts) {
    if (thought.branchId === undefined) continue;
    const branch = branches.get(thought.branchId);
    if (branch) {
      branch.thoughts++;
      branch.lastThoughtNumber = thought.thoughtNumber;
    } else {
      branches.set(thought.branchId, {
        branchId: thought.branchId,
        fromThought: thought.branchFromThought,
        thoughts: 1,
        lastThoughtNumber: thought.thoughtNumber,
      });
    }
  }
  return [...branches.values()];
}

function snippet(text: string, at: number, length: number): string {
  const start = Math.max(0, at - Math.floor((SNIPPET_LENGTH - length) / 2));
  const flat = text.slice(start, start + SNIPPET_LENGTH).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${flat}${start + SNIPPET_LENGTH < text.length ? '…' : ''}`;
}

function requireSessionId(args: Arguments): string {
  const id = optionalString(args, 'sessionId');
  if (id === undefined || id === '')
    throw new ArgumentProblem('Invalid sessionId: this action needs sessionId (find one with action "list" or "search").');
  return id;
}

function requireSession(engine: ThinkingEngine, args: Arguments): SessionSnapshot {
  const id = requireSessionId(args);
  const snapshot = engine.getSession(id);
  if (snapshot) return snapshot;
  // A journal the store could not open is listed (marked unreadable, with the reason): say that, not "no session".
  const listed = engine.listSessions().sessions.find((meta) => meta.id === id);
  if (listed?.unreadable !== undefined)
    throw new ArgumentProblem(`Session ${describeValue(id)} is unreadable: ${listed.unreadable}. Its journal was left untouched.`);
  throw new ArgumentProblem(unknownSession(id));
}

function unknownSession(id: string): string {
  return `Invalid sessionId: no session ${describeValue(id)} exists. Use thinking_sessions with action "list" or "search" to find one.`;
}

const SNAKE_CASE: Record<string, string> = { sessionId: 'session_id' };

/** A field as the schema left it: the camelCase name first, then its snake_case name (passed through unparsed). */
function field(args: Arguments, name: string): unknown {
  const value = args[name];
  if (value !== undefined && value !== null) return value;
  const snake = SNAKE_CASE[name];
  return snake === undefined || args[snake] === undefined
    ? value
    : argumentsSchema.shape[name as keyof typeof argumentsSchema.shape].parse(args[snake]);
}

function optionalString(args: Arguments, name: string): string | undefined {
  const value = field(args, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ArgumentProblem(`Invalid ${name}: got ${describeValue(sentValue(value))}; expected text.`);
  return value;
}

/** One of `choices`; text that is none of them is refused with the list (or `expected`), anything else as not text. */
function optionalChoice<T extends string>(
  args: Arguments,
  name: string,
  choices: readonly T[],
  expected = `one of ${choices.join(', ')}`,
): T | undefined {
  const value = field(args, name);
  if (value === undefined || value === null) return undefined;
  if (value instanceof RefusedValue) {
    if (typeof value.value !== 'string') throw new ArgumentProblem(`Invalid ${name}: got ${describeValue(value.value)}; expected text.`);
    throw new ArgumentProblem(`Invalid ${name}: got ${describeValue(value.value)}; expected ${expected}.`);
  }
  return value as T;
}

function optionalCount(args: Arguments, name: string): number | undefined {
  const value = field(args, name);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'number') {
    const sent = sentValue(value);
    const number = typeof sent === 'string' && WHOLE_NUMBER_TEXT.test(sent) ? Number(sent) : sent;
    const expected =
      typeof number === 'number' && Number.isInteger(number) && number >= 0
        ? `a whole number from 0 to ${MAX_WHOLE_NUMBER}`
        : 'a whole number of 0 or more';
    throw new ArgumentProblem(`Invalid ${name}: got ${describeValue(sent)}; expected ${expected}.`);
  }
  return value;
}

function pageLimit(args: Arguments): number {
  const limit = optionalCount(args, 'limit') ?? SESSION_LIST_DEFAULT_LIMIT;
  if (limit < 1 || limit > SESSION_LIST_MAX_LIMIT) {
    throw new ArgumentProblem(`Invalid limit: got ${limit}; expected 1 to ${SESSION_LIST_MAX_LIMIT}.`);
  }
  return limit;
}
