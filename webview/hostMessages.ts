// The webview's end of the host → webview protocol: checks each posted message with the shared guard and hands it to
// the one method of the app that deals with it. The exhaustive switch makes a new message type a compile error here.
import type { SessionMeta, ThoughtRecord } from '../src/engine/model';
import type { LiveDeliberationState } from '../src/shared/deliberationProtocol';
import type { InsightsMessage } from '../src/shared/insightsView';
import { assertNever, isHostMessage, type HostMessage, type SessionView, type StrategyView, type ThemeKind } from '../src/shared/protocol';

/** What the explorer does for each host message. */
export interface HostMessageHandler {
  showSnapshot(session: SessionView | null, isReplay: boolean): void;
  addThought(sessionId: string, meta: SessionMeta, thought: ThoughtRecord): void;
  updateSession(meta: SessionMeta, strategy: StrategyView | undefined): void;
  themeReported(kind: ThemeKind): void;
  applyReplayState(state: { playing?: boolean; position?: number; speed?: number }): void;
  answerSvgRequest(requestId: string, session: SessionView | undefined): Promise<void>;
  showDeliberation(state: LiveDeliberationState): void;
  showInsights(message: InsightsMessage): void;
}

export function dispatchHostMessage(message: HostMessage, handler: HostMessageHandler): void {
  switch (message.type) {
    case 'snapshot':
      return handler.showSnapshot(message.session, message.mode === 'replay');
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
    case 'insights':
      return handler.showInsights(message);
    default:
      assertNever(message, 'host message');
  }
}

/** Listens for the host's messages on `target` (the webview's window); returns a function that stops listening. */
export function listenToHost(target: Window, handler: HostMessageHandler): () => void {
  const listener = (event: MessageEvent<unknown>): void => {
    // Only the host posts into a webview; anything that is not a protocol message is ignored.
    if (isHostMessage(event.data)) dispatchHostMessage(event.data, handler);
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}
