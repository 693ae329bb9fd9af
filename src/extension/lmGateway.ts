// The deliberation's model gateway on VS Code's own language models (`vscode.lm`): Copilot's or any extension's
// LanguageModelChatProvider. It picks the model the setting names (or the chat view's, or asks once), streams each
// answer, counts tokens with the model's own tokenizer, bridges the plan's AbortSignal to a CancellationToken and turns
// every LanguageModelError into a sentence that says what the person can do.
import * as vscode from 'vscode';
import {
  estimateTokens,
  type ModelCallOptions,
  type ModelCompletion,
  type ModelGateway,
  type ModelMessage,
  type ModelToolCall,
  type ModelAvailability,
} from '../engine/modelGateway';
import type { ModelSetting } from './deliberationSettings';
import { errorMessage } from '../engine/browserSafe/errorMessage';

/** No model can run the deliberation; the message says why and what to do. Nothing has been recorded. */
export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError';
}

const SETTING = 'thoughtExplorer.deliberation.model';
const JUSTIFICATION =
  'Thought Explorer runs each role of a deliberation (thinking hats, plans) on this model and records its answer as a thought.';

export function noModelMessage(setting: ModelSetting): string {
  const configured =
    setting.kind === 'selector'
      ? `No VS Code language model matches ${SETTING} "${setting.text}". `
      : 'No language model is available in VS Code. ';
  return (
    `${configured}Install and sign in to GitHub Copilot Chat (or another extension that provides language models), ` +
    `then try again; or set ${SETTING} to "" (the model picked in the chat view), "ask", or vendor/family/id of a model you have.`
  );
}

/** A clear message for any error a model call can end with. */
export function describeModelError(error: unknown, modelName: string): string {
  const message = errorMessage(error);
  const code =
    error instanceof vscode.LanguageModelError
      ? error.code
      : typeof (error as { code?: unknown })?.code === 'string'
        ? (error as { code: string }).code
        : '';
  if (code === vscode.LanguageModelError.NoPermissions.name) {
    return `VS Code did not allow Thought Explorer to use ${modelName}${message ? ` (${message})` : ''}. Run the request again and choose Allow when VS Code asks, or allow it under Accounts → Manage Language Model Access.`;
  }
  if (code === vscode.LanguageModelError.Blocked.name) {
    return `${modelName} blocked the request${message ? ` (${message})` : ''}; this is usually a rate or quota limit. Wait a moment and try again, or pick another model with ${SETTING}.`;
  }
  if (code === vscode.LanguageModelError.NotFound.name) {
    return `${modelName} is no longer available${message ? ` (${message})` : ''}. Pick another model with ${SETTING} ("ask" shows the list).`;
  }
  if (/quota|rate.?limit|too many requests|429/i.test(message)) {
    return `${modelName} refused the request because a quota or rate limit was reached (${message}). Wait and try again, or pick another model with ${SETTING}.`;
  }
  if (/off.?topic|filtered|content.?polic|responsible ai/i.test(message)) {
    return `${modelName} declined to answer (${message}). Rephrase the problem, or pick another model with ${SETTING}.`;
  }
  return `${modelName} failed: ${message}`;
}

export function modelLabel(model: vscode.LanguageModelChat): string {
  return `${model.name} (${model.vendor}/${model.family}/${model.id})`;
}

/** Runs calls on one chosen model. */
export class LanguageModelGateway implements ModelGateway {
  readonly description: string;
  /** vscode.lm passes tools to the model natively (LanguageModelToolCallPart in the answer). */
  readonly toolCalling = true;

  constructor(readonly model: vscode.LanguageModelChat) {
    this.description = `VS Code model ${modelLabel(model)}`;
  }

  async complete(messages: readonly ModelMessage[], options: ModelCallOptions): Promise<ModelCompletion> {
    const source = new vscode.CancellationTokenSource();
    const signal = options.signal;
    const onAbort = () => source.cancel();
    if (signal?.aborted) source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const chatMessages = toChatMessages(messages);
      const tools = options.tools?.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await this.model.sendRequest(
          chatMessages,
          { justification: JUSTIFICATION, ...(tools && tools.length > 0 ? { tools } : {}) },
          source.token,
        );
      } catch (error) {
        throw this.failure(error, signal);
      }
      let text = '';
      let truncated = false;
      const toolCalls: ModelToolCall[] = [];
      try {
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            text += part.value;
            // vscode.lm has no portable max-tokens option: stop reading (and cancel) once the estimate passes it.
            if (estimateTokens(text) > options.maxTokens) {
              truncated = true;
              source.cancel();
              break;
            }
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            toolCalls.push({
              id: part.callId || `call-${toolCalls.length + 1}`,
              name: part.name,
              input: isRecord(part.input) ? part.input : {},
            });
          }
        }
      } catch (error) {
        if (!truncated) throw this.failure(error, signal);
      }
      if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
      const counted = await this.count(chatMessages, text, options.maxTokens);
      if (counted.outputTokens > options.maxTokens) {
        // The model's tokenizer disagrees with the estimate: keep the share of the text that fits the budget.
        text = text.slice(0, Math.floor((text.length * options.maxTokens) / counted.outputTokens));
        counted.outputTokens = options.maxTokens;
        truncated = true;
      }
      return {
        text,
        usage: { inputTokens: counted.inputTokens, outputTokens: counted.outputTokens, estimated: counted.estimated },
        model: `${this.model.vendor}/${this.model.id}`,
        ...(truncated ? { truncated } : {}),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  /** Token counts from the model's own tokenizer; an estimate (marked) when it cannot count. */
  private async count(
    messages: vscode.LanguageModelChatMessage[],
    output: string,
    maxTokens: number,
  ): Promise<{ inputTokens: number; outputTokens: number; estimated: boolean }> {
    try {
      const inputs = await Promise.all(messages.map((message) => this.model.countTokens(message)));
      const outputTokens = output === '' ? 0 : await this.model.countTokens(output);
      return { inputTokens: inputs.reduce((sum, value) => sum + value, 0), outputTokens, estimated: false };
    } catch {
      const inputTokens = messages.reduce((sum, message) => sum + estimateTokens(textOf(message)), 0);
      return { inputTokens, outputTokens: Math.min(estimateTokens(output), maxTokens), estimated: true };
    }
  }

  private failure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted) return signal.reason ?? error;
    return new Error(describeModelError(error, this.model.name));
  }
}

