// The agent plugin (packages/agent-plugin): valid against the Agent Plugins 1.0.0 schemas (vendored in schemas/, source
// named in schemas/README.md), its skills named as their folders, the Claude Code layout over the same files, the
// marketplace at the root pointing at it, and every version in step with package.json (scripts/release.mjs bumps them).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

const ROOT = resolve(__dirname, '..', '..');
const PLUGIN = join(ROOT, 'packages', 'agent-plugin');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pluginSchema = readJson(join(ROOT, 'schemas', 'agent-plugins-1.0.0', 'plugin.schema.json'));
const mcpSchema = readJson(join(ROOT, 'schemas', 'agent-plugins-1.0.0', 'mcp.schema.json'));
const manifest = readJson(join(PLUGIN, 'plugin.json'));
const mcp = readJson(join(PLUGIN, 'mcp.json'));
const claudeManifest = readJson(join(PLUGIN, '.claude-plugin', 'plugin.json'));
const marketplace = readJson(join(ROOT, '.claude-plugin', 'marketplace.json'));
const rootManifest = readJson(join(ROOT, 'package.json'));
const npmManifest = readJson(join(ROOT, 'packages', 'mcp-server', 'package.json'));

function errorsOf(schema: object, document: unknown): string[] {
  const validate: ValidateFunction = new Ajv2020({ allErrors: true }).compile(schema);
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A SKILL.md's YAML frontmatter as flat `key: value` pairs (all our skills use; no nesting). */
function frontmatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(match, 'SKILL.md starts with a --- frontmatter block');
  const fields: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    const pair = /^([a-z-]+):\s*(.*)$/.exec(line);
    assert.ok(pair, `frontmatter line "${line}" is key: value`);
    fields[pair[1]] = pair[2];
  }
  return fields;
}

describe('agent plugin: the Agent Plugins 1.0 package', () => {
  test('plugin.json and mcp.json are valid against the 1.0.0 schemas, and name the same spec version', () => {
    assert.deepEqual(errorsOf(pluginSchema, manifest), []);
    assert.deepEqual(errorsOf(mcpSchema, mcp), []);
    assert.equal(manifest.$schema, pluginSchema.$id);
    assert.equal(mcp.$schema, mcpSchema.$id);
  });

  test('the schemas refuse what a conformant client refuses: an unknown manifest key, a server without type', () => {
    assert.ok(errorsOf(pluginSchema, { ...manifest, mcpServers: './mcp.json' }).length > 0, 'plugin.json is closed');
    assert.ok(errorsOf(pluginSchema, { ...manifest, name: 'Thought Explorer' }).length > 0, 'the name rule');
    const untyped = clone(mcp);
    delete untyped.mcpServers['thought-explorer'].type;
    assert.ok(errorsOf(mcpSchema, untyped).length > 0, 'a server without type');
    assert.ok(errorsOf(mcpSchema, { mcpServers: mcp.mcpServers }).length > 0, 'mcp.json without $schema');
  });

  test('every server has a type, and the plugin starts the published npm package', () => {
    const servers = Object.values(mcp.mcpServers) as Record<string, unknown>[];
    assert.ok(servers.length > 0);
    for (const server of servers) assert.equal(typeof server.type, 'string');
    assert.deepEqual(mcp.mcpServers['thought-explorer'], { type: 'stdio', command: 'npx', args: ['-y', npmManifest.name] });
  });

  test('each skill folder holds a SKILL.md whose name is the folder name, with a description', () => {
    const skills = readdirSync(join(PLUGIN, 'skills'));
    assert.ok(skills.length > 0);
    for (const folder of skills) {
      const fields = frontmatter(readFileSync(join(PLUGIN, 'skills', folder, 'SKILL.md'), 'utf8'));
      // Agent Skills: 1-64 lowercase letters, digits and single hyphens, not at either end; description 1-1024 characters.
      assert.match(folder, /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/);
      assert.equal(fields.name, folder);
      assert.ok(fields.description.length > 0 && fields.description.length <= 1024, fields.description);
    }
  });

  test('only the files the standard places and client extension folders are at the plugin root', () => {
    const reverseDomain = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
    for (const entry of readdirSync(PLUGIN)) {
      const placed = ['plugin.json', 'mcp.json', 'skills'].includes(entry);
      // Claude Code's own layout keeps its manifest in .claude-plugin/ (its format, which VS Code also reads).
      assert.ok(placed || entry === '.claude-plugin' || reverseDomain.test(entry), `${entry} at the plugin root`);
    }
  });
});

describe('agent plugin: the Claude Code layout and the marketplace', () => {
  test('the Claude manifest says what plugin.json says, and reads the same mcp.json and skills', () => {
    for (const field of ['name', 'version', 'description', 'author', 'homepage', 'repository', 'license', 'keywords']) {
      assert.deepEqual(claudeManifest[field], manifest[field], field);
    }
    assert.equal(claudeManifest.mcpServers, './mcp.json');
    assert.equal(claudeManifest.skills, undefined, 'skills come from the default skills/ folder, the standard one');
    for (const command of claudeManifest.commands as string[]) {
      assert.match(command, /^\.\/com\.anthropic\.claude-code\//);
      assert.ok(existsSync(join(PLUGIN, command)), command);
    }
  });

  test('the marketplace lists the plugin under its name, from its folder', () => {
    const [entry, ...others] = marketplace.plugins as Record<string, unknown>[];
    assert.equal(others.length, 0);
    assert.equal(entry.name, manifest.name);
    assert.equal(entry.source, './packages/agent-plugin');
    // No version here: Claude Code and VS Code take it from the plugin's manifest, so there is one place to bump.
    assert.equal(entry.version, undefined);
    assert.equal(typeof marketplace.owner.name, 'string');
  });

  test('both plugin manifests carry the version of package.json (npm run release bumps them)', () => {
    assert.equal(manifest.version, rootManifest.version);
    assert.equal(claudeManifest.version, rootManifest.version);
  });
});
