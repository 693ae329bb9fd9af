// Test-only chat participant "@thinker": runs the tool-calling loop itself (model → tool calls → vscode.lm.invokeTool
// → results back to the model, until the model answers in text), with the scripted model and the chat request's
// toolInvocationToken. It stands in for Copilot's agent mode, which needs a GitHub sign-in (not available to tests).
import * as vscode from 'vscode';

export interface ParticipantRun {
  readonly prompt: string;
  readonly toolCalls: readonly { readonly tool: string; readonly input: unknown; readonly resultText: string }[];
  readonly finalText: string;
  readonly error?: string;
}

const MAX_ROUNDS = 50;

function textOf(parts: readonly unknown[]): string {
  return parts.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

export function registerThinkerParticipant(
  selectModel: () => Thenable<vscode.LanguageModelChat[]>,
  toolNameSuffix: () => string,
  runs: ParticipantRun[],
): vscode.Disposable {
  const handler: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
    const toolCalls: { tool: string; input: unknown; resultText: string }[] = [];
    try {
      const [model] = await selectModel();
      if (!model) throw new Error('the scripted model is not registered');
      const suffix = toolNameSuffix();
      const tools = vscode.lm.tools
        .filter((tool) => tool.name.endsWith(suffix))
        .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
      const messages: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(request.prompt)];
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const response = await model.sendRequest(messages, { tools }, token);
        const calls: vscode.LanguageModelToolCallPart[] = [];
        let text = '';
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
          else if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        }
        if (calls.length === 0) {
          stream.markdown(text);
          runs.push({ prompt: request.prompt, toolCalls, finalText: text });
          return { metadata: { toolCalls: toolCalls.length } };
        }
        messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
        const results: vscode.LanguageModelToolResultPart[] = [];
        for (const call of calls) {
          stream.progress(`Calling ${call.name}…`);
          const result = await vscode.lm.invokeTool(
            call.name,
            { input: call.input, toolInvocationToken: request.toolInvocationToken },
            token,
          );
          toolCalls.push({ tool: call.name, input: call.input, resultText: textOf(result.content) });
          results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
        }
        messages.push(vscode.LanguageModelChatMessage.User(results));
      }
      throw new Error(`the model was still calling tools after ${MAX_ROUNDS} rounds`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      runs.push({ prompt: request.prompt, toolCalls, finalText: '', error: message });
      stream.markdown(`Scripted loop failed: ${message}`);
      return { errorDetails: { message } };
    }
  };
  return vscode.chat.createChatParticipant('thought-explorer-tests.thinker', handler);
}
