// The live-deliberation strip under the explorer's header: the model, tokens used of the budget, one chip per role
// call in its state (running, done, failed, cancelled, out of budget) and a Stop button while it runs. Role names and
// the model come from the host (and from model output in the end), so everything is set as text, never as HTML.
import type { LiveDeliberationState, RoleRunState } from '../../src/shared/deliberationProtocol';

const STATE_ICONS: Record<RoleRunState, string> = {
  running: 'loading codicon-modifier-spin',
  done: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
  'budget-exhausted': 'dashboard',
};

const RUN_LABELS: Record<LiveDeliberationState['status'], string> = {
  running: 'Deliberating',
  complete: 'Deliberation complete',
  partial: 'Deliberation partly complete',
  cancelled: 'Deliberation cancelled',
  failed: 'Deliberation failed',
};

export class DeliberationStatusView {
  readonly element: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly roles: HTMLElement;
  private readonly stopButton: HTMLElement;
  private state: LiveDeliberationState | undefined;

  constructor(onStop: (sessionId: string) => void) {
    this.element = document.createElement('section');
    this.element.className = 'deliberation-status';
    this.element.hidden = true;
    this.element.setAttribute('aria-live', 'polite');
    const top = document.createElement('div');
    top.className = 'deliberation-top';
    this.summary = document.createElement('span');
    this.summary.className = 'deliberation-summary';
    this.stopButton = document.createElement('vscode-button');
    this.stopButton.className = 'deliberation-stop';
    this.stopButton.setAttribute('icon', 'debug-stop');
    this.stopButton.setAttribute('secondary', '');
    this.stopButton.textContent = 'Stop';
    this.stopButton.title = 'Cancel this deliberation: calls still running stop, the roles not yet run are marked cancelled';
    this.stopButton.addEventListener('click', () => {
      if (this.state?.status !== 'running') return;
      this.stopButton.setAttribute('disabled', '');
      onStop(this.state.sessionId);
    });
    top.append(this.summary, this.stopButton);
    this.roles = document.createElement('ol');
    this.roles.className = 'deliberation-roles';
    this.element.append(top, this.roles);
  }

  /** Shows `state` when it belongs to the session on screen; hides the strip otherwise. */
  show(state: LiveDeliberationState | undefined, shownSessionId: string | undefined): void {
    if (!state || state.sessionId !== shownSessionId) {
      this.state = undefined;
      this.element.hidden = true;
      return;
    }
    const wasRunning = this.state?.status === 'running';
    this.state = state;
    this.element.hidden = false;
    this.element.dataset.status = state.status;
    const budget = state.maxTotalTokens !== undefined ? ` of ${state.maxTotalTokens.toLocaleString('en-US')}` : '';
    this.summary.textContent =
      `${RUN_LABELS[state.status]} · ${state.model} · ${state.outputTokens.toLocaleString('en-US')}${budget} output tokens` +
      ` (${state.inputTokens.toLocaleString('en-US')} in) · ${state.calls} call${state.calls === 1 ? '' : 's'}`;
    this.stopButton.hidden = state.status !== 'running';
    if (state.status === 'running' && !wasRunning) this.stopButton.removeAttribute('disabled');
    this.roles.replaceChildren(...state.roles.map((role) => roleChip(role)));
  }

  get sessionId(): string | undefined {
    return this.state?.sessionId;
  }
}

function roleChip(role: LiveDeliberationState['roles'][number]): HTMLElement {
  const item = document.createElement('li');
  item.className = `role-chip role-${role.state}`;
  item.dataset.role = role.role;
  item.dataset.state = role.state;
  const icon = document.createElement('span');
  icon.className = `codicon codicon-${STATE_ICONS[role.state]}`;
  const text = document.createElement('span');
  text.textContent = `${role.title}${role.thoughtNumber !== undefined ? ` #${role.thoughtNumber}` : ''}`;
  item.title = `${role.title}: ${role.state}${role.tokens !== undefined ? `, ${role.tokens} tokens` : ''}`;
  item.append(icon, text);
  return item;
}
