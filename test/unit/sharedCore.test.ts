// The extension host runs one engine: what the host bundle and the lazily loaded MCP server bundle both use is built
// once into dist/core.js (scripts/sharedCore.mjs). Checked on the built files (npm test builds first): the classes whose
// identity matters across the two are defined in the core only, and both bundles load the core, not a copy.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const dist = join(__dirname, '..', '..', 'dist');
const read = (name: string) => readFileSync(join(dist, name), 'utf8');

/** Names of the classes a bundle defines. */
const classesIn = (code: string) => new Set([...code.matchAll(/^(?:var|let|const) (\w+) = class\b/gm)].map((match) => match[1]));

describe('one engine in the extension host', () => {
  test('no class of the shared core is defined again by the host or the server bundle', () => {
    const core = classesIn(read('core.js'));
    assert.ok(core.has('RefusedValue') && core.has('JSONSchemaGenerator'), 'the core holds the thought parser and zod');
    for (const bundle of ['extension.js', 'mcpServer.js']) {
      const again = [...classesIn(read(bundle))].filter((name) => core.has(name));
      assert.deepEqual(again, [], `dist/${bundle} defines again: ${again.join(', ')}`);
    }
  });

  test('both bundles take the shared modules from dist/core.js', () => {
    for (const bundle of ['extension.js', 'mcpServer.js'])
      assert.match(read(bundle), /require\("\.\/core\.js"\)\.modules\["src\/engine\/thoughtInput\.ts"\]/);
  });

  test('the core answers the way each bundle reads it: live getters and the __esModule mark', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, as VS Code loads it
    const { modules } = require(join(dist, 'core.js')) as { modules: Record<string, Record<string, unknown>> };
    const input = modules['src/engine/thoughtInput.ts'];
    assert.equal(input.__esModule, true);
    assert.equal(typeof input.parseThoughtInput, 'function');
    const zod = Object.entries(modules).find(([key]) => key.endsWith('node_modules/zod/index.js'))?.[1];
    assert.equal(typeof zod?.z, 'object', 'zod is shared too');
  });
});
