// Markdown that explains strategies and stages to an agent: the section `thinking://documentation` includes, and the
// per-strategy page behind `thinking://strategies/{name}`. Generated from the catalog so the text never drifts from
// the tables the engine enforces.
import { DEFAULT_STRATEGY, STRATEGIES } from './catalog';
import type { StrategyDefinition, StrategyTraits } from './types';

const TRAIT_WORDS: Record<keyof StrategyTraits, string> = {
  usesTools: 'uses external tools',
  revision: 'expects revisions',
  branching: 'branches',
  multiplePaths: 'several paths',
  stateTracking: 'tracks state',
  verification: 'verifies',
};

export function traitList(traits: StrategyTraits): string[] {
  return (Object.keys(TRAIT_WORDS) as (keyof StrategyTraits)[]).filter((key) => traits[key]).map((key) => TRAIT_WORDS[key]);
}

/** The "Strategies and stages" section of thinking://documentation. */
export function strategyDocumentation(): string {
  const rows = STRATEGIES.map(
    (strategy) => `| \`${strategy.name}\` | ${strategy.description} | ${strategy.stages.length} | ${strategy.typicalLength} |`,
  );
  return `## Strategies and stages
A session follows one reasoning strategy, a graph of stages. Pick it with \`strategy\` on the first thought (default
\`${DEFAULT_STRATEGY}\`). Read \`thinking://strategies/{name}\` for a strategy's stages and graph, or use the prompt
\`think-<strategy>\`.

| strategy | when | stages | typical thoughts |
|---|---|---|---|
${rows.join('\n')}

**Stages.** Send \`stage\` on each thought: the current stage (a stage may take several thoughts) or one of the reply's
\`nextStages\`. The first thought may name the first stage or one of its next stages. Anything else is refused with an
error naming the current stage and the valid next stages. Reaching \`final_response\` completes the session (so does
\`nextThoughtNeeded: false\` anywhere).

**Without \`stage\`.** The first thought starts at the first stage. Later: a thought with \`nextThoughtNeeded: false\`
goes to \`final_response\` when that is a valid next stage; a revision goes to the strategy's revision stage if one is
next, and otherwise stays where it is; a branch thought goes to the stage that records branches if one is current or
next; anything else moves on when there is exactly one next stage and stays at a decision point, where the reply's
\`guidance\` lists the choices (the one marked "toward final_response" is the shortest way to finish). Send \`stage\` to
stay in a stage for several thoughts.

**Branches.** In \`tree_of_thoughts\` (\`branch_creation\`, \`branch_development\`) and \`self_consistency\`
(\`reasoning_path_execution\`) each approach or path is a branch: send \`branchFromThought\` and \`branchId\`. The reply
warns when a thought in such a stage has none.

**Switching strategy.** Send a different \`strategy\` on any thought before the session is complete. The switch is
recorded in the session (its \`strategySwitches\`); that thought may name any stage of the new strategy (without
\`stage\` it starts at the new strategy's first stage), and the flow continues from there under the new strategy's
table. A complete session cannot switch: start a new one with \`thoughtNumber: 1\`. The stage graph shows the current
strategy and counts only the thoughts since the last switch.

**Replies.** \`stage\`, \`nextStages\`, \`guidance\` (the next stage with its purpose and what to write there, or the choices
at a decision point, plus a nudge to revise, branch or verify where the strategy calls for it), \`warnings\`, and
\`progress\` (\`thoughts\` in this strategy so far, its \`typicalLength\`, and \`stagesToFinal\`: the fewest stages still
to go).
`;
}

/**
 * The page behind thinking://strategies/{name}: purpose, traits, stages, and the stage graph. The graph's Mermaid text
 * comes from the caller (src/diagrams draws it): the engine layer imports nothing outside itself.
 */
export function strategyMarkdown(strategy: StrategyDefinition, stageGraphMermaid: string): string {
  const stages = strategy.stages.map((stage, index) => {
    const next = strategy.transitions[stage.name] ?? [];
    const goes = next.length === 0 ? 'terminal' : `→ ${next.map((name) => `\`${name}\``).join(', ')}`;
    return `${index + 1}. \`${stage.name}\` — ${stage.purpose}. ${stage.write} (${goes})`;
  });
  const traits = traitList(strategy.traits);
  return `# ${strategy.title} (\`${strategy.name}\`)

${strategy.description}

- Traits: ${traits.length > 0 ? traits.join(', ') : 'none'}
- Typical length: ${strategy.typicalLength} thoughts
- Start: \`{"strategy": "${strategy.name}", "stage": "${strategy.stages[0].name}", "thoughtNumber": 1, ...}\`

## Stages
${stages.join('\n')}

## Stage graph
\`\`\`mermaid
${stageGraphMermaid.trimEnd()}
\`\`\`
`;
}
