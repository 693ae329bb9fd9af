// The walkthrough's context keys: set once, when the MCP server first starts and when the first thought is recorded;
// and the manifest's walkthrough: every step completes on something and shows an image that is packaged.
import './support/vscodeLoader';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import type { EngineEvent } from '../../src/engine/events';
import {
  HAS_SESSIONS_CONTEXT,
  MCP_SERVER_STARTED_CONTEXT,
  WALKTHROUGH_ID,
  registerWalkthroughProgress,
} from '../../src/extension/walkthroughProgress';
import { EventEmitter, resetStub, stub } from './support/vscodeStub';

const ROOT = resolve(__dirname, '..', '..');

function contextSets(): unknown[][] {
  return stub.executed.filter((call) => call.command === 'setContext').map((call) => call.args);
}

describe('walkthrough progress', () => {
  test('sets each context key once: on the first server start and on the first thought', () => {
    resetStub();
    const started = new EventEmitter<string>();
    const engineEvents = new EventEmitter<EngineEvent>();
    const context = { subscriptions: [] as { dispose(): void }[] } as unknown as vscode.ExtensionContext;
    registerWalkthroughProgress(context, { onEngineEvent: engineEvents.event } as never, { onDidStart: started.event } as never);
    assert.deepEqual(contextSets(), []);
    engineEvents.fire({ type: 'sessionDeleted', sessionId: 'x' });
    assert.deepEqual(contextSets(), [], 'a deletion is no session');
    started.fire('http://127.0.0.1:1/mcp');
    started.fire('http://127.0.0.1:2/mcp');
    assert.deepEqual(contextSets(), [[MCP_SERVER_STARTED_CONTEXT, true]]);
    const meta = { id: 's' } as never;
    engineEvents.fire({ type: 'sessionStarted', meta });
    engineEvents.fire({ type: 'thoughtAdded', meta, thought: {} as never });
    assert.deepEqual(contextSets(), [
      [MCP_SERVER_STARTED_CONTEXT, true],
      [HAS_SESSIONS_CONTEXT, true],
    ]);
    assert.equal(context.subscriptions.length, 2);
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
    for (const step of walkthrough.steps) {
      assert.ok(step.completionEvents.length > 0, step.id);
      assert.match(step.media.svg, /^media\/walkthrough\/[\w-]+\.svg$/, 'under media/, which the .vsix keeps');
      assert.ok(existsSync(join(ROOT, step.media.svg)), step.media.svg);
      assert.ok(step.media.altText.length > 20, step.id);
    }
  });
});
