// Lint: the recommended JavaScript and TypeScript rules, a few that catch real bugs, and the layering of the source
// tree, which nothing else checks. Imports point down the layers:
//
//   src/extension, src/cli      composition roots (only src/extension imports `vscode`)
//   src/mcp                     MCP tools, resources, prompts (may use deliberation, export, diagrams)
//   src/deliberation            plain Node: multi-role deliberation on top of the engine
//   src/recommendations         plain Node: tool recommendations and QA workflow rules on top of the engine
//   src/telemetry               plain Node: sessions as OpenTelemetry traces (OTLP file, live stream, trace context)
//   src/export                  presentation: session exports (engine, diagrams, shared, storage's file formats)
//   src/storage                 the store; implements the engine's SessionStore: may import the engine's model only
//   src/diagrams                pure Mermaid text: shared and the engine's model types only
//   webview/                    the explorer UI: webview/, src/shared, src/diagrams and the engine's model types only;
//                               its rooms (webview/diagrams, cards, …) enter each other through their index.ts
//   mcp-app/                    the inline thought graph (MCP App): mcp-app/, src/shared, src/diagrams, model types only
//   src/shared                  host↔webview protocol and pure helpers: the engine's model types only
//   src/engine                  the domain: imports nothing of ours but itself
//   test/                       imported by no shipped folder (src/, webview/, mcp-app/)
//
// "The engine's model" is src/engine/model.ts (the thought model and the SessionStore contract), fieldRules.ts (the
// bounds every value of the model keeps, and how a refused value is named), limits.ts (the limits a session keeps,
// which imports are held to as well) and sessionQuery.ts (what a listing query means). The pure model types stay in the engine, where the domain defines them, rather than moving to
// src/shared: the engine may import nothing of ours, and a copy would drift. The webview, the diagrams and the
// protocol may import them as types only (`import type`, erased at build time), so the webview bundle never
// contains engine code; storage may also import their values (InvalidSessionIdError, the bounds). The one exception
// is src/engine/browserSafe: the engine's pure rules (no Node, no other engine file), which every layer that shows a
// session may import as values, so a rule the webview needs is written once, in the engine.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

import { readdirSync } from 'node:fs';

/**
 * The layers: each folder and what it may import besides itself (and npm packages); `'engine model'` admits only the
 * engine's model files. Every other layer is refused, and a folder or file under src/ that is in no layer fails lint.
 */
/** The composition roots (the extension host, the CLI) may import every layer but each other. */
const COMPOSITION_ROOT_IMPORTS = [
  'src/engine',
  'src/shared',
  'src/diagrams',
  'src/storage',
  'src/export',
  'src/telemetry',
  'src/deliberation',
  'src/recommendations',
  'src/mcp',
];
const LAYER_IMPORTS = {
  'src/engine': [],
  'src/shared': ['engine model'],
  'src/diagrams': ['engine model', 'src/shared'],
  webview: ['engine model', 'src/shared', 'src/diagrams'],
  'mcp-app': ['engine model', 'src/shared', 'src/diagrams'],
  'src/storage': ['engine model'],
  'src/telemetry': ['src/engine', 'src/shared', 'src/diagrams', 'src/storage'],
  'src/export': ['src/engine', 'src/shared', 'src/diagrams', 'src/storage'],
  'src/deliberation': ['src/engine', 'src/shared', 'src/diagrams'],
  'src/recommendations': ['src/engine'],
  'src/mcp': ['src/engine', 'src/shared', 'src/diagrams', 'src/export', 'src/deliberation', 'src/recommendations'],
  'src/extension': COMPOSITION_ROOT_IMPORTS,
  'src/cli': COMPOSITION_ROOT_IMPORTS,
};
const LAYERS = Object.keys(LAYER_IMPORTS);
/** What under src/ is in no layer (a new folder, a stray file): each of its files gets a lint error naming the fix. */
const UNLAYERED = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => !LAYERS.includes(`src/${entry.name}`))
  .map((entry) => (entry.isDirectory() ? `src/${entry.name}/**` : `src/${entry.name}`));
const ENGINE_MODEL = ['./model.ts', './fieldRules.ts', './limits.ts', './sessionQuery.ts', './browserSafe'];

/**
 * What a layer may import besides itself (and npm packages); every other layer is refused. `'engine model'` admits
 * only the engine's model files.
 */
function layer(target, mayImport) {
  const own = [target];
  const engineModelOnly = mayImport.includes('engine model');
  const refused = LAYERS.filter(
    (other) => !own.includes(other) && !mayImport.includes(other) && !(engineModelOnly && other === 'src/engine'),
  );
  const name = own[0];
  const zones = [
    {
      target,
      from: refused,
      message: `${name} may import only ${describeAllowed(mayImport)} (see the layers in eslint.config.mjs).`,
    },
  ];
  if (engineModelOnly) {
    zones.push({
      target,
      from: 'src/engine',
      except: ENGINE_MODEL,
      message: `${name} may import only the engine's model from src/engine.`,
    });
  }
  return zones;
}

function describeAllowed(mayImport) {
  return mayImport.map((name) => (name === 'engine model' ? "the engine's model" : name)).join(', ') || 'itself';
}

