// What `sequentialthinking` tells the model besides its schema (the engine's canonicalThoughtInput.ts), short because the
// model reads both on every request (budget: no more o200k tokens than the reference tool's definition;
// `npm run bench -- context`).

export const SEQUENTIAL_THINKING_DESCRIPTION = `Think step by step, one thought per call; the reasoning is kept as a session the user can follow.

Use it to break down a hard problem, to plan with room for correction, or when the scope is unclear. Adjust totalThoughts as you learn; send nextThoughtNeeded: false only once you have a satisfying answer.

When an earlier thought proves wrong, revise it (isRevision, revisesThought). To try an alternative without losing the main line, branch (branchFromThought, branchId) and keep that branchId on the branch's thoughts.

Your first thought starts a session; the reply names it. thinking_sessions finds and resumes saved ones. A strategy (default linear) gives the session stages; the reply says which may come next and how.

The user may steer through userFeedback in a reply: act on it first.`;
