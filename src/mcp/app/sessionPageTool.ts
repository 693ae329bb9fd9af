// The app-only tool the inline thought graph reads a session through: its meta and its thoughts in pages, from an
// offset, so a view that already holds the first n thoughts asks only for the rest. Hidden from the model
// (`visibility: ["app"]`); a client that lists it anyway gets a harmless read-only tool.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sessionName } from '../../engine/browserSafe/sessionTitle';
import type { SessionMeta, ThoughtRecord } from '../../engine/model';
import { SESSION_PAGE_TOOL_NAME, type PageThought, type SessionPage } from '../../shared/thoughtGraph';
import { sentValue } from '../../engine/lenientSchema';
import { toolInput } from '../lenientSchema';
import { errorResult } from '../toolResults';
import { APP_ONLY_TOOL_META } from './thoughtGraphUri';
import { defineTool } from '../toolDefinition';
import { shortened } from '../../engine/browserSafe/textCut';
import { noSuchSession } from '../../engine/fieldRules';

export { SESSION_PAGE_TOOL_NAME };
export const SESSION_PAGE_DEFAULT_LIMIT = 200;
export const SESSION_PAGE_MAX_LIMIT = 500;
/** Thought text past this is cut in pages: the view draws excerpts, and a 20,000-character thought would bloat them. */
export const PAGE_TEXT_LIMIT = 2_000;
/** What a view is told that asks for its connection's session before there is one. */
export const NO_SESSION_YET = 'No session yet on this connection: send "sessionId" (from a sequentialthinking reply).';

const SESSION_ID_DESCRIPTION = "The session to read; omitted: this connection's current session.";
// The ranges are in the schema (minimum, maximum): the descriptions say only what the numbers mean.
const OFFSET_DESCRIPTION = 'Index of the first thought to return (default 0).';
const LIMIT_DESCRIPTION = `How many thoughts to return (default ${SESSION_PAGE_DEFAULT_LIMIT}).`;

/** What it advertises: the ranges the handler accepts, so a view building its call from the schema is never refused. */
const canonicalInput = z.object({
  sessionId: z.string().optional().describe(SESSION_ID_DESCRIPTION),
  offset: z.int().min(0).optional().describe(OFFSET_DESCRIPTION),
  limit: z.int().min(1).max(SESSION_PAGE_MAX_LIMIT).optional().describe(LIMIT_DESCRIPTION),
});

export const sessionPageTool = defineTool({
  name: SESSION_PAGE_TOOL_NAME,
  config: {
    title: 'Thought graph: session page',
    description:
      'For the inline thought graph view only: a thinking session\'s meta and a page of its thoughts (from "offset"), to draw its branch tree.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: APP_ONLY_TOOL_META,
  },
  input: toolInput(canonicalInput),
  run: (args, { context: { engine, owners }, extra }): CallToolResult => {
    const offset = wholeNumber('offset', args.offset, 0, Number.MAX_SAFE_INTEGER);
    if (typeof offset === 'string') return errorResult(offset);
    const limit = wholeNumber('limit', args.limit, 1, SESSION_PAGE_MAX_LIMIT);
    if (typeof limit === 'string') return errorResult(limit);
    const requested = sentValue(args.sessionId) ?? undefined;
    if (requested !== undefined && typeof requested !== 'string')
      return errorResult(`"sessionId" was ${JSON.stringify(requested)}; send the sessionId of a sequentialthinking reply, as text.`);
    const sessionId = requested ?? engine.currentSessionId(owners.viewerOf(extra.mcpReq._meta));
    if (sessionId === undefined) return errorResult(NO_SESSION_YET);
    const snapshot = engine.getSession(sessionId);
    if (!snapshot)
      return errorResult(
        `Invalid sessionId: ${noSuchSession(sessionId)}. Send the sessionId of a sequentialthinking reply or of thinking_sessions.`,
      );
    const page = sessionPage(snapshot.meta, snapshot.thoughts, offset ?? 0, limit ?? SESSION_PAGE_DEFAULT_LIMIT);
    return { content: [{ type: 'text', text: JSON.stringify(page) }], structuredContent: page as unknown as Record<string, unknown> };
  },
});

export function sessionPage(
  meta: Pick<
    SessionMeta,
    'id' | 'title' | 'purpose' | 'strategy' | 'stage' | 'status' | 'thoughtCount' | 'revisionCount' | 'branchIds' | 'totalThoughts'
  >,
  thoughts: readonly ThoughtRecord[],
  offset: number,
  limit: number,
): SessionPage {
  const end = Math.min(thoughts.length, offset + limit);
  const page: SessionPage = {
    sessionId: meta.id,
    strategy: meta.strategy,
    status: meta.status,
    thoughtCount: thoughts.length,
    revisionCount: meta.revisionCount,
    branchIds: meta.branchIds,
    totalThoughts: meta.totalThoughts,
    offset,
    thoughts: thoughts.slice(offset, end).map(pageThought),
  };
  // A person-given name, else what the session is about (its first thought, shortened), as the explorer titles it.
  const title = sessionName(meta);
  if (title !== undefined) page.title = title;
  if (meta.stage !== undefined) page.stage = meta.stage;
  if (end < thoughts.length) page.nextOffset = end;
  return page;
}

function pageThought(record: ThoughtRecord): PageThought {
  const thought: PageThought = {
    seq: record.seq,
    thought: shortened(record.thought, PAGE_TEXT_LIMIT),
    thoughtNumber: record.thoughtNumber,
    totalThoughts: record.totalThoughts,
    nextThoughtNeeded: record.nextThoughtNeeded,
    timestamp: record.timestamp,
  };
  if (record.isRevision !== undefined) thought.isRevision = record.isRevision;
  if (record.revisesThought !== undefined) thought.revisesThought = record.revisesThought;
  if (record.branchFromThought !== undefined) thought.branchFromThought = record.branchFromThought;
  if (record.branchId !== undefined) thought.branchId = record.branchId;
  if (record.needsMoreThoughts !== undefined) thought.needsMoreThoughts = record.needsMoreThoughts;
  if (record.stage !== undefined) thought.stage = record.stage;
  // Deliberation records the role that wrote the thought (src/deliberation/recorder.ts).
  const role = record.extra?.role;
  if (typeof role === 'string') thought.role = role;
  return thought;
}

/** A whole number in range, also as text; undefined when absent; else the error text naming field, value and range. */
function wholeNumber(field: string, value: unknown, min: number, max: number): number | undefined | string {
  // The lenient parse turned whole-number text into numbers and null into absent; anything else arrives as refused.
  const sent = sentValue(value);
  if (sent === undefined || sent === null || sent === '') return undefined;
  if (typeof value === 'number' && value >= min && value <= max) return value;
  return `"${field}" was ${JSON.stringify(sent)}; send a whole number from ${min} to ${max}.`;
}
