// Test-only extension: registers a scripted language model ("thought-explorer-scripted") whose replies are tool
// calls chosen by the in-editor test, so VS Code's own agent loop (chat → model → tool → model …) can run without
// Copilot or any network. The test drives it through the API returned by activate().
import * as vscode from 'vscode';
import { registerThinkerParticipant } from './participant';
import { registerRecsProbeTool } from './recsProbeTool';
import type { ParticipantRun } from './participant';
import type { LanguageModelChatProviderShape, ProviderModel, ProviderRequestMessage, ProviderResponseOptions } from './providerTypes';

export const VENDOR = 'thought-explorer-scripted';
export const MODEL_ID = 'scripted-thinker';

/** What the model does: call the tool whose name ends with `toolNameSuffix` once per input, then answer `finalText`. */
export interface ModelScript {
  readonly toolNameSuffix: string;
  readonly calls: readonly Record<string, unknown>[];
  readonly finalText: string;
}

/** One request VS Code made to the model, kept for the test's assertions. */
export interface RecordedRequest {
  readonly offeredTools: readonly string[];
  readonly toolResultsSeen: number;
  /** Text of the tool results in this request's messages, oldest first. */
  readonly toolResultTexts: readonly string[];
  readonly answered:
    | { readonly kind: 'toolCall'; readonly tool: string; readonly input: Record<string, unknown> }
    | { readonly kind: 'text'; readonly text: string };
}

/** What a deliberation test scripts: the reply to each request, from the request's text and the tools offered. */
export interface ScriptedRequest {
  readonly texts: readonly string[];
  readonly offeredTools: readonly string[];
  readonly token: vscode.CancellationToken;
}
export type ScriptedReply = {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly input: Record<string, unknown> }[];
};
export type Responder = (request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

export const TEST_TOOL = 'thought_explorer_test_lookup';

export interface ScriptedModelApi {
  readonly vendor: string;
  readonly modelId: string;
  setScript(script: ModelScript): void;
  readonly requests: readonly RecordedRequest[];
  /** Requests handled by the @thinker participant, which runs the tool loop itself. */
  readonly participantRuns: readonly ParticipantRun[];
  reset(): void;
  /** Replies by a function instead of the tool-call script (deliberation tests); undefined goes back to the script. */
  setResponder(responder: Responder | undefined): void;
  /** Requests the responder answered. */
  readonly responded: number;
  /** Takes the model away (no model available) and puts it back. */
  unregisterModel(): void;
  registerModel(): void;
  /** Inputs the test tool (vscode.lm.registerTool) was invoked with, and whether it had a chat toolInvocationToken. */
  readonly toolInvocations: readonly { readonly input: unknown; readonly hadToken: boolean }[];
}

function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  return '';
}

function toolResults(messages: readonly ProviderRequestMessage[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelToolResultPart) texts.push(part.content.map(partText).join(''));
    }
  }
  return texts;
}

class ScriptedModel implements LanguageModelChatProviderShape {
  script: ModelScript = { toolNameSuffix: 'sequentialthinking', calls: [], finalText: 'Nothing scripted.' };
  readonly requests: RecordedRequest[] = [];
  private callCounter = 0;
  responder: Responder | undefined;
  responded = 0;

