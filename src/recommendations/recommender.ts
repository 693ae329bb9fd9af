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
const STOP_WORDS = new Set([
  'with',
  'from',
  'that',
  'this',
  'then',
  'than',
  'into',
  'what',
  'when',
  'which',
  'need',
  'needs',
  'step',
  'check',
  'based',
  'correct',
  'current',
  'using',
  'should',
  'will',
  'have',
  'them',
  'their',
  'there',
]);

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
  const inputsFor = suggestedInputsOnce(request);
  if (request.tools === undefined) return genericRecommendations(needs, inputsFor, request.limit);
  const index = request.tools;
  const words = relevantWords(`${request.stepText} ${request.verificationTarget ?? ''}`);

  // Scores through the inverted indexes: only tools that show a needed capability or use a step word are touched.
  const scores = new Float64Array(index.tools.length);
  const matchedCount = new Uint8Array(index.tools.length);
  for (const [capability, need] of needs) for (const position of index.byCapability.get(capability) ?? []) scores[position] += need.weight;
  for (const word of words) for (const position of index.byWord.get(word) ?? []) if (matchedCount[position] < 3) matchedCount[position]++;
  for (let position = 0; position < scores.length; position++) scores[position] += Math.min(1.5, matchedCount[position] * 0.5);
  // The top tools and two alternatives each at most: a partial selection, not a sort of every tool.
  const selected = selectTop(scores, index.byName, request.limit + 2 * request.limit);
  // Only the top tools need a rationale; the rest are looked at only as alternatives.
  const limit = Math.min(request.limit, selected.length);
  const scored = selected.map((position, rank) => {
    const tool = index.tools[position];
    let best: ToolCapability | undefined;
    let matched: string[] = [];
    if (rank < limit) {
      for (const capability of tool.capabilities) {
        const need = needs.get(capability);
        if (need !== undefined && (best === undefined || need.weight > (needs.get(best) as Need).weight)) best = capability;
      }
      if (matchedCount[position] > 0) matched = words.filter((word) => tool.words.has(word)).slice(0, 3);
    }
    return { name: tool.name, score: scores[position], best, matched, capabilities: tool.capabilities };
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
      const inputs = inputsFor(capability);
      if (inputs) recommendation.suggestedInputs = inputs;
    }
    return recommendation;
  });
}

function genericRecommendations(needs: Map<ToolCapability, Need>, inputsFor: InputsFor, limit: number): Recommendation[] {
  const ranked = [...needs.entries()].sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  const priorities = priorityRanks(ranked.map(([, need]) => need.weight));
  return ranked.map(([capability, need], index) => {
    const recommendation: Recommendation = {
      toolName: capability,
      confidence: confidenceOf(need.weight),
      rationale: `no tool list: any tool that can ${CAPABILITY_WORDS[capability].label}; ${need.signal}`,
      priority: priorities[index],
      generic: true,
    };
    const inputs = inputsFor(capability);
    if (inputs) recommendation.suggestedInputs = inputs;
    return recommendation;
  });
}

type InputsFor = (capability: ToolCapability) => Record<string, unknown> | undefined;

/** suggestedInputs of one request, worked out once per capability (several tools share one); a fresh object each time. */
function suggestedInputsOnce(request: RecommendationRequest): InputsFor {
  const found = new Map<ToolCapability, Record<string, unknown> | undefined>();
  return (capability) => {
    if (!found.has(capability)) found.set(capability, suggestedInputs(capability, request));
    const inputs = found.get(capability);
    return inputs && { ...inputs };
  };
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

/** The words of the last few step texts: a step's text repeats on every thought of that step. */
const wordsOfStep = new Map<string, string[]>();

function relevantWords(text: string): string[] {
  const known = wordsOfStep.get(text);
  if (known) return known;
  const found = stepWords(text);
  if (wordsOfStep.size >= 16) wordsOfStep.delete(wordsOfStep.keys().next().value as string);
  wordsOfStep.set(text, found);
  return found;
}

function stepWords(text: string): string[] {
  const words = new Set<string>();
  for (const word of wordsOf(text)) if (word.length >= 4 && !STOP_WORDS.has(word)) words.add(word);
  return [...words].slice(0, 24);
}

/**
 * The `count` best-scoring positions (score > 0), best first. Positions are visited in name order and a tool moves only
 * past strictly lower scores, so equal scores stay in name order: deterministic, with no comparator calls.
 */
function selectTop(scores: Float64Array, byName: Int32Array, count: number): number[] {
  const top: number[] = [];
  for (let at = 0; at < byName.length; at++) {
    const position = byName[at];
    const score = scores[position];
    if (score <= 0 || (top.length === count && score <= scores[top[count - 1]])) continue;
    if (top.length === count) top.pop();
    let slot = top.length;
    while (slot > 0 && score > scores[top[slot - 1]]) slot--;
    top.splice(slot, 0, position);
  }
  return top;
}

const COMMAND =
  /`([^`\n]{2,120})`|\b((?:npm|pnpm|yarn|npx|node|git|pytest|cargo|go|make|tsc|python3?)\s+[\w:@./=-]+(?:\s+[\w:@./=-]+){0,3})/;
const FILE_PATH = /(?:^|[\s"'`(])((?:[\w-]+\/)*[\w.-]+\.(?:json|js|cjs|mjs|ts|tsx|jsx|css|scss|toml|ya?ml|lock|md|py|go|rs|html))\b/;
/** What FILE_PATH needs somewhere: a cheap scan from a literal dot, so texts without a file name skip its backtracking. */
const FILE_EXTENSION = /\.(?:json|js|cjs|mjs|ts|tsx|jsx|css|scss|toml|ya?ml|lock|md|py|go|rs|html)\b/;
const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`)]+/;

/** Inputs only where the text makes them obvious: a quoted or well-known command, a file name, a URL, the target. */
function suggestedInputs(capability: ToolCapability, request: RecommendationRequest): Record<string, unknown> | undefined {
  const text = `${request.stepText} ${request.thought}`;
  if (capability === 'run_command' || capability === 'run_tests') {
    const match = COMMAND.exec(text);
    if (match) return { command: (match[1] ?? match[2]).trim() };
  } else if (capability === 'read_files' || capability === 'edit_files') {
    const match = FILE_EXTENSION.test(text) ? FILE_PATH.exec(text) : null;
    if (match) return { path: match[1] };
  } else if (capability === 'fetch_docs') {
    const match = URL_PATTERN.exec(text);
    if (match) return { url: match[0] };
  } else if (capability === 'search_web' && request.verificationTarget) {
    return { query: request.verificationTarget };
  }
  return undefined;
}
