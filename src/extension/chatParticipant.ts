// The `@thinking` chat participant: deliberates on a question with the person's own VS Code models (thinking hats,
// plans), streaming each role's answer as it is recorded, and starts or resumes sequential-thinking sessions. Every
// role is a thought of a session the explorer draws live; the reply ends with buttons to open and export it.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { runDeliberation, type DeliberationReply } from '../deliberation/deliberate';
import { RecordingError } from '../deliberation/recorder';
import type { CallOutcome } from '../deliberation/runner';
import { DeliberationInputError, parseDeliberateInput, prepareDeliberation } from '../deliberation/request';
import type { ThinkingEngine } from '../engine/engine';
import { findStrategy } from '../engine/strategies/catalog';
import { chatUsage, parseChatCommand, type ChatCommand } from './chatCommands';
import { readDeliberationSettings, type DeliberationSettings } from './deliberationSettings';
import { VsCodeModelGateway, type ModelPicker } from './lmGateway';
import { VsCodeToolGateway } from './lmToolGateway';
import type { LiveDeliberations } from './liveDeliberations';
import type { ExtensionServices } from './services';
import { SETTINGS_SECTION } from './settings';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export const PARTICIPANT_ID = 'thought-explorer.thinking';
const OPEN_COMMAND = 'thoughtExplorer.openInExplorer';
const EXPORT_COMMAND = 'thoughtExplorer.exportSession';

/** What a request did, for the result's metadata (follow-ups, tests). */
export interface ThinkingResultMetadata {
  command: ChatCommand['kind'];
  sessionId?: string;
  status?: DeliberationReply['status'] | 'refused';
  roles?: { role: string; status: string; thoughtNumber: number }[];
  model?: string;
}

export interface ChatParticipantDeps {
  services: Pick<ExtensionServices, 'engine' | 'log' | 'extensionUri'>;
  deliberations: LiveDeliberations;
  /** Read fresh per request. */
  settings(): DeliberationSettings;
  picker?: ModelPicker;
}

/** One answered request: what the tests (and diagnostics) read back. */
export interface ChatRequestRecord {
  command: string | undefined;
  prompt: string;
  result: vscode.ChatResult;
}

/** Registers @thinking; returns the requests it answered (most recent last, at most 50). */
export function registerChatParticipant(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  deliberations: LiveDeliberations,
): ChatRequestRecord[] {
  const answered: ChatRequestRecord[] = [];
  const picker: ModelPicker = { pick: defaultPick };
  const deps: ChatParticipantDeps = {
    services,
    deliberations,
    picker,
    settings: () => {
      const reading = readDeliberationSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION));
      for (const problem of reading.problems) services.log.warn(problem);
      return reading.settings;
    },
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, _chatContext, stream, token) => {
    const result = await handleChatRequest(deps, request, stream, token);
    answered.push({ command: request.command, prompt: request.prompt, result });
    if (answered.length > 50) answered.shift();
    return result;
  });
  participant.iconPath = vscode.Uri.joinPath(services.extensionUri, 'media', 'thinking.svg');
  participant.followupProvider = { provideFollowups: (result) => followups(result.metadata as ThinkingResultMetadata | undefined) };
  context.subscriptions.push(participant);
  return answered;
}

async function defaultPick(models: readonly vscode.LanguageModelChat[]): Promise<vscode.LanguageModelChat | undefined> {
  const picked = await vscode.window.showQuickPick(
    models.map((model) => ({ label: model.name, description: `${model.vendor}/${model.family}/${model.id}`, model })),
    {
      title: vscode.l10n.t('Deliberate with which model?'),
      placeHolder: vscode.l10n.t('Asked once per window; set thoughtExplorer.deliberation.model to choose for good'),
    },
  );
  return picked?.model;
}

export async function handleChatRequest(
  deps: ChatParticipantDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const settings = deps.settings();
  const command = parseChatCommand(request.command, request.prompt, settings);
  switch (command.kind) {
    case 'usage':
      stream.markdown(command.message);
      return { metadata: { command: 'usage' } satisfies ThinkingResultMetadata };
    case 'strategy':
      return startStrategySession(deps.services.engine, command, stream);
    case 'resume':
      return resumeSession(deps.services.engine, command.sessionId, stream);
    case 'deliberate':
      return deliberate(deps, settings, command, request, stream, token);
  }
}

