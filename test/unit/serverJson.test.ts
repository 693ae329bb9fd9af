// server.json, the MCP registry manifest: valid against the registry's schema (vendored in schemas/, source named in
// schemas/README.md), in step with package.json and the npm package, and offering only options the CLI accepts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parseCliArguments } from '../../src/cli/options';

const ROOT = resolve(__dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const schema = readJson('schemas/server.schema.json');
const serverJson = readJson('server.json');
const rootManifest = readJson('package.json');
const npmManifest = readJson('packages/mcp-server/package.json');

// ajv-formats is CommonJS with a default export; under tsx it arrives wrapped or not depending on interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

function validator(): ValidateFunction {
  // strict: false — the registry's schema uses OpenAPI's `example` annotation, which is not a JSON Schema keyword.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

function errorsOf(document: unknown): string[] {
  const validate = validator();
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('server.json (MCP registry manifest)', () => {
  test('is valid against the vendored registry schema', () => {
    assert.deepEqual(errorsOf(serverJson), []);
    assert.match(
      String(serverJson.$schema),
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
  });

  test('the validator refuses what the registry refuses', () => {
    const latest = clone(serverJson);
    latest.packages[0].version = 'latest';
    assert.ok(
      errorsOf(latest).some((error) => error.startsWith('/packages/0/version')),
      'a package version "latest"',
    );
    const long = clone(serverJson);
    long.description = 'x'.repeat(101);
    assert.ok(
      errorsOf(long).some((error) => error.startsWith('/description')),
      'a description over 100 characters',
    );
    const badName = clone(serverJson);
    badName.name = 'thought-explorer';
    assert.ok(
      errorsOf(badName).some((error) => error.startsWith('/name')),
      'a name without a namespace',
    );
    const noTransport = clone(serverJson);
    delete noTransport.packages[0].transport;
    assert.ok(
      errorsOf(noTransport).some((error) => /transport/.test(error)),
      'a package without transport',
    );
    const badUrl = clone(serverJson);
    badUrl.repository.url = 'not a url';
    assert.ok(
      errorsOf(badUrl).some((error) => error.startsWith('/repository/url')),
      'a repository that is no URL',
    );
  });

  test('versions, names and repository agree with package.json and the npm package', () => {
    assert.equal(serverJson.version, rootManifest.version);
    assert.equal(npmManifest.version, rootManifest.version);
    const [npmPackage] = serverJson.packages as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(npmPackage?.registryType, 'npm');
    assert.equal(npmPackage?.identifier, npmManifest.name);
    assert.equal(npmPackage?.version, rootManifest.version);
    // The registry checks npm ownership through the package's mcpName.
    assert.equal(npmManifest.mcpName, serverJson.name);
    const repositoryUrl = (url: string) => url.replace(/^git\+/, '').replace(/\.git$/, '');
    assert.equal(serverJson.repository.url, repositoryUrl(rootManifest.repository.url));
    assert.equal(repositoryUrl(npmManifest.repository.url), repositoryUrl(rootManifest.repository.url));
    assert.equal(npmManifest.bin['thought-explorer-mcp'], 'dist/cli.js');
    assert.equal(rootManifest.bin['thought-explorer-mcp'], 'dist/cli.js');
  });

  test('every package argument is an option the CLI accepts', () => {
    const argv: string[] = [];
    for (const argument of serverJson.packages[0].packageArguments as { type: string; name: string; format?: string }[]) {
      assert.equal(argument.type, 'named');
      argv.push(
        argument.name,
        argument.format === 'number' ? '7' : argument.name === '--model-endpoint' ? 'http://127.0.0.1:1/v1' : 'value',
      );
    }
    const command = parseCliArguments(argv);
    assert.equal(command.kind, 'serve');
  });
});
