// A Chromium page that hosts the built explorer bundle the way VS Code does: the same HTML and CSP the extension
// generates (explorerHtml), served from a fake webview origin, a fake `acquireVsCodeApi` that records what the webview
// posts, VS Code's theme classes and colour variables on <body>/<html>, and messages fed through the shared protocol.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { SessionSnapshot } from '../../../src/engine/model';
import { explorerHtml, type ExplorerSurface } from '../../../src/extension/explorer/explorerHtml';
import { toSessionView } from '../../../src/extension/explorer/sessionView';
import type { ExplorerMode, HostMessage, ThemeKind, WebviewMessage } from '../../../src/shared/protocol';
import { THEMES, themeBodyClass, themeStyle } from './themes';
import { waitFor } from '../../support/waitFor';

const ROOT = resolve(__dirname, '../../..');
const BUNDLE_DIR = join(ROOT, 'dist', 'webview');
/** Stands in for `webview.cspSource`; the bundle is served from here and nowhere else. */
/** What postedSoFar() posts to know that every earlier message arrived; never recorded. */
const POSTED_MARKER = 'test:postedSoFar';

export const WEBVIEW_ORIGIN = 'https://explorer-webview.test';
export const RESULTS_DIR = join(ROOT, 'test-results', 'webview');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/** Fails with a clear message when the bundle has not been built. */
export function requireBundle(): void {
  for (const file of ['explorer.js', 'explorer.css', 'codicon.css', 'codicon.ttf']) {
    if (!existsSync(join(BUNDLE_DIR, file))) {
      throw new Error(`dist/webview/${file} is missing: run "npm run build" before the webview tests.`);
    }
  }
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface ExplorerPageOptions {
  theme?: ThemeKind;
  surface?: ExplorerSurface;
  width?: number;
  height?: number;
  /** State handed to `getState()` (as VS Code keeps it across hide/show). */
  savedState?: unknown;
}

/** What the page recorded: everything the webview posted, dialogs, CSP violations, page errors. */
export interface PageRecord {
  posted: WebviewMessage[];
  dialogs: string[];
  cspViolations: string[];
  pageErrors: string[];
  consoleErrors: string[];
  requests: string[];
}

export class ExplorerPage {
  readonly record: PageRecord = { posted: [], dialogs: [], cspViolations: [], pageErrors: [], consoleErrors: [], requests: [] };

  private constructor(readonly page: Page) {}

  /** Opens the explorer and sends it `snapshot` as the host does (a live session unless `mode` says otherwise). */
  static async openWith(
    browser: Browser,
    snapshot: SessionSnapshot,
    options: ExplorerPageOptions = {},
    mode: ExplorerMode = 'live',
  ): Promise<ExplorerPage> {
    const explorer = await ExplorerPage.open(browser, options);
    await explorer.send({ type: 'snapshot', mode, session: toSessionView(snapshot) });
    return explorer;
  }

  static async open(browser: Browser, options: ExplorerPageOptions = {}): Promise<ExplorerPage> {
    requireBundle();
    const context = await browser.newContext({ viewport: { width: options.width ?? 420, height: options.height ?? 900 } });
    const page = await context.newPage();
    const explorer = new ExplorerPage(page);
    const theme = options.theme ?? 'dark';

    await page.exposeBinding('__explorerPosted', (_source, message: WebviewMessage) => {
      if ((message as { type: string }).type !== POSTED_MARKER) explorer.record.posted.push(message);
    });
    await page.exposeBinding('__explorerCsp', (_source, violation: string) => {
      explorer.record.cspViolations.push(violation);
    });
    page.on('dialog', (dialog) => {
      explorer.record.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => explorer.record.pageErrors.push(error.message));
    page.on('request', (request) => explorer.record.requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') explorer.record.consoleErrors.push(message.text());
      if (process.env.EXPLORER_CONSOLE) process.stderr.write(`[webview ${message.type()}] ${message.text()}\n`);
    });

    // What VS Code defines before any webview script runs (an init script is not subject to the page's CSP). Given as
    // text: tsx rewrites functions passed to the page with a `__name` helper the page does not have, so that helper
    // is defined here too for the page.evaluate callbacks below.
    await page.addInitScript(`
      window.__name = (target) => target;
      (() => {
        let state = ${JSON.stringify(options.savedState ?? null)} ?? undefined;
        window.acquireVsCodeApi = () => ({
          postMessage: (message) => window.__explorerPosted(message),
          getState: () => state,
          setState: (next) => { state = next; window.__explorerState = next; },
        });
        document.addEventListener('securitypolicyviolation', (event) => {
          window.__explorerCsp(event.violatedDirective + ' ' + event.blockedURI);
        });
      })();
    `);

    const html = explorerHtml({
      cspSource: WEBVIEW_ORIGIN,
      scriptUri: `${WEBVIEW_ORIGIN}/explorer.js`,
      styleUri: `${WEBVIEW_ORIGIN}/explorer.css`,
      codiconUri: `${WEBVIEW_ORIGIN}/codicon.css`,
      surface: options.surface ?? 'view',
    })
      // VS Code puts the theme's colours on <html> and the theme kind on <body>.
      .replace('<html lang="en">', `<html lang="en" style="${themeStyle(theme)}">`)
      .replace('<body ', `<body class="${themeBodyClass(theme)}" `);

    await page.route(`${WEBVIEW_ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/index.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
      const file = join(BUNDLE_DIR, url.pathname.replace(/^\/+/, ''));
      if (!file.startsWith(BUNDLE_DIR) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({
        status: 200,
        contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        body: readFileSync(file),
      });
    });
    // Anything outside the fake webview origin is refused, as the CSP would: a test fails if something tries.
    await page.route(
      (url) => !url.href.startsWith(WEBVIEW_ORIGIN) && !url.href.startsWith('data:'),
      (route) => route.abort(),
    );

    await page.goto(`${WEBVIEW_ORIGIN}/index.html`);
    await explorer.waitForPosted('ready');
    return explorer;
  }

  /** Sends a host message to the webview, exactly as VS Code delivers `webview.postMessage`. */
  async send(message: HostMessage): Promise<void> {
    await this.page.evaluate((data) => window.postMessage(data, '*'), message);
  }

  /**
   * Waits until every message the webview posted so far has reached `record.posted`: a marker posted through the same
   * binding comes back only after them. For asserting that something was not posted, instead of a sleep.
   */
  async postedSoFar(): Promise<readonly WebviewMessage[]> {
    await this.page.evaluate(
      (type) => (window as unknown as { __explorerPosted(message: unknown): Promise<void> }).__explorerPosted({ type }),
      POSTED_MARKER,
    );
    return this.record.posted;
  }

  /** The state the page last saved with `setState` (what VS Code would hand back on restore). */
  async savedState(): Promise<Record<string, unknown>> {
    return this.page.evaluate(() => (window as unknown as { __explorerState: Record<string, unknown> }).__explorerState);
  }

  /** Sends a host message and waits until the webview has handled (or ignored) it: for asserting that nothing changed. */
  async sendHandled(message: HostMessage): Promise<void> {
    const handled = (): Promise<number> => this.page.evaluate(() => Number(document.body.dataset.hostMessages ?? 0));
    const before = await handled();
    await this.send(message);
    // Asked from here rather than with waitForFunction, whose polling runs on the page's timers (a test may have
    // paused them with page.clock).
    const deadline = Date.now() + 10_000;
    while ((await handled()) <= before) {
      if (Date.now() > deadline) throw new Error(`the webview did not handle "${message.type}" within 10 s`);
    }
  }

  async waitForPosted<T extends WebviewMessage['type']>(type: T, timeoutMs = 30_000): Promise<Extract<WebviewMessage, { type: T }>> {
    const found = (): WebviewMessage | undefined => this.record.posted.find((message) => message.type === type);
    await waitFor(() => found() !== undefined, `the webview to post "${type}"`, timeoutMs);
    return found() as Extract<WebviewMessage, { type: T }>;
  }

  /** Switches theme the way VS Code does: body class and <html> colour variables together. */
  async setTheme(kind: ThemeKind): Promise<void> {
    await this.page.evaluate(
      ([bodyClass, style]) => {
        document.documentElement.setAttribute('style', style);
        document.body.classList.remove(...['vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light']);
        document.body.classList.add(...bodyClass.split(' '));
      },
      [themeBodyClass(kind), themeStyle(kind)] as const,
    );
  }

  /** Waits until the diagram's tab shows an SVG (a thought drawing: any element) matching `selector`. */
  async waitForDiagram(kind: 'stageGraph' | 'branchTree' | 'revisionChain', selector = 'svg', timeoutMs = 60_000): Promise<void> {
    await this.page.waitForSelector(`section.diagram-${kind} .diagram-canvas ${selector}`, { state: 'attached', timeout: timeoutMs });
  }

  async showTab(kind: 'stageGraph' | 'branchTree' | 'revisionChain'): Promise<void> {
    await this.page.click(`vscode-tab-header[data-diagram="${kind}"]`);
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path, fullPage: false });
    return path;
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}

export { THEMES };

/**
 * Our node ids (`t12`, `s_…`) of the nodes drawn on screen: the stage graph's SVG nodes, or the rows of a thought
 * drawing in the DOM (only those near the view: it renders virtually).
 */
export async function drawnNodeIds(explorer: ExplorerPage, kind: 'stageGraph' | 'branchTree' | 'revisionChain'): Promise<string[]> {
  return explorer.page.evaluate((diagram) => {
    const ids: string[] = [];
    for (const row of document.querySelectorAll<HTMLElement>(`section.diagram-${diagram} .graph-row[data-node-id]`))
      ids.push(row.dataset.nodeId ?? '');
    for (const node of document.querySelectorAll(`section.diagram-${diagram} .diagram-canvas svg g.node`)) {
      const id = node.getAttribute('data-id') ?? /-flowchart-(.+)-\d+$/.exec(node.id)?.[1];
      if (id) ids.push(id);
    }
    return ids;
  }, kind);
}

export async function cardCount(explorer: ExplorerPage): Promise<number> {
  return explorer.page.locator('.thought-card').count();
}
