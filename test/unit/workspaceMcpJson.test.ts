// "Add Thought Explorer to This Workspace's .mcp.json" and the agent-host notice: the merge keeps every other entry
// and setting, refuses a file it cannot read safely (unchanged), and the entry is the one "Copy MCP Configuration"
// writes, on the extension's store.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { addToWorkspaceMcpJson } from '../../src/extension/addToWorkspaceMcpJson';
import { AGENT_HOST_NOTICE_SHOWN_KEY, offerWorkspaceMcpJson } from '../../src/extension/agentHostNotice';
import { serverEntryFor } from '../../src/extension/mcpConfig';
import { MAX_MCP_JSON_BYTES, hasServerEntry, mergeServerIntoMcpJson } from '../../src/extension/workspaceMcpJson';
import { servicesFixture, type ServicesFixture } from './support/extensionFixtures';
import { Uri, extensionContext, resetStub, stub, workspace } from './support/vscodeStub';

/** The text of the last notification shown. */
const lastMessage = (): string => stub.messages[stub.messages.length - 1]?.message ?? '';

const ENTRY = { type: 'stdio', command: 'npx', args: ['-y', 'thought-explorer-mcp', '--storage-path', '/store'] };

describe('.mcp.json merge', () => {
  test('no file (or an empty one): a new file with only our server', () => {
    for (const existing of [undefined, '', '  \n']) {
      const merge = mergeServerIntoMcpJson(existing, 'thought-explorer', ENTRY);
      assert.deepEqual(merge, {
        kind: 'write',
        created: true,
        text: `${JSON.stringify({ mcpServers: { 'thought-explorer': ENTRY } }, null, 2)}\n`,
      });
    }
  });

  test('other servers and other settings stay, in their order and indentation', () => {
    const existing =
      '{\n    "inputs": [1],\n    "mcpServers": {\n        "memory": { "command": "npx", "args": ["m"] }\n    },\n    "x": true\n}\n';
    const merge = mergeServerIntoMcpJson(existing, 'thought-explorer', ENTRY);
    assert.equal(merge.kind, 'write');
    assert.ok(merge.kind === 'write' && !merge.created);
    const text = merge.kind === 'write' ? merge.text : '';
    assert.deepEqual(Object.keys(JSON.parse(text) as object), ['inputs', 'mcpServers', 'x']);
    assert.deepEqual(JSON.parse(text), {
      inputs: [1],
      mcpServers: { memory: { command: 'npx', args: ['m'] }, 'thought-explorer': ENTRY },
      x: true,
    });
    assert.match(text, /^\{\n {4}"inputs"/);
    // A file without mcpServers gets one; a byte order mark is no obstacle.
    const bare = mergeServerIntoMcpJson('\uFEFF{"other": 1}', 'thought-explorer', ENTRY);
    assert.deepEqual(bare.kind === 'write' && JSON.parse(bare.text), { other: 1, mcpServers: { 'thought-explorer': ENTRY } });
  });

  test('the same entry is left alone; a different one under our name is replaced only when asked', () => {
    const same = JSON.stringify({ mcpServers: { 'thought-explorer': { args: ENTRY.args, command: 'npx', type: 'stdio' } } });
    assert.deepEqual(mergeServerIntoMcpJson(same, 'thought-explorer', ENTRY), { kind: 'unchanged' });
    const other = JSON.stringify({ mcpServers: { 'thought-explorer': { command: 'node', args: ['old.js'] }, b: {} } });
    const merge = mergeServerIntoMcpJson(other, 'thought-explorer', ENTRY);
    assert.equal(merge.kind, 'differs');
    assert.deepEqual(merge.kind === 'differs' && JSON.parse(merge.text), { mcpServers: { 'thought-explorer': ENTRY, b: {} } });
  });

  test('refuses what it cannot change safely, saying why', () => {
    const refused = (text: string) => {
      const merge = mergeServerIntoMcpJson(text, 'thought-explorer', ENTRY);
      assert.equal(merge.kind, 'refused', text);
      return merge.kind === 'refused' ? merge.reason : '';
    };
    assert.match(refused('{"mcpServers": {'), /^it is not valid JSON \(.+\)$/);
    assert.match(refused('// a comment\n{}'), /not valid JSON/);
    assert.equal(refused('[]'), 'it is not a JSON object');
    assert.equal(refused('{"mcpServers": []}'), '"mcpServers" in it is not an object');
  });

  test('hasServerEntry: only a readable file with the server counts', () => {
    assert.equal(hasServerEntry('{"mcpServers":{"thought-explorer":{}}}', 'thought-explorer'), true);
    assert.equal(hasServerEntry('{"mcpServers":{"other":{}}}', 'thought-explorer'), false);
    assert.equal(hasServerEntry('{nope', 'thought-explorer'), false);
    assert.equal(hasServerEntry(undefined, 'thought-explorer'), false);
  });
});

describe('the command and the notice', () => {
  let fixture: ServicesFixture;
  let folder: string;
  let context: ReturnType<typeof extensionContext>;
  const file = () => join(folder, '.mcp.json');
  const read = () => JSON.parse(readFileSync(file(), 'utf8')) as { mcpServers: Record<string, unknown> };

  beforeEach(() => {
    resetStub();
    fixture = servicesFixture();
    folder = mkdtempSync(join(tmpdir(), 'te-mcp-json-'));
    workspace.workspaceFolders = [{ uri: Uri.file(folder), name: 'w', index: 0 }];
    context = extensionContext('/extension');
  });

  afterEach(() => {
    workspace.workspaceFolders = undefined;
    fixture.cleanup();
    rmSync(folder, { recursive: true, force: true });
  });

  test('writes the entry "Copy MCP Configuration" writes, with its type, on the extension’s store', async () => {
    stub.quickPickChoices.push(1);
    assert.equal(await addToWorkspaceMcpJson(fixture.services), 'created');
    assert.deepEqual(
      stub.quickPicksShown[0]?.items.map((item) => item.label),
      ['npx -y thought-explorer-mcp', 'node …/dist/cli.js (this extension’s copy)'],
    );
    assert.deepEqual(read().mcpServers['thought-explorer'], {
      type: 'stdio',
      ...serverEntryFor('local', '/extension', fixture.services.storageDirectory),
    });
    assert.deepEqual((read().mcpServers['thought-explorer'] as { args: string[] }).args.slice(-2), ['--storage-path', fixture.directory]);
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'local' }), 'unchanged');
  });

  test('keeps the other servers; asks before replacing a different entry of ours', async () => {
    writeFileSync(file(), JSON.stringify({ mcpServers: { memory: { command: 'm' }, 'thought-explorer': { command: 'old' } } }));
    stub.messageAnswers.push(undefined); // the person dismisses "Replace it?"
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'npx' }), 'cancelled');
    assert.deepEqual(read().mcpServers['thought-explorer'], { command: 'old' });
    stub.messageAnswers.push('Replace');
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'npx' }), 'replaced');
    assert.deepEqual(read().mcpServers, {
      memory: { command: 'm' },
      'thought-explorer': { type: 'stdio', ...serverEntryFor('npx', '/extension', fixture.services.storageDirectory) },
    });
  });

  test('a malformed or oversized file is refused with its path and reason, and left as it was', async () => {
    writeFileSync(file(), '{"mcpServers": {');
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'npx' }), 'refused');
    assert.equal(readFileSync(file(), 'utf8'), '{"mcpServers": {');
    assert.match(lastMessage(), /\.mcp\.json was not changed: it is not valid JSON \(.+\)\. Fix it or remove it/);
    writeFileSync(file(), `{"x": "${'a'.repeat(MAX_MCP_JSON_BYTES)}"}`);
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'npx' }), 'refused');
    assert.match(lastMessage(), /larger than 1048576 bytes/);
  });

  test('without a folder it says to open one; dismissing the form question changes nothing', async () => {
    assert.equal(await addToWorkspaceMcpJson(fixture.services), 'cancelled');
    assert.equal(stub.messages.length, 0);
    workspace.workspaceFolders = undefined;
    assert.equal(await addToWorkspaceMcpJson(fixture.services, { form: 'npx' }), 'cancelled');
    assert.match(lastMessage(), /Open a folder first/);
  });

  test('the notice: only with the agent host on, once per workspace, and not when the entry is there', async () => {
    const offer = () => offerWorkspaceMcpJson(context as unknown as vscode.ExtensionContext, fixture.services);
    assert.equal(await offer(), false, 'agent host off');
    stub.otherConfiguration.set('chat.agentHost.enabled', true);
    writeFileSync(file(), JSON.stringify({ mcpServers: { 'thought-explorer': { command: 'x' } } }));
    assert.equal(await offer(), false, 'entry already there');
    rmSync(file());
    stub.messageAnswers.push('Add to .mcp.json');
    stub.quickPickChoices.push(0);
    assert.equal(await offer(), true);
    assert.match(stub.messages[0]?.message ?? '', /agent host may not reach/);
    assert.equal(stub.workspaceState.get(AGENT_HOST_NOTICE_SHOWN_KEY), true);
    assert.deepEqual(read().mcpServers['thought-explorer'], {
      type: 'stdio',
      ...serverEntryFor('npx', '/extension', fixture.services.storageDirectory),
    });
    rmSync(file());
    assert.equal(await offer(), false, 'shown once per workspace');
  });
});
