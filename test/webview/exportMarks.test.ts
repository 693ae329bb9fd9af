// An HTML export carries the same feedback marks whichever way it was made: from VS Code (the explorer draws the SVGs
// from the session view it is sent, as the host's "Export Session…" asks) or from the CLI (the page draws the diagrams
// on opening from the snapshot). The explorer once turned the view back into a snapshot without its feedback, so
// exports from VS Code lost the marks; both now go through snapshotOfView (src/engine/browserSafe/sessionSnapshot.ts).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { exportSession } from '../../src/export/index';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import { snapshotOfView } from '../../src/engine/browserSafe/sessionSnapshot';
import { ExplorerPage, RESULTS_DIR, launchChromium } from './support/explorerPage';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** Six thoughts with a branch and a revision; a reject on thought 2 (applied by the revision) and a note on thought 4. */
function sessionWithFeedback(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => {} });
  let id = '';
  const send = (args: Record<string, unknown>): void => {
    const outcome = engine.process('marks', { totalThoughts: 6, nextThoughtNeeded: true, ...args });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    id = outcome.reply.sessionId;
  };
  send({ thought: 'Frame the question', thoughtNumber: 1 });
  send({ thought: 'A hasty claim', thoughtNumber: 2 });
  send({ thought: 'Gather the facts', thoughtNumber: 3 });
  assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 2, text: 'Thought 2 is wrong.' }).ok);
  send({ thought: 'The claim, corrected', thoughtNumber: 4, isRevision: true, revisesThought: 2 });
  assert.ok(engine.addFeedback(id, { kind: 'note', thoughtNumber: 4, text: 'Cite the source.' }).ok);
  send({ thought: 'Another road', thoughtNumber: 5, branchFromThought: 3, branchId: 'alt' });
  send({ thought: 'The answer', thoughtNumber: 6, nextThoughtNeeded: false });
  const snapshot = engine.getSession(id);
  assert.ok(snapshot?.feedback?.length === 2, 'two pieces of feedback recorded');
  return snapshot;
}

/** Per diagram, the sorted labels of the nodes (rows) drawn with a feedback mark, in an exported page. */
async function marksIn(file: string, prerendered: boolean): Promise<Record<string, string[]>> {
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 1200, height: 900 } });
  // tsx names the functions given to page.evaluate with a `__name` helper the page lacks.
  await context.addInitScript('window.__name = (target) => target;');
  const page = await context.newPage();
  try {
    await page.goto(pathToFileURL(file).href);
    if (!prerendered) await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    else
      await page
        .locator('img.diagram-img')
        .evaluateAll((images) => Promise.all(images.map((image) => (image as HTMLImageElement).decode())));
    await page.locator('figure[data-diagram="branchTree"]').screenshot({ path: file.replace(/\.html$/, '-branch-tree.png') });
    return await page.evaluate(() => {
      const marked = (root: ParentNode): string[] =>
        // Mermaid's nodes carry a `feedback` class; the thought drawing's rows a `.mark` in words.
        [...root.querySelectorAll('g.node.feedback, g.node:has(.mark)')]
          .map((node) => (node.textContent ?? '').trim().replace(/\s+/g, ' '))
          .sort();
      const out: Record<string, string[]> = {};
      for (const figure of document.querySelectorAll<HTMLElement>('figure[data-diagram]')) {
        const image = figure.querySelector<HTMLImageElement>('img.diagram-img');
        if (image) {
          const text = atob(image.src.slice(image.src.indexOf(',') + 1));
          const svg = new DOMParser().parseFromString(
            new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))),
            'image/svg+xml',
          );
          out[figure.dataset.diagram ?? ''] = marked(svg);
        } else out[figure.dataset.diagram ?? ''] = marked(figure);
      }
      return out;
    });
  } finally {
    await context.close();
  }
}

describe('HTML export marks', () => {
  it('the view the explorer is sent turns back into the snapshot it came from, feedback included', () => {
    const snapshot = sessionWithFeedback();
    assert.deepEqual(snapshotOfView(toSessionView(snapshot)), snapshot);
  });

  it('an export made in VS Code carries the feedback marks an export made by the CLI draws', async () => {
    const snapshot = sessionWithFeedback();
    mkdirSync(RESULTS_DIR, { recursive: true });
    // The CLI's path: no SVGs from an editor; the export draws the thought diagrams itself, the page the stage graph.
    const cliFile = join(RESULTS_DIR, 'marks-export-cli.html');
    writeFileSync(cliFile, await exportSession(snapshot, 'html'));
    // The editor's path: the explorer draws the SVGs for the session view the host sends with its request.
    const explorer = await ExplorerPage.open(browser, { theme: 'dark', surface: 'panel', width: 1400, height: 900 });
    let svgs: Record<string, string>;
    try {
      const session = toSessionView(snapshot);
      await explorer.send({ type: 'snapshot', mode: 'live', session });
      await explorer.waitForDiagram('stageGraph', 'g.node');
      await explorer.send({ type: 'requestSvg', requestId: 'export', session });
      const rendered = await explorer.waitForPosted('svgRendered', 60_000);
      assert.deepEqual(rendered.errors, []);
      svgs = rendered.svgs as Record<string, string>;
    } finally {
      await explorer.close();
    }
    const editorFile = join(RESULTS_DIR, 'marks-export-editor.html');
    writeFileSync(editorFile, await exportSession(snapshot, 'html', { svgs }));

    const fromCli = await marksIn(cliFile, false);
    const fromEditor = await marksIn(editorFile, true);
    assert.ok((fromCli.branchTree ?? []).length >= 2, `the CLI's branch tree marks both thoughts: ${JSON.stringify(fromCli)}`);
    assert.deepEqual(fromEditor, fromCli);
  });
});
