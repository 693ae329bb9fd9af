// The `thinking://deliberation` documentation resource: plans, roles, budgets, routing and examples.
import type { McpServer } from '@modelcontextprotocol/server';
import { deliberationDocumentation } from '../deliberation/documentation';

export const DELIBERATION_DOCUMENTATION_URI = 'thinking://deliberation';

export function registerDeliberationResource(server: McpServer): void {
  server.registerResource(
    'deliberation',
    DELIBERATION_DOCUMENTATION_URI,
    {
      title: 'How to deliberate',
      description: 'The deliberate tool: plans, roles (thinking hats), budgets, auto routing and examples.',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: deliberationDocumentation() }] }),
  );
}
