// The packaged extension, as a person gets it: scripts/testVsix.mjs installs thought-explorer-<version>.vsix into a
// fresh code-server with `--install-extension` and runs only this file (no extension under development). It checks
// that the installed copy activates, contributes its commands, and that its bundled, lazily loaded MCP server answers
// a tool call made through VS Code's own MCP client.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { sequentialThinkingTool } from './support';

const EXTENSION_ID = 'thought-explorer.thought-explorer';

interface Manifest {
  readonly version: string;
  readonly contributes: { readonly commands: readonly { readonly command: string }[] };
}

interface ThoughtExplorerTestApi {
  engine(): { getSession(id: string): { thoughts: { thought: string }[] } | undefined };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name],
  );
}

suite('harness: the packaged .vsix installed into code-server', () => {
  test('is installed from the .vsix, not loaded from the repository', () => {
    const extension = vscode.extensions.getExtension<ThoughtExplorerTestApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const expectedVersion = process.env.THOUGHT_EXPLORER_TEST_VSIX_VERSION;
    assert.ok(expectedVersion, 'THOUGHT_EXPLORER_TEST_VSIX_VERSION is not set: run this through scripts/testVsix.mjs');
    assert.equal((extension.packageJSON as Manifest).version, expectedVersion);
    // Installed copies live in the extensions folder as <publisher>.<name>-<version>; __dirname is the repo's out/.
    assert.equal(basename(extension.extensionPath), `${EXTENSION_ID}-${expectedVersion}`);
    assert.notEqual(extension.extensionPath, join(__dirname, '..', '..', '..'));
    // The installed copy holds only what runs.
    const files = filesUnder(extension.extensionPath);
    assert.ok(files.includes('dist/extension.js'), `dist/extension.js missing from ${files.join(', ')}`);
    const unwanted = files.filter((file) => /\.map$|\.ts$|^src\/|^test\/|^node_modules\//.test(file));
    assert.deepEqual(unwanted, []);
    assert.equal(existsSync(join(extension.extensionPath, 'src')), false);
  });

  test('activates and registers every contributed command', async () => {
    const extension = vscode.extensions.getExtension<ThoughtExplorerTestApi>(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = (extension.packageJSON as Manifest).contributes.commands
      .map((entry) => entry.command)
      .filter((command) => !registered.has(command));
    assert.deepEqual(missing, []);
  });

  test('its MCP server is started by VS Code and records a thought', async function () {
    this.timeout(120_000);
    const extension = vscode.extensions.getExtension<ThoughtExplorerTestApi>(EXTENSION_ID);
    assert.ok(extension);
    const api = await extension.activate();
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    const toolName = await sequentialThinkingTool(90_000);
    const text = `packaged-check ${Date.now()}`;
    const result = await vscode.lm.invokeTool(toolName, {
      input: { thought: text, thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
      toolInvocationToken: undefined,
    });
    const replyText = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    const reply = JSON.parse(replyText) as { sessionId: string; thoughtNumber: number };
    assert.equal(reply.thoughtNumber, 1);
    assert.deepEqual(
      api
        .engine()
        .getSession(reply.sessionId)
        ?.thoughts.map((thought) => thought.thought),
      [text],
    );
  });
});
