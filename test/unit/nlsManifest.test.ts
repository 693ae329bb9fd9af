// Localizable strings: package.json holds no user-visible literal (each is a `%key%` with its text in
// package.nls.json, see scripts/nlsManifest.mjs), every placeholder has a text, no text is left unused, and the
// conversion script moves new literals with stable keys and is idempotent.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface L10nScript {
  messagesIn(source: string): string[];
  buildBundle(root?: string): Record<string, string>;
}
interface NlsScript {
  literalStrings(manifest: Json): { key: string; text: string }[];
  missingKeys(manifest: Json, nls: Record<string, string>): string[];
  localizableSlots(manifest: Json): { key: string }[];
  convertManifest(manifest: Json, nls: Record<string, string>): { manifest: Json; nls: Record<string, string>; moved: string[] };
}

const ROOT = resolve(__dirname, '..', '..');
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json;
let script: NlsScript;
let l10n: L10nScript;

before(async () => {
  script = (await import(join(ROOT, 'scripts', 'nlsManifest.mjs'))) as NlsScript;
  l10n = (await import(join(ROOT, 'scripts', 'l10nBundle.mjs'))) as L10nScript;
});

describe('localizable manifest strings', () => {
  test('package.json has no user-visible literal left (run node scripts/nlsManifest.mjs to move them)', () => {
    assert.deepEqual(script.literalStrings(readJson('package.json')), []);
  });

  test('every placeholder has its text in package.nls.json, and every text there is used', () => {
    const manifest = readJson('package.json');
    const nls = readJson('package.nls.json') as Record<string, string>;
    assert.deepEqual(script.missingKeys(manifest, nls), []);
    const used = new Set(
      JSON.stringify(manifest)
        .match(/"%[^%"\s]+%"/g)
        ?.map((placeholder) => placeholder.slice(2, -2)),
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
      'texts no placeholder uses',
    );
    for (const [key, text] of Object.entries(nls)) assert.ok(typeof text === 'string' && text.trim() !== '', key);
  });

  test('translations hold only keys of package.nls.json', () => {
    const keys = new Set(Object.keys(readJson('package.nls.json')));
    for (const file of readdirNls()) {
      const unknown = Object.keys(readJson(file)).filter((key) => !keys.has(key));
      assert.deepEqual(unknown, [], file);
    }
  });

  test('the script moves literals added by hand with stable keys, shares a category, and is idempotent', () => {
    const manifest: Json = {
      displayName: 'X',
      contributes: {
        commands: [
          { command: 'x.one', title: 'One', category: 'My Tool' },
          { command: 'x.two', title: '%commands.x.two.title%', category: 'My Tool' },
        ],
        configuration: {
          title: 'X',
          properties: {
            'x.mode': { type: 'string', enum: ['a', 'b'], enumDescriptions: ['Mode A', 'Mode B'], markdownDescription: 'The mode.' },
          },
        },
        walkthroughs: [
          {
            id: 'w',
            title: 'Start',
            steps: [{ id: 's', title: 'Step', description: 'Do it', media: { image: 'i.svg', altText: 'An image' } }],
          },
        ],
        chatParticipants: [{ id: 'p', name: 'p', description: 'Helps', commands: [{ name: 'go', description: 'Goes' }] }],
        menus: { commandPalette: [{ command: 'x.one', when: 'true' }] },
      },
    };
    const first = script.convertManifest(manifest, { 'commands.x.two.title': 'Two' });
    assert.equal(manifest.displayName, 'X', 'the input is not changed');
    assert.deepEqual(first.nls, {
      'commands.x.two.title': 'Two',
      displayName: 'X',
      'commands.x.one.title': 'One',
      'category.myTool': 'My Tool',
      'configuration.title': 'X',
      'settings.x.mode.markdownDescription': 'The mode.',
      'settings.x.mode.enumDescriptions.a': 'Mode A',
      'settings.x.mode.enumDescriptions.b': 'Mode B',
      'walkthroughs.w.title': 'Start',
      'walkthroughs.w.steps.s.title': 'Step',
      'walkthroughs.w.steps.s.description': 'Do it',
      'walkthroughs.w.steps.s.altText': 'An image',
      'chatParticipants.p.description': 'Helps',
      'chatParticipants.p.commands.go.description': 'Goes',
    });
    assert.equal(first.manifest.contributes.commands[0].category, '%category.myTool%');
    assert.equal(first.manifest.contributes.commands[1].category, '%category.myTool%');
    assert.deepEqual(first.manifest.contributes.configuration.properties['x.mode'].enum, ['a', 'b'], 'values are not texts');
    assert.equal(first.manifest.contributes.chatParticipants[0].name, 'p', 'names are identifiers');
    assert.deepEqual(first.manifest.contributes.menus, manifest.contributes.menus);
    assert.deepEqual(script.literalStrings(first.manifest), []);
    const again = script.convertManifest(first.manifest, first.nls);
    assert.deepEqual(again.moved, []);
    assert.deepEqual(again.manifest, first.manifest);
    assert.deepEqual(again.nls, first.nls);
    // A literal edited later replaces its key's text.
    first.manifest.contributes.commands[0].title = 'One, renamed';
    const edited = script.convertManifest(first.manifest, first.nls);
    assert.deepEqual(edited.moved, ['commands.x.one.title']);
    assert.equal(edited.nls['commands.x.one.title'], 'One, renamed');
  });
});

describe('localizable runtime messages', () => {
  test('l10n/bundle.l10n.json lists every vscode.l10n.t message of src/extension (run node scripts/l10nBundle.mjs)', () => {
    assert.equal(readJson('package.json').l10n, './l10n');
    assert.deepEqual(readJson('l10n/bundle.l10n.json'), l10n.buildBundle(ROOT));
  });

  test('messages are read from literal first arguments, escapes included, across lines', () => {
    const source = [
      "vscode.l10n.t('Plain');",
      "vscode.l10n.t(\n  'Its {0} thoughts', count);",
      "vscode.l10n.t('It\\'s “quoted” \\\\ done');",
      'vscode.l10n.t(`template $' + '{x}`);',
    ].join('\n');
    assert.deepEqual(l10n.messagesIn(source), ['Plain', 'Its {0} thoughts', "It's “quoted” \\ done"]);
  });
});

function readdirNls(): string[] {
  return readdirSync(ROOT).filter((name) => /^package\.nls\.[\w-]+\.json$/.test(name));
}
