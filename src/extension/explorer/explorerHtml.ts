// The explorer webview's HTML document and its Content-Security-Policy. Pure (no vscode import) so its rules can be
// checked in plain Node: scripts only with a fresh crypto-random nonce, styles and fonts only from the extension's
// own webview bundle (plus the inline styles Mermaid writes into its SVGs), nothing else at all.
import { randomBytes } from 'node:crypto';

export type ExplorerSurface = 'view' | 'panel' | 'replay';

export interface ExplorerHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** Webview URIs (already converted with `asWebviewUri`) of the bundle's files. */
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  surface: ExplorerSurface;
  /** For tests; otherwise a fresh one per document. */
  nonce?: string;
}

/** 128 random bits, base64: unguessable by anything that could inject markup. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // Mermaid writes <style> into each SVG and sets inline style attributes; Lit components adopt stylesheets.
    `style-src ${cspSource} 'unsafe-inline'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function explorerHtml(options: ExplorerHtmlOptions): string {
  const nonce = options.nonce ?? createNonce();
  const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(options.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attribute(options.codiconUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${attribute(options.styleUri)}">
<title>Thought Explorer</title>
</head>
<body data-surface="${options.surface === 'view' ? 'view' : 'panel'}">
<div id="app"></div>
<script type="module" nonce="${attribute(nonce)}" src="${attribute(options.scriptUri)}"></script>
</body>
</html>`;
}
