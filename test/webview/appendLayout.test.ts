// Adding a live thought must not measure the page: every layout read (or scroll, which needs an up-to-date layout) made
// while a thought is handled forces Chromium to lay the whole page out again, once per thought. Following the newest
// card and row is done in the next frame instead, once however many thoughts arrived. Real Chromium; the layout reads
// are counted by wrapping the DOM's own measuring properties and methods, during a burst handled synchronously.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ExplorerPage, launchChromium } from './support/explorerPage';
import { reactSession } from './support/sessions';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser.close();
});

/** Wraps what measures or scrolls an element so that calls made while `window.__counting` is set are named. */
const COUNT_LAYOUT_READS = `
  window.__layoutReads = [];
  const note = (name) => { if (window.__counting) window.__layoutReads.push(name); };
  const wrapGetter = (proto, name) => {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, {
      ...descriptor,
      get() { note(name); return descriptor.get.call(this); },
      set: descriptor.set && function (value) { note(name + '='); descriptor.set.call(this, value); },
    });
  };
  const wrapMethod = (proto, name) => {
    const original = proto[name];
    proto[name] = function (...args) { note(name); return original.apply(this, args); };
  };
  for (const name of ['clientWidth', 'clientHeight', 'scrollTop', 'scrollLeft', 'scrollWidth', 'scrollHeight'])
    wrapGetter(Element.prototype, name);
  for (const name of ['offsetWidth', 'offsetHeight', 'offsetTop', 'offsetLeft']) wrapGetter(HTMLElement.prototype, name);
  for (const name of ['getBoundingClientRect', 'getClientRects', 'scrollTo', 'scrollBy', 'scrollIntoView'])
    wrapMethod(Element.prototype, name);
`;

describe('adding a live thought', () => {
  for (const tab of ['branchTree', 'revisionChain'] as const) {
    it(`measures nothing while a burst of thoughts is handled, then follows the newest card and row (${tab})`, async () => {
      const full = reactSession({ thoughts: 60 });
      const explorer = await ExplorerPage.openWith(browser, { ...full, thoughts: full.thoughts.slice(0, 30) }, { width: 1200 });
      try {
        await explorer.showTab(tab);
        await explorer.waitForDiagram(tab, '.graph-row[data-seq="29"]');
        await explorer.page.evaluate(COUNT_LAYOUT_READS);
        const reads = await explorer.page.evaluate(
          (thoughts) => {
            const page = window as unknown as { __counting: boolean; __layoutReads: string[] };
            page.__counting = true;
            // Dispatched, not posted: all thirty are handled in this one task, before any frame.
            for (const data of thoughts) window.dispatchEvent(new MessageEvent('message', { data }));
            page.__counting = false;
            return page.__layoutReads;
          },
          full.thoughts.slice(30).map((thought) => ({ type: 'thoughtAdded', sessionId: full.meta.id, meta: full.meta, thought })),
        );
        assert.deepEqual(reads, [], `layout read while thoughts were added: ${[...new Set(reads)].join(', ')}`);

        // The next frames follow: the newest card is scrolled to and the newest row is drawn inside the view.
        await explorer.page.waitForFunction(() => document.querySelector<HTMLElement>('[data-followed-seq]')?.dataset.followedSeq === '59');
        await explorer.waitForDiagram(tab, '.graph-row[data-seq="59"]');
        const inView = await explorer.page.evaluate((kind) => {
          const canvas = document.querySelector<HTMLElement>(`section.diagram-${kind} .graph-canvas`);
          const row = document.querySelector<HTMLElement>(`section.diagram-${kind} .graph-row[data-seq="59"]`);
          if (!canvas || !row) return false;
          const area = canvas.getBoundingClientRect();
          const box = row.getBoundingClientRect();
          return box.top >= area.top && box.bottom <= area.bottom;
        }, tab);
        assert.ok(inView, 'the newest row is inside the drawing’s view');
      } finally {
        await explorer.close();
      }
    });
  }
});
