// Turns a command's argument into a session id (tree node, status bar or palette), asking with a quick pick when the
// command was run without one; and the quick pick for "Search Sessions…", which also searches thought text.
import * as vscode from 'vscode';
import type { SessionMeta } from '../engine/model';
import type { ExtensionServices } from './services';
import { flatten, sessionDescription, sessionTitle } from './sessionTreeModel';
import { searchSessions } from '../engine/browserSafe/sessionSearch';
import { displayedStatus } from '../engine/browserSafe/sessionStatus';

/**
 * The session a command argument names: a session id string, or any object with a string `sessionId` (the Sessions
 * tree's nodes, other views' items). Undefined otherwise.
 */
export function sessionIdFromArgument(argument: unknown): string | undefined {
  if (typeof argument === 'string' && argument !== '') return argument;
  if (typeof argument === 'object' && argument !== null) {
    const id = (argument as { sessionId?: unknown }).sessionId;
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}

interface SessionPickItem extends vscode.QuickPickItem {
  sessionId: string;
}

const STATUS_ICONS = { live: '$(pulse)', complete: '$(pass)', abandoned: '$(circle-slash)' } as const;

export function sessionPickItem(meta: SessionMeta, now: number): SessionPickItem {
  return {
    // Titles are agent-written: flattened, and without `$(…)` so the label cannot smuggle in icons.
    label: `${STATUS_ICONS[displayedStatus(meta, now)]} ${sessionTitle(meta).replace(/\$\(/g, '$\u200b(')}`,
    description: sessionDescription(meta),
    detail: `${new Date(meta.updatedAt).toLocaleString()} · ${meta.id}`,
    sessionId: meta.id,
  };
}

/** The argument's session, or one the person picks (most recent first). Undefined when cancelled or none exists. */
export async function resolveSessionArgument(
  services: ExtensionServices,
  argument: unknown,
  placeHolder: string,
): Promise<string | undefined> {
  const fromArgument = sessionIdFromArgument(argument);
  if (fromArgument !== undefined) return fromArgument;
  const sessions = services.engine.listSessions({ limit: 500 }).sessions;
  if (sessions.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Thought Explorer has no sessions yet. Ask the agent to "think step by step with sequentialthinking".'),
    );
    return undefined;
  }
  const now = Date.now();
  const picked = await vscode.window.showQuickPick(
    sessions.map((meta) => sessionPickItem(meta, now)),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.sessionId;
}

export interface ThoughtMatch {
  sessionId: string;
  thoughtNumber: number;
  snippet: string;
}

/**
 * Finds `needle` (case-insensitive) in the thoughts of `sessions`, most recent sessions first, within a time budget so
 * typing stays responsive with thousands of sessions. One match (the first) per session.
 */
export function searchThoughtText(
  services: ExtensionServices,
  sessions: readonly SessionMeta[],
  needle: string,
  budgetMs = 150,
): { matches: ThoughtMatch[]; searched: number } {
  const deadline = performance.now() + budgetMs;
  const found = searchSessions(sessions, (meta) => services.engine.getSession(meta.id)?.thoughts, needle, {
    exhausted: () => performance.now() > deadline,
    hitsPerSession: 1,
  });
  // Titles and ids are matched by the quick pick itself: only matches in the thoughts are added.
  const matches = found.matches.flatMap(({ meta, hits }): ThoughtMatch[] =>
    hits.map(({ thought, at }) => {
      const start = Math.max(0, at - 40);
      return {
        sessionId: meta.id,
        thoughtNumber: thought.thoughtNumber,
        snippet: `${start > 0 ? '…' : ''}${flatten(thought.thought.slice(start, at + needle.length + 80), 140)}`,
      };
    }),
  );
  return { matches, searched: found.scannedSessions };
}

/** "Search Sessions…": titles, strategies and ids match as you type; from 3 characters on, thought text too. */
export function pickSessionBySearch(services: ExtensionServices): Promise<string | undefined> {
  const sessions = services.engine.listSessions({}).sessions;
  const now = Date.now();
  const base = sessions.map((meta) => sessionPickItem(meta, now));
  const byId = new Map(sessions.map((meta) => [meta.id, meta]));
  const quickPick = vscode.window.createQuickPick<SessionPickItem>();
  quickPick.title = vscode.l10n.t('Search Thought Explorer sessions');
  quickPick.placeholder = vscode.l10n.t('Type to filter by title, strategy or id; 3+ characters also search the thoughts');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  quickPick.items = base;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (id: string | undefined) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(id);
      quickPick.dispose();
    };
    quickPick.onDidChangeValue((value) => {
      if (timer) clearTimeout(timer);
      if (value.trim().length < 3) {
        quickPick.items = base;
        return;
      }
      timer = setTimeout(() => {
        quickPick.busy = true;
        const { matches, searched } = searchThoughtText(services, sessions, value.trim());
        const thoughtItems: SessionPickItem[] = [];
        for (const match of matches) {
          const meta = byId.get(match.sessionId);
          if (!meta) continue;
          thoughtItems.push({
            ...sessionPickItem(meta, now),
            detail: `#${match.thoughtNumber}: ${match.snippet.replace(/\$\(/g, '$\u200b(')}`,
            // Matches inside thought text would otherwise be filtered out by the quick pick's own label matching.
            alwaysShow: true,
          });
        }
        const matchedIds = new Set(thoughtItems.map((item) => item.sessionId));
        quickPick.items = [...thoughtItems, ...base.filter((item) => !matchedIds.has(item.sessionId))];
        quickPick.title =
          searched < sessions.length
            ? vscode.l10n.t('Searched the thoughts of the {0} most recent of {1} sessions', searched, sessions.length)
            : vscode.l10n.t('Search Thought Explorer sessions');
        quickPick.busy = false;
      }, 200);
    });
    quickPick.onDidAccept(() => finish(quickPick.selectedItems[0]?.sessionId));
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}
