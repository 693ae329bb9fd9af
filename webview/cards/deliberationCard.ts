// Deliberation facts on a thought card: a role badge coloured by hat (theme colours only), a status badge when the
// call did not end ok, and a line with tokens, time and model. Text goes in through textContent only.
import type { ThoughtRecord } from '../../src/engine/model';
import { deliberationFacts, type DeliberationCallStatus } from '../../src/shared/deliberationView';
import { badge } from './badge';

const STATUS_ICONS: Record<DeliberationCallStatus, string> = {
  ok: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
  'budget-exhausted': 'watch',
  running: 'loading',
};

/** Adds the deliberation badges to a card's badge row and its facts line under the head; no-op for other thoughts. */
export function decorateDeliberationCard(card: HTMLElement, badges: HTMLElement, thought: ThoughtRecord): void {
  const facts = deliberationFacts(thought);
  if (!facts) return;
  card.classList.add('deliberation-card');
  card.dataset.role = facts.role;
  if (facts.hat) card.dataset.hat = facts.hat;
  if (facts.status) card.dataset.status = facts.status;
  const kind =
    facts.phase === 'tool_call'
      ? 'tool'
      : facts.hat
        ? `hat-${facts.hat}`
        : facts.role === 'framing' || facts.role === 'result'
          ? 'plan'
          : 'custom';
  const label =
    facts.phase === 'tool_call' ? `${facts.role} → ${facts.tool ?? 'tool'}` : facts.hat ? `${facts.role} · ${facts.hat} hat` : facts.role;
  // White and black hats differ by shape (outline, filled) in the theme's foreground colour: readable in every theme.
  const icon = facts.phase === 'tool_call' ? 'tools' : facts.hat === 'white' ? 'circle-large-outline' : 'circle-large-filled';
  const role = badge(`role role-${kind}`, label, icon);
  role.title = [facts.phase, facts.cycle !== undefined ? `cycle ${facts.cycle}` : ''].filter(Boolean).join(', ');
  badges.prepend(role);
  if (facts.status && facts.status !== 'ok') {
    const status = badge(`status status-${facts.status}`, facts.status.replace('-', ' '), STATUS_ICONS[facts.status]);
    if (facts.error) status.title = facts.error;
    badges.append(status);
  }

  const parts: string[] = [];
  if (facts.tokens)
    parts.push(
      `${facts.tokens.estimated ? '~' : ''}${facts.tokens.input.toLocaleString('en')} in · ${facts.tokens.estimated ? '~' : ''}${facts.tokens.output.toLocaleString('en')} out tokens`,
    );
  if (facts.durationMs !== undefined) parts.push(formatDuration(facts.durationMs));
  if (facts.model) parts.push(facts.model);
  if (parts.length === 0) return;
  const meta = document.createElement('div');
  meta.className = 'deliberation-meta';
  meta.textContent = parts.join(' · ');
  card.querySelector('.thought-head')?.after(meta);
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
