// The per-session switch for asking the person at decision points, from the Sessions tree's context menu or the
// command palette: turns it on or off for one session (kept in the session's meta, so the stdio CLI on the same store
// follows it too).
import * as vscode from 'vscode';
import { SETTINGS_SECTION } from './settings';
import { askAtDecisionPoints } from './decisionPointSettings';
import { resolveSessionArgument } from './sessionPicker';
import type { ExtensionServices } from './services';
import { sessionTitle } from './sessionTreeModel';

export const TOGGLE_ASK_AT_DECISION_POINTS = 'thoughtExplorer.toggleAskAtDecisionPoints';

export function registerDecisionPointCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(TOGGLE_ASK_AT_DECISION_POINTS, async (argument: unknown) => {
      const id = await resolveSessionArgument(services, argument, vscode.l10n.t('Ask at decision points in which session?'));
      if (id === undefined) return undefined;
      const meta = services.engine.getSession(id)?.meta;
      if (!meta) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: session {0} no longer exists.', id));
        return undefined;
      }
      const current = meta.askAtDecisionPoints ?? askAtDecisionPoints(vscode.workspace.getConfiguration(SETTINGS_SECTION));
      const next = services.engine.setAskAtDecisionPoints(id, !current);
      const on = next?.askAtDecisionPoints === true;
      void vscode.window.showInformationMessage(
        on
          ? vscode.l10n.t('You will be asked at decision points of “{0}” (in MCP clients that support elicitation).', sessionTitle(meta))
          : vscode.l10n.t('You will not be asked at decision points of “{0}”.', sessionTitle(meta)),
      );
      return on;
    }),
  );
}
