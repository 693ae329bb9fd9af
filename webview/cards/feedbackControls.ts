// Steering a live session from the explorer: a note box and "Conclude now" under the cards, Reject… and Explore
// alternative… on the card under the pointer or keyboard focus (else the selected, else the newest card), and the
// person's feedback drawn on the cards it is about, in the engine's words (feedbackStatus.ts: waiting, delivered,
// applied by #n, not acted on and why), and on the thought that applied it. Everything typed goes to the host as a `giveFeedback` message; the
// host's answer (`feedbackResult`) is shown in the status line. Feedback text is untrusted: textContent only.
import type { FeedbackKind, FeedbackRecord, SessionStatus, ThoughtRecord } from '../../src/engine/model';
import { feedbackStatus, feedbackStatusText, type FeedbackStatus } from '../../src/engine/browserSafe/feedbackStatus';
import { appliedBySeq, feedbackBySeq } from '../../src/diagrams/feedbackMarks';
import { errorMessage } from '../../src/engine/browserSafe/errorMessage';
import type { GiveFeedbackMessage } from '../../src/shared/feedbackProtocol';
import type { ResponseTo } from '../../src/shared/protocol';
import { PendingRequests } from '../../src/shared/requests';
import { badge } from './badge';

export interface FeedbackControlsOptions {
  post: (message: GiveFeedbackMessage) => void;
  /** The card element of a thought (by seq), where marks and actions go. */
  cardFor: (seq: number) => HTMLElement | undefined;
  /** The card list: pointer and focus on a card bring its actions there. */
  cardList: HTMLElement;
}

/** What the controls draw from: the session on screen and whether the person may steer it now. */
export interface FeedbackScene {
  sessionId: string | undefined;
  thoughts: readonly ThoughtRecord[];
  feedback: readonly FeedbackRecord[];
  /** The session's stored status: an ended session's undone feedback reads "not acted on: session ended". */
  status: SessionStatus;
  /** A live session shown live (not a replay, not finished). */
  steerable: boolean;
  selectedSeq: number | undefined;
}

const KIND_LABELS: Record<FeedbackKind, string> = {
  note: 'Note',
  reject: 'Rejected',
  branch: 'Alternative asked',
  conclude: 'Conclude asked',
};

const KIND_ICONS: Record<FeedbackKind, string> = { note: 'comment', reject: 'thumbsdown', branch: 'git-branch', conclude: 'check-all' };

/** The CSS class of a status: `feedback-pending`, `feedback-delivered`, `feedback-applied`, `feedback-not-acted-on`, `feedback-undelivered`. */
function stateClass(status: FeedbackStatus): string {
  return `feedback-${status.state}`;
}

export class FeedbackControls {
  /** The panel under the cards: note box, Conclude now, status line, feedback not about one thought. */
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  /** The note box, the buttons and the status line: only while the session may be steered. */
  private readonly steer: HTMLElement;
  private readonly note: HTMLTextAreaElement;
  private readonly status: HTMLElement;
  private readonly general: HTMLElement;
  private readonly actions: HTMLElement;
  private scene: FeedbackScene = {
    sessionId: undefined,
    thoughts: [],
    feedback: [],
    status: 'live',
    steerable: false,
    selectedSeq: undefined,
  };
  private markedSeqs: number[] = [];
  private actionsSeq: number | undefined;
  private hoveredSeq: number | undefined;
  /** The feedback the status line says was sent: the line goes once the record says it was delivered. */
  private sentId: string | undefined;
  /** giveFeedback requests waiting for the host's feedbackResult (the host answers at once; 30 s means it is gone). */
  private readonly requests = new PendingRequests<ResponseTo<'giveFeedback'>>({
    what: 'Feedback',
    prefix: 'feedback',
    timeoutMs: 30_000,
  });

