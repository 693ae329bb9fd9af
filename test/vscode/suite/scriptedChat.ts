// The scripted language model of the helper extension and the chat steps that drive @thinking on it: shared by the
// @thinking suite and the screenshot staging (test/vscode/screens), bundled into each (not a test file itself).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ThoughtRecord } from '../../../src/engine/model';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { eventually } from './support';

export const HELPER_ID = 'thought-explorer-tests.scripted-model';

export interface ScriptedRequest {
  readonly texts: readonly string[];
  readonly offeredTools: readonly string[];
  readonly token: vscode.CancellationToken;
}
export type ScriptedReply = { text?: string; toolCalls?: { name: string; input: Record<string, unknown> }[] };
export interface HelperApi {
  readonly vendor: string;
  readonly modelId: string;
  reset(): void;
  /** Replies with these tool calls, one per request, then finalText (the @thinker loop). */
  setScript(script: { toolNameSuffix: string; calls: readonly Record<string, unknown>[]; finalText: string }): void;
  setResponder(responder: ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>) | undefined): void;
  readonly responded: number;
  unregisterModel(): void;
  registerModel(): void;
  readonly toolInvocations: readonly { input: unknown; hadToken: boolean }[];
}

/** Which hat a request is for: its instructions start with the hat's system prompt, which names the hat. */
export function hatOf(request: ScriptedRequest): string {
  const instructions = request.texts[0] ?? '';
  const match = /\b(factual|emotional|critical|optimistic|creative|synthesis)\b/i.exec(instructions);
  return match ? match[1].toLowerCase() : 'unknown';
}

export async function ask(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, mode: 'ask', blockOnResponse: true });
}

/** The request @thinking answered whose prompt holds `marker` (the chat view may return before the handler ends). */
export function answered(api: ThoughtExplorerApi, marker: string) {
  return eventually(
    () => api.chatRequests().find((entry) => entry.prompt.includes(marker)),
    `@thinking to answer the request ${marker}`,
    60_000,
  );
}

export function sessionWith(api: ThoughtExplorerApi, marker: string): { id: string; thoughts: ThoughtRecord[] } | undefined {
  const meta = api.engine().listSessions({ text: marker }).sessions[0];
  const session = meta && api.engine().getSession(meta.id);
  return session ? { id: session.meta.id, thoughts: session.thoughts } : undefined;
}

/**
 * The first request of a fresh window can be sent before the chat view knows its participants and models: repeats a
 * harmless one (/resume of a session that does not exist, which records nothing) until @thinking answers it.
 */
export async function warmUpChat(api: ThoughtExplorerApi): Promise<void> {
  await eventually(
    async () => {
      const marker = `warmup-${randomUUID().slice(0, 8)}`;
      await ask(`@thinking /resume ${marker}`);
      // Paces the retries: each one sends a new chat request, given a second to be answered before the next.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return api.chatRequests().find((entry) => entry.prompt.includes(marker));
    },
    '@thinking to answer a first request',
    90_000,
    0,
  );
}
