// The `thinking://documentation` resource: how an agent (or a person) uses this server's tools, in Markdown.
import { strategyDocumentation } from '../engine/strategies/documentation';

export function documentationMarkdown(): string {
  return `# Thought Explorer: sequential thinking with saved, resumable sessions

## sequentialthinking
One call records one thought. Required: \`thought\`, \`thoughtNumber\` (1, 2, 3, ...), \`totalThoughts\` (your current
estimate; change it whenever you learn more) and \`nextThoughtNeeded\` (false only when the answer is reached).
Numbers and booleans may be sent as text ("3", "false"), and snake_case names (\`thought_number\`, ...) work too.

- **Revise** an earlier thought: \`isRevision: true, revisesThought: <its number>\`.
- **Branch** to explore an alternative: \`branchFromThought: <fork point>, branchId: "<short name>"\`. Continue the
  branch by sending more thoughts with the same \`branchId\`. Branching never resets the session.
- **Need more** after the planned end: \`needsMoreThoughts: true\` and raise \`totalThoughts\`.

The reply has the reference server's fields (\`thoughtNumber\`, \`totalThoughts\`, \`nextThoughtNeeded\`, \`branches\`,
\`thoughtHistoryLength\`) plus \`sessionId\`, \`strategy\`, \`stage\`, \`nextStages\`, \`guidance\` and \`warnings\`.
When the person asked to be consulted at decision points (several next stages, or a finish before the strategy's
final stages), the reply may also carry \`userDecision\` (\`action\`: accept, decline, cancel or timeout; \`choice\`;
\`text\`) and a guidance sentence that says what to do with it: follow it first.

## Sessions
Each conversation has its own current session: the chat the host names (\`_meta["vscode.conversationId"]\`, as VS Code
sends it), else the MCP connection; two chats or clients never write into each other's session. The
first thought starts a session, and so does \`thoughtNumber: 1\` after the current session ended. Every thought is saved
before the reply, so a session survives a restart: send its \`sessionId\` to continue it.

${strategyDocumentation()}
## thinking_sessions
- \`{"action": "list"}\`: newest first; \`offset\`/\`limit\` page; filter by \`strategy\`, \`status\`
  (live, complete, abandoned) and \`text\`.
- \`{"action": "get", "sessionId": "...", "detail": "summary" | "full"}\`.
- \`{"action": "search", "query": "..."}\`: titles and thought text; continue with \`offset: nextOffset\`.
- \`{"action": "resume", "sessionId": "..."}\`: makes the session your current one and returns the last thoughts,
  stage, next stages, branches and the next \`thoughtNumber\`.
- \`{"action": "stats"}\`: figures across saved sessions (per strategy, revision and branch rates, median length,
  abandoned); filter by \`strategy\`, \`since\`, \`until\` (ISO dates). With \`sessionId\`: that session's insights.
- \`{"action": "configure", "sessionId": "...", "askAtDecisionPoints": true | false | "default"}\`: whether the person
  is asked at this session's decision points.

## Resources
- \`thinking://documentation\`: this page.
- \`thinking://sessions/{id}\`: a session as JSON (meta, strategy switches, every thought).
- \`thinking://sessions/{id}/markdown\`: the same session as Markdown with its stage graph, branch tree and revision
  chain as Mermaid diagrams.
- \`thinking://strategies\`: every strategy with its traits, typical length and stages (JSON);
  \`thinking://strategies/{name}\`: one strategy's stages and stage graph (Markdown).

## Prompts
\`sequential-thinking\` (arguments \`problem\`, optional \`strategy\`) starts a session on a problem;
\`think-<strategy>\` (argument \`problem\`) does the same in one strategy.
`;
}
