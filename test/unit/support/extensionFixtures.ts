// Builds the extension's shared services for unit tests: the real engine over a real FileSessionStore in a fresh
// temporary folder, the settings read from the vscode stub. Import './vscodeLoader' before this module.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { ExtensionServices } from '../../../src/extension/services';
import { FileSessionStore } from '../../../src/storage/fileSessionStore';
import { stub, window, workspace, Uri, type StubLogChannel } from './vscodeStub';
import { waitFor } from '../../support/waitFor';

export interface ServicesFixture {
  services: ExtensionServices;
  log: StubLogChannel;
  directory: string;
  /** Disposes the services and removes the temporary folder. */
  cleanup(): void;
}

export function servicesFixture(options: { storageDirectory?: string } = {}): ServicesFixture {
  const root = mkdtempSync(join(tmpdir(), 'te-extension-'));
  const directory = options.storageDirectory ?? join(root, 'sessions');
  if (!stub.configuration.has('storagePath')) stub.configuration.set('storagePath', directory);
  const log = window.createOutputChannel('Thought Explorer');
  const services = new ExtensionServices({
    extensionUri: Uri.file('/extension') as unknown as vscode.Uri,
    extensionPath: '/extension',
    extensionVersion: '9.9.9',
    log: log as unknown as vscode.LogOutputChannel,
    configuration: () => workspace.getConfiguration('thoughtExplorer'),
    // A tiny flush delay so a test's index writes never outlive its temporary folder.
    openStore: (dir, storeLog) => new FileSessionStore(dir, { log: storeLog, indexFlushDelayMs: 1 }),
    defaultStoragePath: () => join(root, 'default-sessions'),
    workspaceFolder: () => undefined,
  });
  return {
    services,
    log,
    directory,
    cleanup: () => {
      services.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Waits until `condition` holds (polling), failing after `timeoutMs`. */
export function eventually(condition: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  return waitFor(condition, what, timeoutMs);
}

/** A plain thought's arguments, as an agent sends them. */
export function thought(
  thoughtNumber: number,
  totalThoughts: number,
  text: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { thought: text, thoughtNumber, totalThoughts, nextThoughtNeeded: thoughtNumber < totalThoughts, ...extra };
}
