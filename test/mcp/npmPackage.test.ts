// The npm package as users get it: `npm pack` of packages/mcp-server (scripts/npmPackage.mjs), installed into an empty
// directory outside the repository with npm's offline mode (the package has no dependencies, so nothing is fetched),
// then driven by a real MCP Client through the installed bin and through `npx` — plain thoughts, a revision, a branch
// — and exported with the installed bin's `export` command (Markdown, JSON and HTML, whose renderer the package ships).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, ensureBuiltCli, jsonOf, sessions, tempDir, think } from './support/clients';
import { PLAIN_CLIENT_TOOL_NAMES } from './support/toolNames';

interface PackResult {
  path: string;
  bytes: number;
  files: string[];
}
// The packing script is plain ESM (it runs from npm scripts); its types are these.
interface NpmPackageScript {
  NPM_PACKAGE_FILES: string[];
  packNpmPackage(options: { destination: string }): PackResult;
  rootVersion(): string;
}

const BIN = 'thought-explorer-mcp';
let work: string;
let app: string;
let packed: PackResult;
let script: NpmPackageScript;

/** An environment without the repository: no npm_* variables from a surrounding `npm test`, a home and cache of its own. */
function isolatedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_PATH') continue;
    env[key] = value;
  }
  env.HOME = join(work, 'home');
  env.npm_config_cache = join(work, 'npm-cache');
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  return env;
}

