// A hand for in-editor tests inside the explorer webview: the extension host cannot reach a webview's DOM, so the
// test runner (which holds the workbench page in Playwright) listens on a loopback port behind a random token and
// performs what a suite asks — fill, press, click, wait for a selector, read texts — in the explorer's own frame (or
// the workbench page: status bar, notifications), as a person would with mouse and keyboard, and measures what a person
// would see of the thought drawing (`measureGraph`: where each row of a tab is drawn, its label size, whether the newest
// row is on screen), answered as JSON. The suite learns the address and token from the environment
// (THOUGHT_EXPLORER_WEBVIEW_DRIVER, THOUGHT_EXPLORER_WEBVIEW_DRIVER_TOKEN); see test/vscode/suite/support.ts.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const FRAME_TIMEOUT_MS = 30_000;
const ACTION_TIMEOUT_MS = 20_000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The frame of the explorer webview on `surface` ('view': the sidebar, 'panel': an editor panel), or the workbench
 * page itself ('workbench': the status bar, notifications).
 */
export async function explorerFrame(page, surface, timeoutMs = FRAME_TIMEOUT_MS) {
  if (surface === 'workbench') return page.mainFrame();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        // Evaluated in the frame (text, so this Node script names no browser globals).
        const found = await frame.evaluate(
          `document.querySelector('#app .thought-cards') !== null && document.body.dataset.surface === ${JSON.stringify(surface)}`,
        );
        if (found) return frame;
      } catch {
        // A frame that navigated or went away meanwhile.
      }
    }
    if (Date.now() > deadline) throw new Error(`no explorer webview (${surface}) appeared within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** For a failed step: what each explorer frame shows (surface, header, steering panel), so a failure says where it was. */
async function describeFrames(page) {
  const lines = [];
  for (const frame of page.frames()) {
    try {
      const state = await frame.evaluate(`(() => {
        if (!document.querySelector('#app .thought-cards')) return null;
        const panel = document.querySelector('.feedback-panel');
        const header = document.querySelector('header');
        return 'explorer frame: surface ' + document.body.dataset.surface + ', header "' +
          (header ? header.innerText.replace(/\\s+/g, ' ').slice(0, 160) : '') + '", steering panel ' +
          (panel ? (panel.hidden ? 'hidden' : 'shown') : 'absent') + ', ' + document.querySelectorAll('.thought-card').length + ' cards';
      })()`);
      if (state) lines.push(state);
    } catch {
      // A frame that navigated or went away meanwhile.
    }
  }
  return lines.length > 0 ? lines.join('\n') : 'no explorer frame';
}

/** What a `waitFor` step may wait for (Playwright's element states); `attached` unless the step says otherwise. */
const WAIT_STATES = new Set(['attached', 'detached', 'visible', 'hidden']);

/** One step in the frame. */
async function perform(frame, step) {
  // Strict: a selector that matches two elements is the test's mistake, never "the first one wins" (which element
  // comes first can change from run to run).
  const options = { timeout: ACTION_TIMEOUT_MS, strict: true };
  switch (step.op) {
    case 'fill':
      return frame.fill(step.selector, String(step.text ?? ''), options);
    case 'press':
      return frame.press(step.selector, String(step.key), options);
    case 'click':
      return frame.click(step.selector, options);
    case 'waitFor':
      return frame.waitForSelector(step.selector, { ...options, state: WAIT_STATES.has(step.state) ? step.state : 'attached' });
    // The text of every element the selector matches (none: an empty list), e.g. the notifications on screen.
    case 'texts':
      return frame.locator(step.selector).allTextContents();
    case 'measureGraph':
      return measureGraph(frame, step.selector);
    default:
      throw new Error(`unknown step ${JSON.stringify(step.op)}`);
  }
}

/**
 * Where a thought drawing's rows are, in the drawing's own coordinates (scroll-independent), with their label size and
 * the newest row's visibility. Runs in the webview frame; text, so this Node script names no browser globals.
 */
const MEASURE_GRAPH = `(selector) => {
  const section = document.querySelector(selector);
  const canvas = section?.querySelector('.graph-canvas');
  if (!canvas) return { rows: [], newestInView: false, overflow: 0, renders: 0 };
  const box = canvas.getBoundingClientRect();
  const rows = [...canvas.querySelectorAll('.graph-row')].map((row) => {
    const rect = row.getBoundingClientRect();
    const text = row.querySelector('.row-text') ?? row;
    return {
      seq: Number(row.dataset.seq),
      top: Math.round((rect.top - box.top + canvas.scrollTop) * 10) / 10,
      left: Math.round((rect.left - box.left) * 10) / 10,
      height: Math.round(rect.height * 10) / 10,
      fontPx: parseFloat(getComputedStyle(text).fontSize),
    };
  });
  const newest = rows.reduce((last, row) => (row.seq > last ? row.seq : last), -1);
  const newestRect = canvas.querySelector(\`.graph-row[data-seq="\${newest}"]\`)?.getBoundingClientRect();
  const newestInView =
    newestRect !== undefined && newestRect.top >= box.top - 0.5 && newestRect.bottom <= box.bottom + 0.5 && box.height > 0;
  // On screen: what a person sees at the row's top and bottom edge is the row, not the sticky header, the steering box
  // or nothing (the page scrolled it out of the window).
  const newestRow = canvas.querySelector(\`.graph-row[data-seq="\${newest}"]\`);
  const seenAt = (y) => {
    const hit = newestRect ? document.elementFromPoint(newestRect.left + Math.min(40, newestRect.width / 2), y) : null;
    return hit !== null && newestRow.contains(hit);
  };
  const newestOnScreen = newestRect !== undefined && seenAt(newestRect.top + 2) && seenAt(newestRect.bottom - 2);
  return {
    rows,
    newestInView,
    newestOnScreen,
    overflow: canvas.scrollWidth - canvas.clientWidth + (document.documentElement.scrollWidth - document.documentElement.clientWidth),
    renders: Number(section.dataset.renders ?? 0),
  };
}`;

/** Measures the thought drawing in `frame` whose section `selector` names (section.diagram-branchTree). */
export function measureGraph(frame, selector) {
  // Text, so this Node script names no browser globals.
  return frame.evaluate(`(${MEASURE_GRAPH})(${JSON.stringify(selector)})`);
}

/**
 * Starts the driver on 127.0.0.1. `attach(page)` gives it the workbench page; `env` goes to code-server (and so to the
 * extension host); `close()` stops it.
 */
export async function startWebviewDriver(log) {
  const token = randomBytes(24).toString('hex');
  let page;
  const authorized = (request) => {
    const expected = Buffer.from(`Bearer ${token}`);
    const given = Buffer.from(request.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const server = createServer(async (request, response) => {
    const answer = (status, text) => response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    try {
      if (request.method !== 'POST' || request.url !== '/steps') return answer(404, 'no such endpoint');
      if (!authorized(request)) return answer(401, 'refused');
      const chunks = [];
      let size = 0;
      for await (const chunk of request) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) return answer(413, 'too large');
        chunks.push(chunk);
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!page) throw new Error('the workbench page is not open yet');
      const surface = ['panel', 'workbench'].includes(body.surface) ? body.surface : 'view';
      const frame = await explorerFrame(page, surface);
      // What each step gave back (texts for 'texts', null otherwise), as JSON.
      const results = [];
      for (const step of Array.isArray(body.steps) ? body.steps : []) {
        try {
          results.push((await perform(frame, step)) ?? null);
        } catch (error) {
          throw new Error(`${error instanceof Error ? error.message : String(error)}\n${await describeFrames(page)}`, { cause: error });
        }
      }
      return answer(200, JSON.stringify(results));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log?.(`webview driver: ${message}`);
      return answer(500, message);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    env: { THOUGHT_EXPLORER_WEBVIEW_DRIVER: `http://127.0.0.1:${port}`, THOUGHT_EXPLORER_WEBVIEW_DRIVER_TOKEN: token },
    attach(workbenchPage) {
      page = workbenchPage;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
