// The explorer header: session title, strategy, current stage, n/total and status, plus the view's actions.
import { toolbarButton } from '../controls';
import { sessionTitle } from '../../src/engine/browserSafe/sessionTitle';
import type { SessionMeta } from '../../src/engine/model';
import type { DeliberationSummary } from '../../src/shared/deliberationView';
import type { StrategyView } from '../../src/shared/protocol';
import { DeliberationLine } from './deliberationHeader';
import { QaStepsStrip } from './qaStepsStrip';

export interface HeaderActions {
  onOpenInPanel?: () => void;
  onExportSvg: () => void;
}

export class ExplorerHeader {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly strategy: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly status: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly deliberation = new DeliberationLine();
  /** QA steps (done / current / remaining), shown for sessions with steps; the app passes it the shown thoughts. */
  readonly steps = new QaStepsStrip();

  constructor(actions: HeaderActions) {
    this.element = document.createElement('header');
    this.element.className = 'explorer-header';
    const top = document.createElement('div');
    top.className = 'header-top';
    this.title = document.createElement('h1');
    this.title.className = 'session-title';
    const toolbar = document.createElement('div');
    toolbar.className = 'header-actions';
    if (actions.onOpenInPanel) toolbar.append(toolbarButton('open-preview', 'Open in editor', 'open-in-panel', actions.onOpenInPanel));
    // A picture icon named "SVG": the arrow-to-bar `export` icon read as "collapse" or "go to end".
    toolbar.append(toolbarButton('file-media', 'Export SVG of the diagram in view', 'export-svg', actions.onExportSvg, 'SVG'));
    top.append(this.title, toolbar);
    this.actions = toolbar;

    const facts = document.createElement('div');
    facts.className = 'header-facts';
    this.strategy = fact('strategy', 'symbol-class');
    this.stage = fact('stage', 'location');
    this.progress = fact('progress', 'list-ordered');
    this.status = fact('status', 'circle-filled');
    facts.append(this.strategy, this.stage, this.progress, this.status);
    this.element.append(top, facts, this.deliberation.element, this.steps.element);
  }

  /** Puts a control at the start of the header's actions (the follow-mode toggle). */
  addAction(element: HTMLElement): void {
    this.actions.prepend(element);
  }

  /** The budget line of the session's deliberation (undefined hides it). */
  showDeliberation(summary: DeliberationSummary | undefined): void {
    this.deliberation.show(summary);
  }

  /** `replaying`: a replay is on screen, so the status says "replay" whatever the recorded session's status is. */
  show(meta: SessionMeta | undefined, strategy: StrategyView | undefined, shown: number, replaying = false): void {
    this.element.classList.toggle('empty', meta === undefined);
    // Nothing to open or export without a session.
    this.actions.hidden = meta === undefined;
    if (!meta) {
      this.title.textContent = 'No session yet';
      for (const element of [this.strategy, this.stage, this.progress, this.status]) element.hidden = true;
      return;
    }
    this.title.textContent = sessionTitle(meta);
    this.title.title = meta.id;
    setFact(this.strategy, strategy?.title ?? meta.strategy);
    setFact(this.stage, meta.stage === undefined ? 'not started' : meta.stage.replace(/_/g, ' '));
    const purpose = strategy?.stages.find((stage) => stage.name === meta.stage)?.purpose;
    this.stage.title = purpose ?? '';
    setFact(
      this.progress,
      `${meta.lastThoughtNumber}/${meta.totalThoughts}${shown < meta.thoughtCount ? ` · ${shown} of ${meta.thoughtCount}` : ''}`,
    );
    this.progress.title = `${meta.thoughtCount} thoughts, ${meta.revisionCount} revisions, ${meta.branchIds.length} branches`;
    const status = replaying ? 'replay' : meta.status;
    setFact(this.status, status);
    this.status.dataset.status = status;
    this.status.title = replaying ? `Replay of a ${meta.status} session` : '';
    this.status.querySelector('.codicon')?.setAttribute('class', `codicon codicon-${statusIcon(status)}`);
  }
}

function statusIcon(status: SessionMeta['status'] | 'replay'): string {
  switch (status) {
    case 'replay':
      return 'history';
    case 'live':
      return 'pulse';
    case 'complete':
      return 'pass';
    case 'abandoned':
      return 'circle-slash';
  }
}

function fact(name: string, icon: string): HTMLElement {
  const element = document.createElement('span');
  element.className = `fact fact-${name}`;
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  const text = document.createElement('span');
  text.className = 'fact-text';
  element.append(glyph, text);
  return element;
}

function setFact(element: HTMLElement, text: string): void {
  element.hidden = false;
  const target = element.querySelector('.fact-text');
  if (target) target.textContent = text;
}
