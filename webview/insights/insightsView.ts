// The explorer's Insights tab: the shown session's figures (revisions, branches, stage loops, pace, feedback, tokens)
// and the figures across saved sessions with a strategy and time-range filter and a bar chart of sessions per
// strategy, drawn as plain SVG coloured by VS Code's chart variables (explorer.css). The host computes every figure;
// this view asks when the tab is shown (and again, throttled, while a live session grows) and draws the answer.
// Every name drawn (strategies, stages) is set as text, never as markup.
import { errorMessage } from '../../src/engine/browserSafe/errorMessage';
import { duration, percent } from '../../src/engine/browserSafe/insightsFormat';
import { PendingRequests } from '../../src/shared/requests';
import type { InsightsMessage, InsightsRange, InsightsRequestFilter, SessionInsightsView } from '../../src/shared/insightsView';
import { shortened } from '../../src/engine/browserSafe/textCut';

const SVG_NS = 'http://www.w3.org/2000/svg';
const RANGE_LABELS: Record<InsightsRange, string> = { all: 'All time', day: 'Last 24 hours', week: 'Last 7 days', month: 'Last 30 days' };
/** Bars drawn at most; the rest are summed into "others". */
const MAX_BARS = 8;
/** A live session asks again at most this often while the tab is shown. */
const REFRESH_MS = 1000;

export class InsightsView {
  readonly tabHeader: HTMLElement;
  readonly panel: HTMLElement;
  private readonly sessionSection: HTMLElement;
  private readonly overallFigures: HTMLElement;
  private readonly chart: HTMLElement;
  private readonly strategySelect: HTMLSelectElement;
  private readonly rangeSelect: HTMLSelectElement;
  private visible = false;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRequestAt = 0;

  /** requestInsights waiting for the host's answer (computed at once from the index; 30 s means it is gone). */
  private readonly requests = new PendingRequests<InsightsMessage>({ what: 'Insights', prefix: 'insights', timeoutMs: 30_000 });

  constructor(private readonly onRequest: (filter: InsightsRequestFilter, requestId: string) => void) {
    this.tabHeader = document.createElement('vscode-tab-header');
    this.tabHeader.setAttribute('slot', 'header');
    this.tabHeader.dataset.tab = 'insights';
    this.tabHeader.textContent = 'Insights';
    this.tabHeader.title = 'Insights: how this session and your saved sessions reasoned';

    this.panel = document.createElement('vscode-tab-panel');
    this.panel.dataset.tab = 'insights';
    const root = document.createElement('section');
    root.className = 'insights';

    this.sessionSection = document.createElement('div');
    this.sessionSection.className = 'insights-session';

    const overall = document.createElement('div');
    overall.className = 'insights-overall';
    const heading = document.createElement('h3');
    heading.textContent = 'Saved sessions';
    const filters = document.createElement('div');
    filters.className = 'insights-filters';
    this.strategySelect = select('insights-strategy', 'Strategy', [['', 'All strategies']]);
    this.rangeSelect = select(
      'insights-range',
      'Time range',
      Object.entries(RANGE_LABELS).map(([value, label]) => [value, label]),
    );
    for (const control of [this.strategySelect, this.rangeSelect]) control.addEventListener('change', () => this.request());
    filters.append(this.strategySelect, this.rangeSelect);
    this.overallFigures = document.createElement('dl');
    this.overallFigures.className = 'insights-figures';
    this.chart = document.createElement('div');
    this.chart.className = 'insights-chart';
    overall.append(heading, filters, this.overallFigures, this.chart);

    root.append(this.sessionSection, overall);
    this.panel.append(root);
  }

