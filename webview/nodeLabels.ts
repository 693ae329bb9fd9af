// What a screen reader says for a diagram node: "thought 12, reasoning update, revises 6", in the words the cards use
// (the thought's own number, the stage with spaces), built from the session model rather than the drawn label, which
// is cut short and decorated. Pure: no DOM.
import type { ThoughtRecord } from '../src/engine/model';

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

/** The label of a thought node (`t<seq>`) of `thoughts`; undefined for other nodes (they read their drawn text). */
export function describeThoughtNode(nodeId: string, thoughts: readonly ThoughtRecord[]): string | undefined {
  const match = /^t(\d+)$/.exec(nodeId);
  if (!match) return undefined;
  const thought = thoughts[Number(match[1])];
  return thought ? thoughtNodeLabel(thought) : undefined;
}
