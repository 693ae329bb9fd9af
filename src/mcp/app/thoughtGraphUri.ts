// The inline thought graph's resource: its `ui://` address, its MIME type and the tool metadata that points hosts at
// it (MCP Apps, spec 2026-01-26). Written here rather than through ext-apps' server helpers (registerAppTool,
// registerAppResource): the package is ESM-only and our Node side is CommonJS, and the helpers only add these keys.
// test/mcp/mcpApp.test.ts checks the values against the package's own constants. Static data, built once: a tool's
// `_meta` is sent in tools/list and costs nothing per call.

export const THOUGHT_GRAPH_URI = 'ui://thought-explorer/thought-graph.html';
/** ext-apps' RESOURCE_MIME_TYPE. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** ext-apps' RESOURCE_URI_META_KEY: the flat key older hosts read. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/**
 * `_meta` for a tool whose results the thought graph draws (sequentialthinking, deliberate): the resource, visible to
 * the model and the app. Both keys, the current `ui.resourceUri` and the legacy flat one, as registerAppTool writes.
 */
export const THOUGHT_GRAPH_TOOL_META = Object.freeze({
  ui: Object.freeze({ resourceUri: THOUGHT_GRAPH_URI }),
  [LEGACY_RESOURCE_URI_KEY]: THOUGHT_GRAPH_URI,
});

/** `_meta` for a tool only the view calls: hosts keep it from the model (`visibility: ["app"]`). */
export const APP_ONLY_TOOL_META = Object.freeze({
  ui: Object.freeze({ resourceUri: THOUGHT_GRAPH_URI, visibility: Object.freeze(['app']) }),
  [LEGACY_RESOURCE_URI_KEY]: THOUGHT_GRAPH_URI,
});
