// What a restored explorer webview remembers, as the host reads it back. VS Code hands a serializer (and a webview
// view's resolve context) the state the webview last saved with `setState`: the webview is the only writer, and it
// draws untrusted thought text, so that state is treated as untrusted input — every field is checked and anything
// malformed is dropped, never thrown. Pure (no vscode import), tested in plain Node.
import type { ExplorerMode } from '../../shared/protocol';
import { isValidSessionId } from '../../storage/sessionIds';

/** What the host needs to reconnect a restored webview; the webview itself restores tab, selection and zoom. */
export interface RestoredExplorerState {
  sessionId?: string;
  mode?: ExplorerMode;
}

const MODES: readonly ExplorerMode[] = ['live', 'pinned', 'replay'];

/** The valid parts of a webview's saved state (an empty object for anything else). */
export function parseRestoredState(raw: unknown): RestoredExplorerState {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const fields = raw as Record<string, unknown>;
  const state: RestoredExplorerState = {};
  if (isValidSessionId(fields.sessionId)) state.sessionId = fields.sessionId;
  if (typeof fields.mode === 'string' && (MODES as readonly string[]).includes(fields.mode)) state.mode = fields.mode as ExplorerMode;
  return state;
}

/**
 * How a restored explorer panel or sidebar view reconnects: following the live session when it did (or when what it
 * showed is gone), else pinned to the session it showed. `exists` asks the store whether a session is still there.
 */
export function restoredExplorerTarget(
  state: RestoredExplorerState,
  exists: (sessionId: string) => boolean,
): { mode: 'live' | 'pinned'; sessionId?: string } {
  if (state.mode === 'live' || state.sessionId === undefined || !exists(state.sessionId)) return { mode: 'live' };
  return { mode: 'pinned', sessionId: state.sessionId };
}
