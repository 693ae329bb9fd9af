// One copy of the engine in VS Code's extension host. The host bundle (dist/extension.js) and the lazily loaded MCP
// server bundle (dist/mcpServer.js) both need the engine, the store, the diagrams, zod …; bundled twice, each had its
// own classes and module state, and a value made by one copy failed the other's `instanceof` (a bad optional field
// sent through VS Code's MCP client was recorded as an object, or named "[object Object]" in an error). Here every
// module that both bundles reach is built once into dist/core.js, and each bundle takes those modules from it through
// Node's require cache (one module instance per process), so there is nothing left to keep in step by hand.
import * as esbuild from 'esbuild';
import { relative, resolve } from 'node:path';

export const CORE_FILE = 'core.js';
const NAMESPACE = 'thought-explorer-core';

/** Absolute paths of every module (sources and packages) that each of the given builds bundles. */
export async function modulesInAll(builds) {
  const sets = [];
  for (const options of builds) {
    const { metafile } = await esbuild.build({
      ...options,
      plugins: [],
      write: false,
      metafile: true,
      sourcemap: false,
      minify: false,
      logLevel: 'silent',
    });
    sets.push(new Set(Object.keys(metafile.inputs).map((input) => resolve(input))));
  }
  const [first, ...rest] = sets;
  return new Set([...first].filter((path) => rest.every((set) => set.has(path))));
}

const keyOf = (path) => relative(process.cwd(), path).split('\\').join('/');

/**
 * The core bundle's entry: every shared module's namespace under its path. Each is exposed as an object of getters
 * marked `__esModule`, so the importing bundle's interop keeps live bindings and a module's own `default` export.
 */
export function coreEntryPlugin(shared) {
  return {
    name: 'shared-core-entry',
    setup(build) {
      build.onResolve({ filter: /^thought-explorer-core-entry$/ }, () => ({ path: 'entry', namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => {
        const paths = [...shared].sort();
        const imports = paths.map((path, index) => `import * as m${index} from ${JSON.stringify(path)};`);
        const entries = paths.map((path, index) => `  ${JSON.stringify(keyOf(path))}: commonJs(m${index}),`);
        return {
          contents: [
            ...imports,
            'function commonJs(namespace) {',
            '  const exports = { __esModule: true };',
            '  for (const key of Object.keys(namespace)) Object.defineProperty(exports, key, { enumerable: true, get: () => namespace[key] });',
            '  return exports;',
            '}',
            `export const modules = {\n${entries.join('\n')}\n};`,
          ].join('\n'),
          resolveDir: process.cwd(),
          loader: 'js',
        };
      });
    },
  };
}

/** For a bundle beside dist/core.js: an import of a shared module becomes a read from the core's one instance. */
export function useCorePlugin(shared) {
  return {
    name: 'use-shared-core',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.sharedCoreProbe || args.namespace === NAMESPACE) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { sharedCoreProbe: true },
        });
        if (resolved.errors.length > 0 || !shared.has(resolved.path)) return undefined;
        return { path: keyOf(resolved.path), namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = require('./${CORE_FILE}').modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
      // The require above stays a require: dist/core.js is loaded at run time, once for both bundles.
      build.onResolve({ filter: new RegExp(`^\\./${CORE_FILE.replace('.', '\\.')}$`), namespace: NAMESPACE }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}
