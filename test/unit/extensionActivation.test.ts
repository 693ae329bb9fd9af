// Activation under the vscode stub: fast, lazy (no store opened, no MCP SDK loaded), and consistent with the
// manifest (every contributed command has a handler, every view a provider, every menu entry a command).
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { strategyNames } from '../../src/engine/strategies/catalog';
import { activate, deactivate, type ThoughtExplorerApi } from '../../src/extension/extension';
import { MCP_PROVIDER_ID } from '../../src/extension/mcpProvider';
import { SETTINGS_SECTION } from '../../src/extension/settings';
import { MODEL_TOOLS } from '../../src/mcp/toolSelection';
import { env, extensionContext, resetStub, stub } from './support/vscodeStub';
import { readLocalizedManifest } from './support/localizedManifest';

interface Manifest {
  activationEvents: string[];
  main: string;
  contributes: {
    commands: { command: string; title: string; category: string; icon: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string; type?: string }[]>;
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    viewsWelcome: { view: string; contents: string }[];
    mcpServerDefinitionProviders: { id: string; label: string }[];
    configuration: { properties: Record<string, { default: unknown; enum?: string[] }> };
  };
}

const root = join(__dirname, '..', '..');
// As VS Code shows it: the manifest's strings come from package.nls.json.
const manifest = readLocalizedManifest<Manifest>(root);

let folder: string;
let context: ReturnType<typeof extensionContext>;
let api: ThoughtExplorerApi;

beforeEach(() => {
  resetStub();
  folder = mkdtempSync(join(tmpdir(), 'te-activate-'));
  stub.configuration.set('storagePath', join(folder, 'not-yet-created'));
  context = extensionContext(root);
  api = activate(context as unknown as vscode.ExtensionContext);
});

afterEach(async () => {
  await deactivate();
  context.disposeAll();
  rmSync(folder, { recursive: true, force: true });
});

