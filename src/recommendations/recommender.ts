// The tool recommender: pure and deterministic. From what a step needs (the QA workflow's step, the words of the step,
// the thought and the verification target, whether the thought revises or branches) it ranks the available tools by
// the capabilities they show and by how many of the step's words their names and descriptions use. Every
// recommendation says which signal it came from. Without a tool list it recommends capabilities by generic name and
// marks them so: it never invents a tool name.
import type { RecommendedTool } from '../engine/qaInput';
import type { QaStep, ToolCapability } from '../engine/strategies/qaWorkflow';
import { CAPABILITY_WORDS } from './capabilities';
import { wordsOf, type ToolIndex } from './toolIndex';

export interface RecommendationRequest {
  /** The step in words (the agent's step description and expected outcome, or the workflow step's). */
  stepText: string;
  thought: string;
  verificationTarget?: string;
  /** The QA workflow's step for the thought's stage, if the session follows a workflow. */
  workflowStep?: QaStep;
  workflowStage?: string;
  isRevision: boolean;
  isNewBranch: boolean;
  /** undefined: no tool list is known. */
  tools?: ToolIndex;
  limit: number;
}

/** A recommendation; `generic` marks a capability named for want of a tool list. */
export interface Recommendation extends RecommendedTool {
  generic?: true;
  /** An agent-sent tool that a known tool list does not hold (kept as sent). */
  unavailable?: true;
}

interface Need {
  weight: number;
  /** Why the step needs it, for the rationale. */
  signal: string;
}

const WORKFLOW_WEIGHTS = [3, 2.5, 2, 1.5];
const STOP_WORDS = new Set(['with', 'from', 'that', 'this', 'then', 'than', 'into', 'what', 'when', 'which', 'need', 'needs', 'step', 'check', 'based', 'correct', 'current', 'using', 'should', 'will', 'have', 'them', 'their', 'there']);

/** What the step needs, strongest signal first. */
export function stepNeeds(request: RecommendationRequest): Map<ToolCapability, Need> {
  const needs = new Map<ToolCapability, Need>();
  const strongest = new Map<ToolCapability, number>();
  const add = (capability: ToolCapability, weight: number, signal: string) => {
    const need = needs.get(capability);
    if (need === undefined) needs.set(capability, { weight, signal });
    else need.weight += weight;
    // The rationale names the strongest single signal.
    if (weight > (strongest.get(capability) ?? 0)) {
      strongest.set(capability, weight);
      (needs.get(capability) as Need).signal = signal;
    }
  };
  request.workflowStep?.capabilities.forEach((capability, index) =>
    add(capability, WORKFLOW_WEIGHTS[index] ?? 1, `workflow step "${request.workflowStage ?? ''}"`),
  );
  const texts: [string | undefined, number, string][] = [
    [request.stepText, 2, 'the step'],
    [request.thought, 1, 'the thought'],
    [request.verificationTarget, 0.5, 'the target'],
  ];
  for (const [text, weight, where] of texts) {
    if (!text) continue;
    for (const [capability, words] of Object.entries(CAPABILITY_WORDS) as [ToolCapability, (typeof CAPABILITY_WORDS)[ToolCapability]][]) {
      const match = words.need.exec(text);
      if (match) add(capability, weight, `"${match[0].toLowerCase()}" in ${where}`);
    }
  }
  if (request.isRevision) {
    // Stronger than any one text signal: a revision corrects something, whatever else the step mentions.
    add('edit_files', 3.5, 'a revision');
    add('diagnostics', 1, 'a revision');
    add('read_files', 0.5, 'a revision');
  }
  if (request.isNewBranch) {
    add('fetch_docs', 1, 'a new branch');
    add('read_files', 0.5, 'a new branch');
  }
  return needs;
}

