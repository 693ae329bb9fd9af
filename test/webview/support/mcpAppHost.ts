// Node side of the minimal MCP Apps host (test/webview/mcpAppHost/hostPage.ts): our real MCP server over Streamable
// HTTP on 127.0.0.1 (startHttpServer, as the extension runs it), the host page served from another loopback port and
// allowed as an Origin, and a Chromium page that records dialogs, CSP violations, errors and every request made from
// the app's iframe. The view is the built dist/mcp-app/thought-graph.html, read by the page through MCP.
import { existsSync } from 'node:fs';
import { createServer as createHttpListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ThinkingEngine } from '../../../src/engine/engine';
import type { ModelGateway } from '../../../src/engine/modelGateway';
import { startHttpServer, type RunningHttpServer } from '../../../src/mcp/httpServer';

/** The parts of ext-apps' McpUiHostContext these tests send (the package's types are ESM-only; this file is CommonJS). */
export interface McpUiHostContext {
  theme?: 'light' | 'dark';
  displayMode?: 'inline' | 'fullscreen' | 'pip';
  platform?: 'web' | 'desktop' | 'mobile';
  styles?: { variables?: Record<string, string> };
}

const ROOT = resolve(__dirname, '../../..');
const TOKEN = 'chromium-host-test-token-0123456789';
export const APP_HTML = join(ROOT, 'dist', 'mcp-app', 'thought-graph.html');

export function requireAppBuild(): void {
  if (!existsSync(APP_HTML)) throw new Error('dist/mcp-app/thought-graph.html is missing: run "npm run build" before the webview tests.');
}

let hostScript: Promise<string> | undefined;