  provideLanguageModelChatInformation(): ProviderModel[] {
    return [
      {
        id: MODEL_ID,
        name: 'Scripted Thinker (tests)',
        family: 'scripted',
        version: '1.0.0',
        maxInputTokens: 128_000,
        maxOutputTokens: 4_096,
        tooltip: 'Test-only model whose replies are scripted tool calls',
        capabilities: { toolCalling: true, imageInput: false },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    _model: ProviderModel,
    messages: readonly ProviderRequestMessage[],
    options: ProviderResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const offeredTools = (options.tools ?? []).map((tool) => tool.name);
    if (this.responder) {
      const texts = messages.map((message) => message.content.map(partText).join(''));
      const reply = await this.responder({ texts, offeredTools, token });
      this.responded += 1;
      for (const call of reply.toolCalls ?? []) {
        this.callCounter += 1;
        progress.report(new vscode.LanguageModelToolCallPart(`scripted-call-${this.callCounter}`, call.name, call.input));
      }
      if (reply.text !== undefined) progress.report(new vscode.LanguageModelTextPart(reply.text));
      return;
    }
    const results = toolResults(messages);
    const step = results.length;
    const tool = offeredTools.find((name) => name.endsWith(this.script.toolNameSuffix));
    let answered: RecordedRequest['answered'];
    if (step < this.script.calls.length && tool) {
      const input = this.script.calls[step];
      this.callCounter += 1;
      progress.report(new vscode.LanguageModelToolCallPart(`scripted-call-${this.callCounter}`, tool, input));
      answered = { kind: 'toolCall', tool, input };
    } else {
      const text =
        tool || step >= this.script.calls.length
          ? this.script.finalText
          : `No tool ending in "${this.script.toolNameSuffix}" was offered (offered: ${offeredTools.join(', ') || 'none'}).`;
      progress.report(new vscode.LanguageModelTextPart(text));
      answered = { kind: 'text', text };
    }
    this.requests.push({ offeredTools, toolResultsSeen: step, toolResultTexts: results, answered });
  }

  async provideTokenCount(_model: ProviderModel, text: string | ProviderRequestMessage): Promise<number> {
    const length = typeof text === 'string' ? text.length : text.content.map(partText).join('').length;
    return Math.ceil(length / 4);
  }
}

export function activate(context: vscode.ExtensionContext): ScriptedModelApi {
  const model = new ScriptedModel();
  // The provider API is finalized after the 1.101 typings this repo pins; feature-detect it.
  const lm = vscode.lm as unknown as {
    registerLanguageModelChatProvider?: (vendor: string, provider: LanguageModelChatProviderShape) => vscode.Disposable;
  };
  if (typeof lm.registerLanguageModelChatProvider !== 'function') {
    throw new Error(`vscode.lm.registerLanguageModelChatProvider is missing in VS Code ${vscode.version}`);
  }
  let registration: vscode.Disposable | undefined = lm.registerLanguageModelChatProvider(VENDOR, model);
  context.subscriptions.push({ dispose: () => registration?.dispose() });
  registerRecsProbeTool(context);
  const toolInvocations: { input: unknown; hadToken: boolean }[] = [];
  context.subscriptions.push(
    vscode.lm.registerTool<{ word?: string }>(TEST_TOOL, {
      invoke: (options) => {
        toolInvocations.push({ input: options.input, hadToken: options.toolInvocationToken !== undefined });
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(
            `Fact ${toolInvocations.length} about ${String(options.input.word)}: it has ${String(options.input.word).length} letters.`,
          ),
        ]);
      },
    }),
  );
  const participantRuns: ParticipantRun[] = [];
  context.subscriptions.push(
    registerThinkerParticipant(
      () => vscode.lm.selectChatModels({ vendor: VENDOR, id: MODEL_ID }),
      () => model.script.toolNameSuffix,
      participantRuns,
    ),
  );
  return {
    vendor: VENDOR,
    modelId: MODEL_ID,
    setScript: (script) => {
      model.script = script;
    },
    get requests() {
      return model.requests;
    },
    get participantRuns() {
      return participantRuns;
    },
    reset: () => {
      model.requests.length = 0;
      participantRuns.length = 0;
      model.responder = undefined;
      model.responded = 0;
      toolInvocations.length = 0;
    },
    setResponder: (responder) => {
      model.responder = responder;
    },
    get responded() {
      return model.responded;
    },
    unregisterModel: () => {
      registration?.dispose();
      registration = undefined;
    },
    registerModel: () => {
      registration ??= lm.registerLanguageModelChatProvider!(VENDOR, model);
    },
    get toolInvocations() {
      return toolInvocations;
    },
  };
}

export function deactivate(): void {
  // Registrations are disposed through context.subscriptions.
}