/**
 * The gateway a request gets: chooses its model in ready() (before anything is recorded) from the setting, the chat
 * view's model or a quick pick, then runs every call on it.
 */
export class VsCodeModelGateway implements ModelGateway {
  readonly toolCalling = true;
  private chosen: LanguageModelGateway | undefined;

  constructor(
    private readonly setting: () => ModelSetting,
    /** rechoose: pick the model again on every ready() (one gateway serving many requests, e.g. the MCP server's). */
    private readonly options: {
      preferred?: vscode.LanguageModelChat;
      picker?: ModelPicker;
      rechoose?: boolean;
      availability?: ModelAvailability;
    } = {},
  ) {}

  get availability(): ModelAvailability | undefined {
    return this.options.availability;
  }

  get description(): string {
    return this.chosen?.description ?? 'VS Code language models';
  }

  get model(): vscode.LanguageModelChat | undefined {
    return this.chosen?.model;
  }

  async ready(): Promise<void> {
    if (this.chosen && !this.options.rechoose) return;
    const model = await chooseModel(this.setting(), this.options.preferred, this.options.picker ?? defaultPicker);
    this.chosen = new LanguageModelGateway(model);
  }

  async complete(messages: readonly ModelMessage[], options: ModelCallOptions): Promise<ModelCompletion> {
    if (!this.chosen) await this.ready();
    return this.chosen!.complete(messages, options);
  }
}

/** Remembers the model picked for "ask", so the quick pick shows once per window. */
export interface ModelPicker {
  remembered?: { vendor: string; id: string };
  pick(models: readonly vscode.LanguageModelChat[]): Thenable<vscode.LanguageModelChat | undefined>;
}

const defaultPicker: ModelPicker = {
  pick: async (models) => {
    const picked = await vscode.window.showQuickPick(
      models.map((model) => ({ label: model.name, description: `${model.vendor}/${model.family}/${model.id}`, model })),
      {
        title: vscode.l10n.t('Deliberate with which model?'),
        placeHolder: vscode.l10n.t('Thought Explorer asks once; set {0} to choose for good', SETTING),
      },
    );
    return picked?.model;
  },
};

export async function chooseModel(
  setting: ModelSetting,
  preferred: vscode.LanguageModelChat | undefined,
  picker: ModelPicker,
): Promise<vscode.LanguageModelChat> {
  if (setting.kind === 'selector') {
    const selector: vscode.LanguageModelChatSelector = {
      ...(setting.vendor ? { vendor: setting.vendor } : {}),
      ...(setting.family ? { family: setting.family } : {}),
      ...(setting.id ? { id: setting.id } : {}),
    };
    const [model] = await vscode.lm.selectChatModels(selector);
    if (!model) throw new ModelUnavailableError(`${noModelMessage(setting)}${await availableList()}`);
    return model;
  }
  const all = await vscode.lm.selectChatModels();
  if (setting.kind === 'ask') {
    if (all.length === 0) throw new ModelUnavailableError(noModelMessage(setting));
    const remembered =
      picker.remembered && all.find((model) => model.vendor === picker.remembered!.vendor && model.id === picker.remembered!.id);
    if (remembered) return remembered;
    const picked = all.length === 1 ? all[0] : await picker.pick(all);
    if (!picked)
      throw new ModelUnavailableError(
        `No model was picked, so nothing was run. Ask again and pick one, or set ${SETTING} to vendor/family/id.`,
      );
    picker.remembered = { vendor: picked.vendor, id: picked.id };
    return picked;
  }
  // The chat view's model, when it is a real one we may call (it can be a placeholder without a provider).
  if (preferred && all.some((model) => model.vendor === preferred.vendor && model.id === preferred.id)) return preferred;
  if (all.length === 0) throw new ModelUnavailableError(noModelMessage(setting));
  return all[0];
}

async function availableList(): Promise<string> {
  const all = await vscode.lm.selectChatModels();
  return all.length === 0
    ? ' No model is available at all.'
    : ` Available: ${all.map((model) => `${model.vendor}/${model.family}/${model.id}`).join(', ')}.`;
}

/** vscode.lm (at the API version we target) has no system role: instructions go first, as a user message. */
function toChatMessages(messages: readonly ModelMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) =>
    message.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(message.text)
      : vscode.LanguageModelChatMessage.User(message.role === 'system' ? `Instructions for your role:\n${message.text}` : message.text),
  );
}

function textOf(message: vscode.LanguageModelChatMessage): string {
  return message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
