// Who owns "the current session" of a tool call. VS Code keeps one MCP connection per server and sends every chat's
// calls over it, naming the chat in `_meta["vscode.conversationId"]`; a call that names its conversation is owned by
// that conversation (its own current session, its own record of what it was told), one that names none by the
// connection, as before. Conversation ids come from outside: each is bounded (a digest when long), and a connection
// remembers a bounded number of them, least recently used first out.
import { createHash } from 'node:crypto';
import type { ThinkingEngine } from '../engine/engine';
import { MAX_CONVERSATION_ID_LENGTH } from '../engine/fieldRules';

/** Where VS Code's MCP client names the chat a tool call belongs to. */
export const CONVERSATION_META_KEY = 'vscode.conversationId';
/** Conversations one connection keeps a current session for; the least recently used is forgotten past this. */
export const MAX_CONVERSATIONS_PER_CONNECTION = 64;

/** The conversation a request's `_meta` names, bounded (a long id becomes its digest), or undefined. */
export function conversationIdOf(requestMeta: unknown): string | undefined {
  if (typeof requestMeta !== 'object' || requestMeta === null) return undefined;
  const value = (requestMeta as Record<string, unknown>)[CONVERSATION_META_KEY];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  // Printable, bounded text only: it is kept in the session's meta and shown in the Sessions tree.
  // eslint-disable-next-line no-control-regex
  const printable = /^[^\u0000-\u001f\u007f]+$/.test(value);
  if (printable && value.length <= MAX_CONVERSATION_ID_LENGTH) return value;
  return `sha256:${createHash('sha256').update(value).digest('hex')}`;
}

/** The engine owner a call acts as, and the conversation (if any) it names. */
export interface CallOwner {
  /** The key of the engine's per-owner state (current session, what it was told). */
  ownerId: string;
  conversationId?: string;
}

export interface ConversationOwners {
  /** The owner of a call with this request `_meta`: its conversation's, else the connection's. */
  ownerOf(requestMeta: unknown): CallOwner;
  /**
   * The owner whose current session a call without its own view of one should show: the call's conversation when it
   * names one, else the owner that called last on this connection (an MCP App's own calls name no conversation, and
   * the host's chats do).
   */
  viewerOf(requestMeta: unknown): string;
  /** Forgets the connection's and every remembered conversation's state in the engine. */
  closeAll(): void;
  /** Conversations remembered now (for tests and the bound). */
  readonly size: number;
}

/** One connection's owners: `connectionId` itself, and one per conversation its calls name. */
export function createConversationOwners(
  engine: ThinkingEngine,
  connectionId: string,
  limit = MAX_CONVERSATIONS_PER_CONNECTION,
): ConversationOwners {
  /** Conversation id → owner id; insertion order is recency (re-inserted on use). */
  const owners = new Map<string, string>();
  let lastOwner = connectionId;
  return {
    viewerOf(requestMeta) {
      const conversationId = conversationIdOf(requestMeta);
      const named = conversationId === undefined ? undefined : owners.get(conversationId);
      return named ?? (engine.currentSessionId(lastOwner) === undefined ? connectionId : lastOwner);
    },
    ownerOf(requestMeta) {
      const conversationId = conversationIdOf(requestMeta);
      if (conversationId === undefined) {
        lastOwner = connectionId;
        return { ownerId: connectionId };
      }
      let ownerId = owners.get(conversationId);
      if (ownerId === undefined) ownerId = `${connectionId}\u0000${conversationId}`;
      else owners.delete(conversationId);
      owners.set(conversationId, ownerId);
      lastOwner = ownerId;
      if (owners.size > limit) {
        const [oldest, oldestOwner] = owners.entries().next().value as [string, string];
        owners.delete(oldest);
        engine.closeConnection(oldestOwner);
        if (lastOwner === oldestOwner) lastOwner = connectionId;
      }
      return { ownerId, conversationId };
    },
    closeAll() {
      engine.closeConnection(connectionId);
      for (const ownerId of owners.values()) engine.closeConnection(ownerId);
      owners.clear();
    },
    get size() {
      return owners.size;
    },
  };
}
