// Benchmark section: the explorer webview in headless Chromium (the built bundle, the extension's HTML and CSP, fed
// through the shared protocol). Measures each diagram's first drawing at 50, 200 and 1,000 thoughts, and the thought →
// redraw latency at 100 thoughts: how long from the host posting a `thoughtAdded` until the frame that shows it (card +
// stage graph, and the new row of the thought drawing). Then the thought drawing's figures (thoughtGraph.ts): 1,000
// and 10,000 thoughts opened and scrolled, and their HTML export drawn.
import { stageGraphState, stageNodeId } from '../src/diagrams/stageGraph';
import type { SessionSnapshot } from '../src/engine/model';
import { toSessionView } from '../src/extension/explorer/sessionView';
import type { HostMessage } from '../src/shared/protocol';
import { ExplorerPage, launchChromium } from '../test/webview/support/explorerPage';
import { reactSession } from '../test/webview/support/sessions';
import { thoughtGraphFigures } from './thoughtGraph';
import { formatMs, percentile, type BenchCheck, type BenchSection } from './section';

const SIZES = [50, 200, 1_000] as const;
const LATENCY_BASE = 100;
const LATENCY_SAMPLES = 30;
const REDRAW_TARGET_MS = 100;

/**
 * Posts `message` into the page and resolves with the milliseconds until `selector` matches and the next frame has
 * been produced. Measured inside the page (performance.now), so no round trip to Node is counted.
 */
async function timeUntil(explorer: ExplorerPage, message: HostMessage, selector: string, timeoutMs = 300_000): Promise<number> {
  return explorer.page.evaluate(
    ([data, wanted, timeout]) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        const app = document.getElementById('app') ?? document.body;
        let finished = false;
        const finish = (): void => {
          if (finished) return;
          finished = true;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - start));
        };
        const observer = new MutationObserver(() => {
          if (document.querySelector(wanted)) finish();
        });
        observer.observe(app, { subtree: true, childList: true, attributes: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`timed out waiting for ${wanted}`));
        }, timeout);
        window.postMessage(data, '*');
      }),
    [message, selector, timeoutMs] as const,
  );
}