export function recommendTools(request: RecommendationRequest): Recommendation[] {
  const needs = stepNeeds(request);
  if (request.tools === undefined) return genericRecommendations(needs, request);
  const index = request.tools;
  const words = relevantWords(`${request.stepText} ${request.verificationTarget ?? ''}`);

  // Scores through the inverted indexes: only tools that show a needed capability or use a step word are touched.
  const scores = new Float64Array(index.tools.length);
  const matchedCount = new Uint8Array(index.tools.length);
  for (const [capability, need] of needs) for (const position of index.byCapability.get(capability) ?? []) scores[position] += need.weight;
  for (const word of words) for (const position of index.byWord.get(word) ?? []) if (matchedCount[position] < 3) matchedCount[position]++;
  const ranked: number[] = [];
  for (let position = 0; position < scores.length; position++) {
    scores[position] += Math.min(1.5, matchedCount[position] * 0.5);
    if (scores[position] > 0) ranked.push(position);
  }
  const byScore = (a: number, b: number) => scores[b] - scores[a] || (index.tools[a].name < index.tools[b].name ? -1 : index.tools[a].name > index.tools[b].name ? 1 : 0);
  // The top tools and two alternatives each at most: a partial selection, not a sort of every tool.
  const wanted = request.limit + 2 * request.limit;
  const selected = ranked.length <= wanted * 2 ? ranked.sort(byScore) : selectTop(ranked, wanted, byScore);
  const scored = selected.map((position) => {
    const tool = index.tools[position];
    let best: ToolCapability | undefined;
    for (const capability of tool.capabilities) {
      const need = needs.get(capability);
      if (need !== undefined && (best === undefined || need.weight > (needs.get(best) as Need).weight)) best = capability;
    }
    return { name: tool.name, score: scores[position], best, matched: matchedCount[position] > 0 ? words.filter((word) => tool.words.has(word)).slice(0, 3) : [], capabilities: tool.capabilities };
  });

  const top = scored.slice(0, request.limit);
  const priorities = priorityRanks(top.map((entry) => entry.score));
  return top.map((entry, index): Recommendation => {
    const reasons: string[] = [];
    if (entry.best !== undefined) reasons.push(`${CAPABILITY_WORDS[entry.best].label}: ${(needs.get(entry.best) as Need).signal}`);
    if (entry.matched.length > 0) reasons.push(`its name/description mention ${entry.matched.map((word) => `"${word}"`).join(', ')}`);
    const recommendation: Recommendation = {
      toolName: entry.name,
      confidence: confidenceOf(entry.score),
      rationale: reasons.join('; '),
      priority: priorities[index],
    };
    if (entry.best !== undefined) {
      const capability = entry.best;
      const alternatives: string[] = [];
      for (let other = top.length; other < scored.length && alternatives.length < 2; other++) {
        if (scored[other].capabilities.has(capability)) alternatives.push(scored[other].name);
      }
      if (alternatives.length > 0) recommendation.alternatives = alternatives;
      const inputs = suggestedInputs(capability, request);
      if (inputs) recommendation.suggestedInputs = inputs;
    }
    return recommendation;
  });
}

function genericRecommendations(needs: Map<ToolCapability, Need>, request: RecommendationRequest): Recommendation[] {
  const ranked = [...needs.entries()].sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1)).slice(0, request.limit);
  const priorities = priorityRanks(ranked.map(([, need]) => need.weight));
  return ranked.map(([capability, need], index) => {
    const recommendation: Recommendation = {
      toolName: capability,
      confidence: confidenceOf(need.weight),
      rationale: `no tool list: any tool that can ${CAPABILITY_WORDS[capability].label}; ${need.signal}`,
      priority: priorities[index],
      generic: true,
    };
    const inputs = suggestedInputs(capability, request);
    if (inputs) recommendation.suggestedInputs = inputs;
    return recommendation;
  });
}

/** 1 for the best score, counting up at each lower score (equal scores share a priority). */
function priorityRanks(scores: readonly number[]): number[] {
  let rank = 0;
  let previous = Number.NaN;
  return scores.map((score) => {
    if (score !== previous) rank++;
    previous = score;
    return rank;
  });
}

function confidenceOf(score: number): number {
  return Math.round((0.3 + 0.65 * (1 - Math.exp(-score / 3))) * 100) / 100;
}

function relevantWords(text: string): string[] {
  const words = new Set<string>();
  for (const word of wordsOf(text)) if (word.length >= 4 && !STOP_WORDS.has(word)) words.add(word);
  return [...words].slice(0, 24);
}

/** The `count` best positions in order, by repeated insertion into a short sorted list. */
function selectTop(positions: readonly number[], count: number, compare: (a: number, b: number) => number): number[] {
  const top: number[] = [];
  for (const position of positions) {
    if (top.length === count && compare(position, top[count - 1]) >= 0) continue;
    let at = top.length === count ? count - 1 : top.length;
    if (top.length === count) top.pop();
    while (at > 0 && compare(position, top[at - 1]) < 0) at--;
    top.splice(at, 0, position);
  }
  return top;
}

const COMMAND = /`([^`\n]{2,120})`|\b((?:npm|pnpm|yarn|npx|node|git|pytest|cargo|go|make|tsc|python3?)\s+[\w:@./=-]+(?:\s+[\w:@./=-]+){0,3})/;
const FILE_PATH = /(?:^|[\s"'`(])((?:[\w-]+\/)*[\w.-]+\.(?:json|js|cjs|mjs|ts|tsx|jsx|css|scss|toml|ya?ml|lock|md|py|go|rs|html))\b/;
const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`)]+/;

/** Inputs only where the text makes them obvious: a quoted or well-known command, a file name, a URL, the target. */
function suggestedInputs(capability: ToolCapability, request: RecommendationRequest): Record<string, unknown> | undefined {
  const text = `${request.stepText} ${request.thought}`;
  if (capability === 'run_command' || capability === 'run_tests') {
    const match = COMMAND.exec(text);
    if (match) return { command: (match[1] ?? match[2]).trim() };
  } else if (capability === 'read_files' || capability === 'edit_files') {
    const match = FILE_PATH.exec(text);
    if (match) return { path: match[1] };
  } else if (capability === 'fetch_docs') {
    const match = URL_PATTERN.exec(text);
    if (match) return { url: match[0] };
  } else if (capability === 'search_web' && request.verificationTarget) {
    return { query: request.verificationTarget };
  }
  return undefined;
}
