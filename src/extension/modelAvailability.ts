// Whether VS Code has a language model `deliberate` can run on, kept current as models come and go (Copilot signs
// in, a provider extension loads): the MCP server lists `deliberate` only while one exists (clientAdvertising.ts).
import * as vscode from 'vscode';
import type { ModelAvailability } from '../engine/modelGateway';

/** Counts VS Code's chat models now and on every change. Until the first count answers, models are assumed present. */
export function trackModelAvailability(context: vscode.ExtensionContext): ModelAvailability {
  let available = true;
  const listeners = new Set<() => void>();
  const recount = () =>
    vscode.lm.selectChatModels().then(
      (models) => {
        const now = models.length > 0;
        if (now === available) return;
        available = now;
        for (const listener of listeners) listener();
      },
      // A failed count says nothing: keep what was known.
      () => {},
    );
  context.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void recount()));
  void recount();
  return {
    available: () => available,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
