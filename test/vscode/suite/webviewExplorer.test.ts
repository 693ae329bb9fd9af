// The explorer webviews and export inside a real VS Code: the sidebar view and the editor panel open and say `ready`;
// thoughts recorded through VS Code's own MCP client (a plain thought, a revision, a branch, an end) reach both as a
// snapshot plus deltas; each webview's Mermaid renders SVGs of the session it holds (the requestSvg round trip);
// "Export Session" writes Markdown, lossless JSON (re-imported through the extension's engine), sequentialthinking-plus JSON and a
// self-contained HTML page in which the untrusted thought text is escaped.
//
// The file name sorts after extension.test.ts on purpose: that suite asserts that the MCP server has not been started
// yet when it begins, and the suites of one run share one window, loaded in file-name order.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionSnapshot } from '../../../src/engine/model';
import type { ExplorerConnectionStatus } from '../../../src/extension/explorer/explorerConnection';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import type { RenderedSvgs } from '../../../src/shared/protocol';
import { parseSessionJson } from '../../../src/storage/sessionJsonFormats';
import { parseSessionFile } from '../../../src/telemetry/otlpImport';
import { EXTENSION_ID, eventually, invokeJson, isolateStorage, sequentialThinkingTool, type IsolatedStorage } from './support';

const INJECTION = '<img src=x onerror=alert(1)>';

/** The session this suite records: thought text, and what each call adds. */
const THOUGHTS: readonly Record<string, unknown>[] = [
  { thought: 'Why does the nightly export time out', thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true },
  {
    thought: `The report query scans every row ${INJECTION} of the events table`,
    thoughtNumber: 2,
    totalThoughts: 4,
    nextThoughtNeeded: true,
  },
  {
    thought: 'The query scans only the last day but sorts it twice',
    thoughtNumber: 3,
    totalThoughts: 4,
    nextThoughtNeeded: true,
    isRevision: true,
    revisesThought: 2,
  },
  {
    thought: 'Alternatively a missing index on the created column',
    thoughtNumber: 3,
    totalThoughts: 4,
    nextThoughtNeeded: true,
    branchFromThought: 2,
    branchId: 'index',
  },
  { thought: 'Drop the second sort and add the index', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: false },
];

const PANEL_VIEW_TYPE = 'thoughtExplorer.explorerPanel';

function statusOf(api: ThoughtExplorerApi, surface: ExplorerConnectionStatus['surface']): ExplorerConnectionStatus | undefined {
  return api.explorer.status().find((status) => status.surface === surface);
}

function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(PANEL_VIEW_TYPE));
}

/** The SVGs a webview rendered from what it holds: all three diagrams, every thought a node of the branch tree. */
function assertRenderedSession(svgs: RenderedSvgs, snapshot: SessionSnapshot, who: string): void {
  for (const kind of ['stageGraph', 'branchTree', 'revisionChain'] as const) {
    const svg = svgs[kind];
    assert.ok(svg !== undefined, `${who} rendered no ${kind}: ${JSON.stringify(Object.keys(svgs))}`);
    assert.match(svg, /^<svg[\s>]/, `${who}'s ${kind} is an SVG`);
    // Thought text is drawn as text (Mermaid's strict mode, the thought drawing's escaping): no element from it, no handler.
    assert.doesNotMatch(svg, /<img\b/i, `${who}'s ${kind} holds an <img> element`);
    // The words may appear as text (`&lt;img … onerror=…&gt;`), never as an attribute of an element.
    assert.doesNotMatch(svg, /<[^>]*\sonerror\s*=/i, `${who}'s ${kind} has an element with an onerror attribute`);
  }
  for (const thought of snapshot.thoughts) {
    assert.ok(svgs.branchTree!.includes(`data-id="t${thought.seq}"`), `${who}'s branch tree has node t${thought.seq}`);
  }
  // The revision chain: thought #2 (seq 1) and its revision (seq 2).
  assert.ok(svgs.revisionChain!.includes('data-id="t1"'), `${who}'s revision chain has the revised thought t1`);
  assert.ok(svgs.revisionChain!.includes('data-id="t2"'), `${who}'s revision chain has the revision t2`);
}

