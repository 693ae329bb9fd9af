// The header's deliberation line: plan, state, budgets used of allowed (cycles, output tokens, tool calls) and the
// model. Shown only for a session with a deliberation; hosts may lay their own facts (running roles) over it.
import type { DeliberationSummary } from '../../src/shared/deliberationView';
import type { BudgetUse } from '../../src/shared/protocol';

export class DeliberationLine {
  readonly element: HTMLElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'deliberation-line';
    this.element.hidden = true;
  }

  show(summary: DeliberationSummary | undefined): void {
    this.element.hidden = summary === undefined;
    if (!summary) {
      this.element.replaceChildren();
      return;
    }
    this.element.dataset.state = summary.state;
    const parts: HTMLElement[] = [
      item('plan', `${summary.plan} (${summary.kind})`, 'Plan'),
      item('state', summary.running && summary.running.length > 0 ? `running: ${summary.running.join(', ')}` : summary.state, 'State'),
      item(
        'calls',
        `${summary.calls} call${summary.calls === 1 ? '' : 's'}${summary.failed > 0 ? `, ${summary.failed} not ok` : ''}`,
        'Model calls',
      ),
    ];
    if (summary.cycles.allowed !== undefined) parts.push(item('cycles', `cycles ${used(summary.cycles)}`, 'Task cycles used of allowed'));
    parts.push(item('tokens', `tokens ${used(summary.tokens)}`, 'Output tokens used of allowed'));
    if (summary.toolCalls.allowed !== undefined || summary.toolCalls.used > 0)
      parts.push(item('tool-calls', `tool calls ${used(summary.toolCalls)}`, 'Tool calls used of allowed'));
    const model = summary.model ?? summary.gateway;
    if (model !== undefined) parts.push(item('model', model, summary.gateway ? `Model (via ${summary.gateway})` : 'Model'));
    this.element.replaceChildren(...parts);
  }
}

function used(budget: BudgetUse): string {
  const value = budget.used.toLocaleString('en');
  return budget.allowed === undefined ? value : `${value}/${budget.allowed.toLocaleString('en')}`;
}

function item(name: string, text: string, title: string): HTMLElement {
  const element = document.createElement('span');
  element.className = `budget budget-${name}`;
  element.title = title;
  element.textContent = text;
  return element;
}
