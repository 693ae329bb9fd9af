// The Sessions tree (view `thoughtExplorer.sessions`): Live, Recent and Saved-by-day groups, each session's thoughts with
// branches nested under their fork points (a level over 200 thoughts in pages: thoughtPaging.ts). Follows engine events live (coalesced) and re-reads the store when files
// change on disk (sessions written by the stdio CLI).
import * as vscode from 'vscode';
import type { EngineEvent } from '../engine/events';
import { displayedStatus, IDLE_AS_ABANDONED_MS } from '../engine/browserSafe/sessionStatus';
import type { SessionMeta } from '../engine/model';
import type { ExtensionServices } from './services';
import {
  dayLabel,
  feedbackTooltipMarkdown,
  groupSessions,
  layoutThoughts,
  placementOf,
  RECENT_MS,
  sessionDescription,
  sessionTitle,
  startTimesForSameTitles,
  sessionTooltipMarkdown,
  thoughtDescription,
  thoughtLabel,
  thoughtTooltipMarkdown,
  type BranchEntry,
  type ThoughtEntry,
} from './sessionTreeModel';
import { thoughtPages, type ThoughtPage } from './thoughtPaging';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export const SESSIONS_VIEW_ID = 'thoughtExplorer.sessions';

export interface GroupNode {
  kind: 'group';
  group: 'live' | 'recent' | 'saved';
  count: number;
}
export interface DayNode {
  kind: 'day';
  day: string;
  sessions: SessionMeta[];
}
export interface SessionNode {
  kind: 'session';
  /** Commands run from the tree receive this node; `sessionId` is the field they read. */
  sessionId: string;
  meta: SessionMeta;
  placement: string;
  /** Start time shown when another listed session has the same title. */
  startTime?: string;
}
export interface BranchNode {
  kind: 'branch';
  sessionId: string;
  key: string;
  branch: BranchEntry;
}
export interface ThoughtNode {
  kind: 'thought';
  sessionId: string;
  key: string;
  entry: ThoughtEntry;
}
/** A page of a big level's thoughts ("Thoughts 1–200"): expanding a 10,000-thought session builds pages, not items. */
export interface PageNode {
  kind: 'page';
  sessionId: string;
  key: string;
  page: ThoughtPage;
  entries: readonly ThoughtEntry[];
  /** The newest page starts expanded: the latest thoughts are what a person opens a session for. */
  newest: boolean;
}
export type SessionsTreeNode = GroupNode | DayNode | SessionNode | BranchNode | ThoughtNode | PageNode;