suite('explorer: the webviews and export in real VS Code', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;
  let exportDir: string;
  let toolName: string;
  let sessionId: string;

  suiteSetup(async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'te-vscode-explorer-store-');
    exportDir = mkdtempSync(join(tmpdir(), 'te-vscode-export-'));
    // An earlier suite may have picked a session; the panel opened here must follow the live one.
    api.services.selectSession(undefined);
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  });

  suiteTeardown(async () => {
    for (const tab of panelTabs()) await vscode.window.tabGroups.close(tab);
    api?.services.selectSession(undefined);
    await storage?.restore();
    if (exportDir) rmSync(exportDir, { recursive: true, force: true });
  });

  test('the sidebar view and the editor panel open and say ready', async function () {
    this.timeout(60_000);
    const started = Date.now();
    await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
    await vscode.commands.executeCommand('thoughtExplorer.explorer.focus');
    await eventually(() => (statusOf(api, 'view')?.ready ? true : undefined), 'the sidebar explorer to say ready', 30_000);
    const viewReady = Date.now() - started;
    await vscode.commands.executeCommand('thoughtExplorer.openExplorer');
    const panel = await eventually(
      () => (statusOf(api, 'panel')?.ready ? statusOf(api, 'panel') : undefined),
      'the explorer panel to say ready',
      30_000,
    );
    console.log(`    view ready after ${viewReady} ms, panel after ${Date.now() - started} ms`);
    assert.equal(panel.mode, 'live', 'the panel follows the live session');
    assert.equal(panelTabs().length, 1, 'one explorer panel tab');
  });

  test("thoughts recorded through VS Code's MCP client reach both webviews: snapshot plus deltas of the live session", async function () {
    this.timeout(120_000);
    toolName = await sequentialThinkingTool();
    const first = await invokeJson(toolName, THOUGHTS[0]);
    assert.equal(typeof first.sessionId, 'string', JSON.stringify(first));
    assert.equal(first.thoughtHistoryLength, 1, "a new session in this suite's own store");
    sessionId = first.sessionId as string;
    // The panel switches to the new live session by itself.
    await eventually(() => {
      const panel = statusOf(api, 'panel');
      return panel?.sessionId === sessionId && panel.thoughtsSent === 1 ? true : undefined;
    }, 'the panel to follow the new session');
    assert.equal(statusOf(api, 'panel')?.mode, 'live');
    // The sidebar view follows it too unless an earlier suite pinned it; a pick in the Sessions tree shows it there.
    api.services.selectSession(sessionId);
    await eventually(() => (statusOf(api, 'view')?.sessionId === sessionId ? true : undefined), 'the sidebar view to show the session');

    for (const input of THOUGHTS.slice(1)) {
      const reply = await invokeJson(toolName, input);
      // Compact replies name the session on its first reply only; the snapshot below shows where the thoughts went.
      assert.ok(reply.sessionId === undefined || reply.sessionId === sessionId, JSON.stringify(reply));
    }
    const snapshot = api.engine().getSession(sessionId);
    assert.ok(snapshot);
    assert.equal(snapshot.thoughts.length, THOUGHTS.length);
    assert.equal(snapshot.meta.revisionCount, 1);
    const count = snapshot.thoughts.length;
    for (const surface of ['view', 'panel'] as const) {
      const status = await eventually<ExplorerConnectionStatus>(() => {
        const current = statusOf(api, surface);
        return current?.thoughtsSent === count ? current : undefined;
      }, `the ${surface} to have received all ${count} thoughts`);
      assert.equal(status.sessionId, sessionId, `the ${surface} shows the live session`);
      assert.equal(status.ready, true);
    }
  });

  test('each webview renders Mermaid SVGs of the session it received (requestSvg round trip)', async function () {
    this.timeout(120_000);
    assert.ok(sessionId, 'the previous test recorded a session');
    const snapshot = api.engine().getSession(sessionId);
    assert.ok(snapshot);
    // With an open panel the round trip goes to the panel; asked for the session it shows, it draws its own model.
    let started = Date.now();
    assertRenderedSession(await api.explorer.renderedSvgs(sessionId), snapshot, 'the panel');
    console.log(`    panel rendered the three diagrams in ${Date.now() - started} ms`);
    for (const tab of panelTabs()) await vscode.window.tabGroups.close(tab);
    await eventually(() => (statusOf(api, 'panel') === undefined ? true : undefined), 'the panel to close');
    assert.equal(statusOf(api, 'view')?.sessionId, sessionId);
    started = Date.now();
    assertRenderedSession(await api.explorer.renderedSvgs(sessionId), snapshot, 'the sidebar view');
    console.log(`    sidebar view rendered the three diagrams in ${Date.now() - started} ms`);
  });

  test('Export Session writes Markdown with the three mermaid blocks and every thought, escaped', async function () {
    this.timeout(30_000);
    const target = join(exportDir, 'session.md');
    assert.equal(await vscode.commands.executeCommand('thoughtExplorer.exportSession', sessionId, 'md', target), target);
    const text = readFileSync(target, 'utf8');
    assert.equal(text.match(/^```mermaid$/gm)?.length, 3, 'three ```mermaid blocks');
    for (const input of THOUGHTS) {
      if (input.thought === THOUGHTS[1].thought) continue;
      assert.ok(text.includes(input.thought as string), `the Markdown has "${String(input.thought)}"`);
    }
    // GitHub renders raw HTML in Markdown: the injected tag must not survive as a tag. A backslash before `<` makes
    // it literal text in CommonMark, which is how the export writes it.
    assert.ok(
      text.includes('The report query scans every row \\<img src=x onerror=alert(1)\\> of the events table'),
      'the escaped thought',
    );
    assert.doesNotMatch(text, /(?:^|[^\\])<img\b/im, 'an unescaped <img tag');
  });

  test('Export Session writes lossless JSON that re-imports into the engine unchanged', async function () {
    this.timeout(30_000);
    const target = join(exportDir, 'session.json');
    assert.equal(await vscode.commands.executeCommand('thoughtExplorer.exportSession', sessionId, 'json', target), target);
    const original = api.engine().getSession(sessionId);
    assert.ok(original);
    const parsed = parseSessionJson(readFileSync(target, 'utf8'));
    assert.equal(parsed.format, 'thought-explorer');
    assert.deepEqual(parsed.warnings, []);
    assert.deepEqual(parsed.snapshot, original, 'the file holds the session exactly');
    // Through the engine and store the extension uses: gone, imported back, read again from the store.
    const expected = structuredClone(original);
    assert.equal(api.engine().deleteSession(sessionId), true);
    assert.equal(api.engine().getSession(sessionId), undefined);
    api.engine().importSession(parsed.snapshot);
    assert.deepEqual(api.engine().getSession(sessionId), expected);
    const onDisk = api.services.sessionFilePath(sessionId);
    assert.ok(readFileSync(onDisk, 'utf8').includes('Drop the second sort and add the index'), `${onDisk} holds the imported session`);
  });

  test('Export Session writes the sequentialthinking-plus shape {id, timestamp, thoughtHistory, branches}', async function () {
    this.timeout(30_000);
    const target = join(exportDir, 'session.stp.json');
    assert.equal(
      await vscode.commands.executeCommand('thoughtExplorer.exportSession', sessionId, 'sequentialthinking-plus', target),
      target,
    );
    const file = JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>;
    assert.equal(file.id, sessionId);
    assert.ok(typeof file.timestamp === 'string' && !Number.isNaN(Date.parse(file.timestamp)), `timestamp ${String(file.timestamp)}`);
    assert.ok(Array.isArray(file.thoughtHistory));
    const history = file.thoughtHistory as Record<string, unknown>[];
    assert.deepEqual(
      history.map((thought) => thought.thought),
      THOUGHTS.map((input) => input.thought),
    );
    assert.equal(history[2].isRevision, true);
    assert.equal(history[2].revisesThought, 2);
    const branches = file.branches as Record<string, Record<string, unknown>[]>;
    assert.deepEqual(Object.keys(branches), ['index']);
    assert.equal(branches.index[0].thought, THOUGHTS[3].thought);
    // The reader of that shape accepts it back.
    const parsed = parseSessionJson(readFileSync(target, 'utf8'));
    assert.equal(parsed.format, 'sequentialthinking-plus');
    assert.equal(parsed.snapshot.thoughts.length, THOUGHTS.length);
  });

  test('Export Session writes an OTLP/JSON trace (from the lazily loaded telemetry bundle) that imports back unchanged', async function () {
    this.timeout(30_000);
    const target = join(exportDir, 'session.otlp.json');
    assert.equal(await vscode.commands.executeCommand('thoughtExplorer.exportSession', sessionId, 'otlp', target), target);
    const text = readFileSync(target, 'utf8');
    const file = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
    const spans = file.resourceSpans[0].scopeSpans[0].spans;
    assert.equal(spans.filter((span) => span.name === 'thinking session').length, 1);
    assert.equal(spans.length, THOUGHTS.length + 1, 'the session span and one per thought');
    const parsed = parseSessionFile(text);
    assert.equal(parsed.format, 'otlp');
    assert.deepEqual(parsed.snapshot, api.engine().getSession(sessionId), 'the trace holds the session exactly');
  });

  test("Export Session writes self-contained HTML: CSP, no remote resource, the editor's SVGs, thought text escaped", async function () {
    this.timeout(120_000);
    assert.equal(statusOf(api, 'view')?.ready, true, 'the sidebar explorer is open to pre-render the diagrams');
    const target = join(exportDir, 'session.html');
    assert.equal(await vscode.commands.executeCommand('thoughtExplorer.exportSession', sessionId, 'html', target), target);
    const html = readFileSync(target, 'utf8');
    assert.match(html, /^<!doctype html>/i);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(csp, 'a CSP meta element');
    assert.match(csp[1], /default-src 'none'/);
    // Pre-rendered by the explorer, so the page needs no script at all.
    assert.match(csp[1], /script-src 'none'/);
    assert.doesNotMatch(html, /<script\b/i);
    assert.doesNotMatch(html, /\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i, 'no remote src or href');
    assert.doesNotMatch(html, /<link\b/i);
    // The thought text, escaped; the injected tag never appears as a tag.
    assert.ok(
      html.includes('The report query scans every row &lt;img src=x onerror=alert(1)&gt; of the events table'),
      'the escaped thought',
    );
    assert.ok(!html.includes(INJECTION), 'the raw tag is absent');
    for (const tag of html.match(/<img\b[^>]*>/gi) ?? []) {
      assert.match(
        tag,
        /^<img class="diagram-img" alt="[^"]*"(?: width="\d+" height="\d+")?(?: loading="lazy" decoding="async")? src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+">$/,
        `only diagram images: ${tag.slice(0, 120)}`,
      );
    }
    const images = [...html.matchAll(/src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/g)].map((match) =>
      Buffer.from(match[1], 'base64').toString('utf8'),
    );
    assert.equal(images.length, 3, 'the three diagrams as SVG images');
    for (const svg of images) assert.match(svg, /<svg[\s>]/);
    assert.ok(
      images.some((svg) => svg.includes('data-id="t4"')),
      'the branch tree image has the last thought',
    );
    for (const input of THOUGHTS.filter((thought) => thought !== THOUGHTS[1])) {
      assert.ok(html.includes(input.thought as string), `the HTML has "${String(input.thought)}"`);
    }
  });
});