async function deliberate(
  deps: ChatParticipantDeps,
  settings: DeliberationSettings,
  command: Extract<ChatCommand, { kind: 'deliberate' }>,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const engine = deps.services.engine;
  const connectionId = `vscode-chat-${randomUUID()}`;
  const refused = (message: string): vscode.ChatResult => {
    stream.markdown(message);
    return { errorDetails: { message }, metadata: { command: 'deliberate', status: 'refused' } satisfies ThinkingResultMetadata };
  };
  let prepared;
  try {
    prepared = prepareDeliberation(engine, connectionId, parseDeliberateInput(command.input));
  } catch (error) {
    if (error instanceof DeliberationInputError)
      return refused(`${vscode.l10n.t('{0}. Nothing was recorded.', error.message)}\n\n${chatUsage()}`);
    throw error;
  }
  const gateway = new VsCodeModelGateway(() => settings.model, { preferred: request.model, picker: deps.picker });
  try {
    stream.progress(vscode.l10n.t('Choosing a model…'));
    await gateway.ready();
  } catch (error) {
    // No model (none installed, none matching the setting, no consent): say what to do; nothing is recorded.
    return refused(vscode.l10n.t('{0} Nothing was run or recorded.', errorMessage(error)));
  }

  const controller = new AbortController();
  const live = deps.deliberations.begin({ model: gateway.description, maxTotalTokens: prepared.plan.maxTotalTokens, controller });
  const cancel = token.onCancellationRequested(() => controller.abort(new Error('the chat request was cancelled')));
  if (token.isCancellationRequested) controller.abort(new Error('the chat request was cancelled'));
  const routing = prepared.routing ? `\n\n${vscode.l10n.t('_Routing: {0}._', prepared.routing.reason)}` : '';
  stream.markdown(`${vscode.l10n.t('**Deliberating** ({0}) with {1}.', command.label, gateway.description)}${routing}\n\n`);
  let reply: DeliberationReply;
  try {
    const deliberationDeps = {
      engine,
      connectionId,
      gateway,
      // Task steps reach VS Code's tools, with this request's token so VS Code shows its confirmations.
      toolGateway: new VsCodeToolGateway(request.toolInvocationToken),
      signal: controller.signal,
      onCallStarted: (event: { sessionId: string; role: string; title: string }) => {
        live.started(event);
        stream.progress(vscode.l10n.t('{0} is thinking…', event.title));
      },
      onCallRecorded: ({ outcome, thoughtNumber }: { outcome: CallOutcome; thoughtNumber: number }) => {
        live.recorded(outcome, thoughtNumber);
        const where = [
          outcome.branch ? vscode.l10n.t('branch {0}', outcome.branch) : '',
          outcome.cycle !== undefined ? vscode.l10n.t('cycle {0}', outcome.cycle) : '',
          outcome.phase === 'convergence' ? vscode.l10n.t('convergence') : '',
        ]
          .filter(Boolean)
          .join(', ');
        const figures = outcome.usage
          ? vscode.l10n.t(
              'Thought {0}, {1} tokens, {2} ms',
              thoughtNumber,
              `${outcome.usage.outputTokens}${outcome.usage.estimated ? '~' : ''}`,
              outcome.durationMs,
            )
          : vscode.l10n.t('Thought {0}, {1} ms', thoughtNumber, outcome.durationMs);
        const status = outcome.status === 'ok' ? '' : ` — ${outcome.status}`;
        stream.markdown(
          `#### ${outcome.role.title}${where ? ` (${where})` : ''}${status}\n_${figures}_\n\n${quoteModelText(outcome.text)}\n\n`,
        );
      },
    };
    reply = await runDeliberation(prepared, deliberationDeps);
  } catch (error) {
    live.finished('failed');
    if (error instanceof RecordingError) return refused(vscode.l10n.t('The deliberation could not be recorded: {0}', error.message));
    throw error;
  } finally {
    cancel.dispose();
  }
  live.finished(reply.status);
  deps.services.log.info(
    `@thinking: deliberation ${reply.status} in session ${reply.sessionId} (${reply.usage.calls} calls via ${reply.gateway}).`,
  );

  const summary =
    reply.status === 'cancelled'
      ? vscode.l10n.t('**Cancelled.** What finished is recorded; the rest is marked cancelled.')
      : `${vscode.l10n.t('**Result** ({0}):', reply.plan.resultStrategy)}\n\n${quoteModelText(reply.result || vscode.l10n.t('(no role produced an answer)'))}`;
  const failed = reply.failed.length > 0 ? `\n\n${vscode.l10n.t('Failed: {0}.', reply.failed.join(', '))}` : '';
  const cut = reply.budgets.cut.length > 0 ? `\n\n${vscode.l10n.t('Cut by budgets: {0}.', reply.budgets.cut.join('; '))}` : '';
  const { usage } = reply;
  const spent = usage.estimated
    ? vscode.l10n.t('{0} calls, {1} + {2} tokens (partly estimated)', usage.calls, usage.inputTokens, usage.outputTokens)
    : vscode.l10n.t('{0} calls, {1} + {2} tokens', usage.calls, usage.inputTokens, usage.outputTokens);
  const where = vscode.l10n.t('Session {0}, thoughts {1}–{2}', `\`${reply.sessionId}\``, reply.thoughts.first, reply.thoughts.last);
  stream.markdown(`---\n${summary}${failed}${cut}\n\n_${where}; ${spent}._\n\n`);
  stream.button({ command: OPEN_COMMAND, title: vscode.l10n.t('Open in Explorer'), arguments: [reply.sessionId] });
  stream.button({ command: EXPORT_COMMAND, title: vscode.l10n.t('Export Session…'), arguments: [reply.sessionId] });
  return {
    metadata: {
      command: 'deliberate',
      sessionId: reply.sessionId,
      status: reply.status,
      roles: reply.roles.map((role) => ({ role: role.role, status: role.status, thoughtNumber: role.thoughtNumber })),
      model: reply.gateway,
    } satisfies ThinkingResultMetadata,
  };
}

