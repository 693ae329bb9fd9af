// Strategy resources: `thinking://strategies` (every strategy as JSON: traits, typical length, stage names) and
// `thinking://strategies/{name}` (one strategy as Markdown: purpose, stages with purposes, the stage graph as a
// Mermaid flowchart). The template lists every strategy and completes names.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { STRATEGIES, findStrategy, strategyNames } from '../engine/strategies/catalog';
import { strategyMarkdown } from '../engine/strategies/documentation';
import { strategyGraphSource } from '../diagrams/stageGraph';

export const STRATEGIES_URI = 'thinking://strategies';
export const STRATEGY_URI_TEMPLATE = 'thinking://strategies/{name}';

export function strategyUri(name: string): string {
  return `${STRATEGIES_URI}/${encodeURIComponent(name)}`;
}

/** The JSON behind thinking://strategies: what an agent needs to pick a strategy. */
export function strategyListJson(): string {
  return JSON.stringify({
    strategies: STRATEGIES.map((strategy) => ({
      name: strategy.name,
      title: strategy.title,
      description: strategy.description,
      traits: strategy.traits,
      typicalLength: strategy.typicalLength,
      stages: strategy.stages.map((stage) => stage.name),
      uri: strategyUri(strategy.name),
    })),
  });
}

export function registerStrategyResources(server: McpServer): void {
  server.registerResource(
    'strategies',
    STRATEGIES_URI,
    {
      title: 'Reasoning strategies',
      description: 'Every reasoning strategy: traits, typical length and stage names.',
      mimeType: 'application/json',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: strategyListJson() }] }),
  );

  server.registerResource(
    'strategy',
    new ResourceTemplate(STRATEGY_URI_TEMPLATE, {
      list: () => ({
        resources: STRATEGIES.map((strategy) => ({
          uri: strategyUri(strategy.name),
          name: strategy.name,
          title: strategy.title,
          description: strategy.description,
          mimeType: 'text/markdown',
        })),
      }),
      complete: { name: (value) => strategyNames().filter((name) => name.startsWith(value)) },
    }),
    {
      title: 'Reasoning strategy',
      description: 'One strategy: purpose, stages with their purposes, and its stage graph as a Mermaid flowchart.',
      mimeType: 'text/markdown',
    },
    (uri, variables) => {
      const raw = Array.isArray(variables.name) ? variables.name[0] : variables.name;
      const name = decodeURIComponent(raw ?? '');
      const strategy = findStrategy(name);
      // Thrown errors become JSON-RPC errors with this message: the agent learns the valid names.
      if (!strategy) throw new Error(`No strategy "${name}". Strategies: ${strategyNames().join(', ')}.`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: strategyMarkdown(strategy, strategyGraphSource(strategy)) }] };
    },
  );
}
