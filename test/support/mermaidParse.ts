// Parses Mermaid text with the real `mermaid` package in plain Node, so tests can prove a diagram source is accepted
// by Mermaid itself, not just by our expectations of it. Mermaid 11 is ESM and expects a browser: a jsdom window is
// installed as the global DOM before the first import. Shared by every diagram test (stage graph, branch tree,
// revision chain, webview).
import { JSDOM } from 'jsdom';

interface MermaidApi {
  initialize(config: Record<string, unknown>): void;
  parse(text: string, options?: { suppressErrors?: boolean }): Promise<unknown>;
}

let loading: Promise<MermaidApi> | undefined;

const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'Element',
  'HTMLElement',
  'SVGElement',
  'Node',
  'DOMParser',
  'XMLSerializer',
  'MutationObserver',
] as const;

function installDom(): void {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
  const globals = globalThis as unknown as Record<string, unknown>;
  const window = dom.window as unknown as Record<string, unknown>;
  for (const name of DOM_GLOBALS) {
    // Keep what Node already provides (navigator exists as a getter in Node 21+); only fill what is missing.
    if (globals[name] !== undefined) continue;
    Object.defineProperty(globals, name, { value: name === 'window' ? dom.window : window[name], configurable: true, writable: true });
  }
}

function loadMermaid(): Promise<MermaidApi> {
  loading ??= (async () => {
    installDom();
    const module = (await import('mermaid')) as unknown as { default: MermaidApi };
    const mermaid = module.default;
    // The same settings the webview renders with: strict security, nothing auto-started.
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    return mermaid;
  })();
  return loading;
}

/** Resolves when Mermaid accepts `text`; rejects with Mermaid's own parse error otherwise. */
export async function parseMermaid(text: string): Promise<void> {
  const mermaid = await loadMermaid();
  await mermaid.parse(text);
}
