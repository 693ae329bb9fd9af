// `thought-explorer-mcp`: the standalone composition root. Wires the engine to the file store and serves MCP over
// stdio (default) or Streamable HTTP (--http), or runs the export/import commands. Logs go to stderr only: over
// stdio, stdout is the MCP protocol.
import './heapTuning';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenAiGateway } from '../deliberation/openAiGateway';
import { ThinkingEngine } from '../engine/engine';
import type { ModelGateway } from '../engine/modelGateway';
import { USAGE, UsageError, parseCliArguments, type CliCommand, type CommonOptions } from './options';
import { serveStdio } from '../mcp/stdio';
import { FileSessionStore } from '../storage/fileSessionStore';
import { defaultStoragePath } from '../storage/storageLocation';
import { StoreLocationError } from '../storage/storeErrors';
import { errorDetail, errorMessage } from '../engine/browserSafe/errorMessage';
import { FLUSH_ON_EXIT_MS, startTraceStreaming } from './traceStreaming';

const log = (message: string) => process.stderr.write(`[thought-explorer] ${message}\n`);

function packageVersion(): string {
  // The bundle (dist/cli.js) sits one level below package.json, this source file (src/cli/main.ts) two.
  for (const up of [['..'], ['..', '..']]) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(join(__dirname, ...up, 'package.json'), 'utf8'));
      const version = typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
      if (typeof version === 'string') return version;
    } catch {
      // Not there: try the next level.
    }
  }
  return '0.0.0';
}

function openStore(options: CommonOptions): FileSessionStore {
  return new FileSessionStore(options.storagePath ?? defaultStoragePath(), { log: (message) => log(`store: ${message}`) });
}

async function serve(
  command: Extract<CliCommand, { kind: 'serve' }>,
  version: string,
  modelGateway: ModelGateway | undefined,
): Promise<void> {
  const store = openStore(command);
  // No store watcher here: each thought checks (one stat) whether VS Code wrote feedback to its session meanwhile.
  const engine = new ThinkingEngine({ store, limits: command.limits, log, checkStoreBeforeThought: true });
  const decisionPoints = command.decisionPoints && {
    askAtDecisionPoints: true,
    ...(command.decisionPoints.timeoutSeconds !== undefined ? { timeoutMs: command.decisionPoints.timeoutSeconds * 1000 } : {}),
  };
  const streamer = await startTraceStreaming(command.otlp, engine, log, version);
  let stopping = false;
  let stopServer: () => Promise<void> = async () => {};
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down (${reason})`);
    try {
      await stopServer();
      // Bounded: a collector that does not answer costs those spans, not a hanging exit.
      await streamer?.shutdown(FLUSH_ON_EXIT_MS);
    } finally {
      store.close();
      process.exit(0);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  if (command.http) {
    const token = randomBytes(32).toString('base64url');
    // Loaded only here: the HTTP transport (and its dependencies) cost memory a stdio server does not need.
    const { startHttpServer } = await import('../mcp/httpServer.js');
    const { port, allowedOrigins, sessionIdleSeconds, stateless } = command.http;
    const sessionIdleMs = sessionIdleSeconds === undefined ? undefined : sessionIdleSeconds * 1000;
    const http = await startHttpServer({
      engine,
      port,
      token,
      log,
      version,
      allowedOrigins,
      sessionIdleMs,
      stateless,
      modelGateway,
      decisionPoints,
      tools: () => command.tools,
      replyDetail: command.replyDetail,
      telemetry: streamer,
    });
    stopServer = http.close;
    log(`Streamable HTTP MCP server on ${http.url}${stateless ? ' (stateless: no MCP sessions; send sessionId after thought 1)' : ''}`);
    log(`bearer token: ${token}`);
    if (allowedOrigins.length > 0) log(`browser origins allowed: ${allowedOrigins.join(', ')}`);
    log(`sessions in ${store.directory}`);
    return;
  }
  const stdio = await serveStdio({
    engine,
    version,
    modelGateway,
    decisionPoints,
    tools: command.tools,
    replyDetail: command.replyDetail,
    telemetry: streamer,
  });
  stopServer = stdio.close;
  log(`MCP server on stdio; sessions in ${store.directory}${modelGateway ? `; deliberate runs on ${modelGateway.description}` : ''}`);
  void stdio.closed.then(() => stop('stdin closed'));
}

async function main(argv: readonly string[]): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`thought-explorer-mcp: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  const version = packageVersion();
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${version}\n`);
      return 0;
    case 'serve': {
      // The deliberate tool's model for clients without sampling; a missing key variable stops here, before serving.
      let modelGateway: ModelGateway | undefined;
      try {
        modelGateway = command.model
          ? createOpenAiGateway({ endpoint: command.model.endpoint, model: command.model.name, apiKeyEnv: command.model.apiKeyEnv })
          : undefined;
      } catch (error) {
        process.stderr.write(`thought-explorer-mcp: ${errorMessage(error)} (--model-api-key-env)\n`);
        return 2;
      }
      await serve(command, version, modelGateway);
      return -1;
    }
    case 'export':
    case 'import': {
      const { runExport, runImport } = await import('./transfer.js');
      const store = openStore(command);
      try {
        return command.kind === 'export' ? await runExport(store, command) : runImport(store, command);
      } catch (error) {
        // Bad files and refused ids end here with their own message; no stack trace for a user's mistake.
        process.stderr.write(`thought-explorer-mcp: ${errorMessage(error)}\n`);
        return 1;
      } finally {
        store.close();
      }
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a server is running and exits on its own (signal or stdin close).
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    // A store path the user must change is their mistake, not a crash: its message alone, no stack trace.
    log(`fatal: ${error instanceof StoreLocationError ? `${error.message} (--storage-path)` : errorDetail(error)}`);
    process.exit(1);
  },
);
