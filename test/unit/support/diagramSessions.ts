// Sessions the diagram tests draw: thought records from partial specs, and a snapshot around them.
import type { FeedbackRecord, SessionSnapshot, ThoughtRecord } from '../../../src/engine/model';

/** One record per spec, numbered in order (`seq` 0…, thought n+1), each overridable by its spec. */
export function thoughtsFrom(specs: Partial<ThoughtRecord>[]): ThoughtRecord[] {
  return specs.map((spec, seq) => ({
    seq,
    thought: `thought ${seq + 1}`,
    thoughtNumber: seq + 1,
    totalThoughts: specs.length,
    nextThoughtNeeded: seq < specs.length - 1,
    timestamp: seq * 1000,
    ...spec,
  }));
}

export function diagramSnapshot(
  records: ThoughtRecord[],
  feedback: FeedbackRecord[] = [],
  status: 'live' | 'complete' = 'live',
): SessionSnapshot {
  return {
    meta: {
      id: 's',
      strategy: 'react',
      status,
      createdAt: 0,
      updatedAt: 0,
      thoughtCount: records.length,
      revisionCount: 0,
      branchIds: [],
      lastThoughtNumber: records.length,
      totalThoughts: 9,
    },
    thoughts: records,
    strategySwitches: [],
    feedback,
  };
}
