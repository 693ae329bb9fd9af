// The slice of VS Code's LanguageModelChatProvider API (finalized in 1.104) that the scripted model implements,
// declared here because the repo pins @types/vscode to 1.101, which predates it.
import type * as vscode from 'vscode';

export interface ProviderModel {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly tooltip?: string;
  readonly capabilities: { readonly toolCalling?: boolean | number; readonly imageInput?: boolean };
}

export interface ProviderRequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: readonly unknown[];
  readonly name?: string;
}

export interface ProviderResponseOptions {
  readonly tools?: readonly { readonly name: string; readonly description: string; readonly inputSchema?: object }[];
}

export interface LanguageModelChatProviderShape {
  provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: vscode.CancellationToken): ProviderModel[];
  provideLanguageModelChatResponse(
    model: ProviderModel,
    messages: readonly ProviderRequestMessage[],
    options: ProviderResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: ProviderModel, text: string | ProviderRequestMessage, token: vscode.CancellationToken): Promise<number>;
}
