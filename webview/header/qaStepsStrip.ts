// The steps strip under the explorer header for a session with QA steps (the QA workflows): the steps done, the current one
// and those still to do, from src/shared/qaView's qaStepsOf. Hidden for sessions without steps. Step descriptions are
// the agent's text: textContent only. Redrawn only when the steps change, so a live thought costs a string compare.
import type { ThoughtRecord } from '../../src/engine/model';
import { qaStepsOf } from '../../src/shared/qaView';

export class QaStepsStrip {
  readonly element: HTMLElement;
  private shownKey = '';

  constructor() {
    this.element = document.createElement('ol');
    this.element.className = 'qa-steps';
    this.element.setAttribute('aria-label', 'Verification steps');
    this.element.hidden = true;
  }

  show(thoughts: readonly ThoughtRecord[]): void {
    const steps = qaStepsOf(thoughts);
    const key = steps ? JSON.stringify(steps) : '';
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.element.hidden = steps === undefined;
    if (!steps) {
      this.element.replaceChildren();
      return;
    }
    const items = [
      ...steps.done.map((text) => step(text, 'done')),
      step(steps.current, 'current'),
      ...steps.remaining.map((text) => step(text, 'remaining')),
    ];
    this.element.replaceChildren(...items);
  }
}

function step(text: string, state: 'done' | 'current' | 'remaining'): HTMLElement {
  const item = document.createElement('li');
  item.className = `qa-step ${state}`;
  item.dataset.state = state;
  if (state === 'current') item.setAttribute('aria-current', 'step');
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${state === 'done' ? 'pass' : state === 'current' ? 'debug-stackframe' : 'circle-large-outline'}`;
  glyph.setAttribute('aria-hidden', 'true');
  const label = document.createElement('span');
  label.className = 'qa-step-text';
  label.textContent = text;
  item.title = `${state === 'done' ? 'Done' : state === 'current' ? 'Current step' : 'To do'}: ${text}`;
  item.append(glyph, label);
  return item;
}
