// The benchmark's thinking session: N thoughts of a fixed length, every 10th a revision of the thought before it,
// every 25th a branch from the thought before it (a thought that is both is a branch). Deterministic, so every
// server gets exactly the same calls.

export interface WorkloadOptions {
  thoughts: number;
  thoughtLength: number;
}

export const DEFAULT_WORKLOAD: WorkloadOptions = { thoughts: 5_000, thoughtLength: 400 };

const WORDS = [
  'consider',
  'the',
  'cache',
  'latency',
  'under',
  'load',
  'while',
  'a',
  'revision',
  'weighs',
  'each',
  'branch',
  'against',
  'its',
  'cost',
  'and',
  'evidence',
];

function thoughtText(index: number, length: number): string {
  let text = `Step ${index}: `;
  let word = index;
  while (text.length < length) text += `${WORDS[word++ % WORDS.length]} `;
  return text.slice(0, length);
}

/** The arguments of each `sequentialthinking` call, in order. */
export function* workloadCalls(options: WorkloadOptions = DEFAULT_WORKLOAD): Generator<Record<string, unknown>> {
  for (let number = 1; number <= options.thoughts; number++) {
    const args: Record<string, unknown> = {
      thought: thoughtText(number, options.thoughtLength),
      thoughtNumber: number,
      totalThoughts: options.thoughts,
      nextThoughtNeeded: number < options.thoughts,
    };
    if (number > 1 && number % 25 === 0) {
      args.branchFromThought = number - 1;
      args.branchId = `branch-${number}`;
    } else if (number > 1 && number % 10 === 0) {
      args.isRevision = true;
      args.revisesThought = number - 1;
    }
    yield args;
  }
}
