// The sample session the demo and the screenshots play: a ReAct investigation (12 thoughts) with two branches
// exploring competing causes and a revision correcting an early conclusion. Plain data, valid for the react
// strategy's stage table (checked by the demo's own run through the real engine).
const TOTAL = 12;

/** Tool-call inputs for `sequentialthinking`, in order. */
export const SAMPLE_SESSION = [
  { stage: 'problem_reception', thought: 'The nightly build takes 41 minutes since Monday; it took 14 before. Find the cause and a fix.' },
  {
    stage: 'initial_reasoning',
    thought: 'Candidates: the dependency cache, test parallelism, or the new integration tests merged on Monday.',
  },
  { stage: 'action_planning', thought: 'Compare the step timings of the last fast build (#1180) with the first slow one (#1181).' },
  { stage: 'action_execution', thought: 'Ran `ci timings --compare 1180 1181` on both builds.' },
  { stage: 'observation_reception', thought: 'Install went from 40 s to 22 min; the test steps take the same time as before.' },
  { stage: 'reasoning_update', thought: 'Every job misses the dependency cache and reinstalls everything from the registry.' },
  {
    stage: 'reasoning_update',
    branchFromThought: 6,
    branchId: 'cache-key',
    thought: 'Hypothesis A: the cache key hashes the lockfile, and Monday\u2019s bot PR rewrote it in every job.',
  },
  {
    stage: 'reasoning_update',
    branchFromThought: 6,
    branchId: 'runner-image',
    thought: 'Hypothesis B: the new runner image moved the cache folder, so the restored cache lands where nothing reads it.',
  },
  {
    stage: 'evaluation_checkpoint',
    thought: 'The logs show the cache restored with a hit on Linux; A cannot explain that, B can. One more check on the folder.',
  },
  {
    stage: 'evaluation_checkpoint',
    isRevision: true,
    revisesThought: 6,
    thought:
      'Correction: not every job misses the cache \u2014 only the Linux jobs on the new image do; macOS builds are as fast as before.',
  },
  {
    stage: 'solution_formulation',
    thought: 'Pin the cache path to $HOME/.npm for the new image and add a build step that fails when the cache is empty.',
  },
  {
    stage: 'final_response',
    thought:
      'Cause: the runner image moved the npm cache folder. Fix: pin the cache path; guard: fail on an empty cache. Expected build time back to about 14 minutes.',
  },
].map((step, index) => ({
  ...step,
  thoughtNumber: index + 1,
  totalThoughts: TOTAL,
  nextThoughtNeeded: index + 1 < TOTAL,
  ...(index === 0 ? { strategy: 'react' } : {}),
}));
