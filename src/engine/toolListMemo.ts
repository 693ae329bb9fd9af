// The parse of recently sent available-tools lists, found again by content. An agent sends the same 100–500 tools
// with every call (a new array each time, fresh from JSON), and checking them entry by entry costs more than the rest
// of a thought. Comparing a sent list with a remembered one reads only the fields the parse uses (name, description,
// tags) with plain string equality — no hashing, no sampling, so two lists share a parse only when the parse could
// not tell them apart. A match returns the same ToolInfo[] object, which the recommender's index then finds by
// identity.
import type { ToolInfo } from './qaInput';

/** What the parse of one list read from each entry: the entry itself when a string, else its name, description, tags. */
type EntrySnapshot = string | { name: unknown; description: unknown; tags: readonly unknown[] | undefined };

interface RememberedList {
  entries: EntrySnapshot[];
  tools: ToolInfo[];
  /** Notes the parse produced (descriptions cut), repeated on every match. */
  notes: string[];
}

const REMEMBERED = 8;
/** Most recently used last. */
const remembered: RememberedList[] = [];

/** The name field of a tool object as the parse reads it. */
export function rawToolName(record: Record<string, unknown>): unknown {
  return record.name ?? record.tool_name ?? record.toolName;
}

function snapshotOf(entry: unknown): EntrySnapshot {
  if (typeof entry === 'string') return entry;
  const record = entry as Record<string, unknown>;
  return {
    name: rawToolName(record),
    description: record.description,
    tags: Array.isArray(record.tags) ? [...(record.tags as unknown[])] : undefined,
  };
}

function matches(entries: readonly EntrySnapshot[], list: readonly unknown[]): boolean {
  if (entries.length !== list.length) return false;
  for (let position = 0; position < list.length; position++) {
    const seen = entries[position];
    const entry = list[position];
    if (typeof seen === 'string') {
      if (entry !== seen) return false;
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return false;
    const record = entry as Record<string, unknown>;
    if (rawToolName(record) !== seen.name || record.description !== seen.description) return false;
    const tags = record.tags;
    if (seen.tags === undefined) {
      if (Array.isArray(tags)) return false;
    } else {
      if (!Array.isArray(tags) || tags.length !== seen.tags.length) return false;
      for (let at = 0; at < tags.length; at++) if (tags[at] !== seen.tags[at]) return false;
    }
  }
  return true;
}

/** The remembered parse of a list with the same content, or undefined. */
export function recallToolList(list: readonly unknown[]): { tools: ToolInfo[]; notes: readonly string[] } | undefined {
  for (let index = remembered.length - 1; index >= 0; index--) {
    const entry = remembered[index];
    if (!matches(entry.entries, list)) continue;
    if (index !== remembered.length - 1) remembered.push(...remembered.splice(index, 1));
    return entry;
  }
  return undefined;
}

/** Remembers a list that parsed without error; the parsed tools are frozen, as every later match shares them. */
export function rememberToolList(list: readonly unknown[], tools: ToolInfo[], notes: readonly string[]): void {
  for (const tool of tools) {
    if (tool.tags) Object.freeze(tool.tags);
    Object.freeze(tool);
  }
  Object.freeze(tools);
  remembered.push({ entries: list.map(snapshotOf), tools, notes: [...notes] });
  if (remembered.length > REMEMBERED) remembered.shift();
}
