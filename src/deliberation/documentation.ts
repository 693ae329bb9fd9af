// The `thinking://deliberation` page: plans, roles, budgets, routing and examples, generated from the same tables
// the code enforces so the text never drifts from the behaviour.
import { BUDGET_RULES } from './budgets';
import { MODEL_RESPONSE_MAX_BYTES } from './boundedFetch';
import { MAX_REPLY_TEXT_PER_ROLE } from './deliberate';
import { MAX_MODEL_ANSWER_LENGTH } from './runner';
import { NAMED_PLANS, NAMED_PLAN_DESCRIPTIONS } from './namedPlans';
import { RESULT_STRATEGIES } from './plans';
import { MAX_PROBLEM_LENGTH } from './request';
import { hatRoles } from './roles';
import { BAND_SEQUENCES, BAND_THRESHOLDS } from './routing';

export function deliberationDocumentation(): string {
  const plans = NAMED_PLANS.map((name) => `| \`${name}\` | ${NAMED_PLAN_DESCRIPTIONS[name]} |`).join('\n');
  const roles = hatRoles()
    .map((role) => `| \`${role.name}\` | ${role.hat} | ${role.systemPrompt.split('\n')[1].replace(/^Your role: /, '')} |`)
    .join('\n');
  const budgets = Object.entries(BUDGET_RULES)
    .map(([name, rule]) => `| \`${name}\` | ${rule.default} | ${rule.cap} | ${rule.unit} |`)
    .join('\n');
  return `# Deliberation

The \`deliberate\` tool runs a plan of roles on a model and records every role's answer as a thought of a session
(strategy \`deliberation\`): the framing thought first, then one thought per role call with \`stage\` = the role,
parallel roles as branches from the framing thought (branch id = role), task cycles as repeated stages, and the result
as the final thought. Each thought's \`extra\` holds role, model, tokens, duration and status (ok, failed, cancelled,
budget-exhausted). The problem may be up to ${MAX_PROBLEM_LENGTH} characters. Send \`sessionId\` (and \`fromThought\`) to
deliberate inside an existing session; an earlier \`fromThought\` makes the deliberation a branch from it.

## Where the model runs
The host's configured model when there is one (the CLI's OpenAI-compatible endpoint); otherwise the calling client
through MCP sampling, when it declares the \`sampling\` capability. Without either the tool says how to enable one.

## Named plans
| plan | what it does |
| --- | --- |
${plans}

## Plan objects (ThinkSuit's shapes)
- \`{"strategy": "direct", "role": "critical", "maxTokens": 800}\`
- \`{"strategy": "sequential", "sequence": ["factual", {"role": "synthesis", "strategy": "direct"}], "buildThread": true, "resultStrategy": "last", "tools": [], "maxTokens": 1000}\`
- \`{"strategy": "parallel", "roles": [{"role": "critical", "strategy": "direct"}, {"role": "optimistic", "strategy": "direct"}], "synthesis": "synthesis", "resultStrategy": "label"}\`
- \`{"strategy": "task", "role": "factual", "resolution": {"maxCycles": 4, "maxTokens": 8000, "maxToolCalls": 8, "timeoutMs": 180000}, "tools": []}\`

A step given as a bare string runs as a \`task\`; \`tools\` reach only task steps; plans do not nest. \`resultStrategy\`
is one of ${RESULT_STRATEGIES.map((name) => `\`${name}\``).join(', ')}: the last answer, all answers joined, each labelled
with its role, or Markdown with a heading per role. A task works in cycles (the model ends each with \`STATUS: DONE\`
or \`STATUS: CONTINUE\`); when a budget runs out it makes one convergence call with what it gathered.

## Roles
| role | hat | what it does and does not do |
| --- | --- | --- |
${roles}

Custom roles: \`"roles": [{"name": "lawyer", "instructions": "Point out legal exposure only."}]\`, then name \`lawyer\`
in a plan (or select it with plan \`sequential\`/\`parallel\`/\`direct\`/\`task\`).

## Budgets
Every budget has a default and a cap; a value above the cap runs at the cap and the reply lists it under
\`budgets.capped\`. Zero, negative or fractional values are refused. Request-wide values go in \`budgets\`
(\`maxTokens\`, \`timeoutMs\`, \`maxTotalTokens\`, \`maxCycles\`, \`maxToolCalls\`); a plan's own values win.

| budget | default | cap | unit |
| --- | --- | --- | --- |
${budgets}

Whatever a model answers, one role keeps at most ${MAX_MODEL_ANSWER_LENGTH} characters (its thought at most the
session's thought length) and the reply's \`result\` at most ${MAX_REPLY_TEXT_PER_ROLE} per role, then a marker naming the
thought that holds the rest; an endpoint response over ${MODEL_RESPONSE_MAX_BYTES / (1024 * 1024)} MiB fails its role. Token
counts that are no whole numbers from 0 count as unknown: estimated, with \`tokensNote\` saying so.

## \`auto\` routing
A deterministic complexity score (0-100) from the problem's length, questions, constraints and technical density and
the session's branches and revisions picks the hats: below ${BAND_THRESHOLDS.double} \`${BAND_SEQUENCES.single.join(' → ')}\`;
below ${BAND_THRESHOLDS.triple} \`${BAND_SEQUENCES.double.join(' → ')}\`; below ${BAND_THRESHOLDS.full} \`${BAND_SEQUENCES.triple.join(' → ')}\`;
otherwise all six. The reply reports the score, the sequence, why, and the calls saved against the full sequence.

## Examples
- \`{"problem": "Should we move our nightly batch to streaming?"}\` (auto)
- \`{"problem": "…", "plan": "parallel-hats", "budgets": {"timeoutMs": 30000}}\`
- \`{"problem": "…", "plan": "sequential", "roles": ["critical", {"name": "lawyer", "instructions": "…"}, "synthesis"], "resultStrategy": "formatted"}\`
- \`{"problem": "…", "sessionId": "<id>", "fromThought": 3, "plan": "direct", "roles": ["critical"]}\`
`;
}
