import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
void (async () => {
  const client = new Client({ name: 'm', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/cli.js', '--storage-path', '/tmp/ld/store'], stderr: 'ignore' }));
  const { tools } = await client.listTools();
  for (const t of tools) console.log(t.name, JSON.stringify(t.outputSchema));
  await client.close();
})();
