// Session commands without dialogs: command arguments, export to each text format and back through import, thought
// text search, and clear errors for bad files.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { importSessionFile } from '../../src/extension/commands';
import { exportFileName, registerExportCommand } from '../../src/extension/exportCommand';
import { pickSessionBySearch, searchThoughtText, sessionIdFromArgument } from '../../src/extension/sessionPicker';
import { eventually, servicesFixture, thought, type ServicesFixture } from './support/extensionFixtures';
import { extensionContext, resetStub, stub } from './support/vscodeStub';

let fixture: ServicesFixture;
let out: string;
let context: ReturnType<typeof extensionContext>;

beforeEach(() => {
  resetStub();
  fixture = servicesFixture();
  out = mkdtempSync(join(tmpdir(), 'te-commands-'));
  context = extensionContext('/extension');
  registerExportCommand(context as unknown as vscode.ExtensionContext, fixture.services);
});

afterEach(() => {
  context.disposeAll();
  fixture.cleanup();
  rmSync(out, { recursive: true, force: true });
});

function recordSession(): string {
  const engine = fixture.services.engine;
  const first = engine.process('c', thought(1, 3, 'Compare the <two> caching strategies'));
  assert.ok(first.ok);
  assert.ok(engine.process('c', thought(2, 3, 'LRU keeps hot keys')).ok);
  assert.ok(engine.process('c', thought(3, 3, 'TTL bounds staleness', { branchFromThought: 1, branchId: 'ttl' })).ok);
  return first.reply.sessionId;
}

async function runExport(...args: unknown[]): Promise<unknown> {
  const handler = stub.commands.get('thoughtExplorer.exportSession');
  assert.ok(handler, 'export command registered');
  return handler(...args);
}

