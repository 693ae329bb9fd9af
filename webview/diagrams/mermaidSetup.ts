// The one place that configures the bundled Mermaid: strict security, the `base` theme fed with VS Code colours,
// and limits raised so a 1,000-thought diagram is drawn instead of being replaced by Mermaid's "too large" notice.
import mermaid from 'mermaid';
import { MERMAID_BASE_CONFIG } from '../../src/diagrams/diagramLayout';
import type { ThemeKind } from '../../src/shared/protocol';
import { mermaidThemeVariables } from './theme';

/**
 * Mermaid refuses text longer than maxTextSize (default 50,000 characters) and flowcharts with more than maxEdges
 * edges (default 500). A full 1,000-thought branch tree is about 120,000 characters and 1,100 edges, so both are
 * raised well above it; only exports drawn by Mermaid (the CLI's HTML export) come near them.
 */
export const MAX_TEXT_SIZE = 2_000_000;
export const MAX_EDGES = 20_000;

/** (Re)initialises Mermaid for the theme in force; the app calls it once at start and on each theme change. */
export function configureMermaid(kind: ThemeKind): void {
  const themeVariables = mermaidThemeVariables(kind);
  mermaid.initialize({
    ...MERMAID_BASE_CONFIG,
    theme: 'base',
    themeVariables,
    maxTextSize: MAX_TEXT_SIZE,
    maxEdges: MAX_EDGES,
    gitGraph: { useMaxWidth: false },
    fontFamily: typeof themeVariables.fontFamily === 'string' ? themeVariables.fontFamily : undefined,
    logLevel: 'fatal',
  });
}

export async function renderMermaid(id: string, text: string, offscreen: Element): Promise<string> {
  const { svg } = await mermaid.render(id, text, offscreen);
  return svg;
}
