// The banner that offers another live session (the host's liveSessionOffer): an explorer that stays on its session
// (pinned, or not following) says that a new session started elsewhere and switches only when asked. The title is
// untrusted text: textContent only.

export interface SessionOfferOptions {
  /** The person asked to see the offered session. */
  onSwitch: (sessionId: string) => void;
}

export class SessionOffer {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private offered: string | undefined;
  /** Sessions the person dismissed: not offered again in this document. */
  private readonly dismissed = new Set<string>();

  constructor(options: SessionOfferOptions) {
    this.element = document.createElement('div');
    this.element.className = 'session-offer';
    this.element.setAttribute('role', 'status');
    this.element.hidden = true;
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-pulse';
    icon.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    text.className = 'session-offer-text';
    const lead = document.createElement('span');
    lead.textContent = 'New live session: ';
    this.title = document.createElement('span');
    this.title.className = 'session-offer-title';
    text.append(lead, this.title);
    const show = document.createElement('vscode-button');
    show.className = 'session-offer-switch';
    show.textContent = 'Show it';
    show.addEventListener('click', () => {
      if (this.offered !== undefined) options.onSwitch(this.offered);
    });
    const dismiss = document.createElement('vscode-toolbar-button');
    dismiss.className = 'session-offer-dismiss';
    dismiss.setAttribute('icon', 'close');
    dismiss.setAttribute('label', 'Dismiss');
    dismiss.setAttribute('aria-label', 'Dismiss');
    dismiss.title = 'Dismiss';
    dismiss.addEventListener('click', () => {
      if (this.offered !== undefined) this.dismissed.add(this.offered);
      this.show(null);
    });
    this.element.append(icon, text, show, dismiss);
  }

  /** Shows the offer of `session`, or hides the banner (null). */
  show(session: { id: string; title: string } | null): void {
    if (session !== null && this.dismissed.has(session.id)) session = null;
    this.offered = session?.id;
    this.element.hidden = session === null;
    this.title.textContent = session?.title ?? '';
    this.title.title = session?.title ?? '';
  }

  /** The session now on screen: an offer of it is done with. */
  shown(sessionId: string | undefined): void {
    if (sessionId !== undefined && sessionId === this.offered) this.show(null);
  }
}
