// The walkthrough's context keys: set once when their thing happens (server started, a thought recorded, an explorer
// opened, a replay, an export), remembered, and set again on activation from what is already true; and the manifest's walkthrough: every step completes on something and shows an image that is packaged.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import type { EngineEvent } from '../../src/engine/events';
import {
  EXPLORER_OPENED_CONTEXT,
  HAS_SESSIONS_CONTEXT,
  MCP_CONFIGURATION_COPIED_CONTEXT,
  MCP_SERVER_STARTED_CONTEXT,
  SESSION_EXPORTED_CONTEXT,
  SESSION_REPLAYED_CONTEXT,
  WALKTHROUGH_ID,
  WALKTHROUGH_STATE_KEY,
  registerWalkthroughProgress,
} from '../../src/extension/walkthroughProgress';
import { EventEmitter, extensionContext, resetStub, stub } from './support/vscodeStub';
import { waitFor } from '../support/waitFor';

/** Waits (bounded) for a condition the code under test reaches asynchronously. */
const eventually = (condition: () => boolean): Promise<void> => waitFor(condition, 'the condition', 5000);

const ROOT = resolve(__dirname, '..', '..');

function contextSets(): unknown[][] {
  return stub.executed.filter((call) => call.command === 'setContext').map((call) => call.args);
}

describe('walkthrough progress', () => {
  function setup(options: { running?: boolean; storageDirectory?: string; remembered?: string[] } = {}) {
    resetStub();
    if (options.remembered) stub.globalState.set(WALKTHROUGH_STATE_KEY, options.remembered);
    const started = new EventEmitter<string>();
    const engineEvents = new EventEmitter<EngineEvent>();
    const disk = new EventEmitter<void>();
    const context = extensionContext(ROOT);
    const progress = registerWalkthroughProgress(
      context as unknown as vscode.ExtensionContext,
      {
        onEngineEvent: engineEvents.event,
        onDidChangeStoreOnDisk: disk.event,
        onDidResetEngine: new EventEmitter<void>().event,
        storageDirectory: options.storageDirectory ?? join(tmpdir(), 'thought-explorer-no-such-store'),
      } as never,
      { onDidStart: started.event, status: () => ({ enabled: true, running: options.running ?? false }) } as never,
    );
    return { started, engineEvents, disk, context, progress };
  }

  test('sets each context key once: on the first server start and on the first thought, and remembers them', async () => {
    const { started, engineEvents, context, progress } = setup();
    await progress.checked;
    assert.deepEqual(contextSets(), [], 'nothing done in a fresh profile');
    engineEvents.fire({ type: 'sessionDeleted', sessionId: 'x' });
    assert.deepEqual(contextSets(), [], 'a deletion is no session');
    started.fire('http://127.0.0.1:1/mcp');
    started.fire('http://127.0.0.1:2/mcp');
    assert.deepEqual(contextSets(), [[MCP_SERVER_STARTED_CONTEXT, true]]);
    const meta = { id: 's' } as never;
    engineEvents.fire({ type: 'sessionStarted', meta });
    engineEvents.fire({ type: 'thoughtAdded', meta, thought: {} as never });
    progress.reached(SESSION_EXPORTED_CONTEXT);
    progress.reached(SESSION_EXPORTED_CONTEXT);
    assert.deepEqual(contextSets(), [
      [MCP_SERVER_STARTED_CONTEXT, true],
      [HAS_SESSIONS_CONTEXT, true],
      [SESSION_EXPORTED_CONTEXT, true],
    ]);
    assert.deepEqual(stub.globalState.get(WALKTHROUGH_STATE_KEY), [
      MCP_SERVER_STARTED_CONTEXT,
      HAS_SESSIONS_CONTEXT,
      SESSION_EXPORTED_CONTEXT,
    ]);
    assert.equal(context.subscriptions.length, 4);
  });

  test('on activation, ticks what is already true: remembered milestones, a running server, journals in the store', async () => {
    const store = mkdtempSync(join(tmpdir(), 'thought-explorer-walkthrough-'));
    try {
      writeFileSync(join(store, '20261126T100000Z-abcd.jsonl'), '');
      const { progress } = setup({
        running: true,
        storageDirectory: store,
        remembered: [EXPLORER_OPENED_CONTEXT, SESSION_REPLAYED_CONTEXT],
      });
      await progress.checked;
      assert.deepEqual(contextSets(), [
        [EXPLORER_OPENED_CONTEXT, true],
        [SESSION_REPLAYED_CONTEXT, true],
        [MCP_SERVER_STARTED_CONTEXT, true],
        [HAS_SESSIONS_CONTEXT, true],
      ]);
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  });

  test('an empty store ticks nothing until another process writes a session into it', async () => {
    const store = mkdtempSync(join(tmpdir(), 'thought-explorer-walkthrough-'));
    try {
      writeFileSync(join(store, 'index.json'), '{}');
      const { progress, disk } = setup({ storageDirectory: store });
      await progress.checked;
      assert.deepEqual(contextSets(), []);
      writeFileSync(join(store, '20261126T100000Z-abcd.jsonl'), '');
      disk.fire();
      await eventually(() => contextSets().length > 0);
      assert.deepEqual(contextSets(), [[HAS_SESSIONS_CONTEXT, true]]);
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  });

  test('the manifest walkthrough: each step has a completion event and a packaged, theme-aware SVG with alt text', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: {
        walkthroughs: { id: string; steps: { id: string; media: { svg: string; altText: string }; completionEvents: string[] }[] }[];
      };
    };
    const walkthrough = manifest.contributes.walkthroughs.find((entry) => entry.id === WALKTHROUGH_ID);
    assert.ok(walkthrough);
    assert.equal(walkthrough.steps.length, 5);
    const events = walkthrough.steps.flatMap((step) => step.completionEvents);
    assert.ok(events.includes(`onContext:${MCP_SERVER_STARTED_CONTEXT}`));
    assert.ok(events.includes(`onContext:${HAS_SESSIONS_CONTEXT}`));
    for (const key of [EXPLORER_OPENED_CONTEXT, SESSION_REPLAYED_CONTEXT, SESSION_EXPORTED_CONTEXT, MCP_CONFIGURATION_COPIED_CONTEXT])
      assert.ok(events.includes(`onContext:${key}`), key);
    for (const step of walkthrough.steps) {
      // A context key the extension sets however the thing was done: `onCommand:` alone misses commands run from the
      // extension host (a notification's button, another extension).
      assert.ok(
        step.completionEvents.some((event) => event.startsWith('onContext:thoughtExplorer.')),
        `${step.id} completes on one of our context keys`,
      );
      assert.match(step.media.svg, /^media\/walkthrough\/[\w-]+\.svg$/, 'under media/, which the .vsix keeps');
      assert.ok(existsSync(join(ROOT, step.media.svg)), step.media.svg);
      assert.ok(step.media.altText.length > 20, step.id);
    }
  });
});
