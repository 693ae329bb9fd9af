// What the Sessions tree shows, as pure functions over the engine's data (no vscode import, so tested in plain Node):
// titles, descriptions, the displayed status, Live/Recent/Saved-by-day grouping, branch nesting and escaped tooltips.
import { displayedStatus, IDLE_AS_ABANDONED_MS } from '../engine/browserSafe/sessionStatus';
import { sessionTitle as fullSessionTitle } from '../engine/browserSafe/sessionTitle';
import { visibleText } from '../engine/fieldRules';
import type { SessionMeta, SessionSnapshot, SessionStatus, ThoughtRecord } from '../engine/model';
import { feedbackStatusText } from '../engine/browserSafe/feedbackStatus';
import { appendAll } from '../engine/browserSafe/arrayMath';
import { shortenedLine } from '../engine/browserSafe/textCut';

/**
 * A finished session stays under Recent, at the top of the tree and expanded, for this long after its last thought: the
 * session a person just watched stays in sight instead of vanishing into a collapsed Saved › Today.
 */
export const RECENT_MS = 60 * 60 * 1000;

/** The session's title on one line, at most 80 characters. */
export function sessionTitle(meta: SessionMeta): string {
  return flatten(fullSessionTitle(meta), 80);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `react · 7 thoughts · 2 branches · 1 revision` (branches and revisions only when there are any). */
export function sessionDescription(meta: SessionMeta): string {
  // The store lists a journal it cannot read with zero counts: say so instead of "0 thoughts".
  if (meta.unreadable !== undefined) return 'unreadable';
  const parts = [meta.strategy, plural(meta.thoughtCount, 'thought')];
  if (meta.branchIds.length > 0) parts.push(plural(meta.branchIds.length, 'branch', 'branches'));
  if (meta.revisionCount > 0) parts.push(plural(meta.revisionCount, 'revision'));
  if (meta.conversationId !== undefined) parts.push(chatLabel(meta.conversationId));
  return parts.join(' · ');
}

/**
 * A short name for the chat a session came from (the host's conversation id): enough to tell two chats' sessions
 * apart in a row; the tooltip has the whole id.
 */
export function chatLabel(conversationId: string): string {
  const tail = conversationId.startsWith('sha256:') ? conversationId.slice('sha256:'.length) : conversationId;
  const short = tail.replace(/[^A-Za-z0-9]/g, '').slice(0, 8);
  return `chat ${short === '' ? '?' : short}`;
}

/** The local calendar day of a timestamp as `YYYY-MM-DD` (sorts as text). */
export function dayKey(timestamp: number): string {
  const date = new Date(timestamp);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

export function dayLabel(day: string, now: number): string {
  if (day === dayKey(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  if (day === dayKey(yesterday.getTime())) return 'Yesterday';
  return day;
}

/**
 * Where a session sits in the tree: `live`, `recent` (finished within `recentMs`), or `saved:<day>`. A change of
 * placement needs a re-render of the root.
 */
export function placementOf(meta: SessionMeta, now: number, idleMs = IDLE_AS_ABANDONED_MS, recentMs = RECENT_MS): string {
  if (displayedStatus(meta, now, idleMs) === 'live') return 'live';
  return now - meta.updatedAt <= recentMs ? 'recent' : `saved:${dayKey(meta.updatedAt)}`;
}

export interface GroupedSessions {
  /** Most recently updated first. */
  live: SessionMeta[];
  /** Finished within the last `recentMs`, most recently updated first (not repeated under Saved). */
  recent: SessionMeta[];
  /** Days newest first; sessions in a day most recently updated first. */
  savedByDay: { day: string; sessions: SessionMeta[] }[];
}

export function groupSessions(
  sessions: readonly SessionMeta[],
  now: number,
  idleMs = IDLE_AS_ABANDONED_MS,
  recentMs = RECENT_MS,
): GroupedSessions {
  const byRecency = [...sessions].sort((a, b) => b.updatedAt - a.updatedAt);
  const live: SessionMeta[] = [];
  const recent: SessionMeta[] = [];
  const days = new Map<string, SessionMeta[]>();
  for (const meta of byRecency) {
    const placement = placementOf(meta, now, idleMs, recentMs);
    if (placement === 'live' || placement === 'recent') {
      (placement === 'live' ? live : recent).push(meta);
      continue;
    }
    const day = dayKey(meta.updatedAt);
    const list = days.get(day);
    if (list) list.push(meta);
    else days.set(day, [meta]);
  }
  const savedByDay = [...days.entries()].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)).map(([day, list]) => ({ day, sessions: list }));
  return { live, recent, savedByDay };
}

/** `14:05`, or `14:05:31` when minutes are not enough: the local time a session started. */
function startTime(meta: SessionMeta, seconds: boolean): string {
  const date = new Date(meta.createdAt);
  const parts = [date.getHours(), date.getMinutes(), ...(seconds ? [date.getSeconds()] : [])];
  return parts.map((part) => String(part).padStart(2, '0')).join(':');
}

/**
 * For sessions listed under the same title (two play-throughs of one demo), the start time that tells them apart (put
 * before the title), by id; sessions with a title of their own get none. Seconds only where two of them started in the same minute.
 */
export function startTimesForSameTitles(sessions: readonly SessionMeta[]): Map<string, string> {
  const byTitle = new Map<string, SessionMeta[]>();
  for (const meta of sessions) {
    const title = sessionTitle(meta);
    const list = byTitle.get(title);
    if (list) list.push(meta);
    else byTitle.set(title, [meta]);
  }
  const times = new Map<string, string>();
  for (const list of byTitle.values()) {
    if (list.length < 2) continue;
    const minutes = list.map((meta) => startTime(meta, false));
    const clash = new Set(minutes.filter((minute, index) => minutes.indexOf(minute) !== index));
    list.forEach((meta, index) => times.set(meta.id, clash.has(minutes[index]) ? startTime(meta, true) : minutes[index]));
  }
  return times;
}

/** A thought in the tree, with the branches that fork from it. */
export interface ThoughtEntry {
  thought: ThoughtRecord;
  branches: BranchEntry[];
}

export interface BranchEntry {
  branchId: string;
  /** The thought number the branch forks from, as the agent sent it. */
  fromThought: number | undefined;
  entries: ThoughtEntry[];
}

/**
 * Lays a session's thoughts out as a tree: thoughts without a branch at the top level in arrival order; each branch
 * nested under its fork point (the latest thought with the fork's number that came before the branch's first thought,
 * which may itself be inside another branch); a branch whose fork point cannot be found is shown at the top level.
 */
export function layoutThoughts(thoughts: readonly ThoughtRecord[]): ThoughtEntry[] {
  const roots: ThoughtEntry[] = [];
  const branches = new Map<string, BranchEntry>();
  const placed: ThoughtEntry[] = [];
  const orphanBranches: BranchEntry[] = [];
  for (const thought of thoughts) {
    const entry: ThoughtEntry = { thought, branches: [] };
    if (thought.branchId === undefined) {
      roots.push(entry);
    } else {
      let branch = branches.get(thought.branchId);
      if (!branch) {
        branch = { branchId: thought.branchId, fromThought: thought.branchFromThought, entries: [] };
        branches.set(thought.branchId, branch);
        const forkPoint = findForkPoint(placed, thought.branchFromThought);
        if (forkPoint) forkPoint.branches.push(branch);
        else orphanBranches.push(branch);
      }
      branch.entries.push(entry);
    }
    placed.push(entry);
  }
  // Orphans are rare (a fork point deleted by an import edit); keep them visible rather than dropping thoughts.
  for (const branch of orphanBranches) appendAll(roots, branch.entries);
  return roots;
}

function findForkPoint(placed: readonly ThoughtEntry[], thoughtNumber: number | undefined): ThoughtEntry | undefined {
  if (thoughtNumber === undefined) return undefined;
  for (let index = placed.length - 1; index >= 0; index--) {
    if (placed[index].thought.thoughtNumber === thoughtNumber) return placed[index];
  }
  return undefined;
}

export function thoughtLabel(thought: ThoughtRecord): string {
  return `${thought.thoughtNumber}. ${flatten(thought.thought, 70)}`;
}

export function thoughtDescription(thought: ThoughtRecord): string {
  const parts: string[] = [];
  if (thought.stage) parts.push(thought.stage);
  if (thought.isRevision) parts.push(thought.revisesThought !== undefined ? `revises #${thought.revisesThought}` : 'revision');
  if (!thought.nextThoughtNeeded) parts.push('final');
  return parts.join(' · ');
}

/** Flattens whitespace and shortens to `length` characters (by code point, so no broken surrogate pairs). */
export function flatten(text: string, length: number): string {
  // Hidden controls (bidi and the like) written out first: a label must show what the text is.
  return shortenedLine(visibleText(text), length);
}

/**
 * Escapes untrusted text for a Markdown tooltip: every ASCII punctuation character is backslash-escaped (CommonMark
 * allows that for all of them), so no text can form a link, an image, HTML, a code span or a `$(icon)`.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, (character) => `\\${character}`);
}

const STATUS_WORDS: Record<SessionStatus, string> = { live: 'Live', complete: 'Complete', abandoned: 'Abandoned' };

/** The session tooltip as Markdown; every piece of agent-written text is escaped. */
export function sessionTooltipMarkdown(meta: SessionMeta, now: number, idleMs = IDLE_AS_ABANDONED_MS): string {
  if (meta.unreadable !== undefined) {
    return [
      `**${escapeMarkdown(sessionTitle(meta))}**`,
      '',
      `Unreadable: ${escapeMarkdown(flatten(meta.unreadable, 500))}`,
      '',
      `\`${meta.id}\``,
    ].join('\n');
  }
  const status = displayedStatus(meta, now, idleMs);
  const idleNote = status !== meta.status ? ' (no thought for 30 minutes)' : '';
  const lines = [
    `**${escapeMarkdown(sessionTitle(meta))}**`,
    '',
    `${STATUS_WORDS[status]}${idleNote} · ${escapeMarkdown(meta.strategy)}${meta.stage ? ` · stage ${escapeMarkdown(meta.stage)}` : ''}`,
    '',
    `Thought ${meta.lastThoughtNumber} of ${meta.totalThoughts} · ${escapeMarkdown(sessionDescription(meta))}`,
  ];
  if (meta.branchIds.length > 0) lines.push('', `Branches: ${meta.branchIds.map(escapeMarkdown).join(', ')}`);
  if (meta.purpose && meta.title) lines.push('', escapeMarkdown(flatten(meta.purpose, 300)));
  if (meta.conversationId !== undefined) lines.push('', `From chat ${escapeMarkdown(meta.conversationId)}`);
  lines.push(
    '',
    `Started ${new Date(meta.createdAt).toLocaleString()} · updated ${new Date(meta.updatedAt).toLocaleString()}`,
    '',
    `\`${meta.id}\``,
  );
  return lines.join('\n');
}

export function thoughtTooltipMarkdown(thought: ThoughtRecord): string {
  const badges = [thoughtDescription(thought)];
  if (thought.branchId !== undefined) badges.push(`branch ${thought.branchId} from #${thought.branchFromThought ?? '?'}`);
  const shown = badges.filter((badge) => badge !== '');
  return [
    `**Thought ${thought.thoughtNumber} of ${thought.totalThoughts}**${shown.length > 0 ? ` · ${escapeMarkdown(shown.join(' · '))}` : ''}`,
    '',
    escapeMarkdown(flatten(thought.thought, 1500)),
  ].join('\n');
}

const FEEDBACK_WORDS = { note: 'Note', reject: 'Reject', branch: 'Explore an alternative', conclude: 'Conclude now' } as const;

/** The tooltip's Feedback lines (empty when nobody gave any): what was asked and where it stands, escaped. */
export function feedbackTooltipMarkdown(snapshot: SessionSnapshot): string {
  const feedback = snapshot.feedback ?? [];
  if (feedback.length === 0) return '';
  const lines = feedback.map((record) => {
    const about = record.thoughtNumber === undefined ? '' : ` #${record.thoughtNumber}`;
    const status = feedbackStatusText(record, snapshot.thoughts, snapshot.meta.status);
    return `- ${FEEDBACK_WORDS[record.kind]}${about}: ${escapeMarkdown(status)}`;
  });
  return ['**Your feedback**', '', ...lines].join('\n');
}
