// The available tools prepared for matching, once per distinct list: each tool's capabilities, and inverted indexes
// (capability → tools, word → tools) so a recommendation touches only the tools that match, not every tool every
// time. An agent sends the same list on every call and the editor's list rarely changes, so lists are cached by
// content (a list sent with the call is a new array each time) in a small LRU.
import type { ToolInfo } from '../engine/qaInput';
import { TOOL_CAPABILITIES, type ToolCapability } from '../engine/strategies/qaWorkflow';
import { CAPABILITY_WORDS } from './capabilities';

export interface IndexedTool {
  name: string;
  capabilities: ReadonlySet<ToolCapability>;
  words: ReadonlySet<string>;
}

export interface ToolIndex {
  tools: readonly IndexedTool[];
  names: ReadonlySet<string>;
  /** Positions in `tools` of the tools showing each capability. */
  byCapability: ReadonlyMap<ToolCapability, readonly number[]>;
  /** Positions in `tools` of the tools whose name, description or tags use each word (lower case). */
  byWord: ReadonlyMap<string, readonly number[]>;
  /** Positions in `tools` in name order: a ranking that visits tools in this order breaks ties by name for free. */
  byName: Int32Array;
}

const CACHED_LISTS = 8;
const byIdentity = new WeakMap<readonly ToolInfo[], ToolIndex>();
/** Recently indexed lists with their content, most recent last; found by a cheap probe, then compared field by field. */
const recent: { tools: readonly ToolInfo[]; index: ToolIndex }[] = [];

export function indexTools(tools: readonly ToolInfo[]): ToolIndex {
  const same = byIdentity.get(tools);
  if (same) return same;
  let index: ToolIndex | undefined;
  const found = recent.findIndex((entry) => sameContent(entry.tools, tools));
  if (found >= 0) {
    index = recent[found].index;
    recent.splice(found, 1);
  } else index = buildIndex(tools);
  recent.push({ tools, index });
  if (recent.length > CACHED_LISTS) recent.shift();
  byIdentity.set(tools, index);
  return index;
}

/** Equal names, descriptions and tags in the same order (a string comparison, no hashing of the whole list). */
function sameContent(a: readonly ToolInfo[], b: readonly ToolInfo[]): boolean {
  if (a.length !== b.length) return false;
  for (let position = 0; position < a.length; position++) {
    const x = a[position];
    const y = b[position];
    if (x.name !== y.name || x.description !== y.description) return false;
    const xTags = x.tags ?? [];
    const yTags = y.tags ?? [];
    if (xTags.length !== yTags.length || xTags.some((tag, at) => tag !== yTags[at])) return false;
  }
  return true;
}

/** Words of a text for matching: lower case, letters, digits and inner dots ("package.json"), at least 3 long. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9.]+/)) {
    const word = raw.replace(/^\.+|\.+$/g, '');
    if (word.length >= 3) words.push(word);
  }
  return words;
}

function buildIndex(tools: readonly ToolInfo[]): ToolIndex {
  const indexed: IndexedTool[] = [];
  const byCapability = new Map<ToolCapability, number[]>();
  const byWord = new Map<string, number[]>();
  tools.forEach((tool, position) => {
    const name = tool.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
    const text = `${name} ${tool.description ?? ''} ${tool.tags?.join(' ') ?? ''}`.toLowerCase();
    const capabilities = new Set<ToolCapability>();
    for (const capability of TOOL_CAPABILITIES) if (CAPABILITY_WORDS[capability].tool.test(text)) capabilities.add(capability);
    // A web search tool is not a code search tool, whatever else its description says.
    if (capabilities.has('search_web') && !/\b(code|codebase|workspace|files?)\b/.test(text)) capabilities.delete('search_code');
    for (const capability of capabilities) push(byCapability, capability, position);
    const words = new Set(wordsOf(text));
    for (const word of words) push(byWord, word, position);
    indexed.push({ name: tool.name, capabilities, words });
  });
  const byName = Int32Array.from(indexed.keys()).sort((a, b) =>
    indexed[a].name < indexed[b].name ? -1 : indexed[a].name > indexed[b].name ? 1 : a - b,
  );
  return { tools: indexed, names: new Set(indexed.map((tool) => tool.name)), byCapability, byWord, byName };
}

function push<K>(map: Map<K, number[]>, key: K, position: number): void {
  const list = map.get(key);
  if (list) list.push(position);
  else map.set(key, [position]);
}
