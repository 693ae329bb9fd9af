// "Add Thought Explorer to This Workspace's .mcp.json" in real VS Code: the command adds the stdio entry next to the
// servers already there, the server that entry starts records into the store the Sessions view shows (live, through
// the store watcher), and a malformed file is refused and left as it was.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ThoughtExplorerApi } from '../../../src/extension/extension';
import { EXTENSION_ID, StdioClient, eventually, isolateStorage, type IsolatedStorage } from './support';

const COMMAND = 'thoughtExplorer.addToWorkspaceMcpJson';

interface McpJson {
  mcpServers: Record<string, { type?: string; command: string; args: string[] }>;
  inputs?: unknown[];
}

suite('workspace .mcp.json: Thought Explorer for agents outside the extension host', () => {
  let api: ThoughtExplorerApi;
  let storage: IsolatedStorage;
  let file: string;

  suiteSetup(async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    api = await extension.activate();
    storage = await isolateStorage(api, 'te-vscode-mcp-json-');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a workspace folder');
    file = join(folder.uri.fsPath, '.mcp.json');
  });

  teardown(() => rmSync(file, { force: true }));

  suiteTeardown(async () => {
    rmSync(file, { force: true });
    await storage.restore();
  });

  test('the command is contributed, and adds the entry beside the servers already there', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes(COMMAND));
    writeFileSync(file, JSON.stringify({ inputs: [], mcpServers: { memory: { command: 'npx', args: ['-y', 'memory'] } } }, null, 2));
    assert.equal(await vscode.commands.executeCommand(COMMAND, { form: 'local' }), 'added');
    const written = JSON.parse(readFileSync(file, 'utf8')) as McpJson;
    assert.deepEqual(written.inputs, []);
    assert.deepEqual(written.mcpServers.memory, { command: 'npx', args: ['-y', 'memory'] });
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    assert.deepEqual(written.mcpServers['thought-explorer'], {
      type: 'stdio',
      command: 'node',
      args: [cli, '--storage-path', storage.directory],
    });
    assert.equal(await vscode.commands.executeCommand(COMMAND, { form: 'local' }), 'unchanged');
  });

  test('the server the entry starts records into the store the Sessions view shows, live', async function () {
    this.timeout(60_000);
    assert.equal(await vscode.commands.executeCommand(COMMAND, { form: 'local' }), 'created');
    const entry = (JSON.parse(readFileSync(file, 'utf8')) as McpJson).mcpServers['thought-explorer'];
    // As an agent host would start it (`node` is this extension host's Node here).
    const changesBefore = api.storeWatcher.externalChanges;
    const child = spawn(process.execPath, entry.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    try {
      const client = new StdioClient(child);
      const init = await client.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'agent-host-stand-in', version: '1' },
      });
      assert.ok(init.result, JSON.stringify(init));
      client.notify('notifications/initialized');
      const call = await client.request('tools/call', {
        name: 'sequentialthinking',
        arguments: { thought: 'Started from .mcp.json', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true },
      });
      const sessionId = (call.result as { structuredContent?: { sessionId?: string } } | undefined)?.structuredContent?.sessionId;
      assert.ok(sessionId, JSON.stringify(call));
      assert.ok(existsSync(join(storage.directory, `${sessionId}.jsonl`)), 'the session is in the extension’s store');
      await eventually(() => {
        api.sessionsTree.getChildren();
        return api.sessionsTree.findSessionNode(sessionId);
      }, 'the session in the Sessions view');
      // Noticed by the store watcher (which makes VS Code redraw the view), not only found on the next listing.
      await eventually(
        () => (api.storeWatcher.externalChanges > changesBefore ? true : undefined),
        'the store watcher to notice the write',
      );
    } finally {
      child.kill();
    }
  });

  test('a malformed .mcp.json is refused and left as it was', async () => {
    writeFileSync(file, '{"mcpServers": {');
    assert.equal(await vscode.commands.executeCommand(COMMAND, { form: 'npx' }), 'refused');
    assert.equal(readFileSync(file, 'utf8'), '{"mcpServers": {');
  });
});
