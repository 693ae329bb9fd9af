// The small labelled badges on thought cards (final, revision, branch, deliberation role and status).

/** A badge: `kinds` are space-separated (each becomes a `badge-<kind>` class), `icon` a codicon name. */
export function badge(kinds: string, label: string, icon: string): HTMLElement {
  const element = document.createElement('span');
  element.className = ['badge', ...kinds.split(' ').map((kind) => `badge-${kind}`)].join(' ');
  const glyph = document.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  const text = document.createElement('span');
  text.textContent = label;
  element.append(glyph, text);
  return element;
}
