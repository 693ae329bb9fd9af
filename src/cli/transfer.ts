// The CLI's export and import commands: a saved session to a file (or stdout) in any export format, and a session
// file (our lossless JSON, an OTLP/JSON trace of a session, or the sequentialthinking-plus shape) into the store. Loaded only when one of these commands runs.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ThinkingEngine } from '../engine/engine';
import type { CliCommand } from './options';
import { exportSession } from '../export/index';
import type { FileSessionStore } from '../storage/fileSessionStore';
import { readSessionFileSync } from '../storage/sessionFileReader';
import { parseSessionFile } from '../telemetry/otlpImport';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { noSuchSession } from '../engine/fieldRules';

const say = (message: string) => process.stderr.write(`thought-explorer-mcp: ${message}\n`);

/** Returns the process exit code. */
export async function runExport(store: FileSessionStore, command: Extract<CliCommand, { kind: 'export' }>): Promise<number> {
  let snapshot;
  try {
    snapshot = store.loadSession(command.sessionId);
  } catch (error) {
    // An id the store cannot hold (e.g. "../x") is refused with the rule it breaks.
    say(errorMessage(error));
    return 1;
  }
  if (!snapshot) {
    say(
      `${noSuchSession(command.sessionId)} in ${store.directory}. Sessions are listed by the thinking_sessions tool (action "list"); use --storage-path for another store.`,
    );
    return 1;
  }
  const large = snapshot.thoughts.length >= 1000;
  const text = await exportSession(snapshot, command.format, {
    // The OpenTelemetry SDK is loaded only for this format.
    otlpTrace: async (session) => (await import('../telemetry/otlpFile.js')).toOtlpJson(session),
    onProgress: large ? (progress) => say(`${progress.message} (${Math.round(progress.fraction * 100)}%)`) : undefined,
  });
  if (command.out === undefined) {
    process.stdout.write(text);
  } else {
    const path = resolve(command.out);
    writeFileSync(path, text);
    say(`wrote ${snapshot.thoughts.length} thoughts of session "${snapshot.meta.id}" as ${command.format} to ${path}`);
  }
  return 0;
}

export function runImport(store: FileSessionStore, command: Extract<CliCommand, { kind: 'import' }>): number {
  const path = resolve(command.file);
  if (!existsSync(path)) {
    say(`no file ${path}`);
    return 1;
  }
  // The command's limits (--max-thoughts, --max-thought-length) hold for an import as for thoughts sent by an agent.
  const engine = new ThinkingEngine({ store, limits: command.limits, log: say });
  let text: string;
  try {
    text = readSessionFileSync(path);
  } catch (error) {
    say(errorMessage(error));
    return 1;
  }
  const parsed = parseSessionFile(text, { limits: engine.limits });
  for (const warning of parsed.warnings) say(`warning: ${warning}`);
  const id = parsed.snapshot.meta.id;
  if (store.loadSession(id)) {
    say(`a session "${id}" already exists in ${store.directory}; nothing was imported`);
    return 1;
  }
  const meta = engine.importSession(parsed.snapshot);
  say(`imported ${parsed.format} session "${meta.id}" (${parsed.snapshot.thoughts.length} thoughts) into ${store.directory}`);
  return 0;
}
