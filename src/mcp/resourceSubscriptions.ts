// Resource subscriptions for sessions: `resources/subscribe` to `thinking://sessions/{id}` (or its `/markdown`) sends
// `notifications/resources/updated` whenever the engine announces a change to that session — from this process or,
// through refreshSession, from another process on the same store — and `notifications/resources/list_changed` when
// sessions appear, end, change their listing or go, to a client that has listed resources or subscribed (one that
// never looked at resources gets no unasked-for lines). Updates are coalesced per event-loop turn, so a burst (a
// re-read that adds many thoughts) is one notification per resource. list_changed waits for LIST_CHANGED_QUIET_MS
// without another change (a session's start and end are one notification, not a re-list each), and nothing is sent
// once the connection began closing: a client that re-lists on list_changed while it shuts down reports the
// half-closed connection as an error (Gemini CLI: "Error discovering resources … Connection closed").
import type { McpServer } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ThinkingEngine } from '../engine/engine';
import type { EngineEvent } from '../engine/events';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { describeValue, noSuchSession } from '../engine/fieldRules';

const SESSION_RESOURCE = /^thinking:\/\/sessions\/([^/?#]+)(\/markdown)?$/;

/** The session id a subscribable resource URI names, or undefined for any other URI. */
export function sessionIdOfResourceUri(uri: string): string | undefined {
  const match = SESSION_RESOURCE.exec(uri);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** How long the session list must stay unchanged before list_changed goes out. */
export const LIST_CHANGED_QUIET_MS = 500;

export interface ResourceSubscriptions {
  /** Call when the client lists session resources: from then on it hears when that list changes. */
  listed(): void;
  /** The connection began closing (its input ended, a DELETE came): nothing more is sent on it. */
  closing(): void;
  /** Stops listening to the engine. */
  dispose(): void;
}

/** Declares and serves subscriptions on `server`. */
export function registerResourceSubscriptions(server: McpServer, engine: ThinkingEngine): ResourceSubscriptions {
  // Session id → the URIs this client subscribed to for it (JSON and/or Markdown).
  const subscribed = new Map<string, Set<string>>();
  const pendingSessions = new Set<string>();
  let wantsListChanges = false;
  let closing = false;
  let flushing: NodeJS.Immediate | undefined;
  let listChangedTimer: NodeJS.Timeout | undefined;

  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });

  server.server.setRequestHandler('resources/subscribe', (request) => {
    const { uri } = request.params;
    const id = sessionIdOfResourceUri(uri);
    if (id === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot subscribe to "${uri}": only sessions can be subscribed, as thinking://sessions/{id} or thinking://sessions/{id}/markdown.`,
      );
    }
    let meta;
    try {
      // Held in memory, so that another process's changes to it are announced too.
      meta = engine.holdSession(id);
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot subscribe to "${uri}": ${errorMessage(error)}`);
    }
    if (!meta)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot subscribe to ${describeValue(uri)}: ${noSuchSession(id)}. List sessions with resources/list.`,
      );
    let uris = subscribed.get(id);
    if (!uris) subscribed.set(id, (uris = new Set()));
    uris.add(uri);
    wantsListChanges = true;
    return {};
  });

  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    const id = sessionIdOfResourceUri(request.params.uri);
    const uris = id === undefined ? undefined : subscribed.get(id);
    uris?.delete(request.params.uri);
    if (id !== undefined && uris?.size === 0) subscribed.delete(id);
    return {};
  });

  const flush = () => {
    flushing = undefined;
    if (closing || !server.isConnected()) return;
    for (const id of pendingSessions) {
      for (const uri of subscribed.get(id) ?? []) server.server.sendResourceUpdated({ uri }).catch(() => {});
    }
    pendingSessions.clear();
  };
  const sendListChanged = () => {
    listChangedTimer = undefined;
    if (closing || !server.isConnected()) return;
    server.sendResourceListChanged();
  };

  const onEvent = (event: EngineEvent) => {
    if (closing) return;
    const id = event.type === 'sessionDeleted' ? event.sessionId : event.meta.id;
    if (event.type !== 'sessionStarted' && subscribed.has(id)) pendingSessions.add(id);
    // A new thought changes only the session; these change what resources/list shows.
    if (wantsListChanges && event.type !== 'thoughtAdded' && event.type !== 'stageChanged') {
      if (listChangedTimer !== undefined) clearTimeout(listChangedTimer);
      listChangedTimer = setTimeout(sendListChanged, LIST_CHANGED_QUIET_MS);
      // A pending notification must not keep a process alive that has nothing else to do.
      listChangedTimer.unref();
    }
    if (flushing === undefined && pendingSessions.size > 0) flushing = setImmediate(flush);
  };
  const stopSending = () => {
    if (flushing !== undefined) clearImmediate(flushing);
    if (listChangedTimer !== undefined) clearTimeout(listChangedTimer);
    flushing = undefined;
    listChangedTimer = undefined;
  };
  const stopListening = engine.onEvent(onEvent);

  return {
    listed: () => {
      wantsListChanges = true;
    },
    closing: () => {
      closing = true;
      stopSending();
    },
    dispose: () => {
      stopListening();
      stopSending();
      subscribed.clear();
      pendingSessions.clear();
    },
  };
}
