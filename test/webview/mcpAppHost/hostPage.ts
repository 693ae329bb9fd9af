// A minimal MCP Apps host for the browser tests: a page that connects a real SDK Client to our MCP server over
// Streamable HTTP, reads the tool's `ui://` resource, shows it in a sandboxed iframe through ext-apps' AppBridge and
// PostMessageTransport (the bridge forwards the view's tools/call to the Client), and delivers tool input and results
// as a chat host does. Driven from the test through `window.mcpHost`; built by esbuild when the test starts.
import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';

interface HostRecord {
  sizes: number[];
  openLinks: string[];
  messages: unknown[];
}

export interface LoadedApp {
  uri: string;
  mimeType: string | undefined;
  bytes: number;
  /** From reading the resource to the view's ui/notifications/initialized. */
  initializedMs: number;
}

export interface McpHostApi {
  record: HostRecord;
  connect(url: string, token: string): Promise<void>;
  load(toolName: string, context: McpUiHostContext): Promise<LoadedApp>;
  /** Tool input to the view, the call through the Client, its result to the view (text only: as VS Code sends it). */
  call(name: string, args: Record<string, unknown>, options?: { textOnly?: boolean }): Promise<CallToolResult>;
  input(args: Record<string, unknown>): Promise<void>;
  setContext(context: McpUiHostContext): void;
}

declare global {
  interface Window {
    mcpHost: McpHostApi;
  }
}

let client: Client | undefined;
let bridge: AppBridge | undefined;
const record: HostRecord = { sizes: [], openLinks: [], messages: [] };

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} first`);
  return value;
}

window.mcpHost = {
  record,
  async connect(url, token) {
    // A host that renders MCP Apps says so (ext-apps' extension), as VS Code does: the server then lists its app-only tools.
    client = new Client(
      { name: 'chromium-test-host', version: '1.0.0' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
  },

  async load(toolName, context) {
    const mcp = need(client, 'connect');
    const { tools } = await mcp.listTools();
    const tool = tools.find((candidate) => candidate.name === toolName);
    const uri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    if (!uri) throw new Error(`${toolName} names no ui:// resource`);
    const started = performance.now();
    const { contents } = await mcp.readResource({ uri });
    const content = contents[0] as { text?: string; mimeType?: string };
    const html = content.text ?? '';
    const frame = document.createElement('iframe');
    // As chat hosts do: scripts, but an opaque origin (no allow-same-origin) and nothing else.
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.title = 'Thought graph';
    document.getElementById('chat')?.append(frame);
    const view = frame.contentWindow;
    if (!view) throw new Error('no iframe window');
    bridge = new AppBridge(
      mcp,
      { name: 'Chromium test host', version: '1.0.0' },
      { openLinks: {}, serverTools: {}, logging: {} },
      { hostContext: context },
    );
    bridge.onsizechange = ({ height }) => {
      if (height === undefined) return;
      record.sizes.push(height);
      frame.style.height = `${height}px`;
    };
    bridge.onopenlink = async ({ url }) => {
      record.openLinks.push(url);
      return {};
    };
    bridge.onmessage = async (params) => {
      record.messages.push(params);
      return {};
    };
    const initialized = new Promise<void>((resolve) => {
      need(bridge, 'load').oninitialized = () => resolve();
    });
    await bridge.connect(new PostMessageTransport(view, view));
    frame.srcdoc = html;
    await initialized;
    return { uri, mimeType: content.mimeType, bytes: new TextEncoder().encode(html).length, initializedMs: performance.now() - started };
  },

  async input(args) {
    await need(bridge, 'load').sendToolInput({ arguments: args });
  },

  async call(name, args, options = {}) {
    const host = need(bridge, 'load');
    await host.sendToolInput({ arguments: args });
    const result = (await need(client, 'connect').callTool({ name, arguments: args })) as CallToolResult;
    await host.sendToolResult(options.textOnly ? { content: result.content, ...(result.isError ? { isError: true } : {}) } : result);
    return result;
  },

  setContext(context) {
    need(bridge, 'load').setHostContext(context);
  },
};
document.body.dataset.hostReady = 'true';
