// The build's patch of Mermaid's config copy (scripts/mermaidFastConfigCopy.mjs): it applies to the Mermaid installed
// here, the patched assignWithDepth builds the same objects as Mermaid's own, and a "__proto__" key still cannot
// reach the prototype.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');
const CHUNKS = join(ROOT, 'node_modules', 'mermaid', 'dist', 'chunks', 'mermaid.core');

interface PatchScript {
  ASSIGN_WITH_DEPTH: string;
  patchAssignWithDepth(text: string, file?: string): string;
  patchGetConfigMemo(text: string, file?: string, check?: boolean): string;
}

type AssignWithDepth = (dst: unknown, src: unknown, options?: { depth?: number }) => unknown;

/** Mermaid's `assignWithDepth` from a chunk's text, as a callable function. */
function extractAssign(text: string): AssignWithDepth {
  const start = text.indexOf('var assignWithDepth = ');
  const end = text.indexOf('"assignWithDepth");', start);
  assert.ok(start >= 0 && end > start, 'assignWithDepth is in the chunk');
  const source = text.slice(start, end + '"assignWithDepth");'.length);
  // Mermaid's own function, from node_modules, evaluated in a test.
  return new Function('__name', `${source}\nreturn assignWithDepth;`)((fn: unknown) => fn) as AssignWithDepth;
}

function sampleConfig(): Record<string, unknown> {
  return {
    theme: 'base',
    maxEdges: 500,
    secure: ['secure', 'securityLevel'],
    flowchart: { htmlLabels: true, curve: 'basis', padding: 8, nested: { deep: { deeper: 1 } } },
    themeVariables: { primaryColor: '#fff', fontFamily: 'x', list: [1, 2] },
    nothing: null,
  };
}

describe("Mermaid's config copy, patched at build time", () => {
  let script: PatchScript;
  let original: string;

  before(async () => {
    script = (await import(join(ROOT, 'scripts', 'mermaidFastConfigCopy.mjs'))) as PatchScript;
    const chunk = readdirSync(CHUNKS)
      .filter((name) => /^chunk-\w+\.mjs$/.test(name))
      .map((name) => readFileSync(join(CHUNKS, name), 'utf8'))
      .find((text) => text.includes(script.ASSIGN_WITH_DEPTH));
    assert.ok(chunk, `no chunk of the installed Mermaid defines assignWithDepth (${CHUNKS})`);
    original = chunk;
  });

  test('applies to the installed Mermaid and builds the same objects as the original', () => {
    const patched = script.patchAssignWithDepth(original);
    assert.notEqual(patched, original);
    const before = extractAssign(original);
    const after = extractAssign(patched);
    for (const depth of [1, 2, 3]) {
      const expected = before({}, sampleConfig(), { depth });
      const actual = after({}, sampleConfig(), { depth });
      assert.deepEqual(actual, expected);
      assert.deepEqual(Object.getOwnPropertyDescriptors(actual), Object.getOwnPropertyDescriptors(expected));
    }
    // Merging into an existing copy (what updateCurrentConfig does) too.
    const base = sampleConfig();
    assert.deepEqual(
      after(after({}, base), { flowchart: { padding: 2 }, extra: 'x' }),
      before(before({}, base), { flowchart: { padding: 2 }, extra: 'x' }),
    );
  });

  test('a "__proto__" key still becomes an own property, never the prototype', () => {
    const after = extractAssign(script.patchAssignWithDepth(original));
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "flowchart": {"__proto__": {"polluted": true}}}') as unknown;
    const copy = after({}, hostile) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(Object.hasOwn(copy, '__proto__'));
    assert.equal(Object.getPrototypeOf(copy.flowchart), Object.prototype);
  });

  test('getConfig copies once per configuration: the same copy until Mermaid replaces its configuration', () => {
    const patched = script.patchGetConfigMemo(original);
    const start = patched.indexOf('var configCopyOf, configCopy;');
    const end = patched.indexOf('"getConfig");', start) + '"getConfig");'.length;
    assert.ok(start >= 0, 'the memo is in the patched chunk');
    let copies = 0;
    const scope = { currentConfig: sampleConfig() as unknown };
    const getConfig = new Function(
      '__name',
      'assignWithDepth_default',
      'scope',
      `with (scope) { ${patched.slice(start, end)}\nreturn getConfig; }`,
    )(
      (fn: unknown) => fn,
      (dst: object, src: object) => (copies++, { ...dst, ...src }),
      scope,
    ) as () => Record<string, unknown>;
    const first = getConfig();
    assert.deepEqual(first, sampleConfig());
    assert.equal(getConfig(), first);
    assert.equal(copies, 1);
    scope.currentConfig = { ...sampleConfig(), theme: 'dark' };
    assert.equal(getConfig().theme, 'dark');
    assert.equal(copies, 2);
    assert.throws(() => script.patchGetConfigMemo('var getConfig = () => ({});', 'chunk-Y.mjs'), /chunk-Y\.mjs: .*getConfig/);
  });

  test('refuses a Mermaid whose code no longer matches, saying what to do', () => {
    assert.throws(
      () => script.patchAssignWithDepth('var assignWithDepth = () => {};', 'chunk-X.mjs'),
      /chunk-X\.mjs: expected 2 .*found 0.*re-measure/,
    );
  });
});
