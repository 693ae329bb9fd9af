// The deliberation's tool gateway on the tools VS Code really has (`vscode.lm.tools`: built-in, extensions', MCP
// servers'). Calls go through `vscode.lm.invokeTool` with the chat request's toolInvocationToken when there is one, so
// VS Code shows its usual confirmation. Our own tools are never offered to a deliberation (no recursion).
import * as vscode from 'vscode';
import type { ModelTool, ModelToolCall } from '../engine/modelGateway';
import { isOwnToolName, type ToolCallOutcome, type ToolGateway } from '../engine/toolGateway';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { shortened } from '../engine/browserSafe/textCut';

/** A tag that marks a tool as ours, whatever its name. */
const OWN_TAG = 'thought-explorer';
/** Longest tool answer handed back to the model (a summary of it is what gets recorded). */
const MAX_RESULT_LENGTH = 16_000;

/** Our MCP server's tools, as VS Code names them (`mcp_<server>_<tool>`), and any tool tagged as ours. */
export function isOwnTool(tool: Pick<vscode.LanguageModelToolInformation, 'name' | 'tags'>): boolean {
  return isOwnToolName(tool.name) || tool.tags.includes(OWN_TAG);
}

export class VsCodeToolGateway implements ToolGateway {
  readonly description = 'VS Code tools (vscode.lm.tools)';

  constructor(private readonly toolInvocationToken?: vscode.ChatParticipantToolToken) {}

  tools(): readonly ModelTool[] {
    return vscode.lm.tools
      .filter((tool) => !isOwnTool(tool))
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        ...(tool.inputSchema ? { inputSchema: tool.inputSchema as Record<string, unknown> } : {}),
      }));
  }

  async invoke(call: ModelToolCall, options: { signal?: AbortSignal }): Promise<ToolCallOutcome> {
    const known = vscode.lm.tools.find((tool) => tool.name === call.name);
    if (!known || isOwnTool(known)) {
      return { text: `No tool named "${call.name}" is available to a deliberation.`, isError: true };
    }
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    const { signal } = options;
    if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await vscode.lm.invokeTool(
        call.name,
        { input: call.input, toolInvocationToken: this.toolInvocationToken },
        source.token,
      );
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      return { text: shortened(text, MAX_RESULT_LENGTH), isError: false };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      // A tool's own failure (or a refused confirmation) is an outcome the model sees, not the end of the plan.
      return { text: `${call.name} failed: ${errorMessage(error)}`, isError: true };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}