export interface SessionsTreeOptions {
  now?: () => number;
  /** How long a finished session stays under Recent. */
  recentMs?: number;
  /** Engine events arriving within this window are drawn in one update. */
  coalesceMs?: number;
  /** Called once, when the tree is first drawn (the moment the store is first needed). */
  onFirstRender?: () => void;
}

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SessionsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly renderEmitter = new vscode.EventEmitter<number>();
  /** The root was (re)drawn; carries how many sessions are listed (after the filter). */
  readonly onDidRenderRoot = this.renderEmitter.event;

  private readonly now: () => number;
  private readonly recentMs: number;
  private readonly coalesceMs: number;
  private readonly disposables: vscode.Disposable[] = [];
  /** Node objects are kept per id: VS Code matches `fire(node)` by identity. */
  private readonly sessionNodes = new Map<string, SessionNode>();
  private readonly parents = new Map<SessionsTreeNode, SessionsTreeNode>();
  private readonly liveGroup: GroupNode = { kind: 'group', group: 'live', count: 0 };
  private readonly recentGroup: GroupNode = { kind: 'group', group: 'recent', count: 0 };
  private readonly savedGroup: GroupNode = { kind: 'group', group: 'saved', count: 0 };
  private dayNodes = new Map<string, DayNode>();
  private rootShown = false;
  private filterText: string | undefined;
  private pending = new Map<string, SessionMeta | undefined>();
  private fullRefreshPending = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly idleTimer: ReturnType<typeof setInterval>;
  private lastError: string | undefined;
  private onFirstRender: (() => void) | undefined;

  constructor(
    private readonly services: ExtensionServices,
    options: SessionsTreeOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.recentMs = options.recentMs ?? RECENT_MS;
    this.coalesceMs = options.coalesceMs ?? 50;
    this.onFirstRender = options.onFirstRender;
    this.disposables.push(
      services.onEngineEvent((event) => this.onEngineEvent(event)),
      services.onDidResetEngine(() => this.refresh()),
      services.onDidChangeStoreOnDisk(() => this.refresh()),
    );
    // A live session going quiet moves to Saved as abandoned; check once a minute, cheaply, from the nodes held.
    this.idleTimer = setInterval(() => this.checkIdle(), 60_000);
    this.idleTimer.unref?.();
  }

  /** The filter applied to session titles, purposes and ids (undefined when none). */
  get filter(): string | undefined {
    return this.filterText;
  }

  setFilter(text: string | undefined): void {
    const trimmed = text?.trim();
    this.filterText = trimmed === '' ? undefined : trimmed;
    this.refresh();
  }

  /** Re-reads everything from the engine/store. */
  refresh(): void {
    this.fullRefreshPending = true;
    this.schedule(0);
  }

  /** Problem met while listing sessions (shown as the view's message), if any. */
  get error(): string | undefined {
    return this.lastError;
  }

  getTreeItem(node: SessionsTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group':
        return this.groupItem(node);
      case 'day': {
        const item = new vscode.TreeItem(dayLabel(node.day, this.now()), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `day:${node.day}`;
        item.description = `${node.sessions.length}`;
        item.iconPath = new vscode.ThemeIcon('calendar');
        item.contextValue = 'day';
        return item;
      }
      case 'session':
        return this.sessionItem(node);
      case 'branch': {
        const count = countEntries(node.branch.entries);
        const item = new vscode.TreeItem(`⎇ ${node.branch.branchId}`, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.key;
        const from = node.branch.fromThought ?? '?';
        item.description =
          count === 1 ? vscode.l10n.t('from #{0} · 1 thought', from) : vscode.l10n.t('from #{0} · {1} thoughts', from, count);
        item.iconPath = new vscode.ThemeIcon('git-branch');
        item.contextValue = 'branch';
        return item;
      }
      case 'thought':
        return this.thoughtItem(node);
      case 'page': {
        const state = node.newest ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
        const item = new vscode.TreeItem(node.page.label, state);
        item.id = node.key;
        item.description = node.page.description;
        item.iconPath = new vscode.ThemeIcon('list-ordered');
        item.contextValue = 'thoughtPage';
        return item;
      }
    }
  }

  /** A session's tooltip gains its feedback when hovered: read then, not for every row drawn. */
  resolveTreeItem(item: vscode.TreeItem, node: SessionsTreeNode): vscode.TreeItem {
    if (node.kind !== 'session' || !(item.tooltip instanceof vscode.MarkdownString)) return item;
    let feedback = '';
    try {
      const snapshot = this.services.engine.getSession(node.sessionId);
      if (snapshot) feedback = feedbackTooltipMarkdown(snapshot);
    } catch {
      // Unreadable now: the tooltip keeps what the listing knows.
    }
    if (feedback !== '') item.tooltip.appendMarkdown(`\n\n${feedback}`);
    return item;
  }

  getChildren(node?: SessionsTreeNode): SessionsTreeNode[] {
    if (!node) return this.rootChildren();
    switch (node.kind) {
      case 'group':
        return node.group === 'live' ? this.liveSessions : node.group === 'recent' ? this.recentSessions : this.savedDays;
      case 'day':
        return this.withParent(
          node,
          node.sessions.map((meta) => this.sessionNode(meta, this.sessionNodes.get(meta.id)?.startTime)),
        );
      case 'session':
        return this.sessionChildren(node);
      case 'branch':
        return this.withParent(node, this.levelNodes(node.sessionId, node.branch.entries, `branch:${node.branch.branchId}`));
      case 'page':
        return this.withParent(node, this.entryNodes(node.sessionId, node.entries));
      case 'thought':
        return this.withParent(
          node,
          node.entry.branches.map((branch) => this.branchNode(node.sessionId, branch)),
        );
    }
  }

  getParent(node: SessionsTreeNode): SessionsTreeNode | undefined {
    return this.parents.get(node);
  }

  /** The node of a session currently in the tree (for reveal), if it is listed. */
  findSessionNode(sessionId: string): SessionNode | undefined {
    return this.sessionNodes.get(sessionId);
  }

  /**
   * The node to reveal for a session, read now, out of VS Code's turn. If changes wait for the coalesced refresh, the
   * nodes made by this read say nothing of what VS Code has drawn, so that refresh redraws from the root: a session
   * started meanwhile would otherwise get its node here and never be drawn.
   */
  nodeToReveal(sessionId: string): SessionNode | undefined {
    this.rootChildren();
    if (this.pending.size > 0) this.fullRefreshPending = true;
    return this.sessionNodes.get(sessionId);
  }

  /** The sessions drawn at a placement (`live`, `recent`, `saved:<day>`) in the last drawing of the root. */
  sessionsPlaced(placement: string): SessionNode[] {
    return [...this.sessionNodes.values()].filter((node) => node.placement === placement);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.idleTimer);
    for (const disposable of this.disposables) disposable.dispose();
    this.changeEmitter.dispose();
    this.renderEmitter.dispose();
  }

  private liveSessions: SessionsTreeNode[] = [];
  private recentSessions: SessionsTreeNode[] = [];
  private savedDays: SessionsTreeNode[] = [];

  private rootChildren(): SessionsTreeNode[] {
    this.rootShown = true;
    const first = this.onFirstRender;
    this.onFirstRender = undefined;
    first?.();
    this.parents.clear();
    let sessions: SessionMeta[];
    try {
      const query = this.filterText === undefined ? {} : { text: this.filterText };
      sessions = this.services.engine.listSessions(query).sessions;
      this.lastError = undefined;
    } catch (error) {
      this.lastError = vscode.l10n.t('Sessions could not be listed: {0}', errorMessage(error));
      this.services.log.error(this.lastError);
      this.renderEmitter.fire(0);
      return [];
    }
    const grouped = groupSessions(sessions, this.now(), IDLE_AS_ABANDONED_MS, this.recentMs);
    const startTimes = startTimesForSameTitles(sessions);
    const seen = new Set<string>();
    const nodesOf = (list: SessionMeta[], parent: GroupNode) =>
      list.map((meta) => {
        seen.add(meta.id);
        const node = this.sessionNode(meta, startTimes.get(meta.id));
        this.parents.set(node, parent);
        return node;
      });
    this.liveSessions = nodesOf(grouped.live, this.liveGroup);
    this.recentSessions = nodesOf(grouped.recent, this.recentGroup);
    const days = new Map<string, DayNode>();
    this.savedDays = grouped.savedByDay.map(({ day, sessions: list }) => {
      for (const meta of list) seen.add(meta.id);
      const dayNode = this.dayNodes.get(day) ?? { kind: 'day', day, sessions: list };
      dayNode.sessions = list;
      days.set(day, dayNode);
      this.parents.set(dayNode, this.savedGroup);
      for (const meta of list) this.parents.set(this.sessionNode(meta, startTimes.get(meta.id)), dayNode);
      return dayNode;
    });
    this.dayNodes = days;
    for (const id of [...this.sessionNodes.keys()]) if (!seen.has(id)) this.sessionNodes.delete(id);
    this.liveGroup.count = this.liveSessions.length;
    this.recentGroup.count = this.recentSessions.length;
    this.savedGroup.count = sessions.length - this.liveSessions.length - this.recentSessions.length;
    this.renderEmitter.fire(sessions.length);
    // No groups at all when there is nothing: the view's welcome content explains how to start.
    if (sessions.length === 0) return [];
    return [this.liveGroup, this.recentGroup, this.savedGroup].filter((group) => group === this.liveGroup || group.count > 0);
  }

  private sessionNode(meta: SessionMeta, startTime: string | undefined): SessionNode {
    const placement = placementOf(meta, this.now(), IDLE_AS_ABANDONED_MS, this.recentMs);
    const existing = this.sessionNodes.get(meta.id);
    if (existing) {
      existing.meta = meta;
      existing.placement = placement;
      existing.startTime = startTime;
      return existing;
    }
    const node: SessionNode = { kind: 'session', sessionId: meta.id, meta, placement, ...(startTime ? { startTime } : {}) };
    this.sessionNodes.set(meta.id, node);
    return node;
  }

  private sessionChildren(node: SessionNode): SessionsTreeNode[] {
    let snapshot;
    try {
      snapshot = this.services.engine.getSession(node.sessionId);
    } catch (error) {
      this.services.log.error(`Session ${node.sessionId} could not be read: ${errorMessage(error)}`);
      return [];
    }
    if (!snapshot) return [];
    return this.withParent(node, this.levelNodes(node.sessionId, layoutThoughts(snapshot.thoughts), 'main'));
  }

  /** A level's thoughts: listed directly, or as pages when there are more than a page holds (thoughtPaging.ts). */
  private levelNodes(sessionId: string, entries: readonly ThoughtEntry[], level: string): (ThoughtNode | PageNode)[] {
    const pages = thoughtPages(entries);
    if (!pages) return this.entryNodes(sessionId, entries);
    return pages.map((page, index) => ({
      kind: 'page',
      sessionId,
      key: `page:${sessionId}:${level}:${page.from}`,
      page,
      entries: entries.slice(page.from, page.to),
      newest: index === pages.length - 1,
    }));
  }

  private entryNodes(sessionId: string, entries: readonly ThoughtEntry[]): ThoughtNode[] {
    return entries.map((entry) => ({ kind: 'thought', sessionId, key: `thought:${sessionId}:${entry.thought.seq}`, entry }));
  }

  private branchNode(sessionId: string, branch: BranchEntry): BranchNode {
    return { kind: 'branch', sessionId, key: `branch:${sessionId}:${branch.branchId}`, branch };
  }

  private withParent<T extends SessionsTreeNode>(parent: SessionsTreeNode, children: T[]): T[] {
    for (const child of children) this.parents.set(child, parent);
    return children;
  }

  private groupItem(node: GroupNode): vscode.TreeItem {
    const live = node.group === 'live';
    const state = node.count === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded;
    const item = new vscode.TreeItem(groupLabel(node.group), state);
    item.id = `group:${node.group}`;
    item.description = live && node.count === 0 ? vscode.l10n.t('no session in progress') : `${node.count}`;
    if (node.group === 'recent') item.tooltip = vscode.l10n.t('Sessions finished in the last hour');
    item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.group]);
    item.contextValue = `group.${node.group}`;
    return item;
  }

  private sessionItem(node: SessionNode): vscode.TreeItem {
    const meta = node.meta;
    const status = displayedStatus(meta, this.now(), IDLE_AS_ABANDONED_MS);
    // The start time leads the label, not the description: a long title in a narrow sidebar hides the description.
    const title = sessionTitle(meta);
    // An unreadable session has no thoughts to show under it.
    const state = meta.unreadable !== undefined ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.startTime ? `${node.startTime} · ${title}` : title, state);
    item.id = `session:${meta.id}`;
    item.description = sessionDescription(meta);
    const tooltip = new vscode.MarkdownString(sessionTooltipMarkdown(meta, this.now(), IDLE_AS_ABANDONED_MS));
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.iconPath =
      meta.unreadable !== undefined
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
        : statusIcon(status);
    item.contextValue = `session.${status}`;
    return item;
  }

  private thoughtItem(node: ThoughtNode): vscode.TreeItem {
    const thought = node.entry.thought;
    const hasBranches = node.entry.branches.length > 0;
    const item = new vscode.TreeItem(
      thoughtLabel(thought),
      hasBranches ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = node.key;
    item.description = thoughtDescription(thought);
    const tooltip = new vscode.MarkdownString(thoughtTooltipMarkdown(thought));
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      thought.isRevision ? 'edit' : thought.branchId !== undefined ? 'git-commit' : thought.nextThoughtNeeded ? 'circle-small' : 'pass',
    );
    item.contextValue = 'thought';
    return item;
  }

  /** Whether changes are waiting for the coalescing timer (diagnostics and tests wait on it instead of sleeping). */
  get refreshPending(): boolean {
    return this.timer !== undefined;
  }

  private onEngineEvent(event: EngineEvent): void {
    if (event.type === 'sessionDeleted') {
      this.fullRefreshPending = true;
    } else {
      this.pending.set(event.meta.id, event.meta);
    }
    this.schedule(this.coalesceMs);
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    if (!this.rootShown) {
      // Nothing drawn yet: the first getChildren will read the current state anyway.
      this.fullRefreshPending = false;
      return;
    }
    let full = this.fullRefreshPending;
    this.fullRefreshPending = false;
    const changed: SessionNode[] = [];
    if (!full) {
      for (const [id, meta] of pending) {
        const node = this.sessionNodes.get(id);
        if (
          !node ||
          !meta ||
          node.placement !== placementOf(meta, this.now(), IDLE_AS_ABANDONED_MS, this.recentMs) ||
          this.filterText !== undefined
        ) {
          full = true;
          break;
        }
        node.meta = meta;
        changed.push(node);
      }
    }
    if (full) {
      this.changeEmitter.fire(undefined);
      return;
    }
    for (const node of changed) this.changeEmitter.fire(node);
  }

  private checkIdle(): void {
    const now = this.now();
    for (const node of this.sessionNodes.values()) {
      if (node.placement !== placementOf(node.meta, now, IDLE_AS_ABANDONED_MS, this.recentMs)) {
        this.refresh();
        return;
      }
    }
  }
}