/** What ships (the product's source, the explorer, the MCP App) never imports test code: tests import it, not back. */
const SHIPPED = ['src', 'webview', 'mcp-app'];
const NO_TEST_IMPORTS = {
  target: SHIPPED,
  from: 'test',
  message: 'Shipped code may not import test/: move what both need into the product, and let the test import it.',
};

/**
 * The explorer's rooms (each folder under webview/: diagrams, cards, header, …): a file outside a room enters it only
 * through the room's index.ts, so what a room offers the others is listed in one place and the rest stays its own.
 */
const WEBVIEW_ROOMS = readdirSync(new URL('./webview', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const ROOM_ENTRIES = WEBVIEW_ROOMS.map((room) => ({
  target: [`webview/!(${room})/**`, 'webview/*.ts'],
  from: `webview/${room}`,
  except: ['./index.ts'],
  message: `Import webview/${room}/ through its index.ts (export what you need there).`,
}));

const layerZones = [
  ...Object.entries(LAYER_IMPORTS).flatMap(([folder, mayImport]) => layer(folder, mayImport)),
  NO_TEST_IMPORTS,
  ...ROOM_ENTRIES,
];

/** The engine's pure rules, imported as values by every layer that shows a session (the browser's bundles too). */
const ENGINE_BROWSER_SAFE = 'src/engine/browserSafe';
/** The code bundled into a browser (the explorer, the MCP App and what they import as values), by folder. */
const BROWSER_SAFE = ['webview', 'mcp-app', 'src/diagrams', 'src/shared'];

/** `vscode` exists only inside VS Code's extension host. */
const NO_VSCODE = {
  name: 'vscode',
  message: 'Only src/extension imports vscode: the engine, store, MCP server and CLI run in plain Node.',
};
const NO_NODE_IN_BROWSER = {
  group: ['node:*'],
  message: 'The webview, the diagrams and the protocol run in a browser: no Node built-ins.',
};
/** Model types cross into the browser-side layers as types only, so no engine code is bundled into the webview. */
const ENGINE_MODEL_TYPES_ONLY = {
  group: ['**/engine/model', '**/engine/fieldRules', '**/engine/limits', '**/engine/sessionQuery'],
  allowTypeImports: true,
  message: 'Import the engine model as types only here (`import type`).',
};

const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'fetch',
    'AbortController',
    'TextEncoder',
    'TextDecoder',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'structuredClone',
    'performance',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', 'bench/results/', '.vscode-test/', '**/dist/', 'coverage/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      // `let [red, green, blue, alpha] = …` where only some are reassigned reads better as one line.
      'prefer-const': ['error', { destructuring: 'all' }],
      // Tests match indented text literally (`/^    - /`): counting spaces in `{4}` is not clearer.
      'no-regex-spaces': 'off',
      // An error rethrown with a better message keeps the original as its `cause`.
      'preserve-caught-error': 'error',
    },
  },
  {
    // A promise nobody awaits or catches loses its error (an unhandled rejection can end the stdio server). Typed, so
    // only where it pays: the product's code. Tests are left out: node:test's describe/it return promises by design.
    files: ['src/**/*.ts', 'webview/**/*.ts', 'mcp-app/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    // Control characters on purpose: the SVG sanitiser strips them, the code-server log reader strips ANSI colours.
    files: ['src/export/svgSanitize.ts', 'scripts/codeServer.mjs'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // Load the separately built MCP server and trace streaming bundles lazily by computed path: a real require.
    files: ['src/extension/mcpProvider.ts', 'src/extension/traceStreaming.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Everything outside the extension host: no vscode, not even as types.
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.mjs', 'esbuild.mjs'],
    ignores: ['src/extension/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [NO_VSCODE] }] },
  },
  {
    // The engine's browser-safe rules run in the webview and the MCP App too: no Node, nothing outside the folder.
    files: [`${ENGINE_BROWSER_SAFE}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [
            NO_NODE_IN_BROWSER,
            { group: ['../*'], message: 'src/engine/browserSafe imports only itself: it is bundled into the webview.' },
          ],
        },
      ],
    },
  },
  {
    files: BROWSER_SAFE.map((folder) => `${folder}/**/*.ts`),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [NO_VSCODE], patterns: [NO_NODE_IN_BROWSER, ENGINE_MODEL_TYPES_ONLY] },
      ],
    },
  },
  {
    // Tests of the extension run it against a stub of the vscode API and may name its types; only the in-editor suite
    // and its helper extension (test/vscode) run inside VS Code and import it for real.
    files: ['test/**/*.ts'],
    ignores: ['test/vscode/**', 'test/unit/support/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...NO_VSCODE, allowTypeImports: true }] }] },
  },
  {
    // Build and test scripts run in Node (TypeScript files get their globals from @types/node instead).
    files: ['**/*.mjs'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  ...(UNLAYERED.length === 0
    ? []
    : [
        {
          files: UNLAYERED,
          rules: {
            'no-restricted-syntax': [
              'error',
              { selector: 'Program', message: 'This file is in no layer: add its folder to LAYER_IMPORTS in eslint.config.mjs.' },
            ],
          },
        },
      ]),
);
