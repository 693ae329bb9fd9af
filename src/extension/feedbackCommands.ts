// Steering a live session from the editor: the Sessions tree's Note…, Reject Thought…, Explore Alternative… and
// Conclude Now commands, and the explorer's feedback messages. Both record through engine.addFeedback, which refuses
// (with nothing stored) feedback on an unknown or finished session, on a thought that does not exist, or with empty
// or oversized text; the refusal is shown to the person as it is.
import * as vscode from 'vscode';
import type { ThinkingEngine } from '../engine/engine';
import { MAX_FEEDBACK_TEXT_LENGTH, type FeedbackInput } from '../engine/feedbackRules';
import type { FeedbackKind, SessionSnapshot } from '../engine/model';
import type { FeedbackHostMessage, GiveFeedbackMessage } from '../shared/feedbackProtocol';
import { resolveSessionArgument } from './sessionPicker';
import type { ExtensionServices } from './services';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export const FEEDBACK_COMMANDS = {
  note: 'thoughtExplorer.feedback.note',
  reject: 'thoughtExplorer.feedback.rejectThought',
  branch: 'thoughtExplorer.feedback.exploreAlternative',
  conclude: 'thoughtExplorer.feedback.concludeNow',
} as const satisfies Record<FeedbackKind, string>;

/** Records the explorer's `giveFeedback` and answers with its outcome (the webview shows the error next to the control). */
export function feedbackFromExplorer(
  engine: ThinkingEngine,
  message: GiveFeedbackMessage,
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>,
): FeedbackHostMessage {
  const input: FeedbackInput = { kind: message.kind, thoughtNumber: message.thoughtNumber, text: message.text, branchId: message.branchId };
  const outcome = engine.addFeedback(message.sessionId, input);
  if (!outcome.ok) {
    log.warn(`Feedback refused: ${outcome.error}`);
    return { type: 'feedbackResult', requestId: message.requestId, ok: false, error: outcome.error };
  }
  log.info(`Feedback (${outcome.feedback.kind}) recorded on session ${message.sessionId}; it goes out on the agent's next reply.`);
  return { type: 'feedbackResult', requestId: message.requestId, ok: true, feedback: outcome.feedback };
}

/** A thought number from a Sessions tree thought node (`entry.thought.thoughtNumber`), if the argument is one. */
function thoughtNumberFromArgument(argument: unknown): number | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const thought = (argument as { entry?: { thought?: { thoughtNumber?: unknown } } }).entry?.thought;
  return typeof thought?.thoughtNumber === 'number' ? thought.thoughtNumber : undefined;
}

async function pickThought(snapshot: SessionSnapshot, placeHolder: string): Promise<number | undefined> {
  const items = [...snapshot.thoughts].reverse().map((thought) => ({
    // Agent text: flattened, and `$(` defused so a thought cannot put icons in the list.
    label: `${thought.thoughtNumber}${thought.branchId ? ` [${thought.branchId}]` : ''}`,
    description: thought.thought.replace(/\s+/g, ' ').replace(/\$\(/g, '$\u200b(').slice(0, 120),
    thoughtNumber: thought.thoughtNumber,
  }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return picked?.thoughtNumber;
}

function validateText(required: boolean): (value: string) => string | undefined {
  return (value) => {
    if (value.length > MAX_FEEDBACK_TEXT_LENGTH) return vscode.l10n.t('At most {0} characters', MAX_FEEDBACK_TEXT_LENGTH);
    if (required && value.trim() === '') return vscode.l10n.t('Type something for the agent');
    return undefined;
  };
}

export function registerFeedbackCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const record = (sessionId: string, input: FeedbackInput): void => {
    const outcome = services.engine.addFeedback(sessionId, input);
    if (!outcome.ok) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: {0}', outcome.error));
      return;
    }
    void vscode.window.setStatusBarMessage(vscode.l10n.t("Feedback recorded; it goes out on the agent's next thought."), 4000);
  };

  /** The session (from the argument or a pick among live ones) and its snapshot; undefined when cancelled. */
  const liveSession = async (argument: unknown, placeHolder: string): Promise<SessionSnapshot | undefined> => {
    const id = await resolveSessionArgument(services, argument, placeHolder);
    if (id === undefined) return undefined;
    const snapshot = services.engine.getSession(id);
    if (!snapshot) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: session {0} no longer exists.', id));
      return undefined;
    }
    return snapshot;
  };

  const register = (id: string, handler: (argument: unknown) => Promise<void>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (argument: unknown) => {
        try {
          await handler(argument);
        } catch (error) {
          const message = errorMessage(error);
          services.log.error(`${id} failed: ${message}`);
          void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: {0}', message));
        }
      }),
    );

  register(FEEDBACK_COMMANDS.note, async (argument) => {
    const session = await liveSession(argument, vscode.l10n.t('Send a note to the agent of which session?'));
    if (!session) return;
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Note for the agent'),
      prompt: vscode.l10n.t('Delivered once, on the agent’s next thought'),
      validateInput: validateText(true),
    });
    if (text !== undefined) record(session.meta.id, { kind: 'note', text });
  });

  register(FEEDBACK_COMMANDS.reject, async (argument) => {
    const session = await liveSession(argument, vscode.l10n.t('Reject a thought of which session?'));
    if (!session) return;
    const thoughtNumber = thoughtNumberFromArgument(argument) ?? (await pickThought(session, vscode.l10n.t('Reject which thought?')));
    if (thoughtNumber === undefined) return;
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Reject thought {0}', thoughtNumber),
      prompt: vscode.l10n.t('Why is it wrong? The agent is asked to revise it.'),
      validateInput: validateText(true),
    });
    if (text !== undefined) record(session.meta.id, { kind: 'reject', thoughtNumber, text });
  });

  register(FEEDBACK_COMMANDS.branch, async (argument) => {
    const session = await liveSession(argument, vscode.l10n.t('Explore an alternative in which session?'));
    if (!session) return;
    const thoughtNumber =
      thoughtNumberFromArgument(argument) ?? (await pickThought(session, vscode.l10n.t('Explore an alternative from which thought?')));
    if (thoughtNumber === undefined) return;
    const branchId = await vscode.window.showInputBox({
      title: vscode.l10n.t('Explore an alternative from thought {0}', thoughtNumber),
      prompt: vscode.l10n.t('A branch name to suggest (letters, digits, "_", "-", "." or ":"), or empty to let the agent choose'),
      value: `alt-${thoughtNumber}`,
      validateInput: (value) =>
        value === '' || /^[A-Za-z0-9_.:-]{1,64}$/.test(value) ? undefined : vscode.l10n.t('1-64 letters, digits, "_", "-", "." or ":"'),
    });
    if (branchId !== undefined)
      record(session.meta.id, { kind: 'branch', thoughtNumber, branchId: branchId === '' ? undefined : branchId });
  });

  register(FEEDBACK_COMMANDS.conclude, async (argument) => {
    const session = await liveSession(argument, vscode.l10n.t('Ask the agent of which session to conclude?'));
    if (session) record(session.meta.id, { kind: 'conclude' });
  });
}
