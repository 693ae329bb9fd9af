// The tools of this editor (vscode.lm.tools: names, descriptions, tags) for tool recommendations when a
// `sequentialthinking` call sends no available-tools list: the in-host MCP server then recommends only tools that
// really exist here. Our own tools are left out (recommending sequentialthinking from inside it helps nobody).
import * as vscode from 'vscode';
import { QA_LIMITS, type ToolInfo } from '../engine/qaInput';
import { isOwnToolName } from '../engine/toolGateway';

/** Maps the editor's tool list, minus ours and bounded, to ToolInfo; the same array while the editor's list is the same. */
export function editorToolsProvider(
  readTools: () => readonly vscode.LanguageModelToolInformation[] = () => (vscode.lm as typeof vscode.lm | undefined)?.tools ?? [],
): () => readonly ToolInfo[] {
  let source: readonly vscode.LanguageModelToolInformation[] | undefined;
  let mapped: readonly ToolInfo[] = [];
  return () => {
    const tools = readTools();
    if (tools === source) return mapped;
    source = tools;
    mapped = tools
      .filter((tool) => !isOwnToolName(tool.name))
      .slice(0, QA_LIMITS.availableTools)
      .map((tool) => ({
        name: tool.name.slice(0, QA_LIMITS.toolName),
        description: tool.description.slice(0, QA_LIMITS.toolDescription),
        tags: tool.tags.slice(0, QA_LIMITS.tags),
      }));
    return mapped;
  };
}
