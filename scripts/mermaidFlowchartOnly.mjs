// An esbuild plugin for the export renderer (webview/diagrams/exportRender.ts): every exported diagram is a flowchart, so the
// other diagram types Mermaid loads lazily — and what only they pull in (the Langium parsers, cytoscape, KaTeX,
// other layouts) — are replaced by a module that fails clearly. This keeps the Mermaid inlined into each exported
// HTML file to about a third of its full size.

const STUB = 'throw new Error("This diagram type is not included in exported files; only flowcharts are.");';
const KATEX_STUB = 'export default { renderToString() { throw new Error("Math is not rendered in exported files."); } };';

/** Lazily imported chunks of mermaid's own dist that a flowchart needs. */
const KEPT_CHUNKS = [/^\.\/chunks\/mermaid\.core\/flowDiagram-[\w]+\.mjs$/, /^\.\/dagre-[\w]+\.mjs$/, /^\.\/sizeCapture-[\w]+\.mjs$/];

export const mermaidFlowchartOnlyPlugin = {
  name: 'mermaid-flowchart-only',
  setup(build) {
    build.onResolve({ filter: /^katex$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: 'katex', namespace: 'mermaid-stub-katex' } : undefined,
    );
    build.onResolve({ filter: /\.mjs$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !/[\\/]node_modules[\\/]mermaid[\\/]dist[\\/]/.test(args.importer)) return undefined;
      if (KEPT_CHUNKS.some((kept) => kept.test(args.path))) return undefined;
      return { path: args.path, namespace: 'mermaid-stub' };
    });
    build.onLoad({ filter: /.*/, namespace: 'mermaid-stub' }, (args) => ({
      contents: STUB.replace('.");', ` (${args.path.replace(/[^\w./-]/g, '')}).");`),
      loader: 'js',
    }));
    build.onLoad({ filter: /.*/, namespace: 'mermaid-stub-katex' }, () => ({ contents: KATEX_STUB, loader: 'js' }));
  },
};