  constructor(private readonly options: FeedbackControlsOptions) {
    this.element = document.createElement('section');
    this.element.className = 'feedback-panel';
    this.element.setAttribute('aria-label', 'Steer this session');
    this.element.hidden = true;
    this.title = document.createElement('h3');
    this.title.className = 'feedback-title';
    this.title.textContent = 'Steer this session';
    this.note = document.createElement('textarea');
    this.note.className = 'feedback-note-input';
    this.note.rows = 2;
    this.note.placeholder = 'A note for the agent (delivered once, with its next thought)';
    this.note.setAttribute('aria-label', 'Note for the agent');
    this.note.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.sendNote();
      }
    });
    const buttons = document.createElement('div');
    buttons.className = 'feedback-buttons';
    buttons.append(
      button('Send note', 'feedback-send-note', () => this.sendNote()),
      button('Conclude now', 'feedback-conclude', () => this.send({ kind: 'conclude' })),
    );
    this.status = document.createElement('p');
    this.status.className = 'feedback-status';
    this.status.setAttribute('role', 'status');
    this.general = document.createElement('ul');
    this.general.className = 'feedback-general';
    this.steer = document.createElement('div');
    this.steer.className = 'feedback-steer';
    this.steer.append(this.note, buttons, this.status);
    this.element.append(this.title, this.steer, this.general);

    this.actions = document.createElement('div');
    this.actions.className = 'feedback-actions';
    // Clicks inside the actions must not reach the card list (which would re-select and steal focus).
    this.actions.addEventListener('click', (event) => event.stopPropagation());
    this.actions.addEventListener('keydown', (event) => event.stopPropagation());
    // The actions come to the card a person points at or tabs to: no need to select a card first.
    // A form being typed in stays under the pointer passing by; focus moving to another card (a deliberate act) takes it along.
    const follow = (event: Event, keepForm: boolean) => {
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.thought-card') : null;
      if (card?.dataset.seq !== undefined) this.moveActionsTo(Number(card.dataset.seq), keepForm);
    };
    options.cardList.addEventListener('mouseover', (event) => {
      // The pointer passing by does not pull the actions from under the keyboard.
      if (!this.actions.contains(document.activeElement)) follow(event, true);
    });
    options.cardList.addEventListener('focusin', (event) => follow(event, false));
  }

  /** Redraws from `scene`: the panel, the marks on cards, the actions on the selected card. Cheap when nothing changed. */
  update(scene: FeedbackScene): void {
    const previous = this.scene;
    this.scene = scene;
    if (scene.sessionId !== previous.sessionId) this.showStatus('');
    else if (this.sentId !== undefined && scene.feedback.some((record) => record.id === this.sentId && record.deliveredAt !== undefined))
      // The card (or the list below) now says "delivered": the promise that it will be is no longer news.
      this.showStatus('');
    this.drawMarks();
    this.drawGeneral();
    // Notes and "Conclude now" stay listed after the session ends (with how they ended); the controls go.
    const heading = scene.steerable ? 'Steer this session' : 'Your feedback';
    this.steer.hidden = !scene.steerable;
    this.element.hidden = !scene.steerable && this.general.childElementCount === 0;
    if (this.title.textContent !== heading) {
      this.title.textContent = heading;
      this.element.setAttribute('aria-label', heading);
    }
    const sessionChanged = scene.sessionId !== previous.sessionId;
    if (sessionChanged) this.hoveredSeq = undefined;
    if (scene.selectedSeq !== previous.selectedSeq && scene.selectedSeq !== undefined) this.hoveredSeq = scene.selectedSeq;
    // A form being typed in is not moved by a new thought arriving.
    const typing = !sessionChanged && this.actionsSeq !== undefined && this.actions.querySelector('.feedback-input') !== null;
    this.placeActions(scene.steerable ? (typing ? this.actionsSeq : this.actionsTarget()) : undefined, sessionChanged);
  }

  /** The card the actions sit on: pointed at or focused last, else the selected one, else the newest. */
  private actionsTarget(): number | undefined {
    const { thoughts, selectedSeq } = this.scene;
    const seq = this.hoveredSeq ?? selectedSeq ?? thoughts.length - 1;
    return seq >= 0 && seq < thoughts.length ? seq : undefined;
  }

  private moveActionsTo(seq: number, keepForm: boolean): void {
    if (!this.scene.steerable || seq === this.actionsSeq || (keepForm && this.actions.querySelector('.feedback-input'))) return;
    this.hoveredSeq = seq;
    this.placeActions(seq, false);
  }

  /** The host's answer to one of our messages. */
  answer(message: ResponseTo<'giveFeedback'>): void {
    this.requests.answer(message.requestId, message);
  }

  private showResult(message: ResponseTo<'giveFeedback'>, onSuccess: (() => void) | undefined): void {
    if (message.ok) {
      const id = message.feedback?.id;
      // feedbackChanged may have come first and already said it was delivered.
      const delivered = this.scene.feedback.some((record) => record.id === id && record.deliveredAt !== undefined);
      this.showStatus(delivered ? '' : 'Sent: the agent gets it with its next thought.');
      this.sentId = delivered ? undefined : id;
      onSuccess?.();
    } else {
      this.showStatus(message.error ?? 'The feedback was not recorded.', true);
    }
  }

  private showStatus(text: string, error = false): void {
    this.status.classList.toggle('error', error);
    this.status.textContent = text;
    this.sentId = undefined;
  }

  private sendNote(): void {
    this.send({ kind: 'note', text: this.note.value }, () => {
      this.note.value = '';
    });
  }

  private send(fields: Omit<GiveFeedbackMessage, 'type' | 'requestId' | 'sessionId'>, onSuccess?: () => void): void {
    const sessionId = this.scene.sessionId;
    if (sessionId === undefined || !this.scene.steerable) return;
    this.showStatus('Sending…');
    this.requests
      .request((requestId) => this.options.post({ type: 'giveFeedback', requestId, sessionId, ...fields }))
      .then(
        (result) => this.showResult(result, onSuccess),
        (error: unknown) => this.showStatus(errorMessage(error), true),
      );
  }

  /** Marks on the cards feedback is about, and on the cards that applied feedback. */
  private drawMarks(): void {
    for (const seq of this.markedSeqs) {
      const card = this.options.cardFor(seq);
      card?.querySelector(':scope > .feedback-marks')?.remove();
      card?.querySelector('.badge-applies-feedback')?.remove();
      card?.classList.remove('has-feedback');
    }
    this.markedSeqs = [];
    const { thoughts, feedback } = this.scene;
    if (feedback.length === 0) return;
    const snapshot = { thoughts: thoughts as ThoughtRecord[], feedback: feedback as FeedbackRecord[] };
    for (const [seq, records] of feedbackBySeq(snapshot)) {
      const card = this.options.cardFor(seq);
      if (!card) continue;
      const list = document.createElement('ul');
      list.className = 'feedback-marks';
      list.setAttribute('aria-label', 'Your feedback on this thought');
      for (const record of records) list.append(this.markItem(record));
      card.classList.add('has-feedback');
      card.append(list);
      this.markedSeqs.push(seq);
    }
    for (const [seq, records] of appliedBySeq(snapshot)) {
      const card = this.options.cardFor(seq);
      if (!card) continue;
      const asked = records.map((record) => (record.thoughtNumber === undefined ? record.kind : `${record.kind} #${record.thoughtNumber}`));
      card.querySelector('.badges')?.append(badge('applies-feedback', `Applies your feedback (${asked.join(', ')})`, 'feedback'));
      this.markedSeqs.push(seq);
    }
  }

  private markItem(record: FeedbackRecord): HTMLElement {
    const item = document.createElement('li');
    const { thoughts, status } = this.scene;
    item.className = `feedback-mark feedback-${record.kind} ${stateClass(feedbackStatus(record, { thoughts, status }))}`;
    item.dataset.feedbackId = record.id;
    const icon = document.createElement('span');
    icon.className = `codicon codicon-${KIND_ICONS[record.kind]}`;
    icon.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'feedback-kind';
    label.textContent =
      record.kind === 'branch' && record.branchId ? `${KIND_LABELS.branch} (${record.branchId})` : KIND_LABELS[record.kind];
    item.append(icon, label);
    if (record.text !== undefined) {
      const text = document.createElement('span');
      text.className = 'feedback-text';
      text.textContent = record.text;
      item.append(text);
    }
    const stateLabel = document.createElement('span');
    stateLabel.className = 'feedback-state';
    stateLabel.textContent = feedbackStatusText(record, thoughts, status);
    item.append(stateLabel);
    return item;
  }

  /** Feedback about no one thought (notes, conclude) listed in the panel. */
  private drawGeneral(): void {
    const items = this.scene.feedback.filter((record) => record.thoughtNumber === undefined).map((record) => this.markItem(record));
    this.general.replaceChildren(...items);
  }

  /** Reject… and Explore alternative… on one card of a steerable session. */
  private placeActions(seq: number | undefined, force: boolean): void {
    if (seq === this.actionsSeq && !force && this.actions.isConnected) return;
    this.actions.remove();
    this.actionsSeq = seq;
    if (seq === undefined) return;
    const card = this.options.cardFor(seq);
    const thought = this.scene.thoughts[seq];
    if (!card || !thought) return;
    this.showActionButtons(thought);
    card.append(this.actions);
  }

  private showActionButtons(thought: ThoughtRecord): void {
    this.actions.replaceChildren(
      // Secondary: they sit on a card of every live session, and must not outshout the thought.
      button('Reject…', 'feedback-reject', () => this.showForm(thought, 'reject'), true),
      button('Explore alternative…', 'feedback-branch', () => this.showForm(thought, 'branch'), true),
    );
    this.actions.setAttribute('aria-label', `Feedback on thought ${thought.thoughtNumber}`);
  }

  /** The inline form of a card action: a reason (reject) or a suggested branch id (branch), Send and Cancel. */
  private showForm(thought: ThoughtRecord, kind: 'reject' | 'branch'): void {
    const input = document.createElement('input');
    input.type = 'text';
    input.className = `feedback-input feedback-input-${kind}`;
    if (kind === 'reject') {
      input.placeholder = `Why is thought #${thought.thoughtNumber} wrong?`;
      input.setAttribute('aria-label', `Reason for rejecting thought ${thought.thoughtNumber}`);
    } else {
      input.value = `alt-${thought.thoughtNumber}`;
      input.setAttribute('aria-label', `Suggested branch name from thought ${thought.thoughtNumber}`);
    }
    const submit = () => {
      const value = input.value;
      const reset = () => this.showActionButtons(thought);
      if (kind === 'reject') this.send({ kind, thoughtNumber: thought.thoughtNumber, text: value }, reset);
      else this.send({ kind, thoughtNumber: thought.thoughtNumber, branchId: value.trim() === '' ? undefined : value.trim() }, reset);
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        submit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.showActionButtons(thought);
      }
    });
    this.actions.replaceChildren(
      input,
      button(kind === 'reject' ? 'Send rejection' : 'Ask for alternative', `feedback-submit-${kind}`, submit),
      button('Cancel', 'feedback-cancel', () => this.showActionButtons(thought), true),
    );
    input.focus();
    // The suggested branch name is a default, not a start: typing replaces it.
    input.select();
  }
}

function button(label: string, className: string, onClick: () => void, secondary = false): HTMLElement {
  const element = document.createElement('vscode-button');
  element.className = className;
  element.textContent = label;
  if (secondary) element.setAttribute('secondary', '');
  element.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick();
  });
  return element;
}
