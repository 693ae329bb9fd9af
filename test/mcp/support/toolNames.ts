// The tools our MCP server lists, written out once for every test that checks the list (not read from the source, so
// a tool added, dropped or renamed there fails these tests).

/** The inline thought graph's app-only tools (visibility ["app"]: hosts keep them from the model). */
export const APP_TOOL_NAMES = ['thought_graph_open_explorer', 'thought_graph_session_page'] as const;

/** Everything a server with the default tools lists, sorted. */
export const SERVED_TOOL_NAMES = ['deliberate', 'sequentialthinking', 'thinking_sessions', ...APP_TOOL_NAMES] as const;

/** What a client without MCP Apps or sampling (and a server without a model endpoint) is offered, sorted. */
export const PLAIN_CLIENT_TOOL_NAMES = ['sequentialthinking', 'thinking_sessions'] as const;
