// Demo-only extension (bundled and installed by scripts/demo.mjs): when a workbench window opens, it reveals the
// Thought Explorer sidebar, has VS Code start the extension's MCP server, and plays the sample session by calling
// the `sequentialthinking` tool through vscode.lm.invokeTool — VS Code's own MCP client, the path Copilot's agent
// takes — one thought every few seconds, so the Sessions tree and the explorer grow live in front of the viewer.
import { appendFileSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';

const TOOL_SUFFIX = 'sequentialthinking';

interface DemoConfig {
  readonly steps: readonly Record<string, unknown>[];
  readonly paceMs: number;
  readonly progressFile?: string;
}

function readConfig(): DemoConfig | undefined {
  const file = process.env.THOUGHT_EXPLORER_DEMO_SESSION;
  if (!file) return undefined;
  const steps = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
  const pace = Number(process.env.THOUGHT_EXPLORER_DEMO_PACE_MS ?? 1500);
  return { steps, paceMs: Number.isFinite(pace) && pace >= 0 ? pace : 1500, progressFile: process.env.THOUGHT_EXPLORER_DEMO_PROGRESS };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One JSON line per event, read by the demo script to narrate in the terminal. */
function report(config: DemoConfig, event: Record<string, unknown>): void {
  if (config.progressFile) appendFileSync(config.progressFile, `${JSON.stringify({ at: Date.now(), ...event })}\n`);
}

async function findTool(log: vscode.LogOutputChannel): Promise<vscode.LanguageModelToolInformation> {
  // Right after start-up the MCP provider may not be registered yet; VS Code finds nothing to start. Ask again.
  for (let attempt = 1; attempt <= 60; attempt++) {
    const tool = vscode.lm.tools.find((candidate) => candidate.name.startsWith('mcp_') && candidate.name.endsWith(TOOL_SUFFIX));
    if (tool) return tool;
    try {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
    } catch (error) {
      log.trace(`startServer attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!vscode.lm.tools.some((candidate) => candidate.name.endsWith(TOOL_SUFFIX))) await sleep(1000);
  }
  throw new Error('Thought Explorer\u2019s MCP tool did not appear after 60 attempts to start the server');
}

async function play(config: DemoConfig, log: vscode.LogOutputChannel): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.thoughtExplorer');
  const tool = await findTool(log);
  report(config, { event: 'tool', tool: tool.name });
  // Give the viewer a moment to see the empty explorer before the first thought arrives.
  await vscode.commands.executeCommand('thoughtExplorer.explorer.focus').then(undefined, () => undefined);
  await sleep(Math.min(config.paceMs, 1500));
  let sessionId: string | undefined;
  for (const [index, step] of config.steps.entries()) {
    const input = sessionId ? { ...step, sessionId } : step;
    const result = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    let reply: Record<string, unknown>;
    try {
      reply = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error(`thought ${index + 1} was refused: ${text.slice(0, 300)}`);
    }
    const firstReply = sessionId === undefined;
    sessionId = typeof reply.sessionId === 'string' ? reply.sessionId : sessionId;
    if (firstReply && sessionId) {
      // The big picture: the explorer as an editor panel on this session, growing with each thought.
      await vscode.commands.executeCommand('thoughtExplorer.openExplorer', sessionId).then(undefined, (error: unknown) => {
        log.warn(`could not open the explorer panel: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    vscode.window.setStatusBarMessage(`$(lightbulb) Demo: thought ${index + 1} of ${config.steps.length}`, config.paceMs + 500);
    report(config, { event: 'thought', index: index + 1, of: config.steps.length, sessionId, stage: reply.stage, thought: step.thought });
    if (index + 1 < config.steps.length) await sleep(config.paceMs);
  }
  report(config, { event: 'done', sessionId });
}

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Thought Explorer Demo', { log: true });
  context.subscriptions.push(log);
  let playing: Promise<void> | undefined;
  const start = (config: DemoConfig) => {
    playing ??= play(config, log)
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        log.error(message);
        report(config, { event: 'error', message });
        void vscode.window.showErrorMessage(`Thought Explorer demo: ${message}`);
      })
      .finally(() => {
        playing = undefined;
      });
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('thoughtExplorerDemo.play', () => {
      const config = readConfig();
      if (!config) {
        void vscode.window.showWarningMessage('No demo session configured (THOUGHT_EXPLORER_DEMO_SESSION is not set).');
        return;
      }
      start(config);
    }),
  );
  const config = readConfig();
  if (config) start(config);
}

export function deactivate(): void {
  // Nothing to release: the commands are disposed through context.subscriptions.
}
