// The branch tree as a person first sees it, in Chromium: the demo session (12 thoughts, two branches, a revision) on
// the Branches tab at the panel's default view shows every row with 12 px labels, and a 300 px sidebar reads it too, and the HTML export's three
// diagrams follow the reader's colour scheme. With THOUGHT_EXPLORER_UPDATE_DOCS=1 it also refreshes
// docs/branch-tree-dark.png, docs/branch-tree-light.png and docs/branch-tree-sidebar.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import { exportSession } from '../../src/export/index';
import { toSessionView } from '../../src/extension/explorer/sessionView';
import type { ThemeKind } from '../../src/shared/protocol';
import type { ExplorerSurface } from '../../src/extension/explorer/explorerHtml';
import { ExplorerPage, RESULTS_DIR, launchChromium } from './support/explorerPage';
import { demoSession } from './support/sessions';

const ROOT = resolve(__dirname, '../..');
let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

async function openDemo(surface: ExplorerSurface, width: number, height: number, theme: ThemeKind): Promise<ExplorerPage> {
  const explorer = await ExplorerPage.open(browser, { surface, width, height, theme });
  await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(await demoSession()) });
  await explorer.showTab('branchTree');
  await explorer.waitForDiagram('branchTree', '.graph-row[data-node-id="t11"]');
  return explorer;
}

interface RowBox {
  seq: number;
  text: string;
  fontPx: number;
  inside: boolean;
  textWidth: number;
}

/**
 * Every row of the branch tree in the DOM: its text, font size, whether it is inside the canvas, and how much of its
 * thought's text shows: the text's width up to where the row's line ends (its padding, or a mark floated at its end).
 */
async function rowBoxes(explorer: ExplorerPage): Promise<RowBox[]> {
  return explorer.page.evaluate(() => {
    const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .diagram-canvas');
    if (!canvas) return [];
    const view = canvas.getBoundingClientRect();
    return [...canvas.querySelectorAll<HTMLElement>('.graph-row')].map((row) => {
      const box = row.getBoundingClientRect();
      const text = row.querySelector<HTMLElement>('.row-text');
      let lineEnd = box.right - Number.parseFloat(getComputedStyle(row).paddingRight);
      for (const mark of row.querySelectorAll('.graph-mark')) lineEnd = Math.min(lineEnd, mark.getBoundingClientRect().left);
      const textBox = text?.getBoundingClientRect();
      return {
        seq: Number(row.dataset.seq),
        text: row.textContent ?? '',
        fontPx: Number.parseFloat(getComputedStyle(text ?? row).fontSize),
        inside:
          box.width > 0 &&
          box.left >= view.left - 0.5 &&
          box.right <= view.right + 0.5 &&
          box.top >= view.top - 0.5 &&
          box.bottom <= view.bottom + 0.5,
        textWidth: textBox === undefined ? 0 : Math.max(0, Math.min(textBox.right, lineEnd) - textBox.left),
      };
    });
  });
}

async function saveDocs(explorer: ExplorerPage, name: string): Promise<void> {
  const path = await explorer.screenshot(name);
  if (process.env.THOUGHT_EXPLORER_UPDATE_DOCS === '1') copyFileSync(path, join(ROOT, 'docs', `${name}.png`));
}

