// What every export format says about a session and its thoughts, worded once: the title, the summary facts and each
// thought's badges (revision of #n, branch x from #n, stage, final). Plain strings, escaped by each format.
import { sessionName } from '../engine/browserSafe/sessionTitle';
import type { SessionSnapshot, ThoughtRecord } from '../engine/model';
import { shortenedLine } from '../engine/browserSafe/textCut';

export interface SummaryFact {
  label: string;
  value: string;
}

/** The title a person sees: their name for it, else the session's purpose, else its first thought, else its id. */
export function sessionTitle(snapshot: SessionSnapshot): string {
  const { meta } = snapshot;
  const candidate = sessionName(meta) ?? snapshot.thoughts[0]?.thought ?? '';
  const line = shortenedLine(candidate, 120);
  return line === '' ? `Session ${meta.id}` : line;
}

export function summaryFacts(snapshot: SessionSnapshot): SummaryFact[] {
  const { meta, thoughts } = snapshot;
  const revisions = thoughts.filter((thought) => thought.isRevision || thought.revisesThought !== undefined).length;
  const branchIds = [
    ...new Set([...meta.branchIds, ...thoughts.flatMap((thought) => (thought.branchId === undefined ? [] : [thought.branchId]))]),
  ];
  const facts: SummaryFact[] = [
    { label: 'Session', value: meta.id },
    { label: 'Strategy', value: meta.strategy },
    { label: 'Status', value: meta.status },
  ];
  if (meta.stage) facts.push({ label: 'Current stage', value: meta.stage });
  facts.push({
    label: 'Thoughts',
    value: `${thoughts.length} (${revisions} revision${revisions === 1 ? '' : 's'}, ${branchIds.length} branch${branchIds.length === 1 ? '' : 'es'})`,
  });
  if (branchIds.length > 0) facts.push({ label: 'Branches', value: branchIds.join(', ') });
  facts.push({ label: 'Started', value: isoDate(meta.createdAt) }, { label: 'Last updated', value: isoDate(meta.updatedAt) });
  for (const change of snapshot.strategySwitches) {
    const at = thoughts[change.atSeq];
    facts.push({ label: 'Strategy switch', value: `${change.from} → ${change.to}${at ? ` at thought #${at.thoughtNumber}` : ''}` });
  }
  return facts;
}

/** Short tags for a thought, in reading order. */
export function thoughtBadges(thought: ThoughtRecord): string[] {
  const badges: string[] = [];
  if (thought.stage) badges.push(thought.stage);
  if (thought.revisesThought !== undefined) badges.push(`revision of #${thought.revisesThought}`);
  else if (thought.isRevision) badges.push('revision');
  if (thought.branchId !== undefined) {
    badges.push(
      thought.branchFromThought !== undefined
        ? `branch ${thought.branchId} from #${thought.branchFromThought}`
        : `branch ${thought.branchId}`,
    );
  }
  if (thought.needsMoreThoughts) badges.push('needs more thoughts');
  if (!thought.nextThoughtNeeded) badges.push('final');
  return badges;
}

export function isoDate(milliseconds: number): string {
  const date = new Date(milliseconds);
  return Number.isFinite(date.getTime()) ? date.toISOString() : 'unknown';
}
