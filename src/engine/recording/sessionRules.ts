// The rules a thought must keep with respect to the session it lands in: room left, and references (revisesThought,
// branchFromThought) that name thoughts the session holds. A broken rule refuses the thought with a message that says
// what to send; a doubtful one is accepted with a warning.
import type { EngineLimits } from '../limits';
import type { ThoughtInput } from '../thoughtInput';
import type { HeldSession } from './heldSession';
import { RejectedThought } from './rejectedThought';

export function checkSessionRules(session: HeldSession, input: ThoughtInput, limits: EngineLimits, warnings: string[]): void {
  const meta = session.meta;
  if (session.thoughts.length >= limits.maxThoughtsPerSession) {
    throw new RejectedThought(
      `Session "${meta.id}" is full: it holds ${session.thoughts.length} thoughts, the most allowed (maxThoughtsPerSession). ` +
        `Continue in a new session: send sessionId "${meta.id.slice(0, 62)}-2" with thoughtNumber 1.`,
    );
  }
  if (input.revisesThought !== undefined && !session.thoughtNumbers.has(input.revisesThought)) {
    throw new RejectedThought(
      `Invalid revisesThought: got ${input.revisesThought}; expected the number of an existing thought of session "${meta.id}" (${describeNumbers(session.thoughtNumbers)}).`,
    );
  }
  if (input.branchFromThought !== undefined && !session.thoughtNumbers.has(input.branchFromThought)) {
    throw new RejectedThought(
      `Invalid branchFromThought: got ${input.branchFromThought}; expected the number of an existing thought of session "${meta.id}" (${describeNumbers(session.thoughtNumbers)}).`,
    );
  }
  if (input.isRevision === true && input.revisesThought === undefined) {
    warnings.push('isRevision is true but revisesThought is missing: send the number of the thought you revise.');
  }
}

function describeNumbers(numbers: Set<number>): string {
  if (numbers.size === 0) return 'it has no thoughts yet';
  const sorted = [...numbers].sort((a, b) => a - b);
  const shown = sorted.length > 12 ? `${sorted.slice(0, 5).join(', ')}, ..., ${sorted.slice(-5).join(', ')}` : sorted.join(', ');
  return `existing thought numbers: ${shown}`;
}
