// `npm run test:vsix`: packages the extension (npm run package), installs the .vsix into a fresh code-server with
// `--install-extension`, and runs test/vscode/suite/harnessVsix.test.ts there: the installed copy activates and its
// bundled MCP server answers through VS Code's own MCP client. Options: --no-package (use the existing .vsix),
// --timeout <seconds>, --verbose.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runToExit } from './codeServer.mjs';
import { packageExtension, vsixPath } from './package.mjs';
import { parseTimeout, repo, runInEditorSuite } from './suiteRunner.mjs';

const { values: options } = parseArgs({
  options: {
    'no-package': { type: 'boolean', default: false },
    timeout: { type: 'string', default: process.env.VSCODE_TEST_TIMEOUT ?? '600' },
    verbose: { type: 'boolean', default: false },
  },
});
const timeoutSeconds = parseTimeout(options.timeout);
const log = (line) => process.stderr.write(`[test:vsix] ${line}\n`);

async function main() {
  let vsix = vsixPath();
  if (!options['no-package']) vsix = packageExtension({ log }).path;
  else if (!existsSync(vsix)) throw new Error(`${vsix} does not exist: run npm run package first (or drop --no-package)`);
  // The suite itself is compiled by the ordinary build, which also restores the development build of dist/ that
  // packaging replaced with the minified one (the .vsix is already written).
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  return runInEditorSuite({
    developRepo: false,
    installVsix: vsix,
    files: 'harnessVsix.test.js',
    env: { THOUGHT_EXPLORER_TEST_VSIX_VERSION: version },
    timeoutSeconds,
    verbose: options.verbose,
    log,
  });
}

await runToExit(main, log);
