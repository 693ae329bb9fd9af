// What the live announcer says for a new thought: "thought 12, reasoning update, revises 6", in the words the cards use
// (the thought's own number, the stage with spaces), built from the session model. Pure: no DOM.
import type { ThoughtRecord } from '../../src/engine/model';

export function thoughtNodeLabel(thought: ThoughtRecord): string {
  const parts = [`thought ${thought.thoughtNumber}`];
  if (thought.stage) parts.push(thought.stage.replace(/_/g, ' '));
  if (thought.revisesThought !== undefined) parts.push(`revises ${thought.revisesThought}`);
  else if (thought.isRevision) parts.push('revision');
  if (thought.branchId !== undefined) {
    parts.push(
      thought.branchFromThought === undefined
        ? `branch ${thought.branchId}`
        : `branch ${thought.branchId} from ${thought.branchFromThought}`,
    );
  }
  if (!thought.nextThoughtNeeded) parts.push('final');
  return parts.join(', ');
}