/** The host page's script, bundled once per test process. */
function hostBundle(): Promise<string> {
  hostScript ??= esbuild
    .build({
      entryPoints: [join(ROOT, 'test', 'webview', 'mcpAppHost', 'hostPage.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      logLevel: 'silent',
    })
    .then((result) => result.outputFiles[0].text);
  return hostScript;
}

/** A dark and a light host context with the style variables VS Code-like hosts send. */
export const DARK_CONTEXT: McpUiHostContext = {
  theme: 'dark',
  displayMode: 'inline',
  platform: 'desktop',
  styles: {
    variables: {
      '--color-background-primary': '#1e1e1e',
      '--color-background-secondary': '#252526',
      '--color-text-primary': '#cccccc',
      '--color-text-secondary': '#9d9d9d',
      '--color-text-info': '#3794ff',
      '--color-text-inverse': '#1e1e1e',
      '--color-border-primary': '#616161',
      '--color-border-secondary': '#454545',
      '--font-sans': 'sans-serif',
    },
  },
};
export const LIGHT_CONTEXT: McpUiHostContext = {
  ...DARK_CONTEXT,
  theme: 'light',
  styles: {
    variables: {
      '--color-background-primary': '#ffffff',
      '--color-background-secondary': '#f3f3f3',
      '--color-text-primary': '#1f1f1f',
      '--color-text-secondary': '#616161',
      '--color-text-info': '#005fb8',
      '--color-text-inverse': '#ffffff',
      '--color-border-primary': '#c8c8c8',
      '--color-border-secondary': '#e5e5e5',
      '--font-sans': 'sans-serif',
    },
  },
};

/** Runs first in every frame (the view's too): counts dialogs and keeps CSP violations, so a script that ran shows. */
const PROBE_SCRIPT = `
  window.__probe = true;
  window.__cspViolations = [];
  window.__dialogs = 0;
  window.alert = function () { window.__dialogs++; };
  window.confirm = function () { window.__dialogs++; return false; };
  window.prompt = function () { window.__dialogs++; return null; };
  document.addEventListener('securitypolicyviolation', function (event) {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sample + ' at ' + event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber);
  });
`;

export interface HostRecord {
  dialogs: string[];
  pageErrors: string[];
  /** Requests the app's iframe made (it should make none). */
  frameRequests: string[];
}

export interface LoadedApp {
  uri: string;
  mimeType: string | undefined;
  bytes: number;
  initializedMs: number;
}

export class McpAppHost {
  readonly record: HostRecord = { dialogs: [], pageErrors: [], frameRequests: [] };

  private constructor(
    readonly page: Page,
    private readonly mcp: RunningHttpServer,
    private readonly hostServer: Server,
  ) {}

  static async open(
    browser: Browser,
    options: { engine: ThinkingEngine; modelGateway?: ModelGateway; width?: number },
  ): Promise<McpAppHost> {
    requireAppBuild();
    const script = await hostBundle();
    const hostServer = createHttpListener();
    await new Promise<void>((done) => hostServer.listen(0, '127.0.0.1', done));
    const hostOrigin = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
    const mcp = await startHttpServer({
      engine: options.engine,
      token: TOKEN,
      allowedOrigins: [hostOrigin],
      ...(options.modelGateway ? { modelGateway: options.modelGateway } : {}),
    });
    // The host's own CSP, which the srcdoc iframe inherits on top of the view's own (hash-only scripts, no eval, no
    // network): scripts from the host and inline, eval for the SDK Client's Ajv, no network but our MCP endpoint.
    const hostCsp = [
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
      "style-src 'unsafe-inline'",
      'img-src data:',
      'font-src data:',
      `connect-src ${new URL(mcp.url).origin}`,
    ].join('; ');
    hostServer.on('request', (request, response) => {
      if (request.url === '/host.js') {
        response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
      } else if (request.url === '/') {
        response
          .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': hostCsp })
          .end(
            '<!doctype html><html><head><meta charset="utf-8"><title>Chat</title>' +
              '<style>body{margin:0;font:13px sans-serif}#chat{width:100%}iframe{border:0;width:100%;display:block}</style>' +
              '</head><body><div id="chat"></div><script src="/host.js"></script></body></html>',
          );
      } else {
        response.writeHead(404).end();
      }
    });
    const context = await browser.newContext({ viewport: { width: options.width ?? 480, height: 900 } });
    const page = await context.newPage();
    const host = new McpAppHost(page, mcp, hostServer);
    // In every frame (the view's too): dialogs counted, CSP violations kept, so the tests can see a script that ran.
    // A string, not a function: tsx would wrap the function's helpers in a __name() the page does not have.
    await page.addInitScript(PROBE_SCRIPT);
    page.on('dialog', (dialog) => {
      host.record.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => host.record.pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.frame() !== page.mainFrame()) host.record.frameRequests.push(request.url());
    });
    await page.goto(`${hostOrigin}/`);
    await page.waitForSelector('body[data-host-ready="true"]', { state: 'attached' });
    await page.evaluate(([url, token]) => window.mcpHost.connect(url, token), [mcp.url, TOKEN] as const);
    return host;
  }

  async load(toolName: string, context: McpUiHostContext): Promise<LoadedApp> {
    const loaded = await this.page.evaluate(([name, ctx]) => window.mcpHost.load(name, ctx), [toolName, context] as const);
    await this.app().waitForSelector('body[data-connected="true"]', { state: 'attached' });
    return loaded;
  }

  /** The view's frame (the one iframe). */
  app(): Frame {
    const frame = this.page.frames().find((candidate) => candidate !== this.page.mainFrame());
    if (!frame) throw new Error('the view is not loaded');
    return frame;
  }

  call(name: string, args: Record<string, unknown>, options: { textOnly?: boolean } = {}): Promise<CallToolResult> {
    return this.page.evaluate(([tool, input, opts]) => window.mcpHost.call(tool, input, opts), [name, args, options] as const);
  }

  input(args: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((input) => window.mcpHost.input(input), args);
  }

  setContext(context: McpUiHostContext): Promise<void> {
    return this.page.evaluate((ctx) => window.mcpHost.setContext(ctx), context);
  }

  /** Waits until the view has drawn the tree for `count` thoughts. */
  async drawn(count: number): Promise<void> {
    await this.app().waitForSelector(`body[data-drawn="${count}"]`, { state: 'attached', timeout: 15_000 });
  }

  async frameProbe(): Promise<{ probe: boolean; cspViolations: string[]; dialogs: number }> {
    return this.app().evaluate(() => {
      const probe = window as unknown as { __cspViolations?: string[]; __dialogs?: number; __probe?: boolean };
      return { probe: probe.__probe === true, cspViolations: probe.__cspViolations ?? [], dialogs: probe.__dialogs ?? 0 };
    });
  }

  async close(): Promise<void> {
    await this.page.context().close();
    await this.mcp.close();
    await new Promise<void>((done) => this.hostServer.close(() => done()));
  }
}

/** The host page's API, as the page defines it (hostPage.ts). */
declare global {
  interface Window {
    mcpHost: {
      connect(url: string, token: string): Promise<void>;
      load(toolName: string, context: McpUiHostContext): Promise<LoadedApp>;
      call(name: string, args: Record<string, unknown>, options?: { textOnly?: boolean }): Promise<CallToolResult>;
      input(args: Record<string, unknown>): Promise<void>;
      setContext(context: McpUiHostContext): void;
    };
  }
}
