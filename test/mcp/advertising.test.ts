// What each client is shown: the app-only thought_graph_* tools only to a client declaring MCP Apps support (ext-apps'
// extension key), deliberate only where it can run (a client declaring sampling, or a host model that is available
// now), and a tools/list_changed when the host model comes or goes — never one just for initializing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, InMemoryTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ModelGateway } from '../../src/engine/modelGateway';
import { createServer } from '../../src/mcp/server';
import { MCP_APPS_CAPABILITIES } from './support/clients';
import { waitFor } from './support/waitFor';

const quiet = () => {};

async function listed(capabilities: ClientCapabilities, modelGateway?: ModelGateway) {
  const created = createServer({ engine: new ThinkingEngine({ log: quiet }), modelGateway });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverTransport);
  const client = new Client({ name: 'advertising-test', version: '1.0.0' }, { capabilities });
  let listChanges = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void listChanges++);
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', () => Promise.reject(new Error('not used')));
  await client.connect(clientTransport);
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name).sort();
  return {
    client,
    names,
    listChanges: () => listChanges,
    close: async () => {
      await client.close();
      created.cleanup();
    },
  };
}

describe('tools advertised by what the client can use', () => {
  it('a client without MCP Apps or sampling, and no host model: only sequentialthinking and thinking_sessions', async () => {
    const plain = await listed({});
    assert.deepEqual(await plain.names(), ['sequentialthinking', 'thinking_sessions']);
    await plain.close();
  });

  it('the app-only tools go to a client declaring the MCP Apps extension, under ext-apps’ own key', async () => {
    assert.ok(EXTENSION_ID in (MCP_APPS_CAPABILITIES.extensions ?? {}));
    const apps = await listed(MCP_APPS_CAPABILITIES);
    assert.deepEqual(await apps.names(), [
      'sequentialthinking',
      'thinking_sessions',
      'thought_graph_open_explorer',
      'thought_graph_session_page',
    ]);
    // The extension without our MIME type is not enough to draw the view.
    const other = await listed({ extensions: { [EXTENSION_ID]: { mimeTypes: ['text/plain'] } } });
    assert.deepEqual(await other.names(), ['sequentialthinking', 'thinking_sessions']);
    await apps.close();
    await other.close();
  });

  it('deliberate goes to a client declaring sampling, without a list change for initializing', async () => {
    const sampling = await listed({ sampling: {} });
    assert.deepEqual(await sampling.names(), ['deliberate', 'sequentialthinking', 'thinking_sessions']);
    assert.equal(sampling.listChanges(), 0);
    await sampling.close();
  });

  it('with a host model, deliberate follows its availability, and the client is told when it changes', async () => {
    let available = false;
    const listeners = new Set<() => void>();
    const gateway: ModelGateway = {
      description: 'a host model that comes and goes',
      availability: {
        available: () => available,
        onChange: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      },
      complete: () => Promise.reject(new Error('not called')),
    };
    const host = await listed({}, gateway);
    assert.deepEqual(await host.names(), ['sequentialthinking', 'thinking_sessions']);
    assert.equal(host.listChanges(), 0);
    available = true;
    for (const listener of listeners) listener();
    await waitFor(() => host.listChanges() === 1, 'a tools/list_changed once the model came');
    assert.deepEqual(await host.names(), ['deliberate', 'sequentialthinking', 'thinking_sessions']);
    // No change, no notification.
    for (const listener of listeners) listener();
    available = false;
    for (const listener of listeners) listener();
    await waitFor(() => host.listChanges() === 2, 'a tools/list_changed once the model went');
    assert.deepEqual(await host.names(), ['sequentialthinking', 'thinking_sessions']);
    await host.close();
    assert.equal(listeners.size, 0, 'a closed connection stops listening');
  });
});
