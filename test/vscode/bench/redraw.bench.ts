// The extension-host half of the tool-call → redraw benchmark (bench/vscodeRedraw.ts): loaded by code-server as the
// extensionTestsPath, it starts Thought Explorer's MCP server through VS Code's own MCP client, opens the explorer
// view, and drives one session of thoughts through `vscode.lm.invokeTool`, one at a time. For each thought it stamps
// the wall clock (Date.now(), the same system clock the workbench page reads) just before the call and right after it
// returns, and hands both to the bench process, which answers once the webview has drawn that thought, so the next
// call never overlaps the previous redraw. Not a *.test.ts file: the normal in-editor suite never runs it.
import * as vscode from 'vscode';
import { workloadCalls } from '../../../bench/workload';
import { sequentialThinkingTool } from '../suite/support';

const EXTENSION_ID = 'thought-explorer.thought-explorer';
/** Thought text length: the benchmark's usual 400 characters, so each card is a realistic size. */
const THOUGHT_LENGTH = 400;

function say(line: string): void {
  // The runner shows only lines carrying its marker (the rest of the console is the workbench's own log).
  console.log(`${process.env.THOUGHT_EXPLORER_TEST_OUTPUT_MARKER ?? ''}${line}`);
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through bench/vscodeRedraw.ts (npm run bench)`);
  return value;
}

/** One request to the bench process; it answers when its side of the step is done (or with an error to stop on). */
async function askBench(path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${requiredEnv('THOUGHT_EXPLORER_BENCH_URL')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${requiredEnv('THOUGHT_EXPLORER_BENCH_TOKEN')}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`bench ${path} answered ${response.status}: ${await response.text()}`);
}

function historyLength(result: vscode.LanguageModelToolResult): number {
  const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new Error(`the tool did not answer JSON: ${text.slice(0, 300)}`);
  }
  const length = (reply as { thoughtHistoryLength?: unknown }).thoughtHistoryLength;
  if (typeof length !== 'number') throw new Error(`the tool's answer has no thoughtHistoryLength: ${text.slice(0, 300)}`);
  return length;
}

export async function run(): Promise<void> {
  const thoughts = Number(requiredEnv('THOUGHT_EXPLORER_BENCH_THOUGHTS'));
  if (!Number.isInteger(thoughts) || thoughts < 1)
    throw new Error(`THOUGHT_EXPLORER_BENCH_THOUGHTS must be a positive integer, got ${thoughts}`);
  try {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
    await extension.activate();
    // In test mode the tool-confirmation dialog would throw; this is what the auto-approve setting means here.
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    const toolName = await sequentialThinkingTool();
    say(`tool ${toolName}`);
    await vscode.commands.executeCommand('thoughtExplorer.openExplorer');
    // The bench process finds the explorer's frame, puts the branch tree on screen and starts watching it.
    await askBench('/ready', {});

    const token = new vscode.CancellationTokenSource().token;
    let seq = 0;
    for (const input of workloadCalls({ thoughts, thoughtLength: THOUGHT_LENGTH })) {
      const start = Date.now();
      const result = await vscode.lm.invokeTool(toolName, { input, toolInvocationToken: undefined }, token);
      const end = Date.now();
      // A fresh store and one connection: thought n is the session's seq n-1. Anything else would time the wrong card.
      const length = historyLength(result);
      if (length !== seq + 1)
        throw new Error(`thought ${seq + 1} left the session with ${length} thoughts; the bench needs one fresh session`);
      await askBench('/drawn', { seq, start, end });
      seq++;
    }
    await askBench('/done', {});
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    say(`redraw bench failed: ${message}`);
    // Tell the bench process why, so its report says more than "exit 1" (best effort: it may be what failed).
    await askBench('/failed', { message }).catch(() => undefined);
    throw error;
  }
}
