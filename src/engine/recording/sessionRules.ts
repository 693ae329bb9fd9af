// The rules a thought must keep with its fields and with the session it lands in. Lenient where the reference tool
// is (agents trained on it send what it accepts, and every refusal costs a model turn), precise in what it warns:
// - revisesThought without isRevision: recorded as a revision, with a warning;
// - branchFromThought without branchId: opens a branch under a generated name ("branch-1"), with a warning;
// - branchId without branchFromThought: continues that branch if the session has it, else refused (a new branch
//   needs a fork point);
// - revisesThought / branchFromThought naming a thought the session does not hold (typically after a reconnect
//   without sessionId): recorded, with a warning that says how to continue the earlier session.
// Refusals name the field, the value and what to send instead. These cross-field rules live here, not in the input
// parser: only the session knows which branches and thoughts exist.
import type { EngineLimits } from '../limits';
import type { ThoughtInput } from '../thoughtInput';
import type { HeldSession } from './heldSession';
import { RejectedThought } from './rejectedThought';

/** Session-independent fixes of the input (before the session is chosen, which looks at isRevision). */
export function inferRevision(input: ThoughtInput, warnings: string[]): ThoughtInput {
  if (input.revisesThought === undefined || input.isRevision === true) return input;
  warnings.push(
    input.isRevision === false
      ? `isRevision is false but revisesThought is ${input.revisesThought}: recorded as a revision of thought ${input.revisesThought}.`
      : `revisesThought came without isRevision: recorded as a revision of thought ${input.revisesThought}; send isRevision true with it.`,
  );
  return { ...input, isRevision: true };
}

/** Checks the thought against its session; returns the input to record (a copy when a branch name was generated). */
export function applySessionRules(session: HeldSession, input: ThoughtInput, limits: EngineLimits, warnings: string[]): ThoughtInput {
  const meta = session.meta;
  if (session.thoughts.length >= limits.maxThoughtsPerSession) {
    throw new RejectedThought(
      `Session "${meta.id}" is full: it holds ${session.thoughts.length} thoughts, the most allowed (maxThoughtsPerSession). ` +
        `Continue in a new session: send sessionId "${meta.id.slice(0, 62)}-2" with thoughtNumber 1.`,
    );
  }
  let resolved = input;
  if (input.branchId !== undefined && input.branchFromThought === undefined && !meta.branchIds.includes(input.branchId)) {
    throw new RejectedThought(
      `Invalid branchFromThought: got nothing; expected the number of the thought branch "${input.branchId}" forks from ` +
        `(session "${meta.id}" has no branch "${input.branchId}" yet${describeBranches(meta.branchIds)}, and a new branch needs both).`,
    );
  }
  if (input.branchFromThought !== undefined && input.branchId === undefined) {
    const branchId = unusedBranchId(meta.branchIds);
    warnings.push(
      `branchFromThought came without branchId: this thought opens branch "${branchId}". Send branchId "${branchId}" with this branch's next thoughts.`,
    );
    resolved = { ...input, branchId };
  }

  // Thought numbers are the agent's; a second thought with a number its line already holds is recorded (nothing is
  // lost) but said, since it usually means two writers (another connection resumed the session) or a lost count.
  const line = resolved.branchId;
  if (
    session.thoughtNumbers.has(input.thoughtNumber) &&
    session.thoughts.some((t) => t.thoughtNumber === input.thoughtNumber && t.branchId === line)
  ) {
    warnings.push(
      `Session "${meta.id}" already holds thought ${input.thoughtNumber}${line === undefined ? '' : ` on branch "${line}"`} ` +
        '(recorded earlier, by this or another connection); this one is recorded as another thought with that number. ' +
        `Send thoughtNumber ${meta.lastThoughtNumber + 1} to continue after the last thought.`,
    );
  }

  const missing: string[] = [];
  if (input.revisesThought !== undefined && !session.thoughtNumbers.has(input.revisesThought))
    missing.push(`revisesThought ${input.revisesThought}`);
  if (input.branchFromThought !== undefined && !session.thoughtNumbers.has(input.branchFromThought))
    missing.push(`branchFromThought ${input.branchFromThought}`);
  if (missing.length > 0) {
    warnings.push(
      `${missing.join(' and ')}: session "${meta.id}" holds no such thought (${describeNumbers(session.thoughtNumbers)}); recorded with a dangling reference. ` +
        'If this thought continues an earlier session (e.g. after a reconnect), call thinking_sessions with action "resume" and its sessionId ' +
        '(action "list" finds it), then go on there.',
    );
  }
  if (input.isRevision === true && input.revisesThought === undefined) {
    warnings.push('isRevision is true but revisesThought is missing: send the number of the thought you revise.');
  }
  return resolved;
}

/** `branch-<n>`, the first n from the number of branches up that the session does not use yet. */
function unusedBranchId(branchIds: readonly string[]): string {
  let number = branchIds.length + 1;
  while (branchIds.includes(`branch-${number}`)) number++;
  return `branch-${number}`;
}

function describeBranches(branchIds: readonly string[]): string {
  if (branchIds.length === 0) return '';
  const shown = branchIds.length > 8 ? `${branchIds.slice(0, 8).join(', ')}, ...` : branchIds.join(', ');
  return `; its branches: ${shown}`;
}

function describeNumbers(numbers: Set<number>): string {
  if (numbers.size === 0) return 'it has no thoughts yet';
  const sorted = [...numbers].sort((a, b) => a - b);
  const shown = sorted.length > 12 ? `${sorted.slice(0, 5).join(', ')}, ..., ${sorted.slice(-5).join(', ')}` : sorted.join(', ');
  return `existing thought numbers: ${shown}`;
}