/** A group's label, looked up when drawn (a literal per group, so the l10n bundle lists each). */
function groupLabel(group: GroupNode['group']): string {
  switch (group) {
    case 'live':
      return vscode.l10n.t('Live');
    case 'recent':
      return vscode.l10n.t('Recent');
    case 'saved':
      return vscode.l10n.t('Saved');
  }
}

const GROUP_ICONS: Record<GroupNode['group'], string> = { live: 'broadcast', recent: 'history', saved: 'archive' };

function countEntries(entries: readonly ThoughtEntry[]): number {
  let count = 0;
  for (const entry of entries) {
    count += 1;
    for (const branch of entry.branches) count += countEntries(branch.entries);
  }
  return count;
}

function statusIcon(status: SessionMeta['status']): vscode.ThemeIcon {
  switch (status) {
    case 'live':
      return new vscode.ThemeIcon('pulse', new vscode.ThemeColor('charts.green'));
    case 'complete':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('charts.blue'));
    case 'abandoned':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
  }
}

/** Creates the Sessions tree view and keeps its message, selection and filter state in step. */
export function registerSessionsTree(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  options: SessionsTreeOptions = {},
): { provider: SessionsTreeProvider; view: vscode.TreeView<SessionsTreeNode> } {
  const provider = new SessionsTreeProvider(services, options);
  const view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  let filtered = false;
  const updateMessage = (count: number | undefined) => {
    const filter = provider.filter;
    if (provider.error !== undefined) view.message = provider.error;
    else if (filter === undefined) view.message = undefined;
    // The filter text is the person's own; the view message is plain text.
    else if (count === 0) view.message = vscode.l10n.t('No session matches “{0}”.', filter);
    else if (count === undefined) view.message = vscode.l10n.t('Filtered by “{0}”', filter);
    else if (count === 1) view.message = vscode.l10n.t('Filtered by “{0}” (1 session)', filter);
    else view.message = vscode.l10n.t('Filtered by “{0}” ({1} sessions)', filter, count);
    if (filtered !== (filter !== undefined)) {
      filtered = filter !== undefined;
      void vscode.commands.executeCommand('setContext', 'thoughtExplorer.sessionsFiltered', filtered);
    }
  };
  // The session a person watched finishes: it moves from Live to Recent and stays selected there (when nothing else
  // was selected), so it does not vanish from sight.
  let liveBefore = new Set<string>();
  const keepFinishedInSight = () => {
    const finished = [...liveBefore].map((id) => provider.findSessionNode(id)).find((node) => node?.placement === 'recent');
    liveBefore = new Set(provider.sessionsPlaced('live').map((node) => node.sessionId));
    const selected = view.selection[0];
    if (!finished || (selected !== undefined && !(selected.kind === 'session' && selected.sessionId === finished.sessionId))) return;
    // After this drawing settles: reveal asks the provider for the node's parents.
    setTimeout(() => void Promise.resolve(view.reveal(finished, { select: true, focus: false })).catch(() => undefined), 0);
  };
  context.subscriptions.push(
    provider,
    view,
    provider.onDidRenderRoot((count) => {
      updateMessage(count);
      keepFinishedInSight();
    }),
    view.onDidChangeSelection((event) => {
      const node = event.selection[0];
      if (node && node.kind !== 'group' && node.kind !== 'day') services.selectSession(node.sessionId);
    }),
  );
  return { provider, view };
}
