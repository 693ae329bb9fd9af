// The available tools prepared for matching: each tool's capabilities and its searchable text, computed once per
// list. A list from the editor (vscode.lm.tools) is the same array on every call and is indexed once; a list sent
// with the call is indexed per call (cheap: one pass of ten patterns per tool).
import type { ToolInfo } from '../engine/qaInput';
import { TOOL_CAPABILITIES, type ToolCapability } from '../engine/strategies/qaWorkflow';
import { CAPABILITY_WORDS } from './capabilities';

export interface IndexedTool {
  name: string;
  /** Name (underscores, dashes, dots and camelCase split), description and tags, lower case. */
  text: string;
  capabilities: ReadonlySet<ToolCapability>;
}

export interface ToolIndex {
  tools: readonly IndexedTool[];
  names: ReadonlySet<string>;
}

const cache = new WeakMap<readonly ToolInfo[], ToolIndex>();

export function indexTools(tools: readonly ToolInfo[]): ToolIndex {
  const cached = cache.get(tools);
  if (cached) return cached;
  const indexed = tools.map(indexTool);
  const index = { tools: indexed, names: new Set(indexed.map((tool) => tool.name)) };
  cache.set(tools, index);
  return index;
}

function indexTool(tool: ToolInfo): IndexedTool {
  const name = tool.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
  const text = `${name} ${tool.description ?? ''} ${tool.tags?.join(' ') ?? ''}`.toLowerCase();
  const capabilities = new Set<ToolCapability>();
  for (const capability of TOOL_CAPABILITIES) if (CAPABILITY_WORDS[capability].tool.test(text)) capabilities.add(capability);
  // A web search tool is not a code search tool, whatever else its description says.
  if (capabilities.has('search_web') && !/\b(code|codebase|workspace|files?)\b/.test(text)) capabilities.delete('search_code');
  return { name: tool.name, text, capabilities };
}
