// Adding one server to a workspace's `.mcp.json` (the harness-agnostic file at the workspace root that VS Code's agent
// host, Claude Code and other agents read: `{"mcpServers": {name: entry}}`) without touching anything else in it, and
// refusing a file it cannot read safely rather than overwriting it. Pure: the command does the reading and writing.
import { isDeepStrictEqual } from 'node:util';

export const WORKSPACE_MCP_JSON = '.mcp.json';
/** A larger `.mcp.json` is refused before it is read: a configuration file is a few kilobytes. */
export const MAX_MCP_JSON_BYTES = 1024 * 1024;

export type McpJsonMerge =
  /** Write `text`: a new file (`created`) or the old one with the entry added. */
  | { kind: 'write'; text: string; created: boolean }
  /** The file already has this very entry: nothing to write. */
  | { kind: 'unchanged' }
  /** The file has another entry under this name: `text` is the file with ours in its place, if the person agrees. */
  | { kind: 'differs'; text: string }
  /** The file cannot be changed safely: `reason` says why, in words for the person. */
  | { kind: 'refused'; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The indentation the file already uses (two spaces for a new file). */
function indentOf(text: string): string {
  return /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
}

/** `existing` (the file's text, undefined when there is none) with `entry` under `mcpServers[name]`. */
export function mergeServerIntoMcpJson(existing: string | undefined, name: string, entry: Record<string, unknown>): McpJsonMerge {
  if (existing === undefined || existing.trim() === '') {
    return { kind: 'write', text: `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`, created: true };
  }
  const text = existing.replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { kind: 'refused', reason: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!isObject(document)) return { kind: 'refused', reason: 'it is not a JSON object' };
  const servers = document.mcpServers ?? {};
  if (!isObject(servers)) return { kind: 'refused', reason: '"mcpServers" in it is not an object' };
  if (isDeepStrictEqual(servers[name], entry)) return { kind: 'unchanged' };
  const merged = `${JSON.stringify({ ...document, mcpServers: { ...servers, [name]: entry } }, null, indentOf(text))}\n`;
  return servers[name] === undefined ? { kind: 'write', text: merged, created: false } : { kind: 'differs', text: merged };
}

/** Whether the file's text already has a server under `name` (false for no file or one that is not valid JSON). */
export function hasServerEntry(text: string | undefined, name: string): boolean {
  if (text === undefined) return false;
  try {
    const document: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return isObject(document) && isObject(document.mcpServers) && document.mcpServers[name] !== undefined;
  } catch {
    return false;
  }
}
