// Proves the in-editor harness itself: the suite runs inside a real VS Code (code-server's workbench and extension
// host), with Thought Explorer loaded from this repo as the extension under development, and it activates.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'thought-explorer.thought-explorer';

interface Manifest {
  readonly version: string;
  readonly engines: { readonly vscode: string };
}

/** "^1.101.0" → [1, 101, 0]; the engine minimum the manifest promises to support. */
function minimumVersion(range: string): number[] {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(range);
  assert.ok(match, `engines.vscode ${JSON.stringify(range)} has no version`);
  return match.slice(1, 4).map(Number);
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

suite('harness: real VS Code', () => {
  test('runs in a VS Code at least as new as engines.vscode', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    const manifest = extension.packageJSON as Manifest;
    const running = vscode.version.split(/[.-]/).slice(0, 3).map(Number);
    assert.ok(
      compareVersions(running, minimumVersion(manifest.engines.vscode)) >= 0,
      `VS Code ${vscode.version} is older than engines.vscode ${manifest.engines.vscode}`,
    );
    console.log(
      `    VS Code ${vscode.version} (${vscode.env.appName}, host ${vscode.env.appHost}, remote ${vscode.env.remoteName ?? 'none'})`,
    );
  });

  test('loads Thought Explorer from this repository as the extension under development', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    const repoManifest = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
    assert.equal((extension.packageJSON as Manifest).version, repoManifest.version);
    // __dirname is out/test/vscode inside the same repository.
    assert.equal(join(__dirname, '..', '..', '..'), extension.extensionPath);
  });

  test('activates without error', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  test('opens the test workspace folder', () => {
    const expected = process.env.THOUGHT_EXPLORER_TEST_WORKSPACE;
    assert.ok(expected, 'THOUGHT_EXPLORER_TEST_WORKSPACE is not set: run the suite through npm run test:vscode');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.deepEqual(
      folders.map((folder) => folder.uri.fsPath),
      [expected],
    );
  });
});
