// Builds the inline thought graph (mcp-app/, an MCP App) into ONE self-contained HTML document: the bundle (ext-apps'
// App and the thought drawing, built with DOM APIs) and the styles inlined, under a CSP that admits that one script by
// its hash, inline styles (the stylesheet and the drawing's sizes) and nothing from the network (connect-src 'none').
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

export const MCP_APP_ENTRY = 'mcp-app/main.ts';
export const MCP_APP_HTML = 'dist/mcp-app/thought-graph.html';

export async function buildMcpAppHtml() {
  const result = await esbuild.build({
    entryPoints: [MCP_APP_ENTRY],
    bundle: true,
    write: false,
    minify: true,
    sourcemap: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const script = result.outputFiles[0].text;
  // "<!--" alone is harmless; with "<script" after it the HTML parser would enter its double-escaped state.
  if (/<\/script/i.test(script) || (script.includes('<!--') && /<script/i.test(script)))
    throw new Error('The MCP App bundle contains "</script" or "<!--" and cannot be inlined.');
  const css = readFileSync('mcp-app/app.css', 'utf8');
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Thought graph</title>',
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
