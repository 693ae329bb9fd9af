// Section: what the agent plugin's skill (packages/agent-plugin/skills/*/SKILL.md) costs a model, in o200k tokens,
// beside the reference `sequentialthinking` tool definition a model carries on every request. The skill's name and
// description are listed in every session (always on); its body is read only when the skill is invoked.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, BenchSection, BenchSectionResult } from './section';
import { connect, definitionTokens, loadTokenizer } from './context';
import { serversUnderTest } from './toolCalls';

/** Budgets against the reference tool's definition: the listing a small fraction of it, the body at most as much. */
const ALWAYS_ON_BUDGET_RATIO = 0.25;
const BODY_BUDGET_RATIO = 1.0;

export const skillSection: BenchSection = {
  title: 'skill: what the agent plugin’s skill costs a model (o200k tokens), against the reference tool definition',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const count = loadTokenizer();
    const { client } = await connect(serversUnderTest(context.root, () => context.tempDir).reference);
    let reference: number;
    try {
      const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'sequentialthinking');
      if (!tool) throw new Error('the reference server lists no sequentialthinking tool');
      reference = definitionTokens(tool, count);
    } finally {
      await client.close();
    }
    const lines = ['| skill | listing (always on) | ratio | body (when invoked) | ratio |', '|---|---|---|---|---|'];
    const checks = [];
    const skills = join(context.root, 'packages', 'agent-plugin', 'skills');
    for (const name of readdirSync(skills)) {
      const text = readFileSync(join(skills, name, 'SKILL.md'), 'utf8');
      const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(text);
      if (!frontmatter) throw new Error(`${name}/SKILL.md has no frontmatter`);
      const listing = count(frontmatter[1]);
      const body = count(text.slice(frontmatter[0].length));
      const ratio = (tokens: number) => `${(tokens / reference).toFixed(2)}×`;
      lines.push(`| ${name} | ${listing} | ${ratio(listing)} | ${body} | ${ratio(body)} |`);
      checks.push(
        {
          name: `${name}: listing vs reference definition`,
          pass: listing <= ALWAYS_ON_BUDGET_RATIO * reference,
          detail: `${listing} against ${reference} tokens (target <= ${ALWAYS_ON_BUDGET_RATIO.toFixed(2)}×)`,
        },
        {
          name: `${name}: body vs reference definition`,
          pass: body <= BODY_BUDGET_RATIO * reference,
          detail: `${body} against ${reference} tokens (target <= ${BODY_BUDGET_RATIO.toFixed(2)}×)`,
        },
      );
    }
    lines.push('', `The reference sequentialthinking definition: ${reference} tokens.`);
    return { lines, checks };
  },
};
