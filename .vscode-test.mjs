// `npm run test:electron`: the same in-editor suite (out/test/vscode/*.test.js) in desktop VS Code through
// @vscode/test-cli / @vscode/test-electron, for machines that can download VS Code. It cannot run on machines
// without internet access to update.code.visualstudio.com (test-electron downloads VS Code first and fails with
// ENOTFOUND there); `npm run test:vscode` runs the same suite in code-server instead.
// @vscode/test-cli reads this file's default export; that is the one default export in the repo, by its contract.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@vscode/test-cli';

const suiteDir = 'out/test/vscode';
// Suites that need a special setup (the .vsix check) run only through their own script.
const files = readdirSync(suiteDir)
  .filter((name) => name.endsWith('.test.js') && name !== 'harnessVsix.test.js')
  .map((name) => `${suiteDir}/${name}`);
const scratch = mkdtempSync(join(tmpdir(), 'thought-explorer-electron-'));
const workspace = mkdtempSync(join(scratch, 'workspace-'));

export default defineConfig({
  label: 'in-editor suite (desktop VS Code)',
  files,
  version: 'stable',
  // The test-only scripted language model loads as a second extension under development.
  extensionDevelopmentPath: ['.', 'test/vscode/helper-extension'],
  workspaceFolder: workspace,
  env: {
    THOUGHT_EXPLORER_STORAGE: join(scratch, 'sessions'),
    THOUGHT_EXPLORER_TEST_WORKSPACE: workspace,
  },
  launchArgs: ['--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: { ui: 'tdd', timeout: 60_000, color: true },
});
