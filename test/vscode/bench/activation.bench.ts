// The extension-host half of the activation benchmark (bench/vscodeActivation.ts): loaded by code-server as the
// extensionTestsPath, it activates Thought Explorer and prints how long its activate() took (the figure the extension
// measures itself with performance.now() and returns on its API). Not a *.test.ts file: the in-editor suite never runs it.
import * as vscode from 'vscode';

const EXTENSION_ID = 'thought-explorer.thought-explorer';

function say(line: string): void {
  // The runner shows only lines carrying its marker (the rest of the console is the workbench's own log).
  console.log(`${process.env.THOUGHT_EXPLORER_TEST_OUTPUT_MARKER ?? ''}${line}`);
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension<{ activationMs: number }>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  if (typeof api.activationMs !== 'number') throw new Error('the extension API has no activationMs');
  say(`activationMs=${api.activationMs}`);
}