function npm(args: string[], cwd: string) {
  const result = spawnSync('npm', args, { cwd, env: isolatedEnv(), encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}

function installedBin(...args: string[]) {
  return spawnSync(join(app, 'node_modules', '.bin', BIN), args, { cwd: app, env: isolatedEnv(), encoding: 'utf8', timeout: 60_000 });
}

async function connect(command: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command, args, cwd: app, env: isolatedEnv(), stderr: 'pipe' });
  const client = new Client({ name: 'npm-package-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Plain thoughts, a revision and a branch; returns the session id after checking each answer. */
async function thinkThrough(client: Client): Promise<string> {
  const first = jsonOf(
    await think(client, {
      thought: 'Restate: ship the server as one npx line.',
      thoughtNumber: 1,
      totalThoughts: 4,
      nextThoughtNeeded: true,
    }),
  );
  const sessionId = String(first.sessionId);
  assert.match(sessionId, /^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
  jsonOf(
    await think(client, {
      thought: 'Plan: bundle everything into dist/cli.js.',
      thoughtNumber: 2,
      totalThoughts: 4,
      nextThoughtNeeded: true,
      sessionId,
    }),
  );
  const revision = jsonOf(
    await think(client, {
      thought: 'Revise 2: the HTML export also needs its renderer next to the CLI.',
      thoughtNumber: 3,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      isRevision: true,
      revisesThought: 2,
      sessionId,
    }),
  );
  assert.equal(revision.thoughtHistoryLength, 3);
  const branch = jsonOf(
    await think(client, {
      thought: 'Alternative: ship a container image instead.',
      thoughtNumber: 4,
      totalThoughts: 5,
      nextThoughtNeeded: true,
      branchFromThought: 1,
      branchId: 'container',
      sessionId,
    }),
  );
  assert.deepEqual(branch.branches, ['container']);
  const last = jsonOf(
    await think(client, {
      thought: 'Conclusion: npm package it is.',
      thoughtNumber: 5,
      totalThoughts: 5,
      nextThoughtNeeded: false,
      sessionId,
    }),
  );
  assert.equal(last.thoughtHistoryLength, 5);
  assert.equal(last.nextThoughtNeeded, false);
  return sessionId;
}

before(async () => {
  ensureBuiltCli();
  work = tempDir('te-npm-package-');
  app = join(work, 'app');
  mkdirSync(app);
  mkdirSync(join(work, 'home'));
  script = (await import(join(ROOT, 'scripts', 'npmPackage.mjs'))) as NpmPackageScript;
  packed = script.packNpmPackage({ destination: join(work, 'pack') });
  // An empty directory, outside the repository, offline: a tarball without dependencies needs no registry.
  npm(['install', '--offline', '--no-package-lock', '--ignore-scripts', packed.path], app);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package thought-explorer-mcp', () => {
  it('holds only the built CLI, its renderer, a README and the LICENSE, with no dependencies and the root version', () => {
    assert.deepEqual([...packed.files].sort(), ['LICENSE', 'README.md', ...script.NPM_PACKAGE_FILES, 'package.json'].sort());
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', BIN, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.version, script.rootVersion());
    assert.deepEqual(manifest.bin, { [BIN]: 'dist/cli.js' });
    assert.equal(manifest.dependencies, undefined);
    assert.equal(readFileSync(join(app, 'node_modules', BIN, 'dist', 'cli.js'), 'utf8').includes('sourceMappingURL'), false);
    // Installed as a copy, not a link back into the repository.
    const real = realpathSync(join(app, 'node_modules', '.bin', BIN));
    assert.ok(real.startsWith(realpathSync(app) + sep), real);
    assert.ok(!real.startsWith(realpathSync(ROOT) + sep), real);
  });

  it('answers --version and --help through the installed bin', () => {
    const version = installedBin('--version');
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), script.rootVersion());
    const help = installedBin('--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout + help.stderr, /thought-explorer-mcp export <sessionId>/);
  });

  it('runs an MCP session through the installed bin and exports it as Markdown, JSON and HTML', async () => {
    const storage = join(work, 'store-bin');
    const client = await connect(join(app, 'node_modules', '.bin', BIN), ['--storage-path', storage]);
    let sessionId: string;
    try {
      const { tools } = await client.listTools();
      // A plain client (no MCP Apps, no sampling) is offered what it can use.
      assert.deepEqual(tools.map((tool) => tool.name).sort(), PLAIN_CLIENT_TOOL_NAMES);
      // The inline thought graph (MCP App) is embedded in the CLI bundle: the installed package serves it on its own.
      const inline = await client.readResource({ uri: 'ui://thought-explorer/thought-graph.html' });
      assert.equal(inline.contents[0]?.mimeType, 'text/html;profile=mcp-app');
      sessionId = await thinkThrough(client);
    } finally {
      await client.close();
    }
    const markdown = installedBin('export', sessionId, '--format', 'md', '--storage-path', storage);
    assert.equal(markdown.status, 0, markdown.stderr);
    assert.match(markdown.stdout, /ship a container image instead/);
    assert.match(markdown.stdout, /```mermaid/);

    const json = installedBin('export', sessionId, '--format', 'json', '--storage-path', storage);
    assert.equal(json.status, 0, json.stderr);
    const exported = JSON.parse(json.stdout) as {
      meta: { branchIds: string[]; revisionCount: number };
      thoughts: Record<string, unknown>[];
    };
    assert.equal(exported.thoughts.length, 5);
    assert.deepEqual(exported.meta.branchIds, ['container']);
    assert.equal(exported.meta.revisionCount, 1);
    assert.equal(exported.thoughts[2]?.revisesThought, 2);
    assert.equal(exported.thoughts[3]?.branchFromThought, 1);

    const htmlFile = join(work, 'session.html');
    const html = installedBin('export', sessionId, '--format', 'html', '--out', htmlFile, '--storage-path', storage);
    assert.equal(html.status, 0, html.stderr);
    const page = readFileSync(htmlFile, 'utf8');
    assert.match(page, /^<!doctype html>/i);
    assert.match(page, /Content-Security-Policy/);
    assert.match(page, /Conclusion: npm package it is\./);
    // The inlined diagram renderer is the one the package ships.
    assert.ok(page.length > 500_000, `HTML export of ${page.length} characters has no renderer inlined`);
  });

  it('runs an MCP session through npx from the tarball, offline, and the store lists it', async () => {
    const storage = join(work, 'store-npx');
    const client = await connect('npx', ['--offline', '-y', '--package', packed.path, '--', BIN, '--storage-path', storage]);
    try {
      const sessionId = await thinkThrough(client);
      const listed = jsonOf(await sessions(client, { action: 'list' })) as { sessions?: { sessionId: string; thoughtCount: number }[] };
      assert.deepEqual(
        listed.sessions?.map((session) => [session.sessionId, session.thoughtCount]),
        [[sessionId, 5]],
      );
    } finally {
      await client.close();
    }
  });
});
