// The explorer protocol's deliberation messages (added to the unions in protocol.ts): the host tells the webview how a
// running deliberation stands (roles running, done, failed, cancelled; model; tokens), and the webview's Stop button
// asks the host to cancel it. Kept apart so the core protocol stays as it was.
import * as z from 'zod/mini';
import { boundedArray, count, shortText } from './wireSchemas';

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

export type DeliberationHostMessage = z.infer<typeof deliberationStateSchema>;
export type DeliberationWebviewMessage = z.infer<typeof stopDeliberationSchema>;

const roleStateShape = z.looseObject({
  role: z.string(),
  title: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled', 'budget-exhausted']),
  thoughtNumber: z.optional(count()),
  tokens: z.optional(count()),
});
const liveStateShape = z.looseObject({
  sessionId: z.string(),
  model: z.string(),
  status: z.enum(['running', 'complete', 'partial', 'cancelled', 'failed']),
  roles: boundedArray(roleStateShape, 1000),
  inputTokens: count(),
  outputTokens: count(),
  calls: count(),
  maxTotalTokens: z.optional(count()),
});

export const deliberationStateSchema = z.object({
  type: z.literal('deliberationState'),
  state: z.custom<LiveDeliberationState>((value) => liveStateShape.safeParse(value).success),
});
export const stopDeliberationSchema = z.object({ type: z.literal('stopDeliberation'), sessionId: shortText() });
