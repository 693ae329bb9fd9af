// The view's DOM: title, strategy and stage, counts, the latest thought, the branch tree and the "Open in explorer"
// button. Every piece of session text goes in as textContent; no markup is ever inserted.
import type { PageThought } from '../src/shared/thoughtGraph';

export interface ViewModel {
  title?: string;
  strategy?: string;
  stage?: string;
  nextStages?: string[];
  thoughts: number;
  branches: number;
  revisions: number;
  totalThoughts?: number;
  complete: boolean;
  latest?: Pick<PageThought, 'thoughtNumber' | 'thought' | 'branchId' | 'stage' | 'role'>;
  /** The thought sent in the call being run (tool input), before its result arrives. */
  pending?: string;
}

export class GraphView {
  private readonly title: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly latestHead: HTMLElement;
  private readonly latestText: HTMLElement;
  private readonly diagram: HTMLElement;
  private readonly note: HTMLElement;
  readonly openButton: HTMLButtonElement;

  constructor(root: HTMLElement) {
    root.replaceChildren();
    const header = element('header', 'head');
    this.title = element('span', 'title', 'Thinking session');
    this.stage = element('span', 'stage');
    this.stage.dataset.testid = 'stage';
    header.append(this.title, this.stage);
    this.counts = element('div', 'counts', 'Waiting for the first thought…');
    this.counts.dataset.testid = 'counts';
    const latest = element('section', 'latest');
    latest.dataset.testid = 'latest';
    this.latestHead = element('div', 'latest-head');
    this.latestText = element('p', 'latest-text');
    latest.append(this.latestHead, this.latestText);
    this.diagram = element('div', 'diagram');
    this.diagram.dataset.testid = 'diagram';
    const footer = element('footer', 'foot');
    this.openButton = element('button', 'open', 'Open in explorer') as HTMLButtonElement;
    this.openButton.type = 'button';
    this.openButton.disabled = true;
    this.note = element('span', 'note');
    this.note.setAttribute('role', 'status');
    footer.append(this.openButton, this.note);
    root.append(header, this.counts, latest, this.diagram, footer);
  }

  show(model: ViewModel): void {
    this.title.textContent = model.title ?? 'Thinking session';
    this.title.title = model.title ?? '';
    const stageParts = [model.strategy, model.stage].filter((part): part is string => !!part);
    this.stage.textContent = stageParts.join(' · ');
    this.stage.title = model.nextStages?.length ? `Next: ${model.nextStages.join(', ')}` : '';
    const counts = [plural(model.thoughts, 'thought'), plural(model.branches, 'branch', 'branches'), plural(model.revisions, 'revision')];
    if (model.totalThoughts) counts.push(`of ~${model.totalThoughts} planned`);
    if (model.complete) counts.push('complete');
    this.counts.textContent = model.thoughts === 0 && model.pending === undefined ? 'Waiting for the first thought…' : counts.join(' · ');
    document.body.dataset.thoughts = String(model.thoughts);
    if (model.pending !== undefined) {
      this.latestHead.textContent = 'Thinking…';
      this.latestText.textContent = model.pending;
    } else if (model.latest) {
      const head = [
        `#${model.latest.thoughtNumber}`,
        model.latest.role ?? model.latest.stage,
        model.latest.branchId && `branch ${model.latest.branchId}`,
      ];
      this.latestHead.textContent = head.filter(Boolean).join(' · ');
      this.latestText.textContent = model.latest.thought;
    }
    this.openButton.disabled = model.thoughts === 0;
  }

  showDiagram(figure: HTMLElement, shown: number, total: number): void {
    // Follow the newest row (appended at the bottom) unless the person scrolled up to read.
    const following = this.diagram.scrollTop + this.diagram.clientHeight >= this.diagram.scrollHeight - 2;
    this.diagram.replaceChildren(figure);
    if (following) this.diagram.scrollTop = this.diagram.scrollHeight;
    this.diagram.dataset.shown = String(shown);
    this.diagram.title = shown < total ? `The latest ${shown} of ${total} thoughts; open the explorer for all.` : '';
  }

  showDiagramError(message: string): void {
    this.diagram.replaceChildren(element('p', 'diagram-error', `The branch tree could not be drawn: ${message}`));
  }

  showNote(text: string): void {
    this.note.textContent = text;
  }
}

function element(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