async function timeClick(explorer: ExplorerPage, clickSelector: string, selector: string, timeoutMs = 300_000): Promise<number> {
  return explorer.page.evaluate(
    ([target, wanted, timeout]) =>
      new Promise<number>((resolve, reject) => {
        const element = document.querySelector<HTMLElement>(target);
        if (!element) return reject(new Error(`nothing to click at ${target}`));
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (!document.querySelector(wanted)) return;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - start));
        });
        observer.observe(document.getElementById('app') ?? document.body, { subtree: true, childList: true, attributes: true });
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${wanted}`)), timeout);
        element.click();
      }),
    [clickSelector, selector, timeoutMs] as const,
  );
}

/** A node of the stage graph (Mermaid's SVG), or a thought's row in the thought drawing. */
const nodeSelector = (kind: string, nodeId: string): string =>
  kind === 'stageGraph'
    ? `section.diagram-${kind} .diagram-canvas g.node[id*="-flowchart-${nodeId}-"]`
    : `section.diagram-${kind} .graph-row[data-node-id="${nodeId}"]`;

/** Renders a small session once so Mermaid's one-time setup is not counted in the first measurement. */
export async function warmUp(explorer: ExplorerPage): Promise<void> {
  const small = reactSession({ thoughts: 6, sessionId: 'warm-up' });
  await explorer.send({ type: 'snapshot', mode: 'live', session: toSessionView(small) });
  for (const kind of ['stageGraph', 'branchTree', 'revisionChain'] as const) {
    await explorer.showTab(kind);
    await explorer.waitForDiagram(kind, kind === 'stageGraph' ? 'g.node' : '.graph-row');
  }
  await explorer.showTab('stageGraph');
}

interface RenderRow {
  thoughts: number;
  stageGraph: number;
  branchTree: number;
  revisionChain: number;
  /** Rows the branch tree holds (every thought; only those near the view are in the DOM). */
  rows: number;
}

async function renderTimes(explorer: ExplorerPage, snapshot: SessionSnapshot): Promise<RenderRow> {
  const count = snapshot.thoughts.length;
  const last = `t${count - 1}`;
  const current = stageNodeId(snapshot.meta.stage ?? '');
  // Start on the stage graph tab: the snapshot draws the stage graph, then each other tab is drawn when shown.
  await explorer.showTab('stageGraph');
  const stageGraph = await timeUntil(
    explorer,
    { type: 'snapshot', mode: 'live', session: toSessionView(snapshot) },
    `${nodeSelector('stageGraph', current)}.current`,
  );
  const branchTree = await timeClick(explorer, 'vscode-tab-header[data-diagram="branchTree"]', nodeSelector('branchTree', last));
  const rows = Number(await explorer.page.getAttribute('section.diagram-branchTree', 'data-rows'));
  // The revision tab draws the same rows (revisions picked out), following the newest.
  const revisionChain = await timeClick(explorer, 'vscode-tab-header[data-diagram="revisionChain"]', nodeSelector('revisionChain', last));
  return { thoughts: count, stageGraph, branchTree, revisionChain, rows };
}

interface LatencyResult {
  /** Stage graph tab on screen: the card and the stage graph's classes/badges for the new thought. */
  stageView: { card: number[]; diagram: number[] };
  /** Branch tree tab on screen: the card, then the new thought's row.  */
  branchView: { card: number[]; diagram: number[] };
}

/**
 * Thought → redraw at about 100 thoughts, one thought at a time: first with the stage graph on screen, then with the
 * branch tree (the costliest live view). Each sample waits for the frame after the condition holds.
 */
export async function redrawLatency(explorer: ExplorerPage): Promise<LatencyResult> {
  const full = reactSession({ thoughts: LATENCY_BASE + 2 * LATENCY_SAMPLES, sessionId: 'latency' });
  const base: SessionSnapshot = { ...full, thoughts: full.thoughts.slice(0, LATENCY_BASE) };
  await explorer.showTab('stageGraph');
  await timeUntil(
    explorer,
    { type: 'snapshot', mode: 'live', session: toSessionView(base) },
    `${nodeSelector('stageGraph', stageNodeId(base.thoughts[LATENCY_BASE - 1].stage ?? ''))}.current`,
  );
  const result: LatencyResult = { stageView: { card: [], diagram: [] }, branchView: { card: [], diagram: [] } };
  for (let seq = LATENCY_BASE; seq < full.thoughts.length; seq++) {
    const onBranchTree = seq >= LATENCY_BASE + LATENCY_SAMPLES;
    if (seq === LATENCY_BASE + LATENCY_SAMPLES) {
      await explorer.showTab('branchTree');
      await explorer.waitForDiagram('branchTree', `.graph-row[data-seq="${seq - 1}"]`);
    }
    const thought = full.thoughts[seq];
    const stage = thought.stage ?? '';
    const visits = stageGraphState({ ...full, thoughts: full.thoughts.slice(0, seq + 1) }).visits[stage] ?? 0;
    const meta = { ...full.meta, stage, thoughtCount: seq + 1, lastThoughtNumber: thought.thoughtNumber };
    const message: HostMessage = { type: 'thoughtAdded', sessionId: full.meta.id, meta, thought };
    const doneSelector = onBranchTree
      ? nodeSelector('branchTree', `t${seq}`)
      : `${nodeSelector('stageGraph', stageNodeId(stage))}.current[aria-label^="${stage}: ${visits} "]`;
    const [card, diagram] = await explorer.page.evaluate(
      ([data, cardSelector, wanted, timeout]) =>
        new Promise<[number, number]>((resolve, reject) => {
          const start = performance.now();
          let cardTime: number | null | undefined;
          let doneTime: number | null | undefined;
          const settle = (): void => {
            if (typeof cardTime === 'number' && typeof doneTime === 'number') {
              clearTimeout(timer);
              resolve([cardTime, doneTime]);
            }
          };
          const frameTime = (set: (value: number) => void): void => {
            requestAnimationFrame(() => {
              set(performance.now() - start);
              settle();
            });
          };
          const check = (): void => {
            if (cardTime === undefined && document.querySelector(cardSelector)) {
              cardTime = null;
              frameTime((value) => (cardTime = value));
            }
            if (doneTime === undefined && document.querySelector(wanted)) {
              doneTime = null;
              observer.disconnect();
              frameTime((value) => (doneTime = value));
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(document.getElementById('app') ?? document.body, { subtree: true, childList: true, attributes: true });
          const timer = setTimeout(() => reject(new Error(`redraw timed out waiting for ${wanted}`)), timeout);
          window.postMessage(data, '*');
        }),
      [message, `.thought-card[data-seq="${seq}"]`, doneSelector, 30_000] as const,
    );
    const target = onBranchTree ? result.branchView : result.stageView;
    target.card.push(card);
    target.diagram.push(diagram);
  }
  return result;
}

function summary(samples: number[]): { p50: number; p95: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = percentile(sorted, 0.5);
  const p95 = percentile(sorted, 0.95);
  return { p50, p95, text: `p50 ${formatMs(p50)}, p95 ${formatMs(p95)}` };
}

export const webviewRenderSection: BenchSection = {
  title: 'Explorer webview rendering (Chromium)',
  async run({ progress }) {
    const browser = await launchChromium();
    const lines: string[] = [];
    const checks: BenchCheck[] = [];
    try {
      const rows: RenderRow[] = [];
      for (const size of SIZES) {
        progress(`rendering a ${size}-thought session`);
        const explorer = await ExplorerPage.open(browser, { surface: 'panel', width: 1280, height: 900 });
        try {
          await warmUp(explorer);
          rows.push(await renderTimes(explorer, reactSession({ thoughts: size, sessionId: `render-${size}` })));
        } finally {
          await explorer.close();
        }
      }
      lines.push('| thoughts | stage graph | branch tree (every row, none folded) | revision tab |');
      lines.push('|---:|---:|---:|---:|');
      for (const row of rows) {
        lines.push(
          `| ${row.thoughts} | ${formatMs(row.stageGraph)} | ${formatMs(row.branchTree)} (${row.rows} rows) | ${formatMs(row.revisionChain)} |`,
        );
      }
      const largest = rows[rows.length - 1];
      checks.push({
        name: 'the 1,000-thought branch tree holds every thought, none folded',
        pass: largest.rows === largest.thoughts,
        detail: `${largest.rows} rows, drawn in ${formatMs(largest.branchTree)}`,
      });

      progress(`thought → redraw latency at ${LATENCY_BASE} thoughts`);
      const explorer = await ExplorerPage.open(browser, { surface: 'view', width: 420, height: 900 });
      try {
        await warmUp(explorer);
        const latency = await redrawLatency(explorer);
        const stageCard = summary(latency.stageView.card);
        const stageDiagram = summary(latency.stageView.diagram);
        const treeCard = summary(latency.branchView.card);
        const treeDiagram = summary(latency.branchView.diagram);
        lines.push('');
        lines.push(
          `Thought → redraw at ${LATENCY_BASE} thoughts (sidebar, ${LATENCY_SAMPLES} thoughts per view, one at a time; time to the frame that shows it):`,
        );
        lines.push(`- stage graph on screen: card ${stageCard.text}; stage graph moved ${stageDiagram.text}`);
        lines.push(`- branch tree on screen: card ${treeCard.text}; new row drawn ${treeDiagram.text}`);
        checks.push({
          name: `thought → redraw p95 ≤ ${REDRAW_TARGET_MS} ms at ${LATENCY_BASE} thoughts (stage graph view)`,
          pass: stageDiagram.p95 <= REDRAW_TARGET_MS,
          detail: `p95 ${formatMs(stageDiagram.p95)}`,
        });
        checks.push({
          name: `thought → redraw p95 ≤ ${REDRAW_TARGET_MS} ms at ${LATENCY_BASE} thoughts (branch tree view)`,
          pass: treeDiagram.p95 <= REDRAW_TARGET_MS,
          detail: `p95 ${formatMs(treeDiagram.p95)}`,
        });
      } finally {
        await explorer.close();
      }
      const graph = await thoughtGraphFigures(browser, progress);
      lines.push(...graph.lines);
      checks.push(...graph.checks);
    } finally {
      await browser.close();
    }
    return { lines, checks };
  },
};
