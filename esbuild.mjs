// One build script, one esbuild context per runtime: the extension host (cjs, vscode external), the standalone
// CLI (node), the webview (browser ESM, Mermaid bundled in) and the in-editor test suite.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MCP_APP_HTML, buildMcpAppHtml } from './scripts/mcpAppHtml.mjs';
import { mermaidFastConfigCopyPlugin } from './scripts/mermaidFastConfigCopy.mjs';
import { mermaidFlowchartOnlyPlugin } from './scripts/mermaidFlowchartOnly.mjs';
import { MINIMUM_NODE_MAJOR } from './scripts/projectNode.mjs';
import { coreEntryPlugin, modulesInAll, useCorePlugin } from './scripts/sharedCore.mjs';

/** test/vscode/suite/index.ts first, then every *.test.ts next to it (empty when the suite does not exist yet). */
function inEditorSuiteEntries() {
  const dir = 'test/vscode/suite';
  if (!existsSync(`${dir}/index.ts`)) return [];
  const tests = readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
  return [`${dir}/index.ts`, ...tests.map((name) => `${dir}/${name}`)];
}

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints start/end lines in the shape VS Code's `$esbuild-watch` problem matcher expects. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
};

// The inline thought graph (MCP App) first: its one HTML document is embedded into the server bundles (the CLI ships as
// dist/cli.js alone) and written beside them for the tests. Built once per run, also in watch mode.
const mcpAppHtml = await buildMcpAppHtml();
mkdirSync(dirname(MCP_APP_HTML), { recursive: true });
writeFileSync(MCP_APP_HTML, mcpAppHtml);
// Gzipped and base64-encoded: a quarter of the size in the bundle's source, which V8 keeps in memory for the process.
const embedMcpApp = { define: { __THOUGHT_GRAPH_APP_HTML_GZ__: JSON.stringify(gzipSync(mcpAppHtml, { level: 9 }).toString('base64')) } };

/** In the CLI bundle, `openai` is the separately built dist/openai.js beside it (see src/deliberation/openAiBundle.ts). */
const openAiBesidePlugin = {
  name: 'openai-beside',
  setup(build) {
    build.onResolve({ filter: /^openai$/ }, () => ({ path: './openai.js', external: true }));
  },
};

// The extension host's two bundles: the host (activation) and the MCP HTTP server with the SDK, required only when VS
// Code starts the server, so activation never parses it (~0.6 MB). What both reach — the engine, the store, zod … —
// is built once into dist/core.js and shared at run time (scripts/sharedCore.mjs): one engine in the process.
const hostBundle = {
  ...common,
  entryPoints: ['src/extension/extension.ts'],
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['vscode'],
};
const serverBundle = {
  ...common,
  ...embedMcpApp,
  entryPoints: ['src/mcp/httpServer.ts'],
  outfile: 'dist/mcpServer.js',
  platform: 'node',
  format: 'cjs',
  target: 'node22',
};
const sharedModules = await modulesInAll([hostBundle, serverBundle]);
const usesCore = (options) => ({ ...options, plugins: [...options.plugins, useCorePlugin(sharedModules)] });

