// The Get Started walkthrough's progress: the context keys its steps complete on (`onContext:` completion events).
// Each key is set when its thing happens however it happens (palette, tree menu, another process, a test driving the
// API) and remembered in globalState, and on activation every key already true is set again, so a walkthrough opened
// after the fact ticks what is done: the MCP server has started, the store holds sessions, an explorer was opened, a
// session replayed or exported, the configuration for other clients copied. (VS Code's own `onCommand:` events only
// see commands run from the workbench: a copy from a notification's button or another extension never ticked step 5.)
import { readdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import { sessionIdFromFileName } from '../storage/sessionIds';
import type { McpServerHost } from './mcpProvider';
import type { ExtensionServices } from './services';

export const WALKTHROUGH_ID = 'thoughtExplorer.gettingStarted';
export const MCP_SERVER_STARTED_CONTEXT = 'thoughtExplorer.mcpServerStarted';
export const HAS_SESSIONS_CONTEXT = 'thoughtExplorer.hasSessions';
export const EXPLORER_OPENED_CONTEXT = 'thoughtExplorer.explorerOpened';
export const SESSION_REPLAYED_CONTEXT = 'thoughtExplorer.sessionReplayed';
export const SESSION_EXPORTED_CONTEXT = 'thoughtExplorer.sessionExported';
export const MCP_CONFIGURATION_COPIED_CONTEXT = 'thoughtExplorer.mcpConfigurationCopied';

export type WalkthroughMilestone =
  | typeof MCP_SERVER_STARTED_CONTEXT
  | typeof HAS_SESSIONS_CONTEXT
  | typeof EXPLORER_OPENED_CONTEXT
  | typeof SESSION_REPLAYED_CONTEXT
  | typeof SESSION_EXPORTED_CONTEXT
  | typeof MCP_CONFIGURATION_COPIED_CONTEXT;

/** globalState key: the milestones reached in any window of this profile, so they stay ticked. */
export const WALKTHROUGH_STATE_KEY = 'thoughtExplorer.walkthroughMilestones';

export interface WalkthroughProgress {
  /** Marks a milestone reached: sets its context key (once per window) and remembers it. */
  reached(milestone: WalkthroughMilestone): void;
  /** Resolves when the activation-time check of existing state is done (tests wait on it). */
  readonly checked: Promise<void>;
}

export function registerWalkthroughProgress(
  context: Pick<vscode.ExtensionContext, 'subscriptions' | 'globalState'>,
  services: Pick<ExtensionServices, 'onEngineEvent' | 'onDidChangeStoreOnDisk' | 'onDidResetEngine' | 'storageDirectory'>,
  mcpHost: Pick<McpServerHost, 'onDidStart' | 'status'>,
): WalkthroughProgress {
  const set = new Set<WalkthroughMilestone>();
  const remembered = (): WalkthroughMilestone[] => context.globalState.get<WalkthroughMilestone[]>(WALKTHROUGH_STATE_KEY) ?? [];
  const reached = (milestone: WalkthroughMilestone): void => {
    if (set.has(milestone)) return;
    set.add(milestone);
    void vscode.commands.executeCommand('setContext', milestone, true);
    const known = remembered();
    if (!known.includes(milestone)) void context.globalState.update(WALKTHROUGH_STATE_KEY, [...known, milestone]);
  };
  /** Sessions written before this window (by the stdio CLI, an earlier window): a journal in the store's folder. */
  const checkStore = async (): Promise<void> => {
    if (set.has(HAS_SESSIONS_CONTEXT)) return;
    try {
      const names = await readdir(services.storageDirectory);
      if (names.some((name) => sessionIdFromFileName(name) !== undefined)) reached(HAS_SESSIONS_CONTEXT);
    } catch {
      // No store folder yet: nothing recorded.
    }
  };

  for (const milestone of remembered()) reached(milestone);
  if (mcpHost.status().running) reached(MCP_SERVER_STARTED_CONTEXT);
  context.subscriptions.push(
    mcpHost.onDidStart(() => reached(MCP_SERVER_STARTED_CONTEXT)),
    services.onEngineEvent((event) => {
      if (event.type === 'sessionStarted' || event.type === 'thoughtAdded') reached(HAS_SESSIONS_CONTEXT);
    }),
    services.onDidChangeStoreOnDisk(() => void checkStore()),
    // Another storage folder (the setting changed) may already hold sessions.
    services.onDidResetEngine(() => void checkStore()),
  );
  // Off the activation path: one directory listing, never opening the store.
  const checked = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(checkStore);
  return { reached, checked };
}
