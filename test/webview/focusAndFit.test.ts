// Small things a person notices at once, in Chromium on the explorer bundle: every control the keyboard reaches shows a
// focus ring in VS Code's focusBorder colour (the branch-name field's ring was the browser's default, invisible on dark
// themes); the branch-name field starts selected, so typing replaces the suggested name; the sidebar (300 px) never
// scrolls sideways; the replay's play button says the same thing to the eye, the tooltip and a screen reader.
// Screenshots of the focused branch-name field (dark and light) go to test-results/webview/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ThinkingEngine } from '../../src/engine/engine';
import type { SessionSnapshot } from '../../src/engine/model';
import type { ThemeKind } from '../../src/shared/protocol';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { demoSession } from './support/sessions';
import { THEMES } from './support/themes';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

function liveSession(): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  for (let number = 1; number <= 4; number++)
    engine.process('c', {
      sessionId: 'focus',
      thought: `Step ${number}: a thought long enough to wrap onto a second line in a narrow sidebar view of the explorer.`,
      thoughtNumber: number,
      totalThoughts: 6,
      nextThoughtNeeded: true,
    });
  const snapshot = engine.getSession('focus');
  assert.ok(snapshot);
  return snapshot;
}

/** "#0078d4" → "rgb(0, 120, 212)", as getComputedStyle writes colours. */
function rgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1, 7), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

/** The ring the focused element shows: its own outline, or the outline of the focused element inside its shadow root. */
async function focusRing(explorer: ExplorerPage): Promise<{ what: string; style: string; width: number; color: string }> {
  return explorer.page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element) return { what: 'nothing', style: 'none', width: 0, color: '' };
    const style = getComputedStyle(element);
    const host = (element.getRootNode() as ShadowRoot).host;
    return {
      what: `${host ? `${host.tagName.toLowerCase()}.${host.className} > ` : ''}${element.tagName.toLowerCase()}.${element.className}`,
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
      color: style.outlineColor,
    };
  });
}

