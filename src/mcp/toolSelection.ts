// Which tools a server advertises (`--tools`, the `thoughtExplorer.tools` setting): a client outside VS Code has no tool
// picker, and every advertised definition rides along with each model request. Plain data, no SDK: the CLI's option
// parser and the extension's settings read it without loading the server.

/** The tools a model calls, in the order tools/list shows them. App-only tools follow the tools they serve. */
export const MODEL_TOOLS = ['sequentialthinking', 'thinking_sessions', 'deliberate'] as const;
export type ModelToolName = (typeof MODEL_TOOLS)[number];

/** The tools whose results the inline thought graph (an MCP App with app-only tools of its own) draws. */
export const THOUGHT_GRAPH_SERVES: readonly ModelToolName[] = ['sequentialthinking', 'deliberate'];

export class ToolSelectionError extends Error {}

/** A comma-separated list ("sequentialthinking,thinking_sessions") or the names as a list; duplicates dropped. */
export function parseToolSelection(names: string | readonly unknown[]): ModelToolName[] {
  const items = typeof names === 'string' ? names.split(',') : names;
  const selected = new Set<ModelToolName>();
  for (const item of items) {
    const name = typeof item === 'string' ? item.trim() : item;
    if (name === '') continue;
    if (!(MODEL_TOOLS as readonly unknown[]).includes(name))
      throw new ToolSelectionError(`unknown tool ${JSON.stringify(name)}; the tools are ${MODEL_TOOLS.join(', ')}`);
    selected.add(name as ModelToolName);
  }
  if (selected.size === 0) throw new ToolSelectionError(`name at least one tool of ${MODEL_TOOLS.join(', ')}`);
  return MODEL_TOOLS.filter((name) => selected.has(name));
}
