// What `npm run package` refuses: the checks Open VSX's ovsx makes offline (scripts/openVsxChecks.mjs) and files a
// .vsix must not hold (scripts/vsixContents.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';

interface OpenVsxScript {
  openVsxProblems(manifest: Record<string, unknown>, hasLicenseFile: boolean): string[];
}
interface VsixContentsScript {
  vsixProblems(entries: string[]): string[];
}

const ROOT = resolve(__dirname, '..', '..');
let openVsx: OpenVsxScript;
let vsix: VsixContentsScript;

before(async () => {
  openVsx = (await import(join(ROOT, 'scripts', 'openVsxChecks.mjs'))) as OpenVsxScript;
  vsix = (await import(join(ROOT, 'scripts', 'vsixContents.mjs'))) as VsixContentsScript;
});

describe('packaging checks', () => {
  test('our manifest passes the Open VSX offline checks, and each missing field is named', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(openVsx.openVsxProblems(manifest, true), []);
    const { publisher: _publisher, license: _license, repository: _repository, ...bare } = manifest;
    assert.deepEqual(openVsx.openVsxProblems(bare, false), [
      "Missing required field 'publisher'.",
      'No license: add a "license" field or a LICENSE file.',
      'No "repository": Open VSX links the extension to its source (ovsx refuses without --allow-missing-repository).',
    ]);
    assert.deepEqual(openVsx.openVsxProblems({ ...bare, publisher: 'p', repository: 'https://example.com/r' }, true), []);
  });

  test('the marketplace fields are there: repository, bugs, homepage, keywords, banner, preview while 0.x', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.match(manifest.repository.url, /^https:\/\//);
    assert.match(manifest.bugs.url, /^https:\/\//);
    assert.match(manifest.homepage, /^https:\/\//);
    assert.ok(manifest.keywords.length >= 5 && manifest.keywords.length <= 30);
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.equal(manifest.preview, String(manifest.version).startsWith('0.'));
    assert.ok(manifest.categories.includes('AI'));
  });

  test('a .vsix with the stylesheet source or a source map is refused', () => {
    const entries = [
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/dist/core.js',
      'extension/dist/mcpServer.js',
      'extension/dist/telemetry.js',
      'extension/dist/openai.js',
      'extension/dist/otlpWorker.js',
      'extension/LICENSE.txt',
      'extension/changelog.md',
    ];
    assert.deepEqual(vsix.vsixProblems(entries), []);
    assert.deepEqual(vsix.vsixProblems([...entries, 'extension/media/explorer.css', 'extension/dist/cli.js.map']), [
      'media/explorer.css: stylesheet source (the webview loads the built copy in dist/webview/) must not be packaged',
      'dist/cli.js.map: source map must not be packaged',
    ]);
  });

  test('a .vsix without the shared core or the server bundle is refused', () => {
    const problems = vsix.vsixProblems([
      'extension/package.json',
      'extension/dist/extension.js',
      'extension/LICENSE.txt',
      'extension/changelog.md',
    ]);
    assert.ok(
      problems.some((problem) => problem.includes('dist/core.js')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) => problem.includes('dist/mcpServer.js')),
      problems.join('\n'),
    );
  });
});