describe('branch tree at its default view', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`shows the demo session's whole shape in the panel (1400×900, ${theme}) with labels of at least 12 px`, async () => {
      const explorer = await openDemo('panel', 1400, 900, theme);
      try {
        const visible = (await rowBoxes(explorer)).filter((row) => row.inside);
        for (const branch of ['cache-key', 'runner-image'])
          assert.ok(
            visible.some((row) => row.text.includes(`branch ${branch} from #6`)),
            `branch ${branch} on screen: ${visible.map((row) => row.text).join(' | ')}`,
          );
        // The whole structure: every thought's row in view, from #1 to the final #12.
        assert.equal(visible.length, 12);
        for (const row of visible) assert.ok(row.fontPx >= 12, `${row.text}: ${row.fontPx} px`);
        await saveDocs(explorer, `branch-tree-${theme}`);
      } finally {
        await explorer.close();
      }
    });
  }

  it('opens readable in a 300 px sidebar: 12 px labels, no sideways scroll', async () => {
    const explorer = await openDemo('view', 300, 900, 'dark');
    try {
      await explorer.page.locator('section.diagram-branchTree').scrollIntoViewIfNeeded();
      const visible = (await rowBoxes(explorer)).filter((row) => row.inside);
      assert.ok(visible.length >= 4, `${visible.length} rows in view`);
      for (const row of visible) assert.ok(row.fontPx >= 12, `${row.text}: ${row.fontPx} px`);
      // The stage tag gives way before the thought's text: a few words of it, not one (the text held at its 4em minimum
      // while the tag kept the rest: 80 px of text beside "observation reception").
      for (const row of visible) assert.ok(row.textWidth >= 95, `${row.text}: its text ${row.textWidth} px wide`);
      const overflow = await explorer.page.evaluate(() => {
        const canvas = document.querySelector<HTMLElement>('section.diagram-branchTree .diagram-canvas');
        return {
          canvas: (canvas?.scrollWidth ?? 0) - (canvas?.clientWidth ?? 0),
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      assert.deepEqual(overflow, { canvas: 0, page: 0 });
      await saveDocs(explorer, 'branch-tree-sidebar');
    } finally {
      await explorer.close();
    }
  });

  it("shows a feedback mark as its icon in a 300 px sidebar (its words in the tooltip and the row's name), in words when wide", async () => {
    const engine = new ThinkingEngine({ log: () => {} });
    let id = '';
    for (let n = 1; n <= 4; n++) {
      const outcome = engine.process('marks', {
        strategy: 'react',
        thought: `Thought ${n}: compare the step timings of the last fast build with the first slow one`,
        thoughtNumber: n,
        totalThoughts: 6,
        nextThoughtNeeded: true,
      });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      id = outcome.reply.sessionId;
      if (n === 3) assert.ok(engine.addFeedback(id, { kind: 'reject', thoughtNumber: 3, text: 'Not the timings.' }).ok);
    }
    const session = engine.getSession(id) as SessionSnapshot;
    const markOn = async (width: number) => {
      const explorer = await ExplorerPage.open(browser, { surface: width < 600 ? 'view' : 'panel', width, height: 900, theme: 'dark' });
      try {
        await explorer.send({ type: 'snapshot', mode: 'pinned', session: toSessionView(session) });
        await explorer.showTab('branchTree');
        await explorer.waitForDiagram('branchTree', '.graph-row[data-seq="2"] .graph-mark');
        if (width < 600) await explorer.screenshot('branch-tree-mark-sidebar');
        const mark = await explorer.page.evaluate(() => {
          const row = document.querySelector<HTMLElement>('section.diagram-branchTree .graph-row[data-seq="2"]');
          const chip = row?.querySelector<HTMLElement>('.graph-mark');
          return {
            markWidth: chip?.getBoundingClientRect().width ?? 0,
            markText: chip?.innerText.trim() ?? '',
            title: chip?.title ?? '',
            name: row?.getAttribute('aria-label') ?? '',
          };
        });
        return { ...mark, textWidth: (await rowBoxes(explorer)).find((row) => row.seq === 2)?.textWidth ?? 0 };
      } finally {
        await explorer.close();
      }
    };
    const narrow = await markOn(300);
    assert.ok(narrow.markWidth <= 28, `the mark is its icon: ${narrow.markWidth} px, "${narrow.markText}"`);
    assert.equal(narrow.markText, '');
    assert.match(narrow.title, /^rejected, \w/);
    assert.match(narrow.name, /feedback: rejected, /);
    assert.ok(narrow.textWidth >= 95, `the thought's text keeps ${narrow.textWidth} px`);
    const wide = await markOn(1400);
    assert.ok(wide.markText.length > 3, `in a wide panel the mark has its words: "${wide.markText}"`);
  });

  it('gives the text the room: a wide pane shows more of each thought than a narrow one', async () => {
    const widthIn = async (width: number): Promise<number> => {
      const explorer = await openDemo('panel', width, 900, 'dark');
      try {
        const rows = await rowBoxes(explorer);
        return rows[0].textWidth;
      } finally {
        await explorer.close();
      }
    };
    const narrow = await widthIn(700);
    const wide = await widthIn(1400);
    assert.ok(wide > narrow, `wide ${wide} > narrow ${narrow}`);
  });

  it('fills the selected row with the theme selection colour in the light theme', async () => {
    const explorer = await openDemo('panel', 1400, 900, 'light');
    try {
      await explorer.page.locator('section.diagram-branchTree .graph-row').nth(2).click();
      await explorer.page.waitForSelector('section.diagram-branchTree .graph-row.selected-node');
      const fill = await explorer.page.evaluate(() => {
        const row = document.querySelector('section.diagram-branchTree .graph-row.selected-node');
        return row ? getComputedStyle(row).backgroundColor : '';
      });
      assert.equal(fill, 'rgb(228, 230, 241)', 'list.inactiveSelectionBackground of the light theme');
    } finally {
      await explorer.close();
    }
  });
});

/** WCAG relative luminance contrast of two `rgb()` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string): number => {
    const [r, g, bl] = (colour.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

interface FigureColours {
  key: string | undefined;
  body: string;
  nodes: { fill: string; text: string }[];
  height: number;
}

/** Each figure shown as an image, opened as a document of its own in `colorScheme`, where its colours can be read. */
async function prerenderedFigures(browser: Browser, page: Page, colorScheme: 'light' | 'dark'): Promise<FigureColours[]> {
  const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const figures = await page.locator('figure:has(img.diagram-img)').evaluateAll((found) =>
    found.map((figure) => {
      const image = figure.querySelector('img.diagram-img') as HTMLImageElement | null;
      return { key: (figure as HTMLElement).dataset.diagram, src: image?.src ?? '', height: image?.getBoundingClientRect().height ?? 0 };
    }),
  );
  const context = await browser.newContext({ colorScheme });
  try {
    const results: FigureColours[] = [];
    for (const figure of figures) {
      assert.match(figure.src, /^data:image\/svg\+xml;base64,/, `${figure.key} is a pre-rendered image`);
      const file = join(RESULTS_DIR, `prerendered-${figure.key}.svg`);
      writeFileSync(file, Buffer.from(figure.src.slice(figure.src.indexOf(',') + 1), 'base64'));
      const svgPage = await context.newPage();
      await svgPage.goto(pathToFileURL(file).href);
      const nodes = await svgPage.evaluate(() =>
        [...document.querySelectorAll('g.node')].map((node) => {
          // A Mermaid node's own shape; a thought row's background is the drawing's row pattern (one for every row).
          const shape = node.querySelector('rect, polygon, path') ?? document.querySelector('pattern rect.row');
          const label = node.querySelector('.nodeLabel') ?? node;
          return { fill: shape ? getComputedStyle(shape).fill : '', text: getComputedStyle(label).color };
        }),
      );
      results.push({ key: figure.key, body, nodes, height: figure.height });
    }
    return results;
  } finally {
    await context.close();
  }
}

describe('HTML export in both colour schemes', () => {
  const darkness = (colour: string): boolean => contrast(colour, 'rgb(0, 0, 0)') < contrast(colour, 'rgb(255, 255, 255)');

  // The pre-rendered path: the SVGs the explorer draws for an export (in its own dark theme), shown as images; each
  // image is also opened as a document of its own, where its shapes' computed colours can be read.
  for (const prerendered of [false, true]) {
    it(`colours all three diagrams from the page's scheme (${prerendered ? 'SVGs pre-rendered in a dark editor' : 'drawn on opening'})`, async () => {
      const snapshot = await demoSession();
      mkdirSync(RESULTS_DIR, { recursive: true });
      let svgs: Record<string, string> | undefined;
      if (prerendered) {
        const explorer = await ExplorerPage.open(browser, { theme: 'dark', surface: 'panel', width: 1400, height: 900 });
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
      }
      const html = await exportSession(snapshot, 'html', svgs ? { svgs } : {});
      const file = join(RESULTS_DIR, `demo-export${prerendered ? '-prerendered' : ''}.html`);
      writeFileSync(file, html);
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ colorScheme, javaScriptEnabled: true, viewport: { width: 1200, height: 900 } });
        const page = await context.newPage();
        try {
          await page.goto(pathToFileURL(file).href);
          // Drawn on opening, the page says when it is done; pre-rendered, there is no script: the images load.
          if (prerendered)
            await page
              .locator('img.diagram-img')
              .evaluateAll((images) => Promise.all(images.map((image) => (image as HTMLImageElement).decode())));
          else await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
          // Drawn on opening, only the stage graph is drawn in the page; the thought drawing is an image either way.
          const result = prerendered
            ? await prerenderedFigures(browser, page, colorScheme)
            : await page.evaluate(() =>
                [...document.querySelectorAll<HTMLElement>('figure:not(:has(img.diagram-img))')].map((figure) => {
                  const body = getComputedStyle(document.body).backgroundColor;
                  const nodes = [...figure.querySelectorAll('g.node')].map((node) => {
                    const shape = node.querySelector('rect, polygon, path');
                    const label = node.querySelector('.nodeLabel') ?? node;
                    return { fill: shape ? getComputedStyle(shape).fill : '', text: getComputedStyle(label).color };
                  });
                  const svg = figure.querySelector('svg');
                  return { key: figure.dataset.diagram, body, nodes, height: svg?.getBoundingClientRect().height ?? 0 };
                }),
              );
          if (!prerendered) result.push(...(await prerenderedFigures(browser, page, colorScheme)));
          assert.equal(result.length, 3);
          for (const figure of result) {
            assert.ok(figure.nodes.length > 0, `${figure.key} drawn`);
            for (const node of figure.nodes) {
              assert.equal(darkness(node.fill), colorScheme === 'dark', `${figure.key} node fill ${node.fill} in ${colorScheme}`);
              assert.ok(contrast(node.fill, node.text) >= 4.5, `${figure.key}: ${node.text} on ${node.fill} in ${colorScheme}`);
            }
            assert.equal(darkness(figure.body), colorScheme === 'dark');
          }
          const tree = result.find((figure) => figure.key === 'branchTree');
          assert.ok(tree && tree.height > 0 && tree.height < 1_200, `branch tree ${tree?.height} px tall for 12 thoughts`);
          await page.screenshot({
            path: join(RESULTS_DIR, `demo-export-${colorScheme}${prerendered ? '-prerendered' : ''}.png`),
            fullPage: false,
          });
        } finally {
          await context.close();
        }
      }
    });
  }
});
