// The webview's end of the host → webview protocol: parses each posted message with the shared schema and hands it to
// the one method of the app that deals with it. The exhaustive switch makes a new message type a compile error here.
import type { DiagramKind } from '../../src/engine/browserSafe/diagramKinds';
import type { SessionMeta, ThoughtRecord } from '../../src/engine/model';
import type { LiveDeliberationState } from '../../src/shared/deliberationProtocol';
import {
  assertNever,
  parseHostMessage,
  type ExplorerMode,
  type HostMessage,
  type SessionView,
  type StrategyView,
  type ThemeKind,
} from '../../src/shared/protocol';
import type { FeedbackHostMessage } from '../../src/shared/feedbackProtocol';
import type { FeedbackRecord } from '../../src/engine/model';
import type { InsightsMessage } from '../../src/shared/insightsView';

/** What the explorer does for each host message. */
export interface HostMessageHandler {
  /** `mode` is kept in the webview's saved state, so a panel revived after a reload reconnects the same way. */
  showSnapshot(session: SessionView | null, isReplay: boolean, mode?: ExplorerMode): void;
  addThought(sessionId: string, meta: SessionMeta, thought: ThoughtRecord): void;
  updateSession(meta: SessionMeta, strategy: StrategyView | undefined): void;
  themeReported(kind: ThemeKind): void;
  applyReplayState(state: { playing?: boolean; position?: number; speed?: number }): void;
  answerSvgRequest(requestId: string, session: SessionView | undefined): Promise<void>;
  showDeliberation(state: LiveDeliberationState): void;
  showInView(tab: DiagramKind | undefined, seq: number | undefined): void;
  showFeedback(sessionId: string, feedback: FeedbackRecord[]): void;
  showFeedbackResult(message: Extract<FeedbackHostMessage, { type: 'feedbackResult' }>): void;
  showInsights(message: InsightsMessage): void;
  /** Another live session to offer (null: withdraw the offer). */
  offerSession(session: { id: string; title: string } | null): void;
}

export function dispatchHostMessage(message: HostMessage, handler: HostMessageHandler): void {
  switch (message.type) {
    case 'snapshot':
      return handler.showSnapshot(message.session, message.mode === 'replay', message.mode);
    case 'thoughtAdded':
      return handler.addThought(message.sessionId, message.meta, message.thought);
    case 'sessionUpdated':
      return handler.updateSession(message.meta, message.strategy);
    case 'theme':
      return handler.themeReported(message.kind);
    case 'replayState':
      return handler.applyReplayState(message);
    case 'requestSvg':
      void handler.answerSvgRequest(message.requestId, message.session);
      return;
    case 'deliberationState':
      return handler.showDeliberation(message.state);
    case 'showInView':
      return handler.showInView(message.tab, message.seq);
    case 'feedbackChanged':
      return handler.showFeedback(message.sessionId, message.feedback);
    case 'feedbackResult':
      return handler.showFeedbackResult(message);
    case 'insights':
      return handler.showInsights(message);
    case 'liveSessionOffer':
      return handler.offerSession(message.session);
    default:
      assertNever(message, 'host message');
  }
}

/** Listens for the host's messages on `target` (the webview's window); returns a function that stops listening. */
export function listenToHost(target: Window, handler: HostMessageHandler): () => void {
  let handled = 0;
  const listener = (event: MessageEvent<unknown>): void => {
    // Only the host posts into a webview; anything that is not a protocol message is ignored.
    const parsed = parseHostMessage(event.data);
    if (parsed.ok) dispatchHostMessage(parsed.message, handler);
    // How many messages were handled or ignored so far: a test that expects nothing to change waits on this, not a sleep.
    target.document.body.dataset.hostMessages = String(++handled);
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}
