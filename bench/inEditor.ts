// What the benchmark sections that run inside a real VS Code share: the code-server harness (scripts/suiteRunner.mjs,
// scripts/codeServer.mjs), loaded only when such a section runs, and the checks that say why it cannot run here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { errorMessage } from '../src/engine/browserSafe/errorMessage';

// The harness scripts are plain ES modules without type declarations; these are the parts the sections use.
export interface InEditorHarness {
  runInEditorSuite(options: {
    developRepo: boolean;
    testsPath: string;
    timeoutSeconds: number;
    env?: Record<string, string>;
    log: (line: string) => void;
    onPage?: (page: Page) => void;
    onOutput: (line: string) => void;
  }): Promise<number>;
  cleanupAll(): Promise<void>;
}
interface EnvironmentModule {
  environmentDir(): string;
  findChromium(): string;
  CODE_SERVER_VERSION: string;
}

async function loadScript<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(join(root, 'scripts', file)).href)) as T;
}

/**
 * The harness for the built in-editor suite `testsFile` (under out/test/vscode-bench), or why the section is skipped:
 * installing code-server takes minutes and native builds, so a benchmark run only uses one that is already there.
 */
export async function prepareInEditorBench(
  root: string,
  testsFile: string,
): Promise<{ skipped: string } | { harness: InEditorHarness; testsPath: string }> {
  const environment = await loadScript<EnvironmentModule>(root, 'vscodeEnvironment.mjs');
  if (!existsSync(join(environment.environmentDir(), 'installed.json')))
    return {
      skipped: `skipped: code-server ${environment.CODE_SERVER_VERSION} is not installed (run \`node scripts/vscodeEnvironment.mjs\` or \`npm run test:vscode\` once to install it)`,
    };
  try {
    environment.findChromium();
  } catch (error) {
    return { skipped: `skipped: ${errorMessage(error)}` };
  }
  const testsPath = join(root, 'out', 'test', 'vscode-bench', testsFile);
  if (!existsSync(testsPath)) throw new Error(`${testsPath} is missing: run \`npm run build\` first (\`npm run bench\` does)`);
  const { runInEditorSuite } = await loadScript<Pick<InEditorHarness, 'runInEditorSuite'>>(root, 'suiteRunner.mjs');
  const { cleanupAll } = await loadScript<Pick<InEditorHarness, 'cleanupAll'>>(root, 'codeServer.mjs');
  return { harness: { runInEditorSuite, cleanupAll }, testsPath };
}
