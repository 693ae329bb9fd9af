// One prompt per strategy, `think-<strategy>` (argument `problem`): starts a session in that strategy and names its
// stages, so a person can pick a reasoning style from the client's prompt menu.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { STRATEGIES } from '../engine/strategies/catalog';
import type { StrategyDefinition } from '../engine/strategies/types';

export function strategyPromptName(strategy: StrategyDefinition): string {
  return `think-${strategy.name}`;
}

/** The user message the prompt produces. */
export function strategyPromptText(strategy: StrategyDefinition, problem: string): string {
  const stages = strategy.stages.map((stage) => `${stage.name} (${stage.purpose})`).join(' → ');
  const first = strategy.stages[0].name;
  const branching = strategy.stages.some((stage) => stage.expects === 'branch' || stage.expects === 'newBranch')
    ? ' Record each approach or path as a branch (branchFromThought: the fork point, branchId: a short name).'
    : '';
  return [
    `Think through the following problem with the sequentialthinking tool, one thought per call, using the "${strategy.name}" strategy (${strategy.title}).`,
    '',
    `Problem: ${problem}`,
    '',
    `Start a new session: your first thought sends strategy "${strategy.name}", stage "${first}", thoughtNumber 1 and totalThoughts about ${strategy.typicalLength}.`,
    `Its stages: ${stages}.`,
    `Send stage with each thought: the current stage (to stay) or one of the reply's nextStages; follow each reply's guidance.${branching}`,
    'When an earlier thought turns out wrong, revise it (isRevision: true, revisesThought: its number). Reaching final_response completes the session: give the answer there with nextThoughtNeeded false.',
  ].join('\n');
}

export function registerStrategyPrompts(server: McpServer): void {
  for (const strategy of STRATEGIES) {
    server.registerPrompt(
      strategyPromptName(strategy),
      {
        title: `Think: ${strategy.title}`,
        description: `${strategy.description} Starts a sequentialthinking session in "${strategy.name}".`,
        argsSchema: { problem: z.string().describe('The problem or question to think through.') },
      },
      ({ problem }) => ({
        description: `Sequential thinking (${strategy.name}) on a problem`,
        messages: [{ role: 'user', content: { type: 'text', text: strategyPromptText(strategy, problem) } }],
      }),
    );
  }
}