describe('activation', () => {
  test('is lazy: no store opened, no MCP SDK or server loaded', () => {
    // The speed target (≤ 10 ms warm, in real VS Code) is measured by `npm run bench`; this bound only catches work that
    // does not belong in activate() at all (opening the store, loading the server), on however loaded a machine.
    assert.ok(api.activationMs < 500, `activate() took ${api.activationMs.toFixed(1)} ms`);
    assert.equal(existsSync(join(folder, 'not-yet-created')), false, 'the store is opened on first use, not at activation');
    assert.equal(api.services.isEngineBuilt, false);
    const loaded = Object.keys(require.cache);
    assert.equal(
      loaded.some((path) => path.includes('@modelcontextprotocol')),
      false,
      'the MCP SDK is not loaded',
    );
    assert.equal(
      loaded.some((path) => path.endsWith('httpServer.ts') || path.endsWith('mcpServer.js')),
      false,
    );
    assert.equal(
      loaded.some((path) => /@opentelemetry[\\/](sdk-trace|exporter-trace|otlp-transformer)|otlpExporter\.ts|telemetry\.js$/.test(path)),
      false,
      'the OpenTelemetry SDK and exporters are not loaded',
    );
    assert.equal(api.mcpServerUrl(), undefined);
  });

  test('registers the MCP provider, the Sessions tree and the explorer view', () => {
    assert.deepEqual(
      stub.mcpProviders.map((registration) => registration.id),
      [MCP_PROVIDER_ID],
    );
    assert.deepEqual(
      stub.treeViews.map((view) => view.id),
      ['thoughtExplorer.sessions'],
    );
    assert.deepEqual(stub.webviewViewProviders, ['thoughtExplorer.explorer']);
    assert.equal(stub.logChannels[0]?.name, 'Thought Explorer');
    assert.ok(stub.logChannels[0].lines.some((line) => /Activated in \d+\.\d ms/.test(line)));
  });

  test('the first tree render opens the store (and starts watching it)', () => {
    assert.deepEqual(api.sessionsTree.getChildren(), []);
    assert.equal(existsSync(join(folder, 'not-yet-created')), true);
    assert.equal(api.services.isEngineBuilt, true);
  });

  test('"Copy MCP Configuration" offers npx and the bundled CLI, and copies the picked entry for this store', async () => {
    const handler = stub.commands.get('thoughtExplorer.copyMcpConfiguration');
    assert.ok(handler);
    stub.quickPickChoices.push(1);
    await handler();
    assert.deepEqual(
      stub.quickPicksShown[0]?.items.map((item) => item.label),
      ['npx -y thought-explorer-mcp', 'node …/dist/cli.js (this extension’s copy)'],
    );
    assert.deepEqual(JSON.parse(stub.clipboard), {
      mcpServers: {
        'thought-explorer': { command: 'node', args: [join(root, 'dist', 'cli.js'), '--storage-path', join(folder, 'not-yet-created')] },
      },
    });
    stub.quickPickChoices.push(0);
    await handler();
    assert.deepEqual(JSON.parse(stub.clipboard), {
      mcpServers: {
        'thought-explorer': { command: 'npx', args: ['-y', 'thought-explorer-mcp', '--storage-path', join(folder, 'not-yet-created')] },
      },
    });
    stub.clipboard = 'untouched';
    stub.quickPickChoices.push(undefined);
    assert.equal(await handler(), undefined, 'dismissing the picker copies nothing');
    assert.equal(stub.clipboard, 'untouched');
    assert.match(String(await handler('local')), /dist/, 'a form given as argument is copied without asking');
    assert.equal(stub.quickPicksShown.length, 3);
  });

  test('"Delete Session" asks first and deletes only on confirmation', async () => {
    const reply = api.engine().process('c', { thought: 'to delete', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    assert.ok(reply.ok);
    const remove = stub.commands.get('thoughtExplorer.deleteSession');
    assert.ok(remove);
    stub.messageAnswers.push(undefined);
    await remove({ sessionId: reply.reply.sessionId });
    assert.ok(api.engine().getSession(reply.reply.sessionId), 'kept when the dialog is dismissed');
    stub.messageAnswers.push('Delete');
    await remove(reply.reply.sessionId);
    assert.equal(api.engine().getSession(reply.reply.sessionId), undefined);
  });

  test('the status bar shows the live session (click opens it in the explorer) and hides when nothing is live', () => {
    const item = stub.statusBarItems.find((candidate) => candidate.id === 'thoughtExplorer.liveSession');
    assert.ok(item);
    assert.equal(item.visible, false);
    const first = api
      .engine()
      .process('c', { thought: 'a', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, strategy: 'react' });
    assert.ok(first.ok);
    assert.equal(item.visible, true);
    assert.equal(item.text, `$(lightbulb) 1/3 · react · ${first.reply.stage}`);
    assert.equal(item.command?.command, 'thoughtExplorer.openInExplorer');
    assert.deepEqual(item.command?.arguments, [first.reply.sessionId]);
    const last = api.engine().process('c', { thought: 'b', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false });
    assert.ok(last.ok);
    assert.equal(item.visible, false);
  });

  test('"Reveal in File Explorer" reveals the session journal (in an editor when the window is remote or web)', async () => {
    const reply = api.engine().process('c', { thought: 'to reveal', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    assert.ok(reply.ok);
    const reveal = stub.commands.get('thoughtExplorer.revealSessionFile');
    assert.ok(reveal);
    await reveal({ sessionId: reply.reply.sessionId });
    const revealed = stub.executed.at(-1);
    assert.equal(revealed?.command, 'revealFileInOS');
    const path = (revealed?.args[0] as { fsPath: string }).fsPath;
    assert.equal(path, join(folder, 'not-yet-created', `${reply.reply.sessionId}.jsonl`));
    assert.ok(existsSync(path));
    env.remoteName = 'ssh-remote';
    try {
      await reveal(reply.reply.sessionId);
      assert.equal(stub.executed.at(-1)?.command, 'vscode.open');
    } finally {
      env.remoteName = undefined;
    }
  });

  test('"Rename Session" renames; "Show MCP Server Status" reports a server not started yet', async () => {
    const reply = api.engine().process('c', { thought: 'old name', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    assert.ok(reply.ok);
    stub.inputBoxAnswers.push('New name');
    await stub.commands.get('thoughtExplorer.renameSession')?.({ sessionId: reply.reply.sessionId });
    assert.equal(api.engine().getSession(reply.reply.sessionId)?.meta.title, 'New name');
    const status = (await stub.commands.get('thoughtExplorer.showMcpStatus')?.()) as { running: boolean; enabled: boolean };
    assert.equal(status.running, false);
    assert.equal(status.enabled, true);
    assert.match(stub.messages.at(-1)?.message ?? '', /not started yet/);
  });
});

describe('manifest', () => {
  test('activation events are implicit except the two panel revivals and the walkthrough; main is the built bundle', () => {
    // VS Code infers events from contributions, but a webview panel has no contribution point: reviving a panel after a
    // reload needs onWebviewPanel:<viewType> listed, or the extension may not be active to restore it (panelSerializer.ts).
    // The walkthrough ticks what is already done from context keys the extension sets, so opening it activates us.
    assert.deepEqual(manifest.activationEvents, [
      'onWebviewPanel:thoughtExplorer.explorerPanel',
      'onWebviewPanel:thoughtExplorer.replayPanel',
      'onWalkthrough:thoughtExplorer.gettingStarted',
    ]);
    const panels = manifest.activationEvents.filter((event) => event.startsWith('onWebviewPanel:'));
    assert.deepEqual([...stub.webviewPanelSerializers.keys()].sort(), panels.map((event) => event.split(':')[1]).sort());
    assert.equal(manifest.main, './dist/extension.js');
  });

  test('every contributed command has a handler after activation, with the category and a codicon', () => {
    const missing = manifest.contributes.commands.map((command) => command.command).filter((id) => !stub.commands.has(id));
    assert.deepEqual(missing, []);
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'Thought Explorer', command.command);
      assert.match(command.icon, /^\$\([a-z-]+\)$/, command.command);
    }
  });

  test('every menu entry names a contributed command', () => {
    const ids = new Set(manifest.contributes.commands.map((command) => command.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) assert.ok(ids.has(entry.command), `${menu}: ${entry.command}`);
    }
  });

  test('views, welcome content, icon and MCP provider id match the code', () => {
    const views = manifest.contributes.views.thoughtExplorer;
    assert.deepEqual(
      views.map((view) => view.id),
      ['thoughtExplorer.sessions', 'thoughtExplorer.explorer'],
    );
    assert.equal(views[1].type, 'webview');
    assert.ok(existsSync(join(root, manifest.contributes.viewsContainers.activitybar[0].icon)));
    assert.equal(manifest.contributes.viewsWelcome[0].view, 'thoughtExplorer.sessions');
    assert.match(manifest.contributes.viewsWelcome[0].contents, /sequentialthinking/);
    assert.match(manifest.contributes.viewsWelcome[0].contents, /command:thoughtExplorer\.copyMcpConfiguration/);
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'Thought Explorer' }]);
  });

  test('settings: the ones the code reads, with the strategy enum from the catalog', () => {
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual(
      Object.keys(properties).sort(),
      [
        'defaultStrategy',
        'deliberation.defaultPlan',
        'deliberation.maxCycles',
        'deliberation.maxToolCalls',
        'deliberation.maxTokens',
        'deliberation.maxTotalTokens',
        'deliberation.model',
        'deliberation.timeoutMs',
        'diagrams.nodeBudget',
        'followLiveSession',
        'limits.maxSessionsInMemory',
        'limits.maxThoughtLength',
        'limits.maxThoughtsPerSession',
        'mcpServer.enabled',
        'steering.askAtDecisionPoints',
        'steering.decisionTimeoutSeconds',
        'replyDetail',
        'storagePath',
        'telemetry.includeThoughtText',
        'telemetry.otlpEndpoint',
        'tools',
      ]
        .map((key) => `${SETTINGS_SECTION}.${key}`)
        .sort(),
    );
    assert.deepEqual(properties['thoughtExplorer.defaultStrategy'].enum, strategyNames());
    // The tools a user may choose are the server's, all of them by default.
    const tools = properties['thoughtExplorer.tools'] as unknown as { items: { enum: string[] }; default: string[] };
    assert.deepEqual(tools.items.enum, [...MODEL_TOOLS]);
    assert.deepEqual(tools.default, [...MODEL_TOOLS]);
  });
});