/** Model text goes into the chat as Markdown; links and HTML it might carry are the chat view's to sanitise. */
function quoteModelText(text: string): string {
  return text.trim() === '' ? '_(empty)_' : text;
}

function startStrategySession(
  engine: ThinkingEngine,
  command: Extract<ChatCommand, { kind: 'strategy' }>,
  stream: vscode.ChatResponseStream,
): vscode.ChatResult {
  const strategy = findStrategy(command.strategy)!;
  const connectionId = `vscode-chat-${randomUUID()}`;
  const outcome = engine.recordThought(connectionId, {
    thought: `Problem: ${command.problem}`,
    thoughtNumber: 1,
    totalThoughts: Math.max(2, strategy.typicalLength),
    nextThoughtNeeded: true,
    strategy: strategy.name,
  });
  if (!outcome.ok) {
    stream.markdown(vscode.l10n.t('The session could not be started: {0}', outcome.error));
    return {
      errorDetails: { message: outcome.error },
      metadata: { command: 'strategy', status: 'refused' } satisfies ThinkingResultMetadata,
    };
  }
  const { sessionId } = outcome.reply;
  const stages = strategy.stages.map((stage) => `\`${stage.name}\``).join(' → ');
  stream.markdown(
    `${vscode.l10n.t('Started session {0} in **{1}**: {2}', `\`${sessionId}\``, strategy.title, strategy.description)}\n\n` +
      `${vscode.l10n.t('Stages: {0}.', stages)}\n\n` +
      `${vscode.l10n.t(
        'To go on, ask the agent (agent mode): _"Continue thinking session {0} with the sequentialthinking tool, from thought 2"_ — it sends {1}, {2} and a {3} of the strategy on each call. The explorer draws it live.',
        sessionId,
        `\`sessionId: "${sessionId}"\``,
        '`thoughtNumber: 2`',
        '`stage`',
      )}\n\n`,
  );
  stream.button({ command: OPEN_COMMAND, title: vscode.l10n.t('Open in Explorer'), arguments: [sessionId] });
  return { metadata: { command: 'strategy', sessionId } satisfies ThinkingResultMetadata };
}

function resumeSession(engine: ThinkingEngine, sessionId: string | undefined, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const id = sessionId ?? engine.listSessions({ limit: 1 }).sessions[0]?.id;
  const session = id === undefined ? undefined : engine.getSession(id);
  if (!session) {
    const message =
      sessionId === undefined
        ? vscode.l10n.t('There is no session to resume yet.')
        : vscode.l10n.t('No session "{0}" exists. The Sessions view lists them; `/resume` alone takes the latest.', sessionId);
    stream.markdown(message);
    return { errorDetails: { message }, metadata: { command: 'resume', status: 'refused' } satisfies ThinkingResultMetadata };
  }
  const { meta } = session;
  const last = session.thoughts.at(-1);
  const lastLine = last
    ? `\n\n${vscode.l10n.t('Last thought ({0}):', `#${last.thoughtNumber}${last.stage ? `, ${last.stage}` : ''}`)}\n\n> ${last.thought.slice(0, 600).replace(/\n/g, '\n> ')}`
    : '';
  const next = meta.lastThoughtNumber + 1;
  const about = vscode.l10n.t(
    'Session {0}: {1} thoughts, strategy {2}, {3}.',
    `\`${meta.id}\`${meta.title ? ` — ${meta.title}` : ''}`,
    meta.thoughtCount,
    `\`${meta.strategy}\``,
    meta.status,
  );
  const howToGoOn =
    meta.status === 'complete'
      ? vscode.l10n.t('It is complete. Start a new one with `/strategy`, or deliberate on a follow-up question.')
      : vscode.l10n.t(
          'To go on, ask the agent: _"Continue thinking session {0} with the sequentialthinking tool, from thought {1}"_, or deliberate with `@thinking` on it.',
          meta.id,
          next,
        );
  stream.markdown(`${about}${lastLine}\n\n${howToGoOn}\n\n`);
  stream.button({ command: OPEN_COMMAND, title: vscode.l10n.t('Open in Explorer'), arguments: [meta.id] });
  stream.button({ command: EXPORT_COMMAND, title: vscode.l10n.t('Export Session…'), arguments: [meta.id] });
  return { metadata: { command: 'resume', sessionId: meta.id } satisfies ThinkingResultMetadata };
}

function followups(metadata: ThinkingResultMetadata | undefined): vscode.ChatFollowup[] {
  if (!metadata) return [];
  if (metadata.command === 'deliberate' && metadata.sessionId) {
    return [{ prompt: metadata.sessionId, command: 'resume', label: vscode.l10n.t('Where does this session stand?') }];
  }
  if (metadata.command === 'usage' || metadata.status === 'refused')
    return [{ prompt: vscode.l10n.t('Should we adopt this approach?'), command: 'hats', label: vscode.l10n.t('Try /hats') }];
  return [];
}