describe('session commands', () => {
  test('command arguments: an id, a tree node or anything carrying sessionId; nothing else', () => {
    assert.equal(sessionIdFromArgument('abc'), 'abc');
    assert.equal(sessionIdFromArgument({ kind: 'session', sessionId: 'x1' }), 'x1');
    assert.equal(sessionIdFromArgument(''), undefined);
    assert.equal(sessionIdFromArgument({ sessionId: 5 }), undefined);
    assert.equal(sessionIdFromArgument(undefined), undefined);
  });

  test('export file names are safe and say the format', () => {
    assert.equal(exportFileName('Compare the <two> caching strategies!', 's', 'md'), 'compare-the-two-caching-strategies.md');
    assert.equal(exportFileName('../../etc/passwd', 's', 'json'), 'etc-passwd.json');
    // A long title is cut at the last whole word within 60 characters, never mid-word.
    const long = exportFileName(
      'The nightly build takes 41 minutes since Monday; it took 14 before. Find the cause and a fix.',
      's',
      'html',
    );
    assert.equal(long, 'the-nightly-build-takes-41-minutes-since-monday-it-took-14.html');
    assert.equal(exportFileName('x'.repeat(80), 's', 'md'), `${'x'.repeat(60)}.md`, 'one overlong word is cut');
    assert.equal(exportFileName('???', '2026:01', 'sequentialthinking-plus'), '2026-01.stp.json');
    assert.equal(exportFileName('Résumé', 's', 'html'), 'resume.html');
  });

  test('Export writes Markdown, lossless JSON and the sequentialthinking-plus shape (also by its old name json-seed001); the JSON imports back unchanged', async () => {
    const id = recordSession();
    const markdownPath = join(out, 'a.md');
    assert.equal(await runExport({ sessionId: id }, 'md', markdownPath), markdownPath);
    const markdown = readFileSync(markdownPath, 'utf8');
    assert.match(markdown, /```mermaid/);
    assert.match(markdown, /LRU keeps hot keys/);

    const seedPath = join(out, 'a.stp.json');
    await runExport(id, 'sequentialthinking-plus', seedPath);
    const aliasPath = join(out, 'a-alias.stp.json');
    await runExport(id, 'json-seed001', aliasPath);
    assert.equal(readFileSync(aliasPath, 'utf8'), readFileSync(seedPath, 'utf8'));
    const seed = JSON.parse(readFileSync(seedPath, 'utf8')) as {
      id: string;
      thoughtHistory: unknown[];
      branches: Record<string, unknown[]>;
    };
    assert.equal(seed.id, id);
    assert.equal(seed.thoughtHistory.length, 3);
    assert.deepEqual(Object.keys(seed.branches), ['ttl']);

    const jsonPath = join(out, 'a.json');
    await runExport(id, 'json', jsonPath);
    const before = fixture.services.engine.getSession(id);
    assert.ok(fixture.services.engine.deleteSession(id));
    assert.equal(await importSessionFile(fixture.services, jsonPath), id);
    const after = fixture.services.engine.getSession(id);
    assert.deepEqual(after?.thoughts, before?.thoughts);
    assert.equal(after?.meta.strategy, before?.meta.strategy);
    assert.match(stub.messages.at(-1)?.message ?? '', /Imported .*3 thoughts/);
  });

  test('an unknown format or session is refused with a message naming it; nothing is written', async () => {
    const id = recordSession();
    assert.equal(await runExport(id, 'pdf', join(out, 'x.pdf')), undefined);
    assert.match(stub.messages.at(-1)?.message ?? '', /Unknown export format "pdf"/);
    assert.equal(await runExport('no-such-session', 'md', join(out, 'y.md')), undefined);
    assert.match(stub.messages.at(-1)?.message ?? '', /no-such-session does not exist/);
  });

  test('importing a file that is not a session says which file and why', async () => {
    const bad = join(out, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    await assert.rejects(importSessionFile(fixture.services, bad), (error: Error) =>
      error.message.startsWith(`${bad} is not a session file`),
    );
    await assert.rejects(importSessionFile(fixture.services, join(out, 'missing.json')), /Cannot read .*missing\.json/);
    const notJson = join(out, 'not.json');
    writeFileSync(notJson, 'not json at all');
    await assert.rejects(importSessionFile(fixture.services, notJson), /not valid JSON/);
  });

  test('importing over an existing session asks first; declining keeps the original', async () => {
    const id = recordSession();
    const jsonPath = join(out, 'b.json');
    await runExport(id, 'json', jsonPath);
    fixture.services.engine.renameSession(id, 'Kept');
    stub.messageAnswers.push(undefined);
    await assert.rejects(importSessionFile(fixture.services, jsonPath), /cancelled/);
    assert.equal(fixture.services.engine.getSession(id)?.meta.title, 'Kept');
    stub.messageAnswers.push('Replace');
    await importSessionFile(fixture.services, jsonPath);
    assert.equal(fixture.services.engine.getSession(id)?.meta.title, undefined);
  });

  test('thought text search finds a session by words that are only in a later thought', () => {
    recordSession();
    const other = fixture.services.engine.process('d', thought(1, 2, 'Unrelated session'));
    assert.ok(other.ok);
    const sessions = fixture.services.engine.listSessions({}).sessions;
    const { matches, searched } = searchThoughtText(fixture.services, sessions, 'bounds STALENESS');
    assert.equal(searched, 2);
    assert.equal(matches.length, 1);
    assert.equal(matches[0].thoughtNumber, 3);
    assert.match(matches[0].snippet, /TTL bounds staleness/);
  });

  test('"Search Sessions…" lists sessions, finds one by words in a later thought, and returns the picked one', async () => {
    const id = recordSession();
    assert.ok(fixture.services.engine.process('d', thought(1, 2, 'Unrelated session')).ok);
    const picked = pickSessionBySearch(fixture.services);
    const quickPick = stub.quickPicks[0];
    assert.ok(quickPick?.shown);
    assert.equal(quickPick.items.length, 2);
    quickPick.type('staleness');
    await eventually(() => quickPick.items[0]?.alwaysShow === true, 3000, 'the thought-text search results');
    assert.equal(quickPick.items[0].alwaysShow, true, 'a match in thought text is shown whatever the label filter says');
    assert.match(quickPick.items[0].detail ?? '', /#3: .*TTL bounds staleness/);
    quickPick.acceptItem(0);
    assert.equal(await picked, id);
    assert.ok(quickPick.disposed);
  });

  test('"Search Sessions…" resolves undefined when dismissed', async () => {
    recordSession();
    const picked = pickSessionBySearch(fixture.services);
    stub.quickPicks[0].hide();
    assert.equal(await picked, undefined);
  });
});
