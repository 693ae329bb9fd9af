// The `thoughtExplorer.tools` setting: which tools the in-host MCP server advertises, read for each new MCP connection.
// Plain Node (no `vscode`), unit-tested; the names come from src/mcp/toolSelection (plain data, no SDK).
import { MODEL_TOOLS, ToolSelectionError, parseToolSelection, type ModelToolName } from '../mcp/toolSelection';
import type { SettingsSource } from './settings';

/** The tools to advertise; a bad value advertises all of them and says why through `report`. */
export function advertisedTools(source: SettingsSource, report: (problem: string) => void): ModelToolName[] {
  const value = source.get<unknown>('tools');
  if (value === undefined || value === null) return [...MODEL_TOOLS];
  try {
    if (!Array.isArray(value)) throw new ToolSelectionError('expected a list of tool names');
    return parseToolSelection(value);
  } catch (error) {
    if (!(error instanceof ToolSelectionError)) throw error;
    report(`thoughtExplorer.tools: ${error.message}; advertising all tools.`);
    return [...MODEL_TOOLS];
  }
}
