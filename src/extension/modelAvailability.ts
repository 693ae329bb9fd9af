// Whether VS Code has a language model `deliberate` can run on, kept current as models come and go (Copilot signs
// in, a provider extension loads): the MCP server lists `deliberate` only while one exists (clientAdvertising.ts).
// Lazy: nothing is counted or listened to until an MCP server first asks, so activation stays as light as it was.
import * as vscode from 'vscode';
import type { ModelAvailability } from '../engine/modelGateway';

/** Counts VS Code's chat models from the first question on, and on every change; until a count answers, models are assumed present. */
export function trackModelAvailability(context: vscode.ExtensionContext): ModelAvailability {
  let available = true;
  let tracking = false;
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
  const track = () => {
    if (tracking) return;
    tracking = true;
    context.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void recount()));
    void recount();
  };
  return {
    available() {
      track();
      return available;
    },
    onChange(listener) {
      track();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
