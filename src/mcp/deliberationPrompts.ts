// The `deliberate` prompt: asks the agent to run the deliberate tool on a problem with a plan (completed from the
// named plans), then to read the recorded roles before answering.
import { completable } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { NAMED_PLANS, NAMED_PLAN_DESCRIPTIONS, type NamedPlan } from '../deliberation/namedPlans';

export const DELIBERATE_PROMPT = 'deliberate';

export function registerDeliberationPrompt(server: McpServer): void {
  server.registerPrompt(
    DELIBERATE_PROMPT,
    {
      title: 'Deliberate with thinking hats',
      description: 'Look at a problem from several roles (the six thinking hats or a plan of your own) with the deliberate tool.',
      argsSchema: {
        problem: z.string().describe('The problem or question to deliberate on.'),
        // Completable inside optional: the SDK looks for the completer under the optional wrapper.
        plan: completable(z.string(), (value) => NAMED_PLANS.filter((name) => name.startsWith(value ?? '')))
          .optional()
          .describe(`Named plan (default "auto"): ${NAMED_PLANS.join(', ')}.`),
      },
    },
    ({ problem, plan }) => {
      const name = plan === undefined || plan.trim() === '' ? 'auto' : plan.trim();
      if (!(NAMED_PLANS as readonly string[]).includes(name))
        throw new Error(`Unknown plan "${name}". Choose one of: ${NAMED_PLANS.join(', ')}.`);
      const text = [
        `Call the deliberate tool with plan "${name}" on the problem below: ${NAMED_PLAN_DESCRIPTIONS[name as NamedPlan]}`,
        '',
        `Problem: ${problem}`,
        '',
        'Then read the per-role summaries in the reply (and any failed or cut roles), and answer with the result, saying where the roles disagreed. ' +
          'The session id in the reply lets you continue with sequentialthinking or deliberate again with sessionId. Details: thinking://deliberation.',
      ].join('\n');
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
}
