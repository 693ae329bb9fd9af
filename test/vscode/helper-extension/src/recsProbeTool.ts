// Test-only: a language model tool of this editor (vscode.lm.registerTool + the languageModelTools contribution), so
// the in-editor test can check that tool recommendations, when a call sends no tool list, name this editor's tools
// (vscode.lm.tools) — this one included. It reads nothing: invoking it says so.
import * as vscode from 'vscode';

export const RECS_PROBE_TOOL = 'recs_probe_read_package_json';

export function registerRecsProbeTool(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.lm.registerTool<Record<string, unknown>>(RECS_PROBE_TOOL, {
      invoke: () => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('recs probe: test-only, reads nothing')]),
    }),
  );
}