  /** Adds the tab after the diagram tabs of `tabs` and follows which tab is selected. */
  /** Adds the tab; `shown` when it opens on screen (restored): the figures are asked for with the first session. */
  attachTo(tabs: HTMLElement, shown = false): void {
    tabs.append(this.tabHeader, this.panel);
    this.visible = shown;
    tabs.addEventListener('vsc-tabs-select', (event) => {
      const index = (event as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      const headers = [...tabs.querySelectorAll(':scope > vscode-tab-header')];
      const shown = headers[index] === this.tabHeader;
      if (shown && !this.visible) {
        this.visible = true;
        this.request();
      } else if (!shown) this.visible = false;
    });
  }

  get filter(): InsightsRequestFilter {
    const range = this.rangeSelect.value as InsightsRange;
    const strategy = this.strategySelect.value;
    return strategy === '' ? { range } : { range, strategy };
  }

  /** The shown session changed or grew: ask again if the tab is shown (at most once a second). */
  sessionChanged(): void {
    if (!this.visible || this.refreshTimer !== undefined) return;
    const wait = Math.max(0, this.lastRequestAt + REFRESH_MS - Date.now());
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.visible) this.request();
    }, wait);
  }

  /** The host's answer to one of our requests (any other is dropped). */
  answer(message: InsightsMessage): void {
    this.requests.answer(message.requestId, message);
  }

  private show(message: InsightsMessage): void {
    this.showSession(message.session);
    this.setStrategies(message.strategies, message.filter.strategy);
    const { overall } = message;
    this.overallFigures.replaceChildren(
      ...figure('Sessions', String(overall.sessions)),
      ...figure('Median length', `${round(overall.medianLength)} thoughts`),
      ...figure('Revised', `${percent(overall.revisionRate)} of sessions`),
      ...figure('Branched', `${percent(overall.branchRate)} of sessions`),
      ...figure('Abandoned', `${overall.abandoned} (${percent(overall.sessions === 0 ? 0 : overall.abandoned / overall.sessions)})`),
    );
    this.chart.replaceChildren(barChart(overall.byStrategy.map((group) => ({ label: group.strategy, value: group.sessions }))));
  }

  private request(): void {
    this.lastRequestAt = Date.now();
    const filter = this.filter;
    this.requests
      .request((requestId) => this.onRequest(filter, requestId))
      .then(
        (message) => this.show(message),
        (error: unknown) => this.chart.replaceChildren(noneNote(errorMessage(error))),
      );
  }

  private showSession(session: SessionInsightsView | undefined): void {
    const heading = document.createElement('h3');
    heading.textContent = 'This session';
    if (!session) {
      const none = document.createElement('p');
      none.className = 'insights-none';
      none.textContent = 'No session shown.';
      this.sessionSection.replaceChildren(heading, none);
      return;
    }
    const list = document.createElement('dl');
    list.className = 'insights-figures';
    list.append(
      ...figure('Thoughts', String(session.thoughts)),
      ...figure('Revisions', `${session.revisions} (${percent(session.revisionRate)})`),
      ...figure('Branches', `${session.branches} (${session.branchThoughts} thoughts, ${percent(session.branchRate)})`),
      ...figure('Stages visited', `${session.stagesVisited.length}, ${session.loops} loop${session.loops === 1 ? '' : 's'} back`),
    );
    if (session.timeBetweenThoughts) {
      const { medianMs, maxMs } = session.timeBetweenThoughts;
      list.append(...figure('Time between thoughts', `median ${duration(medianMs)}, longest ${duration(maxMs)}`));
    }
    list.append(...figure('Feedback', `${session.feedback.given} given, ${session.feedback.applied} applied`));
    if (session.tokens) {
      const { input, output, estimated } = session.tokens;
      list.append(...figure('Deliberation tokens', `${input} in, ${output} out${estimated ? ' (partly estimated)' : ''}`));
    }
    this.sessionSection.replaceChildren(heading, list);
  }

  private setStrategies(strategies: readonly string[], selected: string | undefined): void {
    const current = selected ?? '';
    const wanted = ['', ...strategies];
    const have = [...this.strategySelect.options].map((option) => option.value);
    if (wanted.length !== have.length || wanted.some((value, index) => value !== have[index])) {
      this.strategySelect.replaceChildren(option('', 'All strategies'), ...strategies.map((strategy) => option(strategy, strategy)));
    }
    this.strategySelect.value = wanted.includes(current) ? current : '';
  }
}

function select(className: string, label: string, options: [string, string][]): HTMLSelectElement {
  const element = document.createElement('select');
  element.className = className;
  element.setAttribute('aria-label', label);
  element.append(...options.map(([value, text]) => option(value, text)));
  return element;
}

function option(value: string, text: string): HTMLOptionElement {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = text;
  return element;
}

function figure(label: string, value: string): HTMLElement[] {
  const term = document.createElement('dt');
  term.textContent = label;
  const description = document.createElement('dd');
  description.textContent = value;
  return [term, description];
}

/** Horizontal bars, one per label (largest first, the tail summed as "others"), sized to the largest value. */
function noneNote(text: string): HTMLElement {
  const none = document.createElement('p');
  none.className = 'insights-none';
  none.textContent = text;
  return none;
}

function barChart(entries: { label: string; value: number }[]): Element {
  if (entries.length === 0) return noneNote('No saved sessions match.');
  const sorted = [...entries].sort((a, b) => b.value - a.value);
  const bars = sorted.length > MAX_BARS ? [...sorted.slice(0, MAX_BARS - 1), others(sorted.slice(MAX_BARS - 1))] : sorted;
  const rowHeight = 22;
  const labelWidth = 130;
  const barArea = 170;
  const countWidth = 50;
  const width = labelWidth + barArea + countWidth;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'insights-bars');
  svg.setAttribute('viewBox', `0 0 ${width} ${bars.length * rowHeight}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(bars.length * rowHeight));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Sessions per strategy: ${bars.map((bar) => `${bar.label} ${bar.value}`).join(', ')}`);
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  bars.forEach((bar, index) => {
    const y = index * rowHeight;
    const label = svgElement('text', { x: labelWidth - 6, y: y + rowHeight / 2, class: 'insights-bar-label' });
    label.textContent = shortened(bar.label, 20);
    const title = svgElement('title', {});
    title.textContent = `${bar.label}: ${bar.value}`;
    const rect = svgElement('rect', {
      x: labelWidth,
      y: y + 4,
      width: Math.max(2, Math.round((bar.value / largest) * barArea)),
      height: rowHeight - 8,
      rx: 2,
      class: 'insights-bar',
    });
    rect.dataset.strategy = bar.label;
    rect.dataset.value = String(bar.value);
    rect.append(title);
    const count = svgElement('text', {
      x: labelWidth + Math.max(2, Math.round((bar.value / largest) * barArea)) + 4,
      y: y + rowHeight / 2,
      class: 'insights-bar-count',
    });
    count.textContent = String(bar.value);
    svg.append(label, rect, count);
  });
  return svg;
}

function others(rest: { label: string; value: number }[]): { label: string; value: number } {
  return { label: `${rest.length} others`, value: rest.reduce((sum, entry) => sum + entry.value, 0) };
}

function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}
