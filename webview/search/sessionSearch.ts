// Search within the session on screen: `stage:critique`, `branch:css` (`branch:main` for the main line), `#12` for a
// thought number, and plain words or "quoted phrases" in the thought text, all case-insensitive and all required.
// Pure: the query language and the matching, on the thoughts the webview already holds (webview/app/sessionModel.ts).
import type { ThoughtRecord } from '../../src/engine/model';

export interface SearchQuery {
  /** Words and phrases that must all appear in the thought's text (lower case). */
  text: string[];
  /** The thought's stage must contain one of these (normalised: lower case, `_` for spaces and dashes). */
  stages: string[];
  /** The thought's branch must contain one of these; `main` is the main line. */
  branches: string[];
  /** The thought's own number must be one of these. */
  numbers: number[];
}

const TOKEN = /(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)/g;

export function parseSearch(input: string): SearchQuery {
  const query: SearchQuery = { text: [], stages: [], branches: [], numbers: [] };
  for (const match of input.matchAll(TOKEN)) {
    const field = (match[1] ?? match[3])?.toLowerCase();
    const value = match[2] ?? match[4];
    if (field !== undefined && value !== undefined) {
      if (field === 'stage' && value !== '') {
        query.stages.push(normaliseStage(value));
        continue;
      }
      if (field === 'branch' && value !== '') {
        query.branches.push(value.toLowerCase());
        continue;
      }
    }
    const phrase = match[5] ?? match[0];
    const number = /^#(\d+)$/.exec(phrase);
    if (number) query.numbers.push(Number(number[1]));
    else if (phrase.trim() !== '') query.text.push(phrase.toLowerCase());
  }
  return query;
}

export function isEmptyQuery(query: SearchQuery): boolean {
  return query.text.length + query.stages.length + query.branches.length + query.numbers.length === 0;
}

export function matchesThought(thought: ThoughtRecord, query: SearchQuery): boolean {
  if (query.numbers.length > 0 && !query.numbers.includes(thought.thoughtNumber)) return false;
  if (query.stages.length > 0) {
    const stage = thought.stage === undefined ? '' : normaliseStage(thought.stage);
    if (!query.stages.some((wanted) => stage.includes(wanted))) return false;
  }
  if (query.branches.length > 0) {
    const branch = thought.branchId?.toLowerCase();
    const ok = query.branches.some((wanted) => (branch === undefined ? wanted === 'main' : branch.includes(wanted)));
    if (!ok) return false;
  }
  if (query.text.length > 0) {
    const text = thought.thought.toLowerCase();
    if (!query.text.every((word) => text.includes(word))) return false;
  }
  return true;
}

/** The seqs of the thoughts matching `input`, in session order; none for an empty query. */
export function searchThoughts(thoughts: readonly ThoughtRecord[], input: string): number[] {
  const query = parseSearch(input);
  if (isEmptyQuery(query)) return [];
  const hits: number[] = [];
  for (const thought of thoughts) if (matchesThought(thought, query)) hits.push(thought.seq);
  return hits;
}

function normaliseStage(stage: string): string {
  return stage.toLowerCase().replace(/[\s-]+/g, '_');
}
