// The `thoughtExplorer.replyDetail` setting as the in-host MCP server's reply detail: read on every reply, so a changed
// setting applies to connections already open. Plain Node (no `vscode`), unit-tested.
import { isReplyDetail, type ReplyDetail } from '../engine/fieldRules';
import { DEFAULT_REPLY_DETAIL } from '../engine/replyDetail';
import type { SettingsSource } from './settings';

/** The configured level; anything VS Code let through that is not a level counts as the default. */
export function replyDetailSetting(source: SettingsSource): ReplyDetail {
  const value = source.get<unknown>('replyDetail');
  return isReplyDetail(value) ? value : DEFAULT_REPLY_DETAIL;
}

/** `configuration()` returns the configuration scoped to `thoughtExplorer` (VS Code's, or a test's). */
export function replyDetailOption(configuration: () => SettingsSource): () => ReplyDetail {
  return () => replyDetailSetting(configuration());
}
