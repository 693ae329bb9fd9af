// Resources: the documentation page and every session as JSON (`thinking://sessions/{id}`) and as Markdown with its
// three Mermaid diagrams (`thinking://sessions/{id}/markdown`). The template lists recent sessions and completes ids.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { ThinkingEngine } from '../engine/engine';
import { sessionTitle } from '../engine/browserSafe/sessionTitle';
import type { SessionSnapshot } from '../engine/model';
import { sessionMarkdown } from '../export/markdown';
import { documentationMarkdown } from './documentation';
import { noSuchSession } from '../engine/fieldRules';

export const DOCUMENTATION_URI = 'thinking://documentation';
export const SESSION_URI_TEMPLATE = 'thinking://sessions/{id}';
export const SESSION_MARKDOWN_URI_TEMPLATE = 'thinking://sessions/{id}/markdown';

/** How many sessions resources/list shows per template (newest first); the tool pages through the rest. */
const LISTED_SESSIONS = 50;
const COMPLETIONS = 20;

export function sessionUri(id: string): string {
  return `thinking://sessions/${encodeURIComponent(id)}`;
}

/** `onListed`: told when the client lists sessions (it then hears of list changes). */
export function registerResources(server: McpServer, engine: ThinkingEngine, onListed: () => void = () => {}): void {
  server.registerResource(
    'documentation',
    DOCUMENTATION_URI,
    {
      title: 'How to use Thought Explorer',
      description: 'The tools, sessions, strategies and resources of this server.',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: documentationMarkdown() }] }),
  );

  const completeId = (value: string) => completeSessionIds(engine, value);

  server.registerResource(
    'session',
    new ResourceTemplate(SESSION_URI_TEMPLATE, {
      list: () => {
        onListed();
        return { resources: listedSessions(engine, '', 'application/json') };
      },
      complete: { id: completeId },
    }),
    {
      title: 'Thinking session (JSON)',
      description: 'A saved thinking session: meta, strategy switches and every thought.',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const snapshot = requireSession(engine, variables.id);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(snapshot) }] };
    },
  );

  server.registerResource(
    'session-markdown',
    new ResourceTemplate(SESSION_MARKDOWN_URI_TEMPLATE, {
      list: () => {
        onListed();
        return { resources: listedSessions(engine, '/markdown', 'text/markdown') };
      },
      complete: { id: completeId },
    }),
    {
      title: 'Thinking session (Markdown)',
      description: 'A saved thinking session as Markdown: summary, stage graph, branch tree and revision chain (Mermaid), every thought.',
      mimeType: 'text/markdown',
    },
    (uri, variables) => {
      const snapshot = requireSession(engine, variables.id);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: sessionMarkdown(snapshot) }] };
    },
  );
}

function listedSessions(engine: ThinkingEngine, suffix: string, mimeType: string) {
  return engine.listSessions({ limit: LISTED_SESSIONS }).sessions.map((meta) => ({
    uri: `${sessionUri(meta.id)}${suffix}`,
    name: meta.id,
    title: sessionTitle(meta),
    description:
      meta.unreadable !== undefined ? `unreadable: ${meta.unreadable}` : `${meta.strategy}, ${meta.thoughtCount} thoughts, ${meta.status}`,
    mimeType,
  }));
}

/** Ids starting with what was typed come first, then ids whose title or purpose contains it. */
function completeSessionIds(engine: ThinkingEngine, value: string): string[] {
  const matches = engine.listSessions({ text: value === '' ? undefined : value, limit: COMPLETIONS * 2 }).sessions.map((meta) => meta.id);
  const prefixed = matches.filter((id) => id.startsWith(value));
  const others = matches.filter((id) => !id.startsWith(value));
  return [...prefixed, ...others].slice(0, COMPLETIONS);
}

function requireSession(engine: ThinkingEngine, variable: string | string[] | undefined): SessionSnapshot {
  const id = decodeURIComponent(Array.isArray(variable) ? (variable[0] ?? '') : (variable ?? ''));
  const snapshot = id === '' ? undefined : engine.getSession(id);
  // Thrown errors become JSON-RPC errors with this message, which is what resources/read has for "not found".
  if (!snapshot) throw new Error(`Invalid URI: ${noSuchSession(id)}. List sessions with resources/list or the thinking_sessions tool.`);
  return snapshot;
}
