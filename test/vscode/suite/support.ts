// Helpers shared by the in-editor suites (bundled into each *.test.js; not a test file itself): waiting for a
// condition, a person's input through the test runner's driver (scripts/webviewDriver.mjs), reading the MCP tool's JSON reply, finding and calling the sequentialthinking tool through VS Code's own
// MCP client, giving a suite a session store of its own, and talking to the stdio CLI as another MCP client would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';

export const EXTENSION_ID = 'thought-explorer.thought-explorer';

/** Polls `probe` until it returns something other than undefined; throws naming `what` after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The tool's text reply parsed as JSON (our tool answers JSON text next to its structuredContent). */
export function toolResultJson(result: vscode.LanguageModelToolResult): Record<string, unknown> {
  const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`The tool did not answer JSON: ${text.slice(0, 500)}`);
  }
}

/**
 * The `mcp_…_sequentialthinking` tool, starting the MCP server through VS Code's own client until it shows up (right
 * after activation, or after a setting rebuilt the engine, the provider's collection may not be registered yet).
 */
export async function sequentialThinkingTool(timeoutMs = 90_000): Promise<string> {
  return eventually(
    async () => {
      const found = vscode.lm.tools.find((tool) => tool.name.startsWith('mcp_') && tool.name.endsWith('_sequentialthinking'));
      if (found) return found.name;
      try {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
      } catch (error) {
        console.log(`    startServer: ${error instanceof Error ? error.message : String(error)} (retrying)`);
      }
      return undefined;
    },
    'the mcp_…_sequentialthinking tool',
    timeoutMs,
    3000,
  );
}

/** One tool call through vscode.lm.invokeTool (VS Code's MCP client → the in-host server); the reply as JSON. */
export async function invokeJson(toolName: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await vscode.lm.invokeTool(
    toolName,
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  return toolResultJson(result);
}

export interface IsolatedStorage {
  readonly directory: string;
  /** Puts the storage setting back and removes the directory. */
  restore(): Promise<void>;
}

/**
 * Points `thoughtExplorer.storagePath` at a fresh temporary directory, as a person would, and waits until the
 * services use it (the engine is rebuilt on it, or will be built there on first use).
 */
export async function isolateStorage(api: ThoughtExplorerApi, prefix: string): Promise<IsolatedStorage> {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  await vscode.workspace.getConfiguration('thoughtExplorer').update('storagePath', directory, vscode.ConfigurationTarget.Global);
  await eventually(() => (api.services.storageDirectory === directory ? true : undefined), `the services to use ${directory}`, 10_000);
  return {
    directory,
    restore: async () => {
      await vscode.workspace.getConfiguration('thoughtExplorer').update('storagePath', undefined, vscode.ConfigurationTarget.Global);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The extension's stdio CLI (dist/cli.js) on `storagePath`, as another MCP client starts it (Claude Desktop, Cursor). */
export function spawnCli(storagePath: string): ChildProcessWithoutNullStreams {
  const cli = join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? '', 'dist', 'cli.js');
  return spawn(process.execPath, [cli, '--storage-path', storagePath], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
}

/** A minimal MCP client over the stdio CLI's newline-delimited JSON-RPC; request ids count from 1. */
export class StdioClient {
  private buffer = '';
  private nextId = 1;
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();
  readonly stderr: string[] = [];

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let newline = this.buffer.indexOf('\n'); newline !== -1; newline = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, newline).trim();
        this.buffer = this.buffer.slice(newline + 1);
        if (line === '') continue;
        const message = JSON.parse(line) as Record<string, unknown>;
        if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.stderr.push(chunk));
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No answer to ${method} from the CLI; stderr: ${this.stderr.join('')}`)), 15_000);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }
}

/** One step the test runner performs with Playwright, as a person's mouse and keyboard would. */
export interface DriverStep {
  op: 'fill' | 'press' | 'click' | 'waitFor' | 'texts' | 'measureGraph';
  selector: string;
  text?: string;
  key?: string;
  /** For `waitFor`: attached (the default), detached, visible or hidden. */
  state?: 'attached' | 'detached' | 'visible' | 'hidden';
}

/**
 * Performs `steps` through the test runner's webview driver (scripts/webviewDriver.mjs), as a person's mouse and
 * keyboard: in the explorer's frame on `surface`, or on the workbench page itself. Every selector must match one
 * element (the driver acts strictly). Returns each step's result (the texts of a 'texts' step, the measures of a
 * 'measureGraph' step, null otherwise).
 */
export async function drive(surface: 'view' | 'panel' | 'workbench', steps: DriverStep[]): Promise<unknown[]> {
  const url = process.env.THOUGHT_EXPLORER_WEBVIEW_DRIVER;
  const token = process.env.THOUGHT_EXPLORER_WEBVIEW_DRIVER_TOKEN;
  if (!url || !token) throw new Error('no webview driver: run this suite through npm run test:vscode or test:walkthrough');
  const response = await fetch(`${url}/steps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ surface, steps }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`webview driver: ${text}`);
  return JSON.parse(text) as unknown[];
}
