// What the inline thought graph (mcp-app/) and the server (src/mcp/app/) exchange through MCP: the names of the tools
// only the view calls and the shape of a session page. Shared so both sides read one definition.

import type { ThoughtRecord } from '../engine/model';

export const SESSION_PAGE_TOOL_NAME = 'thought_graph_session_page';
export const OPEN_EXPLORER_TOOL_NAME = 'thought_graph_open_explorer';
/**
 * The key of a sequentialthinking result's `_meta` that names its session for the view: compact replies name it only
 * once, and the view's own calls carry no conversation, so the view reads it here (the model does not see `_meta`).
 */
export const RESULT_SESSION_META_KEY = 'thought-explorer/sessionId';

/** A thought as the view needs it: the stored record without its extras, and (for deliberation) its role. */
export interface PageThought extends Omit<ThoughtRecord, 'extra'> {
  role?: string;
}

/** A session's meta and a page of its thoughts, from `offset`. */
export interface SessionPage {
  sessionId: string;
  /** The session's name, else its purpose (the first thought, shortened). */
  title?: string;
  strategy: string;
  stage?: string;
  status: string;
  thoughtCount: number;
  revisionCount: number;
  branchIds: string[];
  totalThoughts: number;
  offset: number;
  thoughts: PageThought[];
  /** Where the next page starts; absent on the last page. */
  nextOffset?: number;
}

/** What the open-explorer tool answers. */
export interface OpenExplorerReply {
  opened: boolean;
  sessionId: string;
  hint?: string;
}
