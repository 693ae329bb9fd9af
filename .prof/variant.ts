// Temporary profiling variants (not committed).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ThinkingEngine } from '../src/engine/engine';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { createServer } from '../src/mcp/server';
import { CheckedStdioServerTransport } from '../src/mcp/stdio';
import { thoughtArgumentsSchema } from '../src/engine/thoughtInput';
const variant = process.env.VARIANT ?? 'full';
(async () => {
  if (variant === 'memory' || variant === 'full' || variant === 'sdktransport') {
    const store = variant === 'memory' ? undefined : new FileSessionStore(process.argv[2], { log: () => {} });
    const engine = new ThinkingEngine({ store, log: () => {} });
    const { server } = createServer({ engine, connectionId: 'stdio' });
    await server.connect(variant === 'sdktransport' ? new StdioServerTransport() : new CheckedStdioServerTransport());
    return;
  }
  if (variant === 'memory-noout' || variant === 'engine-tiny') {
    const engine = new ThinkingEngine({ log: () => {} });
    const server = new McpServer({ name: 'x', version: '1' });
    server.registerTool('sequentialthinking', { inputSchema: thoughtArgumentsSchema }, (args) => {
      const outcome = engine.process('c', args);
      if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error }], isError: true };
      const r = outcome.reply;
      const reply = variant === 'engine-tiny' ? { thoughtNumber: r.thoughtNumber, totalThoughts: r.totalThoughts, nextThoughtNeeded: r.nextThoughtNeeded, branches: r.branches, thoughtHistoryLength: r.thoughtHistoryLength } : r;
      return { content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply as unknown as Record<string, unknown> };
    });
    await server.connect(new StdioServerTransport());
    return;
  }
  // 'schemaonly': our schemas, constant-ish reply without engine.
  const server = new McpServer({ name: 'x', version: '1' });
  server.registerTool('sequentialthinking', { inputSchema: thoughtArgumentsSchema }, (args) => {
    const reply = { thoughtNumber: Number((args as { thoughtNumber: number }).thoughtNumber), totalThoughts: 1, nextThoughtNeeded: true, branches: [], thoughtHistoryLength: 1 };
    return { content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply };
  });
  await server.connect(new StdioServerTransport());
})();
