// The explorer protocol's deliberation messages (added to the unions in protocol.ts): the host tells the webview how a
// running deliberation stands (roles running, done, failed, cancelled; model; tokens), and the webview's Stop button
// asks the host to cancel it. Kept apart so the core protocol stays as it was.

export type RoleRunState = 'running' | 'done' | 'failed' | 'cancelled' | 'budget-exhausted';

export interface LiveRoleState {
  role: string;
  title: string;
  state: RoleRunState;
  /** The thought recording it, once recorded. */
  thoughtNumber?: number;
  /** Output tokens of the call, once it answered. */
  tokens?: number;
}

export interface LiveDeliberationState {
  sessionId: string;
  model: string;
  status: 'running' | 'complete' | 'partial' | 'cancelled' | 'failed';
  roles: LiveRoleState[];
  inputTokens: number;
  outputTokens: number;
  /** Model calls started. */
  calls: number;
  maxTotalTokens?: number;
}

export type DeliberationHostMessage = { type: 'deliberationState'; state: LiveDeliberationState };
export type DeliberationWebviewMessage = { type: 'stopDeliberation'; sessionId: string };

const ROLE_STATES: readonly string[] = ['running', 'done', 'failed', 'cancelled', 'budget-exhausted'];
const RUN_STATES: readonly string[] = ['running', 'complete', 'partial', 'cancelled', 'failed'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isRoleState(value: unknown): value is LiveRoleState {
  return (
    isObject(value) &&
    typeof value.role === 'string' &&
    typeof value.title === 'string' &&
    typeof value.state === 'string' &&
    ROLE_STATES.includes(value.state) &&
    (value.thoughtNumber === undefined || isCount(value.thoughtNumber)) &&
    (value.tokens === undefined || isCount(value.tokens))
  );
}

export function isLiveDeliberationState(value: unknown): value is LiveDeliberationState {
  return (
    isObject(value) &&
    typeof value.sessionId === 'string' &&
    typeof value.model === 'string' &&
    typeof value.status === 'string' &&
    RUN_STATES.includes(value.status) &&
    Array.isArray(value.roles) &&
    value.roles.length <= 1000 &&
    value.roles.every(isRoleState) &&
    isCount(value.inputTokens) &&
    isCount(value.outputTokens) &&
    isCount(value.calls) &&
    (value.maxTotalTokens === undefined || isCount(value.maxTotalTokens))
  );
}
