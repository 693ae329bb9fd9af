// The inline thought graph's resource: its `ui://` address, and the tool metadata that points hosts at it (MCP Apps).
// The MIME type and the legacy flat key are ext-apps' own; its registerAppTool (see appRegistration.ts) adds the legacy
// key beside `ui.resourceUri`. Static data, built once: a tool's `_meta` is sent in tools/list and costs nothing per call.
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';

export const THOUGHT_GRAPH_URI = 'ui://thought-explorer/thought-graph.html';
/** ext-apps' RESOURCE_MIME_TYPE. */
export const MCP_APP_MIME_TYPE = RESOURCE_MIME_TYPE;
/** ext-apps' RESOURCE_URI_META_KEY: the flat key older hosts read. */
export const LEGACY_RESOURCE_URI_KEY = RESOURCE_URI_META_KEY;

/** `_meta` for a tool whose results the thought graph draws (sequentialthinking, deliberate): visible to model and app. */
export const THOUGHT_GRAPH_TOOL_META = Object.freeze({
  ui: Object.freeze({ resourceUri: THOUGHT_GRAPH_URI }),
});

/** `_meta` for a tool only the view calls: hosts keep it from the model (`visibility: ["app"]`). */
export const APP_ONLY_TOOL_META = Object.freeze({
  ui: Object.freeze({ resourceUri: THOUGHT_GRAPH_URI, visibility: Object.freeze(['app' as const]) }),
});
