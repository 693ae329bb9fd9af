// The branch tree in the chat column: src/diagrams' Mermaid text (labels escaped by mermaidLabel) drawn by the bundled
// flowchart-only Mermaid in strict security mode, coloured from the host's style variables.
import mermaid from 'mermaid';
import { branchTreeSource } from '../src/diagrams/branchTree';
import { FLOWCHART_LAYOUT } from '../src/diagrams/diagramLayout';
import type { SessionSnapshot } from '../src/engine/model';

/** The most recent thoughts drawn inline; the full explorer shows the rest. */
export const INLINE_THOUGHTS = 24;
const EXCERPT = 36;

let renderCount = 0;

/** Colours Mermaid's `base` theme needs, as computed colours (Mermaid cannot read `var(--…)`). */
export function configureDiagram(root: HTMLElement = document.documentElement): void {
  const colour = (variable: string, fallback: string): string => computedColour(root, `var(${variable}, ${fallback})`);
  const background = colour('--color-background-primary', 'Canvas');
  const text = colour('--color-text-primary', 'CanvasText');
  const border = colour('--color-border-primary', 'GrayText');
  const node = colour('--color-background-secondary', 'Canvas');
  const font = getComputedStyle(root).getPropertyValue('--font-sans').trim();
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    // Mermaid 12 lays flowcharts out with ELK by default; dagre keeps elkjs (1.6 MB) out of the bundle (see
    // scripts/mermaidFlowchartOnly.mjs) and the layout every figure in bench/ was measured with.
    layout: 'dagre',
    theme: 'base',
    themeVariables: {
      background,
      primaryColor: node,
      primaryTextColor: text,
      primaryBorderColor: border,
      lineColor: text,
      textColor: text,
      mainBkg: node,
      nodeBorder: border,
      edgeLabelBackground: background,
      // Compact for a chat column.
      fontSize: '12px',
      ...(font ? { fontFamily: font } : {}),
    },
    // Scaled to the column's width; HTML labels (sanitised in strict mode) decode mermaidLabel's entity codes.
    flowchart: { useMaxWidth: true, ...FLOWCHART_LAYOUT },
    logLevel: 'fatal',
  });
}

export interface DrawnDiagram {
  svg: string;
  shown: number;
  total: number;
}

export async function drawBranchTree(snapshot: SessionSnapshot): Promise<DrawnDiagram> {
  const source = branchTreeSource(snapshot, { maxThoughts: INLINE_THOUGHTS, excerptLength: EXCERPT, direction: 'TB' });
  const { svg } = await mermaid.render(`thought-graph-${++renderCount}`, source.text);
  return { svg, shown: source.shown, total: source.total };
}

/** Resolves a CSS colour expression (with variables) to rgb() through a probe element. */
function computedColour(root: HTMLElement, expression: string): string {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  probe.style.color = expression;
  root.appendChild(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}
