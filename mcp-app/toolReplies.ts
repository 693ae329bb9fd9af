// Reads what the host delivers about a tool call — its arguments (ui/notifications/tool-input) and its result
// (ui/notifications/tool-result) — into what the view draws. A result may come with structuredContent or, as VS Code
// sends it, with the text content only (our replies' text is the same JSON; deliberate's text names the session).
import { RESULT_SESSION_META_KEY } from '../src/shared/thoughtGraph';

/** The parts of a sequentialthinking / deliberate reply the view shows. */
export interface ToolReply {
  sessionId?: string;
  strategy?: string;
  stage?: string;
  nextStages?: string[];
  thoughtNumber?: number;
  totalThoughts?: number;
  nextThoughtNeeded?: boolean;
  isError: boolean;
  /** For an error result: its text. */
  error?: string;
}

interface ResultLike {
  content?: readonly unknown[];
  _meta?: Record<string, unknown>;
  /** Any JSON value since the 2026-07-28 revision; ours are objects. */
  structuredContent?: unknown;
  isError?: boolean;
}

const SESSION_IN_TEXT = /\bin session (\S+?) \(/;

export function replyOf(result: ResultLike): ToolReply {
  const text = textOf(result);
  if (result.isError) return { isError: true, error: text };
  const structured = result.structuredContent;
  const data =
    typeof structured === 'object' && structured !== null && !Array.isArray(structured)
      ? (structured as Record<string, unknown>)
      : parseObject(text);
  const reply: ToolReply = { isError: false };
  if (data) {
    if (typeof data.sessionId === 'string') reply.sessionId = data.sessionId;
    if (typeof data.strategy === 'string') reply.strategy = data.strategy;
    if (typeof data.stage === 'string') reply.stage = data.stage;
    if (Array.isArray(data.nextStages)) reply.nextStages = data.nextStages.filter((stage): stage is string => typeof stage === 'string');
    if (typeof data.thoughtNumber === 'number') reply.thoughtNumber = data.thoughtNumber;
    if (typeof data.totalThoughts === 'number') reply.totalThoughts = data.totalThoughts;
    if (typeof data.nextThoughtNeeded === 'boolean') reply.nextThoughtNeeded = data.nextThoughtNeeded;
  }
  // Compact replies name the session once; the result's _meta names it on every one.
  const fromMeta = result._meta?.[RESULT_SESSION_META_KEY];
  if (typeof fromMeta === 'string' && fromMeta !== '') reply.sessionId = fromMeta;
  if (reply.sessionId === undefined) reply.sessionId = SESSION_IN_TEXT.exec(text)?.[1];
  return reply;
}

/** The thought text of a sequentialthinking call's arguments, or deliberate's problem. */
export function thoughtOfArguments(args: Record<string, unknown> | undefined): string | undefined {
  if (!args) return undefined;
  for (const key of ['thought', 'problem', 'question']) if (typeof args[key] === 'string') return args[key];
  return undefined;
}

export function textOf(result: ResultLike): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'text') {
      const text = (item as { text?: unknown }).text;
      if (typeof text === 'string') parts.push(text);
    }
  }
  return parts.join('\n');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