const contexts = [
  usesCore(hostBundle),
  usesCore(serverBundle),
  {
    ...common,
    entryPoints: ['thought-explorer-core-entry'],
    outfile: 'dist/core.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    plugins: [...common.plugins, coreEntryPlugin(sharedModules)],
  },
  {
    // The editor's OpenTelemetry code: live streaming (the OTLP exporters, HTTP and protobuf) and the OTLP file export,
    // required only when an endpoint is configured or a session is exported as a trace, so activation never parses it.
    ...common,
    entryPoints: ['src/telemetry/editorBundle.ts'],
    outfile: 'dist/telemetry.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  {
    // The OTLP export worker: encodes and sends live spans on a thread of its own (src/telemetry/exportWorker.ts),
    // started beside dist/cli-main.js and dist/telemetry.js when streaming is on.
    ...common,
    entryPoints: ['src/telemetry/exportWorker.ts'],
    outfile: 'dist/otlpWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  {
    // The OpenAI-compatible client, loaded by dist/cli.js only when a model endpoint is configured.
    ...common,
    entryPoints: ['src/deliberation/openAiBundle.ts'],
    outfile: 'dist/openai.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  {
    // The CLI itself, loaded by dist/cli.js once the compile cache is on (src/cli/launcher.ts).
    ...common,
    ...embedMcpApp,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli-main.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // import('openai') becomes a require of the bundle beside this one (dist/openai.js), read only when it runs.
    plugins: [...common.plugins, openAiBesidePlugin],
  },
  {
    // dist/cli.js, the command: the Node version check, Node's compile cache, then dist/cli-main.js.
    ...common,
    entryPoints: ['src/cli/launcher.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // Before anything else is evaluated: on an older Node, one line that says what is needed, not a stack trace.
    banner: {
      js: [
        '#!/usr/bin/env node',
        `if (Number(process.versions.node.split('.')[0]) < ${MINIMUM_NODE_MAJOR}) {`,
        `  process.stderr.write('thought-explorer-mcp needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is Node.js ' + process.version + '.\\n');`,
        '  process.exit(1);',
        '}',
      ].join('\n'),
    },
  },
  // The explorer draws flowcharts only (stage graph, branch tree, revision chain): the same flowchart-only Mermaid as the export renderer (7.7 MB -> 1.9 MB).
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/explorer.js',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    plugins: [...common.plugins, mermaidFlowchartOnlyPlugin, mermaidFastConfigCopyPlugin],
  },
  // Inlined into every exported HTML file (src/export/html.ts): always minified, no source map, flowcharts only.
  {
    ...common,
    entryPoints: ['webview/diagrams/exportRender.ts'],
    outfile: 'dist/webview/export-render.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    plugins: [...common.plugins, mermaidFlowchartOnlyPlugin, mermaidFastConfigCopyPlugin],
  },
  // The webview's styles and the codicon font, copied beside the bundle (the only folder the webview may load from).
  { ...common, entryPoints: ['media/explorer.css'], outfile: 'dist/webview/explorer.css' },
  {
    ...common,
    entryPoints: ['node_modules/@vscode/codicons/dist/codicon.css'],
    outfile: 'dist/webview/codicon.css',
    loader: { '.ttf': 'file' },
    assetNames: '[name]',
  },
  // The in-editor suite: index.ts plus each *.test.ts as its own entry, so index.js can load them one by one.
  {
    ...common,
    entryPoints: inEditorSuiteEntries(),
    outdir: 'out/test/vscode',
    outbase: 'test/vscode/suite',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode', 'mocha'],
  },
  // The extension-host halves of the real-VS-Code benchmarks (bench/vscodeRedraw.ts, bench/vscodeActivation.ts run them
  // as extensionTestsPath); kept out of the suite's folder so the normal in-editor run never loads them.
  {
    ...common,
    entryPoints: ['test/vscode/bench/redraw.bench.ts', 'test/vscode/bench/activation.bench.ts'],
    outdir: 'out/test/vscode-bench',
    outbase: 'test/vscode/bench',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
  },
  // Screenshot staging (scripts/screenshots.mjs runs it as extensionTestsPath): not part of any test run.
  {
    ...common,
    entryPoints: ['test/vscode/screens/hats.stage.ts', 'test/vscode/screens/mcpAppChat.stage.ts'],
    outdir: 'out/test/vscode-screens',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
  },
  // The test-only scripted language model extension, loaded into code-server by the in-editor test runner.
  {
    ...common,
    entryPoints: ['test/vscode/helper-extension/src/extension.ts'],
    outfile: 'test/vscode/helper-extension/dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
  },
].filter(
  (options) =>
    options.entryPoints.length > 0 && options.entryPoints.every((entry) => entry === 'thought-explorer-core-entry' || existsSync(entry)),
);

if (watch) {
  for (const options of contexts) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(contexts.map((options) => esbuild.build(options)));
}
