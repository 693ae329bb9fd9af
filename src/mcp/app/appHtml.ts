// The inline thought graph's HTML document (mcp-app/, built by esbuild.mjs into one self-contained file). Embedded
// into the server bundles at build time (`define`, gzipped and base64-encoded), so the published CLI ships it inside
// dist/cli.js; unpacked on the first read. When the source runs unbundled (tests under tsx) it is read from
// dist/mcp-app/ instead.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

declare const __THOUGHT_GRAPH_APP_HTML_GZ__: string | undefined;

/** Where the build writes the document, seen from src/mcp/app and from dist/. */
export function thoughtGraphHtmlPaths(): string[] {
  return [join(__dirname, 'mcp-app', 'thought-graph.html'), join(__dirname, '..', '..', '..', 'dist', 'mcp-app', 'thought-graph.html')];
}

let cached: string | undefined;

export function thoughtGraphAppHtml(): string {
  if (cached !== undefined) return cached;
  if (typeof __THOUGHT_GRAPH_APP_HTML_GZ__ === 'string') {
    cached = gunzipSync(Buffer.from(__THOUGHT_GRAPH_APP_HTML_GZ__, 'base64')).toString('utf8');
    return cached;
  }
  const found = thoughtGraphHtmlPaths().find((path) => existsSync(path));
  if (found === undefined) throw new Error('The inline thought graph (dist/mcp-app/thought-graph.html) is not built: run "npm run build".');
  cached = readFileSync(found, 'utf8');
  return cached;
}
