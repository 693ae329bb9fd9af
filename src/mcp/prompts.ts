// The `sequential-thinking` prompt: starts a thinking session on a problem, optionally in a named strategy.
import { completable } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DEFAULT_STRATEGY, findStrategy, strategyNames } from '../engine/strategies/catalog';

export const SEQUENTIAL_THINKING_PROMPT = 'sequential-thinking';

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    SEQUENTIAL_THINKING_PROMPT,
    {
      title: 'Think it through step by step',
      description: 'Work on a problem with the sequentialthinking tool: one thought per call, revising and branching as needed.',
      argsSchema: {
        problem: z.string().describe('The problem or question to think through.'),
        // Completable inside optional: the SDK looks for the completer under the optional wrapper.
        strategy: completable(z.string(), (value) => strategyNames().filter((name) => name.startsWith(value ?? '')))
          .optional()
          .describe(`Reasoning strategy (default "${DEFAULT_STRATEGY}").`),
      },
    },
    ({ problem, strategy }) => {
      const name = strategy === undefined || strategy.trim() === '' ? DEFAULT_STRATEGY : strategy.trim();
      const definition = findStrategy(name);
      if (!definition) throw new Error(`Unknown strategy "${name}". Choose one of: ${strategyNames().join(', ')}.`);
      const stages = definition.stages.map((stage) => `${stage.name} (${stage.purpose})`).join(' → ');
      const text = [
        `Think through the following problem step by step with the sequentialthinking tool, one thought per call.`,
        '',
        `Problem: ${problem}`,
        '',
        `Use the "${definition.name}" strategy: send strategy "${definition.name}" with your first thought (thoughtNumber 1, and totalThoughts ` +
          `your estimate, about ${definition.typicalLength} to start). Its stages: ${stages}. Send stage with each thought, or omit it ` +
          `and follow the nextStages and guidance in each reply.`,
        'When an earlier thought turns out wrong, revise it (isRevision: true, revisesThought: its number). To try an alternative, ' +
          'branch (branchFromThought: the fork point, branchId: a short name). Set nextThoughtNeeded to false only when the answer is ' +
          'reached, then give the answer.',
      ].join('\n');
      return {
        description: `Sequential thinking (${definition.name}) on a problem`,
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
  );
}
