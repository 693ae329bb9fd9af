// Which of our tools a client is shown. Every listed definition rides along with each of its model requests, and
// clients differ: some send app-only tools to the model although they are marked `visibility: ["app"]`, and most
// cannot answer sampling. So:
// - the inline thought graph's app-only tools are listed only to clients that declare MCP Apps support (ext-apps'
//   `io.modelcontextprotocol/ui` extension in their initialize capabilities);
// - `deliberate` only where it can run: the host has a model (VS Code's models, a configured endpoint) or the client
//   declares sampling. When the host's model comes or goes, the list changes and the client is told
//   (`notifications/tools/list_changed`, sent by the SDK on enable/disable of a connected server).
// The first choice is made when the client says it is initialized, before it lists tools: no notification for it.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { ModelGateway } from '../engine/modelGateway';
import { clientRendersApps } from './app/appRegistration';
import { clientSupportsSampling } from './samplingGateway';

export interface AdvertisedTools {
  /** The MCP App's tools (only the view calls them). */
  appTools: readonly RegisteredTool[];
  deliberate?: RegisteredTool;
}

/** Whether the host's own model can run `deliberate` now (a gateway without availability is always available). */
export function hostModelAvailable(gateway: ModelGateway | undefined): boolean {
  if (gateway === undefined) return false;
  return gateway.availability?.available() ?? true;
}

/**
 * Hides the tools a client cannot use until it has said what it supports; call before `server.connect`. Returns a
 * dispose for the availability listener.
 */
export function advertiseForClient(server: McpServer, tools: AdvertisedTools, modelGateway: ModelGateway | undefined): () => void {
  const { appTools, deliberate } = tools;
  // Not connected yet: disabling sends nothing.
  for (const tool of appTools) tool.disable();
  let initialized = false;
  const deliberateRuns = () => hostModelAvailable(modelGateway) || (initialized && clientSupportsSampling(server));
  if (deliberate && !deliberateRuns()) deliberate.disable();

  const previous = server.server.oninitialized;
  server.server.oninitialized = () => {
    previous?.();
    initialized = true;
    // Set, not enable(): the client has not listed tools yet, so a list_changed would only make it list twice.
    if (clientRendersApps(server)) for (const tool of appTools) tool.enabled = true;
    if (deliberate) deliberate.enabled = deliberateRuns();
  };
  const stop = modelGateway?.availability?.onChange(() => {
    if (!deliberate) return;
    const runs = deliberateRuns();
    // enable()/disable() tell a connected client (tools/list_changed); the same state again tells nobody.
    if (runs !== deliberate.enabled) (runs ? deliberate.enable : deliberate.disable)();
  });
  return () => stop?.();
}
