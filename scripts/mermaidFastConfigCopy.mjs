// An esbuild plugin for every bundle that carries Mermaid (explorer, export renderer, MCP App): Mermaid's
// `getConfig()` copies its whole configuration (every diagram's defaults and ~300 theme variables) with
// `assignWithDepth`, and it is called for every node, edge and label. That copy creates each key with
// `Object.defineProperty` — a slow runtime call where a plain assignment is an inline-cached store — only so that a
// key named "__proto__" cannot reach the prototype setter. Measured (the former bench/foldedRender.ts, 2 cores): the copying
// was ~40 % of drawing a 1,000-thought session's HTML export (~1.0 s); with plain stores for every other key the
// export draws in ~0.85 s and a live redraw of the branch tree is a few ms faster. The result is the same object:
// "__proto__" still goes through defineProperty, and for the plain objects Mermaid copies into, any other key has
// no setter that an assignment could reach.
//
// Second, `getConfig()` itself is memoised: the copy is made again only when Mermaid replaced its configuration
// (`currentConfig` is only ever reassigned, never changed in place), so the hundreds of calls of one render share one
// copy. Measured in real VS Code (bench/vscodeRedraw.ts with a CPU profile of the workbench renderer): the copies were
// 17 % of all renderer time while thoughts streamed in (8.0 s of 46.7 s over 141 thoughts). Sharing is safe only if
// no caller changes the copy it gets: the flowchart code we bundle (scripts/mermaidFlowchartOnly.mjs) only writes
// `flowchart.arrowMarkerAbsolute` with the value it already has, and a build with `MERMAID_CONFIG_MEMO_CHECK=1`
// compares the shared copy with a fresh one on every call and throws on a difference: the whole webview suite passed
// with it (run it again after a Mermaid upgrade).

import { readFile } from 'node:fs/promises';

/** Where Mermaid defines it; the chunk holding this text is the one patched. */
export const ASSIGN_WITH_DEPTH = 'var assignWithDepth = ';

/** Matches the two key-creating calls in Mermaid's `assignWithDepth` (dist/chunks/mermaid.core/chunk-*.mjs). */
const DEFINE_KEY =
  /Object\.defineProperty\(dst, key, \{\s*value: (void 0|srcValue),\s*writable: true,\s*enumerable: true,\s*configurable: true\s*\}\);/g;
const EXPECTED_SITES = 2;

/** The Mermaid chunk's text with `assignWithDepth` storing plainly; throws when Mermaid's code no longer matches. */
export function patchAssignWithDepth(text, file = 'mermaid') {
  const sites = text.match(DEFINE_KEY)?.length ?? 0;
  if (sites !== EXPECTED_SITES)
    throw new Error(
      `${file}: expected ${EXPECTED_SITES} Object.defineProperty calls in Mermaid's assignWithDepth, found ${sites}; ` +
        'Mermaid changed: re-measure and update scripts/mermaidFastConfigCopy.mjs (or drop it).',
    );
  return text.replace(
    DEFINE_KEY,
    (_call, value) =>
      `if (key === "__proto__") Object.defineProperty(dst, key, { value: ${value}, writable: true, enumerable: true, configurable: true }); else dst[key] = ${value};`,
  );
}

/** Mermaid's `getConfig` (the same chunk), copying the whole configuration on every call. */
const GET_CONFIG = 'var getConfig = /* @__PURE__ */ __name(() => {\n  return assignWithDepth_default({}, currentConfig);\n}, "getConfig");';

/** The chunk's text with `getConfig` copying once per configuration; `check` also proves no caller changed the copy. */
export function patchGetConfigMemo(text, file = 'mermaid', check = false) {
  if (!text.includes(GET_CONFIG))
    throw new Error(
      `${file}: Mermaid's getConfig no longer matches; Mermaid changed: re-measure and update scripts/mermaidFastConfigCopy.mjs.`,
    );
  const verify = check
    ? `else if (JSON.stringify(configCopy) !== JSON.stringify(assignWithDepth_default({}, currentConfig)))
    throw new Error("a caller of Mermaid's getConfig changed the shared copy (scripts/mermaidFastConfigCopy.mjs)");`
    : '';
  return text.replace(
    GET_CONFIG,
    `var configCopyOf, configCopy;
var getConfig = /* @__PURE__ */ __name(() => {
  if (configCopyOf !== currentConfig) {
    configCopy = assignWithDepth_default({}, currentConfig);
    configCopyOf = currentConfig;
  } ${verify}
  return configCopy;
}, "getConfig");`,
  );
}

export const mermaidFastConfigCopyPlugin = {
  name: 'mermaid-fast-config-copy',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]mermaid[\\/]dist[\\/]chunks[\\/]mermaid\.core[\\/]chunk-\w+\.mjs$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(ASSIGN_WITH_DEPTH)) return undefined;
      const check = process.env.MERMAID_CONFIG_MEMO_CHECK === '1';
      return { contents: patchGetConfigMemo(patchAssignWithDepth(text, args.path), args.path, check), loader: 'js' };
    });
  },
};