describe('focus, selection and fit (Chromium)', () => {
  for (const theme of ['dark', 'light', 'highContrast'] as ThemeKind[]) {
    it(`starts the branch-name field selected, and rings it and the note field in the theme's focusBorder colour (${theme})`, async () => {
      const explorer = await ExplorerPage.openWith(browser, liveSession(), { theme, surface: 'panel', width: 1280, height: 820 });
      try {
        const page = explorer.page;
        const focusBorder = rgb(THEMES[theme]['vscode-focusBorder']);
        await page.waitForSelector('.thought-card[data-seq="3"] vscode-button.feedback-branch');
        await page.click('.thought-card[data-seq="3"] vscode-button.feedback-branch');
        const field = page.locator('.feedback-input-branch');
        await field.waitFor();
        // Starts selected: typing replaces the suggested name.
        assert.deepEqual(
          await field.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd, input.value.length]),
          [0, 'alt-4'.length, 'alt-4'.length],
        );
        await page.keyboard.type('cache-by-os');
        assert.equal(await field.inputValue(), 'cache-by-os');
        assert.deepEqual(await focusRing(explorer), {
          what: 'input.feedback-input feedback-input-branch',
          style: 'solid',
          width: 1,
          color: focusBorder,
        });
        await page.locator('.thought-card[data-seq="3"]').screenshot({ path: `test-results/webview/focus-branch-name-${theme}.png` });
        // Tab on through the form and the panel below: every stop shows the theme's ring.
        await page.focus('.feedback-note-input');
        assert.deepEqual(
          { ...(await focusRing(explorer)), what: undefined },
          { what: undefined, style: 'solid', width: 1, color: focusBorder },
          'note field',
        );
        await page.keyboard.press('Escape');
        assert.deepEqual(explorer.record.pageErrors, []);
      } finally {
        await explorer.close();
      }
    });
  }

  it('never scrolls the sidebar sideways: a finished session on each tab, a replay, a live one with a feedback form open', async () => {
    const longWord = liveSession();
    longWord.thoughts[1] = {
      ...longWord.thoughts[1],
      thought: `See https://example.com/${'a-very-long-path-segment/'.repeat(8)} and ${'x'.repeat(90)}`,
    };
    for (const theme of ['dark', 'light'] as ThemeKind[]) {
      for (const width of [300, 240]) {
        const scenes: [string, SessionSnapshot, 'live' | 'replay'][] = [
          ['finished', await demoSession(), 'live'],
          ['replay', await demoSession(), 'replay'],
          ['live', longWord, 'live'],
        ];
        for (const [scene, snapshot, mode] of scenes) {
          const explorer = await ExplorerPage.openWith(browser, snapshot, { theme, surface: 'view', width, height: 800 }, mode);
          try {
            const page = explorer.page;
            await explorer.waitForDiagram('stageGraph', 'g.node');
            if (mode === 'replay') await page.keyboard.press('End');
            if (scene === 'live') {
              await page.click('.thought-card[data-seq="3"] vscode-button.feedback-reject');
              await page.locator('.feedback-input-reject').waitFor();
            }
            for (const tab of ['stageGraph', 'branchTree', 'revisionChain'] as const) {
              await explorer.showTab(tab);
              // The stage graph is Mermaid's (g.node); the thought drawing draws rows.
              await explorer.waitForDiagram(tab, tab === 'stageGraph' ? 'g.node' : '.graph-row');
              const wide = await page.evaluate(() => {
                const out: string[] = [];
                const root = document.scrollingElement;
                if (root && root.scrollWidth > root.clientWidth) {
                  // Name the outermost elements that stick out, so a failure says what to fix.
                  const sticking = [...document.querySelectorAll<HTMLElement>('body *')].filter(
                    (element) => element.getBoundingClientRect().right > root.clientWidth + 1 && element.getClientRects().length > 0,
                  );
                  const outermost = sticking.filter((element) => !sticking.some((other) => other !== element && other.contains(element)));
                  out.push(
                    `page ${root.scrollWidth} > ${root.clientWidth}: ${outermost.map((element) => `${element.tagName.toLowerCase()}.${element.className}`).join(', ')}`,
                  );
                }
                for (const element of document.querySelectorAll<HTMLElement>('body *')) {
                  const overflowX = getComputedStyle(element).overflowX;
                  if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1)
                    out.push(`${element.tagName.toLowerCase()}.${element.className} ${element.scrollWidth} > ${element.clientWidth}`);
                }
                return out;
              });
              assert.deepEqual(wide, [], `${theme}, ${width} px, ${scene}, ${tab}: sideways scrolling`);
            }
            if (width === 300) await explorer.screenshot(`sidebar-fit-${scene}-${theme}`);
          } finally {
            await explorer.close();
          }
        }
      }
    }
  });

  it('names the play button as it looks: Play, then Pause while playing, to the eye, the tooltip and a screen reader', async () => {
    const explorer = await ExplorerPage.openWith(browser, await demoSession(), { surface: 'panel', width: 1280, height: 820 }, 'replay');
    try {
      const page = explorer.page;
      const play = page.locator('.replay-play');
      await play.waitFor();
      const names = () =>
        play.evaluate(async (button) => {
          // The toolkit's element renders its inner button on its own update cycle.
          await (button as unknown as { updateComplete: Promise<unknown> }).updateComplete;
          return {
            icon: button.getAttribute('icon'),
            title: button.getAttribute('title'),
            ariaLabel: button.getAttribute('aria-label'),
            // What the focusable button inside reads out.
            inner: button.shadowRoot?.querySelector('button')?.getAttribute('aria-label'),
          };
        });
      assert.deepEqual(await names(), { icon: 'debug-start', title: 'Play (Space)', ariaLabel: 'Play (Space)', inner: 'Play (Space)' });
      await play.click();
      await page.waitForSelector('.replay-bar[data-playing="true"]');
      assert.deepEqual(await names(), { icon: 'debug-pause', title: 'Pause (Space)', ariaLabel: 'Pause (Space)', inner: 'Pause (Space)' });
      assert.equal(await page.getByRole('button', { name: 'Pause (Space)' }).count(), 1);
    } finally {
      await explorer.close();
    }
  });
});
